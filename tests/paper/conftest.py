"""The paper, printed once for the tests of this folder by the command itself (``dragonkit paper``), and the lessons
as paper reads them, to know what the PDFs must say.  The root conftest.py sends the whole folder to one worker."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from pathlib import Path

import pytest

from dragonkit.cli import main
from dragonkit.i18n.notebooks import lessons, notebooks_dir
from dragonkit.paper.lesson import Lesson, read_lesson


@dataclass(frozen=True)
class Printed:
    """What ``dragonkit paper`` did: the folder it wrote to, its exit code and what it printed."""

    folder: Path
    code: int
    output: str


@pytest.fixture(scope="session")
def paper(tmp_path_factory) -> Printed:
    """``dragonkit paper --out <a temporary folder>``, every language, run once (about half a minute on one core)."""
    folder = tmp_path_factory.mktemp("paper")
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        code = main(["paper", "--out", str(folder)])
    return Printed(folder, code, output.getvalue())


@pytest.fixture(scope="session")
def lessons_read() -> list[Lesson]:
    """Every lesson as paper reads it (:func:`~dragonkit.paper.lesson.read_lesson`)."""
    return [read_lesson(path) for path in lessons(notebooks_dir())]
