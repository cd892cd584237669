"""End to end: Voilà serves the play app (its page as served: in English, its title, its widgets and no code),
headless Chromium plays it."""

from __future__ import annotations

import pytest

from dragonkit.ui.controls import DOUBLE_CLICK_SECONDS

from ..conftest import ARTIFACTS, POLLING, click_shown, log_events, wait_for_log
from .pages import assert_app_served, assert_served_in_its_language, served

pytestmark = pytest.mark.browser


ERROR_TEXTS = ("Error displaying widget", "Traceback", "Failed to display", "Something went wrong")


def _start(page, seed: int) -> None:
    page.fill(".dk-setup input[placeholder=random]", str(seed))
    page.click("text=Start the game")
    page.wait_for_selector(".dk-board", timeout=60_000)


def test_play_app_in_chromium(voila_url, context):
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    console_errors = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    response = page.goto(f"{voila_url}/voila/render/play.ipynb", timeout=120_000)
    page.wait_for_selector("text=Start the game", timeout=120_000)
    as_served = served(response)
    assert_served_in_its_language("play.ipynb", as_served, "en", "Dragon Stripes — play")
    assert_app_served("play.ipynb", as_served)
    seed = 2024
    _start(page, seed)
    board_before = page.inner_html(".dk-board")

    actions, games_over = 0, 0
    for _ in range(200):
        if actions >= 6:
            break
        if page.locator(".dk-over").count():  # a bot ended the game: check the result, then play again
            page.wait_for_selector(".dk-app svg.dk-gems-over-game", state="visible", timeout=30_000)
            page.screenshot(path=str(ARTIFACTS / "play-app-over.png"))
            games_over += 1
            page.click("text=New game")
            seed += 1
            _start(page, seed)
            continue
        before = log_events(page)
        if not click_shown(page, ("Reveal", "Decline", "Hold")):  # a bot is moving
            wait_for_log(page, before)
            continue
        wait_for_log(page, before)
        actions += 1
        page.wait_for_timeout(2000 * DOUBLE_CLICK_SECONDS)  # faster clicks count as a double click
    page.screenshot(path=str(ARTIFACTS / "play-app.png"))

    assert actions >= 5, "the human could not play five actions"
    assert page.inner_html(".dk-board") != board_before, "the board did not change"
    body = page.inner_text("body")
    for text in ERROR_TEXTS:
        assert text not in body
    widget_errors = [e for e in console_errors if "widget" in e.lower() or "model" in e.lower()]
    assert not widget_errors, widget_errors
    assert page.locator(".dk-coach").count() or page.locator(".dk-over").count()
    page.close()


def test_language_switch_in_chromium(voila_url, context):
    """Click "Italiano": the form, the board, the buttons and the log speak Italian, and the game goes on."""
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{voila_url}/voila/render/play.ipynb", timeout=120_000)
    page.wait_for_selector("text=Start the game", timeout=120_000)
    page.click(".dk-language button:has-text('Italiano')")
    page.wait_for_selector("text=Inizia la partita", timeout=30_000)
    # the widgets are redrawn one by one after the button's label: wait for each (ipywidgets writes non-breaking spaces)
    page.wait_for_function(
        """() => {
            const seed = document.querySelector('.dk-seed input');
            const seat = document.querySelectorAll('.dk-setup select')[3].selectedOptions[0];
            return seed.placeholder === 'casuale'
                && seat && seat.textContent.replace(/\\u00a0/g, ' ') === 'bot allenatore (più gemme per turno)';
        }""",
        timeout=30_000,
        polling=POLLING,
    )
    page.fill(".dk-seed input", "2024")
    page.click("text=Inizia la partita")
    page.wait_for_selector(".dk-board", timeout=60_000)
    for text in ("TESTA", "Mazzo: restano", "tesoro del drago", "Consigli per"):
        page.wait_for_selector(f"text={text}", timeout=30_000)
    before = log_events(page)
    page.locator("button:visible", has_text="Rivela").first.click()  # the human (seat 1) moves first
    wait_for_log(page, before)
    assert " rivela " in page.inner_text(".dk-log")
    page.screenshot(path=str(ARTIFACTS / "play-app-it.png"))
    page.click(".dk-language button:has-text('English')")
    page.wait_for_selector("text=Deck:", timeout=30_000)
    assert " reveals " in page.inner_text(".dk-log") and "Mazzo" not in page.inner_text("body")
    body = page.inner_text("body")
    for text in ERROR_TEXTS:
        assert text not in body
    page.close()


def test_a_page_opened_with_lang_it_starts_in_italian(voila_url, context):
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{voila_url}/voila/render/play.ipynb?lang=it", timeout=120_000)
    page.wait_for_selector("text=Inizia la partita", timeout=120_000)
    assert page.locator(".dk-language button.mod-active").inner_text() == "Italiano"
    page.close()


#: The lines of the event list that the list's top or bottom edge cuts through (none, if the list
#: scrolls whole lines); measured on the text's own line boxes, in the page as drawn.
CUT_LINES_JS = """() => {
  const box = document.querySelector('.dk-log-lines');
  const edge = box.getBoundingClientRect();
  const cut = [];
  for (const item of box.querySelectorAll('li')) {
    const range = document.createRange();
    range.selectNodeContents(item);
    for (const line of range.getClientRects()) {
      for (const y of [edge.top, edge.bottom]) {
        if (line.top < y - 0.5 && line.bottom > y + 0.5) cut.push(item.textContent);
      }
    }
  }
  return {cut: cut, overflows: box.scrollHeight > box.clientHeight + 17};
}"""


@pytest.mark.parametrize(
    "lang, start, labels",
    [
        ("en", "Start the game", ("Reveal", "Decline", "Hold")),
        ("it", "Inizia la partita", ("Rivela", "Rinuncia", "Fermati")),
    ],
)
def test_the_event_log_cuts_no_line_in_either_language(voila_url, context, lang, start, labels):
    """Mid-game, with more events than the list shows: the list's bottom edge (and, scrolled, its top
    edge) falls between two lines of text, never through one (the teacher saw "il piatto torna al /
    tesoro." cut in half)."""
    page = context.new_page()
    page.goto(f"{voila_url}/voila/render/play.ipynb?lang={lang}", timeout=120_000)
    page.wait_for_selector(f"text={start}", timeout=120_000)
    page.fill(".dk-seed input", "2024")
    page.click(f"text={start}")
    page.wait_for_selector(".dk-board", timeout=60_000)
    for _ in range(100):
        if log_events(page) >= 25 or page.locator(".dk-over").count():
            break
        before = log_events(page)
        if click_shown(page, labels):
            page.wait_for_timeout(2000 * DOUBLE_CLICK_SECONDS)
        wait_for_log(page, before)
    assert log_events(page) >= 15
    page.click("text=" + ("bots play by themselves" if lang == "en" else "i bot giocano da soli"))  # a still log
    page.wait_for_timeout(1500)
    measured = page.evaluate(CUT_LINES_JS)
    page.screenshot(path=str(ARTIFACTS / f"play-app-log-{lang}.png"))
    assert measured["overflows"] and measured["cut"] == []
    page.eval_on_selector(".dk-log-lines", "box => box.scrollBy(0, 25)")  # a reader scrolls a little
    page.wait_for_timeout(1000)
    assert page.evaluate(CUT_LINES_JS)["cut"] == []
    page.close()
