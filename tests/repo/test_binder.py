"""binder/ pins the app's versions and configures Voilà as safely as `dragonkit serve` does; constraints.txt pins,
with binder's, every package the tests run on."""

from __future__ import annotations

import json
import os
import re
import tomllib
from importlib.metadata import distributions, version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from traitlets.config import Config
from voila.configuration import VoilaConfiguration

from dragonkit.cli import ServeOptions, voila_command

ROOT = Path(__file__).parents[2]
BINDER = ROOT / "binder"


def _pins(path: Path = BINDER / "requirements.txt") -> dict[str, str]:
    """The ``name==version`` lines of a requirements or constraints file, and of the files it includes with ``-c``."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("-c "):
            pins |= _pins(path.parent / line.removeprefix("-c ").strip())
        elif line:
            name, _, pinned = line.partition("==")
            assert pinned, f"{line!r} is not pinned with =="
            pins[canonicalize_name(name)] = pinned
    return pins


def test_every_dependency_is_pinned_within_its_range_and_installed_as_pinned():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = _pins()
    # Binder installs the dependencies and the `lab` extra (its badge opens JupyterLab)
    lab = project["optional-dependencies"]["lab"]
    assert [Requirement(spec).name for spec in lab] == ["jupyterlab"]
    for spec in [*project["dependencies"], *lab]:
        requirement = Requirement(spec)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not pinned in binder/requirements.txt"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} is outside {requirement.specifier}"
    for spec in project["dependencies"]:
        name = canonicalize_name(Requirement(spec).name)
        # README's test command installs with constraints.txt, which includes binder's pins: the tests run on these
        assert version(name) == pins[name], f"{name} {version(name)} installed, {pins[name]} pinned"


def test_the_tests_run_on_pinned_versions_of_everything():
    """Every package installed beside the kit is pinned in constraints.txt (or binder's pins, which it includes), at
    the version installed: the test command installs with it as constraints, so a new release of pytest, say, cannot
    change what the tests run on."""
    pins = _pins(ROOT / "constraints.txt")
    assert set(_pins()) <= set(pins)
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in distributions()}
    installed.pop("dragonkit")
    for tool in ("pip", "setuptools", "wheel"):  # the virtual environment's own
        installed.pop(tool, None)
    wrong = {name: (v, pins.get(name)) for name, v in installed.items() if pins.get(name) != v}
    assert not wrong, f"installed (version, pin): {wrong}; run the README's test command in a new environment"


def test_the_readme_installs_the_tests_with_the_pins_and_links_binder():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    test_command = re.findall(r"```bash\n(.*?)```", readme, flags=re.S)[1]
    assert "-c constraints.txt" in test_command
    badges = re.findall(r"\(https://mybinder\.org/v2/gh/[^)]*\)", readme)
    assert any("urlpath=lab" in b for b in badges) and any(
        "urlpath=voila/render/notebooks/play.ipynb" in b for b in badges
    )


def test_binder_configures_voila_like_dragonkit_serve():
    config = VoilaConfiguration(config=Config(json.loads((BINDER / "voila.json").read_text(encoding="utf-8"))))
    assert config.strip_sources and not config.show_tracebacks
    assert config.file_denylist == [".*"] and config.file_allowlist == []
    assert config.allow_template_override == config.allow_theme_override == "NO"
    served = " ".join(voila_command(ServeOptions(), ROOT / "notebooks"))
    flags = (
        "strip_sources=True",
        "show_tracebacks=False",
        "file_denylist=.*",
        "template_override=NO",
        "theme_override=NO",
    )
    for flag in flags:
        assert flag in served
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK)
    assert "voila.json" in post_build.read_text(encoding="utf-8")
