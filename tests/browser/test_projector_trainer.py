"""The hand trainer on a class's projector, in headless Chromium at 1920 x 1080: ``?view=projector`` draws it large,
its situation and its table of the deck beside the board; a hand goes one step at a time as it does on a screen
(the hand, its probabilities on a click, the choice, then the verdict). axe-core audits the hand, its probabilities
and its verdict, in English and in Italian. Screenshots: ``tests/artifacts/projector-trainer*.png``."""

from __future__ import annotations

import pytest

from .axe import _assert_clean, _audit
from .projector import BOARD, LARGE, assert_on_the_board, drawn_size

pytestmark = pytest.mark.browser

LABELS = {
    "en": {"chances": "Show probabilities", "reveal": "Reveal"},
    "it": {"chances": "Mostra le probabilità", "reveal": "Rivela"},
}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_trainer_on_the_projector_is_large_and_passes_axe(voila_url, context, lang):
    labels = LABELS[lang]
    page = context.new_page()
    page.set_viewport_size(BOARD)
    page.goto(f"{voila_url}/voila/render/trainer.ipynb?lang={lang}&view=projector", timeout=120_000)
    page.wait_for_selector(".dk-trainer.dk-projector .dk-board", timeout=120_000)
    for text in (".dk-status", ".dk-values td", "button:visible"):
        assert drawn_size(page.locator(text)) >= LARGE, text
    results = {"hand": _audit(page, f"projector-trainer-hand-{lang}")}

    page.locator("button:visible", has_text=labels["chances"]).click()
    page.wait_for_selector(".dk-deck th >> nth=4", timeout=30_000)  # the chance columns
    assert drawn_size(page.locator(".dk-deck td")) >= LARGE
    assert_on_the_board(page, f"projector-trainer{'' if lang == 'en' else '-it'}")
    results["probabilities"] = _audit(page, f"projector-trainer-probabilities-{lang}")

    page.locator("button:visible", has_text=labels["reveal"]).click()
    page.wait_for_selector(".dk-verdict", timeout=30_000)
    assert drawn_size(page.locator(".dk-verdict-values td")) >= LARGE
    assert_on_the_board(page, f"projector-trainer-verdict-{lang}")
    results["verdict"] = _audit(page, f"projector-trainer-verdict-{lang}")
    page.close()

    _assert_clean(results)
