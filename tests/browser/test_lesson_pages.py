"""Each English lesson's page opened in Chromium as a student meets it: no code or notes, and axe-core passes (the
Italian pages: test_lesson_pages_italian.py, a module of their own so that each runs on a worker of its own)."""

from __future__ import annotations

import pytest

from ..notebooks import LESSONS
from .pages import meet_as_a_student


@pytest.mark.browser
@pytest.mark.parametrize("name", LESSONS)
def test_every_lesson_page_as_a_student_meets_it(voila_url, browser, name):
    """Each English lesson as a student meets it (:func:`~.pages.meet_as_a_student`)."""
    meet_as_a_student(voila_url, browser, name)
