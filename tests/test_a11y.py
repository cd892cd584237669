"""Accessibility: an axe-core audit (axe-playwright-python) of every page in headless Chromium.

The play app is audited at the start (the setup form), mid-game with the coach shown, and at the end; the hand
trainer and the nine lessons as they open; each in English and in Italian: no critical and no serious violation,
and no moderate one but those listed with their reason.
"""

from __future__ import annotations

import pytest

from dragonkit.i18n.notebooks import lessons
from dragonkit.ui.controls import DOUBLE_CLICK_SECONDS

from .conftest import ARTIFACTS
from .test_lessons_i18n import NOTEBOOKS

pytestmark = pytest.mark.browser

#: Moderate findings that cannot be fixed from the notebook, each with its reason.
KNOWN_MODERATE = {
    # "Some page content is not contained by landmarks" (7 nodes on the form, 5 mid-game, 6 at the end: the
    # language switch, the form's rows, the status line, the board, the players, the coach): Voilà's page
    # template puts the notebook's outputs in plain <div>s with no <main>, and the app cannot wrap itself in
    # one (ipywidgets' boxes render as <div>s without a role, and an HTML widget's <main> holds only its
    # own HTML, not the sibling widgets).  A Voilà template of the kit's own would fix it.
    "region",
}

LABELS = {
    "en": {"start": "Start the game", "reveal": "Reveal", "coach": "Coach for"},
    "it": {"start": "Inizia la partita", "reveal": "Rivela", "coach": "Consigli per"},
}


def _audit(page, name: str) -> dict[str, list[str]]:
    """axe-core's violations on the page, by impact: {impact: [rule id (nodes) ...]}."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page.screenshot(path=str(ARTIFACTS / f"a11y-{name}.png"))
    found: dict[str, list[str]] = {}
    for violation in axe.run(page).response["violations"]:
        found.setdefault(violation["impact"], []).append(f"{violation['id']} ({len(violation['nodes'])})")
    return found


def _events(page) -> int:
    return int(page.get_attribute(".dk-log", "data-events"))


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_play_app_passes_axe_at_the_start_mid_game_and_at_the_end(voila_url, browser, lang):
    labels = LABELS[lang]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{voila_url}/voila/render/play.ipynb?lang={lang}", timeout=120_000)
    page.wait_for_selector(f"text={labels['start']}", timeout=120_000)
    results = {"start": _audit(page, f"start-{lang}")}

    page.fill(".dk-seed input", "2024")
    page.click(f"text={labels['start']}")
    page.wait_for_selector(".dk-board", timeout=60_000)
    page.wait_for_selector(f".dk-coach >> text={labels['coach']}", timeout=60_000)  # the human's turn, advised
    before = _events(page)
    page.locator("button:visible", has_text=labels["reveal"]).first.click()
    page.wait_for_function(f"Number(document.querySelector('.dk-log').dataset.events) > {before}", timeout=30_000)
    page.wait_for_timeout(2000 * DOUBLE_CLICK_SECONDS)
    page.wait_for_selector(".dk-coach", timeout=30_000)
    results["mid-game"] = _audit(page, f"mid-game-{lang}")

    for _ in range(400):  # the human reveals whenever asked; the bots play by themselves
        if page.locator(".dk-over").count():
            break
        before = _events(page)
        button = page.locator("button:visible", has_text=labels["reveal"])
        if button.count():
            button.first.click()
            page.wait_for_timeout(2000 * DOUBLE_CLICK_SECONDS)
        page.wait_for_function(
            f"Number(document.querySelector('.dk-log').dataset.events) > {before}"
            " || document.querySelector('.dk-over') !== null",
            timeout=30_000,
        )
    page.wait_for_selector(".dk-app img", state="visible", timeout=30_000)
    results["end"] = _audit(page, f"end-{lang}")
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


#: Every lesson in both languages, and the hand trainer in both.
PAGES = [f"{folder}{path.name}" for folder in ("", "it/") for path in lessons(NOTEBOOKS)] + [
    f"trainer.ipynb?lang={lang}" for lang in ("en", "it")
]


@pytest.mark.parametrize("path", PAGES)
def test_every_lesson_and_the_trainer_pass_axe(voila_url, browser, path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{voila_url}/voila/render/{path}", timeout=180_000)
    page.wait_for_selector(".dk-exercise, .dk-app", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    page.wait_for_timeout(1000)  # the page's script has named the sliders
    found = _audit(page, path.replace("/", "-").replace("?lang=", "-"))
    page.close()
    assert {k: v for k, v in found.items() if k in ("critical", "serious")} == {}
    assert [rule for rule in found.get("moderate", []) if rule.split()[0] not in KNOWN_MODERATE] == []
