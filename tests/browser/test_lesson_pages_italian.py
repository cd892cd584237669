"""Each Italian lesson's page opened in Chromium as a student meets it: no code or notes, axe-core passes, and no
English sentence (the English pages: test_lesson_pages.py)."""

from __future__ import annotations

import pytest

from ..notebooks import LESSONS
from .pages import meet_as_a_student


@pytest.mark.browser
@pytest.mark.parametrize("name", [f"it/{lesson}" for lesson in LESSONS])
def test_every_lesson_page_as_a_student_meets_it(voila_url, browser, name):
    """Each Italian lesson as a student meets it (:func:`~.pages.meet_as_a_student`)."""
    meet_as_a_student(voila_url, browser, name)
