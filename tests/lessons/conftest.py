"""Every lesson test closes the lesson widgets it made (the language is put back for every test: tests/conftest.py)."""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _closed_after(lesson_widgets_closed):
    """Every test of the lessons closes the lesson widgets it made (:func:`tests.conftest.lesson_widgets_closed`)."""
