"""Accessibility: an axe-core audit (axe-playwright-python) of every page in headless Chromium.

The play app is audited at the start (the setup form), mid-game with the coach shown, and at the end; the hand
trainer on a new hand, with its probabilities shown, and with its verdict; each in English and in Italian: no
critical, serious or moderate violation; asked with another template and theme in its address (``FORGED``), each
is the kit's page and asks nothing of another host.  (The ten lessons in both languages are audited as they open,
with the other checks of a lesson's page, in tests/browser/test_lesson_pages.py.)
"""

from __future__ import annotations

import pytest

from dragonkit.ui.controls import DOUBLE_CLICK_SECONDS

from ..conftest import log_events, play_until_over, wait_for_log
from .axe import _assert_clean, _audit
from .pages import FORGED, other_hosts

pytestmark = pytest.mark.browser


LABELS = {
    "en": {"start": "Start the game", "reveal": "Reveal", "coach": "Coach for"},
    "it": {"start": "Inizia la partita", "reveal": "Rivela", "coach": "Consigli per"},
}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_play_app_passes_axe_at_the_start_mid_game_and_at_the_end(voila_url, context, lang):
    labels = LABELS[lang]
    page = context.new_page()
    outside = other_hosts(page, voila_url)
    page.goto(f"{voila_url}/voila/render/play.ipynb?lang={lang}&{FORGED[lang]}", timeout=120_000)
    page.wait_for_selector(f"text={labels['start']}", timeout=120_000)
    results = {"start": _audit(page, f"start-{lang}")}

    page.fill(".dk-seed input", "2024")
    page.click(f"text={labels['start']}")
    page.wait_for_selector(".dk-board", timeout=60_000)
    page.wait_for_selector(f".dk-coach >> text={labels['coach']}", timeout=60_000)  # the human's turn, advised
    before = log_events(page)
    page.locator("button:visible", has_text=labels["reveal"]).first.click()
    wait_for_log(page, before)
    page.wait_for_timeout(2000 * DOUBLE_CLICK_SECONDS)
    page.wait_for_selector(".dk-coach", timeout=30_000)
    results["mid-game"] = _audit(page, f"mid-game-{lang}")

    play_until_over(page, (labels["reveal"],))  # the human reveals whenever asked; the bots play by themselves
    page.wait_for_selector(".dk-app svg.dk-gems-over-game", state="visible", timeout=30_000)
    results["end"] = _audit(page, f"end-{lang}")
    page.close()

    _assert_clean(results)
    assert outside == [], outside


TRAINER_LABELS = {
    "en": {"chances": "Show probabilities", "reveal": "Reveal"},
    "it": {"chances": "Mostra le probabilità", "reveal": "Rivela"},
}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_trainer_passes_axe_on_a_hand_with_its_probabilities_and_its_verdict(voila_url, context, lang):
    labels = TRAINER_LABELS[lang]
    page = context.new_page()
    outside = other_hosts(page, voila_url)
    page.goto(f"{voila_url}/voila/render/trainer.ipynb?lang={lang}&{FORGED[lang]}", timeout=120_000)
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

    _assert_clean(results)
    assert outside == [], outside
