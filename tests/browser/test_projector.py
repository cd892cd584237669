"""The play app on a class's projector, in headless Chromium at 1920 x 1080: ``?view=projector`` (with ``?lang=it``
too) draws it large and plays one step at a time.

The play app's page is served by a preheated kernel (the test server's pool, as ``dragonkit serve`` runs it), which
learns the view from its visitor's request. The text is measured as the board draws it (at least 28 px); the game is
played with the keyboard and the mouse: the coach appears only after "Show the coach" and hides at the next move, and
each bot's move waits for "Next bot move". axe-core audits the page at the start, mid-game with the coach shown, and at
the end, in English and in Italian. Screenshots: ``tests/artifacts/projector-play*.png``.
"""

from __future__ import annotations

import pytest

from dragonkit.ui.controls import DOUBLE_CLICK_SECONDS

from ..conftest import log_events, play_until_over, wait_for_log
from .axe import _assert_clean, _audit
from .projector import BOARD, LARGE, assert_on_the_board, drawn_size

pytestmark = pytest.mark.browser

LABELS = {
    "en": {
        "start": "Start the game",
        "reveal": "Reveal",
        "hold": "Hold",
        "decline": "Decline",
        "show": "Show the coach",
        "next": "Next bot move",
        "coach": "Coach for",
    },
    "it": {
        "start": "Inizia la partita",
        "reveal": "Rivela",
        "hold": "Fermati",
        "decline": "Rinuncia",
        "show": "Mostra l'allenatore",
        "next": "Prossima mossa del bot",
        "coach": "Consigli per",
    },
}


def _open(context, voila_url: str, lang: str):
    """The play app at 1920 x 1080, opened with ``?lang=<lang>&view=projector``, once its preheated kernel has learnt
    the view and the language from the request."""
    page = context.new_page()
    page.set_viewport_size(BOARD)
    page.goto(f"{voila_url}/voila/render/play.ipynb?lang={lang}&view=projector", timeout=120_000)
    page.wait_for_selector(".dk-app.dk-projector", timeout=120_000)
    page.wait_for_selector(f"text={LABELS[lang]['start']}", timeout=60_000)
    return page


def _start(page, lang: str) -> None:
    """Alex (a human), the coach bot and the threshold bot, seeded: Alex begins."""
    page.fill(".dk-seed input", "2024")
    page.click(f"text={LABELS[lang]['start']}")
    page.wait_for_selector(".dk-move", timeout=60_000)


def _moved(page, before: int) -> None:
    """Wait for the log to hold more events than ``before``; then give the page time to be drawn (and a second click
    time not to count as a double click)."""
    wait_for_log(page, before)
    page.wait_for_timeout(2000 * DOUBLE_CLICK_SECONDS)


def _focused(page) -> str:
    return page.evaluate("() => document.activeElement.textContent.trim()")


def _button(page, label: str):
    """The button shown whose words are ``label``."""
    return page.locator("button:visible", has_text=label)


def _pressed(page, lang: str) -> str:
    """Whether "Show the coach" says it is pressed (the page's script writes ``aria-pressed``)."""
    return _button(page, LABELS[lang]["show"]).get_attribute("aria-pressed")


def test_the_play_app_on_the_projector_is_large_and_plays_one_step_at_a_time(voila_url, context):
    labels = LABELS["en"]
    page = _open(context, voila_url, "en")
    _start(page, "en")
    assert page.locator(".dk-board").bounding_box()["width"] >= 1000  # the board twice as large as on a screen
    reveal = _button(page, labels["reveal"])
    assert reveal.bounding_box()["height"] >= 50  # a large target for a finger on the whiteboard
    for text in (".dk-status", ".dk-move p", ".dk-players td", ".dk-log li"):
        assert drawn_size(page.locator(text)) >= LARGE, text
    assert drawn_size(reveal) >= LARGE
    assert page.locator(".dk-coach").count() == 0 and _pressed(page, "en") == "false"
    assert not page.locator("text=bots play by themselves").is_visible()

    # Alex reveals, with the keyboard: the card and its effect beside the board; the coach still waits
    assert _focused(page) == labels["reveal"]
    before = log_events(page)
    page.keyboard.press("Enter")
    _moved(page, before)
    card = page.locator(".dk-move .dk-card")
    assert card.is_visible() and drawn_size(card) >= 2 * LARGE
    assert f"Alex reveals {card.inner_text()}." in page.inner_text(".dk-move")
    assert page.locator(".dk-coach").count() == 0

    # the teacher shows the coach: a click
    _button(page, labels["show"]).click()
    page.wait_for_selector(f".dk-coach >> text={labels['coach']} Alex", timeout=30_000)
    page.wait_for_selector(".dk-coach .dk-ci", timeout=60_000)  # its estimate of the chances made (three players)
    assert _pressed(page, "en") == "true" and drawn_size(page.locator(".dk-coach td")) >= LARGE
    assert_on_the_board(page, "projector-play")

    # Alex holds: the coach hides again, and the bots wait for Next, one move a click
    before = log_events(page)
    _button(page, labels["hold"]).click()
    _moved(page, before)
    assert page.locator(".dk-coach").count() == 0 and _pressed(page, "en") == "false"
    for _ in range(30):
        if _focused(page) != labels["next"]:
            break
        waiting = log_events(page)
        page.wait_for_timeout(2500)  # more than twice the bots' delay when they play by themselves
        assert log_events(page) == waiting, "a bot moved without a click on Next"
        page.keyboard.press("Enter")
        _moved(page, waiting)
        moved = page.inner_text(".dk-move p:not(.dk-move-card)")
        assert moved.startswith(("Coach ", "Tess ")), moved  # the bot's own move, told beside the board
        assert page.locator(".dk-coach").count() == 0
    assert _focused(page) in (labels["reveal"], "New game")  # Alex's turn again, or the game is over
    body = page.inner_text("body")
    assert not any(error in body for error in ("Error displaying widget", "Traceback", "Something went wrong"))
    assert_on_the_board(page, "projector-play-bots")
    page.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_play_app_on_the_projector_passes_axe_at_the_start_mid_game_and_at_the_end(voila_url, context, lang):
    labels = LABELS[lang]
    page = _open(context, voila_url, lang)
    assert page.locator(".dk-language button.mod-active").inner_text() == {"en": "English", "it": "Italiano"}[lang]
    results = {"start": _audit(page, f"projector-start-{lang}")}
    assert drawn_size(page.locator(".dk-setup button:visible")) >= LARGE

    _start(page, lang)
    before = log_events(page)
    _button(page, labels["reveal"]).click()
    _moved(page, before)
    _button(page, labels["show"]).click()
    page.wait_for_selector(".dk-coach .dk-ci", timeout=60_000)  # its estimate made: the kernel is free for a click
    assert_on_the_board(page, f"projector-play-coach-{lang}")
    results["mid-game"] = _audit(page, f"projector-mid-game-{lang}")

    # Alex reveals whenever asked and declines every takeover; Next for every bot move
    play_until_over(page, (labels["reveal"], labels["decline"], labels["next"]))
    page.wait_for_selector(".dk-app svg.dk-gems-over-game", state="visible", timeout=30_000)
    assert_on_the_board(page, f"projector-play-over-{lang}")
    results["end"] = _audit(page, f"projector-end-{lang}")
    page.close()

    _assert_clean(results)
