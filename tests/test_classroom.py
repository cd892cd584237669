"""A small classroom through `dragonkit serve`: several visitors at once, no errors,
and the kernels are culled once they leave (the 40-visitor run is
`python benchmarks/classroom.py`)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

_spec = importlib.util.spec_from_file_location("classroom", Path(__file__).parents[1] / "benchmarks" / "classroom.py")
classroom = importlib.util.module_from_spec(_spec)
sys.modules["classroom"] = classroom  # dataclasses look their module up there
_spec.loader.exec_module(classroom)


def test_a_small_classroom_plays_without_errors_and_is_culled():
    report = classroom.run(visitors=3, actions=10, pool=1, cull_idle=20, timeout_s=180, ramp=2)
    assert report["errors"] == []
    assert report["actions_played"] == 30
    assert report["kernels_peak"] >= 3
    assert report["kernels_after"] <= report["kernels_idle"]  # every visitor's kernel was culled
    assert report["kernel_mib_after"] <= report["kernel_mib_idle"] * 1.2 + 50  # and the memory came back


def test_serve_refuses_an_open_address_without_a_token():
    result = subprocess.run([sys.executable, "-m", "dragonkit.cli", "serve", "--ip", "0.0.0.0", "--no-browser"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "without --token" in result.stderr
    result = subprocess.run([sys.executable, "-m", "dragonkit.cli", "serve", "--token", "short"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "8 to 128" in result.stderr
