"""The README's examples and commands stay true."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_readme_python_examples_run():
    code = "\n".join(re.findall(r"```python\n(.*?)```", README, flags=re.S))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]


def test_readme_starts_with_the_two_commands():
    commands = re.findall(r"```bash\n(.*?)```", README, flags=re.S)
    assert "dragonkit serve" in commands[0] and "pip install" in commands[0]
    assert "pytest" in commands[1] and 'uv pip install --python python --compile-bytecode -e ".[test]"' in commands[1]
    ci = (Path(__file__).parents[2] / ".ci" / "run").read_text(encoding="utf-8")
    assert "blocks[1]" in ci  # CI runs exactly the README's second command


def test_the_modules_table_names_every_module_of_the_package_and_no_other():
    """Each module and package of ``dragonkit/`` has its row in the README's table of modules."""
    package = Path(__file__).parents[2] / "dragonkit"
    modules = {path.stem for path in package.glob("*.py")} | {
        path.name for path in package.iterdir() if (path / "__init__.py").is_file()
    }
    rows = re.findall(r"^\| ((?:`dragonkit\.\w+`(?:, )?)+) \|", README, flags=re.M)
    named = set(re.findall(r"`dragonkit\.(\w+)`", " ".join(rows)))
    assert named == {name for name in modules if not name.startswith("_")}
