"""The notebooks as files, for the tests of their shape (tests/lessons/test_notebooks.py) and of their pages
served by Voilà (tests/browser/): the lessons and the apps, their cells, and what a page must not show of them."""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOKS = Path(__file__).parents[1] / "notebooks"


LESSONS = [
    "01-play-and-observe",
    "02-the-next-card",
    "03-one-more-card",
    "04-absorbing-chain",
    "05-optimal-stopping",
    "06-risk",
    "07-takeover-market",
    "08-simulation",
    "09-editions",
    "10-gems-or-wins",
]


APPS = ["play", "trainer"]

#: The teacher's page: the dashboard, which the server opens with the teacher's key alone
#: (tests/browser/test_dashboard.py).
TEACHER = ["dashboard"]


#: What a lesson calls its learning goals, by the folder of its language.
GOALS = {"": "learning goals", "it/": "obiettivi di apprendimento"}


def _cells(name: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _shown_code(cells: list[dict]) -> list[int]:
    """The code cells a lesson shows in JupyterLab (their source not hidden), by index: code to read and run."""
    return [
        i
        for i, cell in enumerate(cells)
        if cell["cell_type"] == "code" and not cell["metadata"].get("jupyter", {}).get("source_hidden")
    ]


def _assert_no_code_or_notes(name: str, page: str) -> None:
    """Nothing of the notebook's code, and no teacher's notes, in a page's HTML."""
    assert "There was an error when executing cell" not in page
    assert "Traceback" not in page and "Error displaying widget" not in page
    for cell in _cells(name):
        source = _source(cell).strip()
        if cell["cell_type"] == "code" and len(source) > 12:
            assert source not in page, f"{name}: code shown in the page"
    assert "Teacher's notes" not in page and "TeacherNotes" not in page and "<dragonkit." not in page
    assert "Note per l'insegnante" not in page
