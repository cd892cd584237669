"""The lesson maps (``notebooks/README.md`` and its Italian twin) call every lesson by the lesson's own title."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))


def _title(notebook: Path) -> str:
    """The lesson's title without its "Lesson N — " / "Lezione N — " prefix."""
    title = json.loads(notebook.read_text(encoding="utf-8"))["metadata"]["title"]
    return re.sub(r"^\w+ \d+ — ", "", title)


@pytest.mark.parametrize("folder", ["", "it"])
def test_every_link_of_the_map_carries_the_lesson_title(folder):
    readme = (NOTEBOOKS / folder / "README.md").read_text(encoding="utf-8")
    assert len(LESSONS) == 10
    for name in LESSONS:
        links = re.findall(r"\[([^\]]+)\]\(" + re.escape(name) + r"\)", readme)
        assert links, f"{folder or 'en'}: the map has no link to {name}"
        assert set(links) == {_title(NOTEBOOKS / folder / name)}, name


@pytest.mark.parametrize("folder", ["", "it"])
def test_the_maps_tree_uses_the_lesson_titles(folder):
    """The plain-text tree of prerequisites names each lesson by its title."""
    readme = (NOTEBOOKS / folder / "README.md").read_text(encoding="utf-8")
    for number, name in enumerate(LESSONS, start=1):
        title = _title(NOTEBOOKS / folder / name)
        labels = re.findall(rf"(?m)^[│├└─> ]*{number} (\S[^(\n]*?)\s*(?:\(|$)", readme)
        assert labels == [title], (name, labels)
