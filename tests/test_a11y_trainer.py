"""Accessibility: an axe-core audit of the hand trainer in headless Chromium, like the play app's
(tests/test_a11y.py): a new hand, the probabilities shown, and a verdict, in English and in Italian: no
critical, serious or moderate violation but the known ones."""

from __future__ import annotations

import pytest

from .test_a11y import KNOWN_MODERATE, _audit

pytestmark = pytest.mark.browser

LABELS = {
    "en": {"chances": "Show probabilities", "reveal": "Reveal"},
    "it": {"chances": "Mostra le probabilità", "reveal": "Rivela"},
}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_trainer_passes_axe_on_a_hand_with_its_probabilities_and_its_verdict(voila_url, browser, lang):
    labels = LABELS[lang]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{voila_url}/voila/render/trainer.ipynb?lang={lang}", timeout=120_000)
    page.wait_for_selector(".dk-board", timeout=120_000)
    page.wait_for_selector(f"button:has-text('{labels['reveal']}')", timeout=30_000)
    results = {"hand": _audit(page, f"trainer-hand-{lang}")}
    page.click(f"button:has-text('{labels['chances']}')")
    page.wait_for_selector(".dk-deck th >> nth=4", timeout=30_000)  # the chance columns
    results["probabilities"] = _audit(page, f"trainer-probabilities-{lang}")
    page.click(f"button:has-text('{labels['reveal']}')")
    page.wait_for_selector(".dk-verdict", timeout=30_000)
    results["verdict"] = _audit(page, f"trainer-verdict-{lang}")
    page.close()

    blocking = {
        state: {k: v for k, v in found.items() if k in ("critical", "serious")} for state, found in results.items()
    }
    assert blocking == {state: {} for state in results}, blocking
    moderate = {
        state: [rule for rule in found.get("moderate", []) if rule.split()[0] not in KNOWN_MODERATE]
        for state, found in results.items()
    }
    assert moderate == {state: [] for state in results}, moderate
