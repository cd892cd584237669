"""A lesson's page printed from Chromium comes out whole and clean (dragonkit/style.py, ``@media print``): every
screen of it on paper, its exercises included, without the language links and the buttons."""

from __future__ import annotations

import pytest

from ..paper.pdfs import plain, text


@pytest.mark.browser
def test_a_printed_lesson_page_is_whole_and_has_nothing_only_a_screen_can_use(voila_url, context, tmp_path):
    page = context.new_page()
    page.goto(f"{voila_url}/voila/render/03-one-more-card.ipynb", timeout=180_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    questions = [plain(question) for question in page.locator(".dk-question").all_inner_texts()]
    path = tmp_path / "lesson.pdf"
    page.pdf(path=str(path), format="A4")  # as the browser's Print does: print media, no backgrounds
    page.close()
    printed = text(path)
    assert len(questions) >= 5
    for question in questions:  # the last exercise too: Voilà's window-high panel grew to hold them all
        assert question in printed
    for screen_only in ("Italiano", "Check", "Hint", "The figure's numbers", "¶"):
        assert screen_only not in printed
