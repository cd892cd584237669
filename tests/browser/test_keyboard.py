"""The keyboard alone, in headless Chromium: a whole game of the play app, a hand of the trainer, exercises of
lesson 3 and lesson 10's map and question are played with Tab, Shift-Tab, Enter, Space and the arrow keys
(``page.keyboard`` only, never the mouse),
every focused control shows an outline of at least 3:1 against what is behind it, and the live region
tells screen readers what the moves did.

Run with the kernels importing this checkout: ``PYTHONPATH=$PWD python -m pytest tests/browser/test_keyboard.py``.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from dragonkit.ui.controls import DOUBLE_CLICK_SECONDS

from ..conftest import ARTIFACTS, POLLING, wait_for_log

pytestmark = pytest.mark.browser

#: The focused element: its name (a button's words, a field's label), its outline and box shadow, and the
#: colour behind its outline (the first ancestor with a background; white, the page's, if none has one).
FOCUSED_JS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return {name: '', tag: e ? e.tagName : ''};
  const style = getComputedStyle(e);
  let behind = 'rgb(255, 255, 255)';
  for (let a = e.parentElement; a; a = a.parentElement) {
    const bg = getComputedStyle(a).backgroundColor;
    if (bg && bg !== 'transparent' && !bg.startsWith('rgba(0, 0, 0, 0)')) { behind = bg; break; }
  }
  const label = e.labels && e.labels.length ? e.labels[0].textContent : (e.getAttribute('aria-label') || '');
  return {
    name: (e.tagName === 'BUTTON' ? e.textContent : label).replace(/\\s+/g, ' ').trim(),
    tag: e.tagName, value: e.value === undefined ? null : e.value,
    outline_style: style.outlineStyle, outline_width: parseFloat(style.outlineWidth),
    outline_color: style.outlineColor, box_shadow: style.boxShadow, behind: behind,
  };
}"""

#: The live region's text, spaces made plain.
LIVE_JS = """() => {
  const region = document.querySelector('.dk-app .dk-announce [role=status][aria-live=polite]');
  return region === null ? null : region.textContent.replace(/\\s+/g, ' ').trim();
}"""


def _focused(page) -> dict:
    return page.evaluate(FOCUSED_JS)


def _rgb(css: str) -> tuple[float, float, float]:
    return tuple(float(v) / 255 for v in re.findall(r"[\d.]+", css)[:3])


def _contrast(a: str, b: str) -> float:
    """WCAG 2.1 contrast ratio of two CSS ``rgb(...)`` colours."""

    def luminance(css: str) -> float:
        c = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in _rgb(css)]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    dark, light = sorted((luminance(a), luminance(b)))
    return (light + 0.05) / (dark + 0.05)


def _assert_focus_visible(page, name: str) -> None:
    """The focused control is ``name`` and wears an outline (or a ring of box shadow) that stands out
    at least 3:1 from what is behind it (WCAG 1.4.11)."""
    focused = _focused(page)
    assert focused["name"] == name, focused
    if focused["outline_style"] != "none" and focused["outline_width"] >= 2:
        assert _contrast(focused["outline_color"], focused["behind"]) >= 3, focused
    else:
        assert focused["box_shadow"] not in ("", "none"), focused


def _tab_to(page, name: str, limit: int = 40) -> int:
    """Press Tab until the focused control is ``name`` (a button's words, a field's label); the presses."""
    for presses in range(limit):
        if _focused(page)["name"] == name:
            return presses
        page.keyboard.press("Tab")
    pytest.fail(f"{limit} presses of Tab never reached {name!r}; the focus is on {_focused(page)}")


def _live(page) -> str:
    return page.evaluate(LIVE_JS) or ""


def _events(page) -> int:
    return int(page.get_attribute(".dk-log", "data-events"))


def _latest_event(page) -> str:
    return " ".join(page.inner_text(".dk-log li >> nth=0").split())


def test_a_whole_game_with_the_keyboard_alone(voila_url, context):
    """Two players, a human and the coach bot: the form set with the keyboard, then the human reveals
    whenever asked and declines every takeover, pressing Enter and Space by turns, to the game's end."""
    page = context.new_page()
    page.goto(f"{voila_url}/voila/render/play.ipynb?lang=en", timeout=120_000)
    page.wait_for_selector("text=Start the game", timeout=120_000)

    _tab_to(page, "players")
    _assert_focus_visible(page, "players")
    page.keyboard.press("ArrowUp")  # 3 players -> 2: Alex (human) and Coach (the coach bot)
    page.wait_for_function("document.activeElement.value === '2'", timeout=10_000, polling=POLLING)
    page.wait_for_selector(".dk-setup .widget-hbox >> nth=3", state="hidden", timeout=10_000)  # the 3rd seat
    _tab_to(page, "seed")
    _assert_focus_visible(page, "seed")
    page.keyboard.type("2024")
    _tab_to(page, "Start the game")
    _assert_focus_visible(page, "Start the game")
    page.keyboard.press("Enter")
    page.wait_for_selector(".dk-board", timeout=60_000)
    assert page.locator(".dk-player").count() == 2

    keys, moves, announced = ("Enter", "Space"), 0, False
    for _ in range(400):
        page.wait_for_function(
            "document.querySelector('.dk-over') !== null || [...document.querySelectorAll('.dk-app button')]"
            ".some(b => b.offsetParent !== null && ['Reveal', 'Decline'].includes(b.textContent.trim()))",
            timeout=60_000,
            polling=POLLING,
        )
        if page.locator(".dk-over").count():
            break
        name = "Reveal" if page.locator("button:visible", has_text="Reveal").count() else "Decline"
        before = _events(page)
        _tab_to(page, name)
        _assert_focus_visible(page, name)
        page.keyboard.press(keys[moves % 2])
        moves += 1
        wait_for_log(page, before)
        if name == "Reveal" and not announced:  # the card revealed, said to screen readers
            page.wait_for_function(
                f"({LIVE_JS})() !== null && ({LIVE_JS})().includes('reveals')", timeout=10_000, polling=POLLING
            )
            live = _live(page)
            assert _latest_event(page) in live or page.locator(".dk-over").count(), live
            announced = True
        page.wait_for_timeout(2000 * DOUBLE_CLICK_SECONDS)  # faster presses count as a double press
    page.wait_for_selector(".dk-over", timeout=60_000)
    page.wait_for_selector(".dk-app svg.dk-gems-over-game", state="visible", timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "keyboard-game-over.png"))

    assert moves >= 3 and announced
    over = " ".join(page.inner_text(".dk-status.dk-over").split())
    page.wait_for_function(
        f"({LIVE_JS})() !== null && ({LIVE_JS})().includes({over!r})", timeout=10_000, polling=POLLING
    )
    # the player's buttons are gone with the game: the focus waits on New game, and Enter sets up another
    page.wait_for_function("document.activeElement.textContent.trim() === 'New game'", timeout=10_000, polling=POLLING)
    _assert_focus_visible(page, "New game")
    page.keyboard.press("Enter")
    page.wait_for_selector(".dk-setup", state="visible", timeout=30_000)
    page.wait_for_function(
        "document.activeElement.textContent.trim() === 'Start the game'", timeout=10_000, polling=POLLING
    )
    _assert_focus_visible(page, "Start the game")
    page.close()


def test_a_hand_of_the_trainer_with_the_keyboard_alone(voila_url, context):
    """Tab to Reveal, Space: the verdict, said to screen readers; the focus moves on to the next button;
    Shift-Tab goes back, and Enter on Next hand deals the next hand."""
    page = context.new_page()
    page.goto(f"{voila_url}/voila/render/trainer.ipynb?lang=en", timeout=120_000)
    page.wait_for_selector(".dk-board", timeout=120_000)
    page.wait_for_function(
        f"({LIVE_JS})() !== null && ({LIVE_JS})().startsWith('Hand 1: you are')", timeout=30_000, polling=POLLING
    )

    _tab_to(page, "Reveal")
    _assert_focus_visible(page, "Reveal")
    page.keyboard.press("Space")
    page.wait_for_selector(".dk-verdict", timeout=30_000)
    verdict = " ".join(page.inner_text(".dk-verdict").split())
    page.wait_for_function(
        f"({LIVE_JS})() !== null && ({LIVE_JS})().includes({verdict!r})", timeout=10_000, polling=POLLING
    )
    live = _live(page)
    assert live.startswith("Hand 1: you chose to reveal.") and "The card that followed:" in live, live
    # Reveal is disabled now: the focus is on the next button the learner needs
    page.wait_for_function(
        "['Play on', 'Next hand'].includes(document.activeElement.textContent.trim())", timeout=10_000, polling=POLLING
    )
    _assert_focus_visible(page, _focused(page)["name"])
    page.screenshot(path=str(ARTIFACTS / "keyboard-trainer-verdict.png"))

    page.keyboard.press("Shift+Tab")
    assert _focused(page)["name"] != "" and _focused(page)["tag"] != "BODY"
    _tab_to(page, "Next hand")
    _assert_focus_visible(page, "Next hand")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"({LIVE_JS})() !== null && ({LIVE_JS})().startsWith('Hand 2: you are')", timeout=30_000, polling=POLLING
    )
    page.wait_for_function(  # a new hand to decide: Reveal is enabled again
        "[...document.querySelectorAll('.dk-app button')].some(b => b.textContent.trim() === 'Reveal' && !b.disabled)",
        timeout=10_000,
        polling=POLLING,
    )
    page.close()


def test_a_lessons_exercises_with_the_keyboard_alone(voila_url, context):
    """Lesson 3: Tab to the first answer box (named for screen readers), type, Enter: judged; Tab on to Hint,
    Enter: a hint; Tab to a choice, the arrow keys to pick an option, Tab to its Check, Enter: judged."""
    page = context.new_page()
    page.goto(f"{voila_url}/voila/render/03-one-more-card.ipynb", timeout=180_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)

    _tab_to(page, "Your answer", limit=80)
    _assert_focus_visible(page, "Your answer")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    first = page.locator(".dk-exercise").first
    first.locator(".dk-message", has_text="too low").wait_for(timeout=30_000)
    page.keyboard.press("Tab")  # Check
    _assert_focus_visible(page, "Check")
    page.keyboard.press("Tab")  # Hint
    _assert_focus_visible(page, "Hint")
    page.keyboard.press("Enter")
    first.locator(".dk-hints li").first.wait_for(timeout=30_000)

    for _ in range(120):  # on to the first choice: a radio button of the options
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.type === 'radio'"):
            break
    else:
        pytest.fail("Tab never reached a choice's options")
    choice = page.locator(".dk-exercise:has(input[type=radio])").first
    page.keyboard.press("ArrowDown")  # the second option: a rich player's penalty grows (the right one)
    page.wait_for_function("document.activeElement.checked === true", timeout=10_000, polling=POLLING)
    _tab_to(page, "Check")
    _assert_focus_visible(page, "Check")
    page.keyboard.press("Enter")
    choice.locator(".dk-message").wait_for(timeout=30_000)
    assert choice.locator(".dk-message").inner_text().strip() != ""
    page.close()


def test_lesson_10_with_the_keyboard_alone(voila_url, context):
    """Lesson 10: Tab to the two coaches' map and its knight position slider (named for screen readers), the arrow
    keys move the situation and the coaches' numbers follow; Tab on to the question on the situation, the arrow keys
    pick the option the analysis gives, Tab to Check, Enter: right."""
    from dragonkit.lessons.wins import EXERCISE
    from dragonkit.rules import Ruleset
    from dragonkit.topics.gems_or_wins import AGREEMENTS, agreement, situation, typical_deck

    rules = Ruleset.preset("dragon-stripes")
    deck = typical_deck(rules, EXERCISE.stage, EXERCISE.cards)
    state = situation(rules, deck, EXERCISE.stage, EXERCISE.gems, EXERCISE.position, EXERCISE.pot)
    right = AGREEMENTS.index(agreement(state))
    page = context.new_page()
    page.goto(f"{voila_url}/voila/render/10-gems-or-wins.ipynb", timeout=180_000)
    page.wait_for_selector(".dk-exercise", timeout=180_000)
    page.wait_for_load_state("networkidle", timeout=60_000)
    page.wait_for_selector('.noUi-handle[aria-label="Knight position"]', timeout=60_000)  # the page's script named it

    _tab_to(page, "Knight position", limit=200)
    _assert_focus_visible(page, "Knight position")
    readout = page.locator(".dk-status", has_text="Knight on stripe")
    assert f"Knight on stripe {EXERCISE.position}," in readout.inner_text()
    page.keyboard.press("ArrowRight")
    page.locator(".dk-status", has_text=f"Knight on stripe {EXERCISE.position + 1},").wait_for(timeout=60_000)
    page.keyboard.press("ArrowLeft")
    page.locator(".dk-status", has_text=f"Knight on stripe {EXERCISE.position},").wait_for(timeout=60_000)

    for _ in range(60):  # on to the question on the situation: the first choice after the map
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.type === 'radio'"):
            break
    else:
        pytest.fail("Tab never reached a choice's options")
    choice = page.locator(".dk-exercise", has_text="What do the two coaches advise?")
    assert choice.locator("input[type=radio]").first.evaluate("e => e === document.activeElement")
    if right == 0:
        page.keyboard.press("Space")
    for _ in range(right):
        page.keyboard.press("ArrowDown")
    page.wait_for_function("document.activeElement.checked === true", timeout=10_000, polling=POLLING)
    _tab_to(page, "Check")
    _assert_focus_visible(page, "Check")
    page.keyboard.press("Enter")
    # a busy kernel may get the click before the choice (ipywidgets holds a widget's next state back until the
    # kernel has answered its last one, but sends a click at once): the choice landing within a few seconds is
    # judged instead; later than that (a starved machine), Check is pressed again, as a student would
    right = choice.locator(".dk-message", has_text="Right!")
    for _ in range(3):
        with contextlib.suppress(PlaywrightTimeoutError):
            right.wait_for(timeout=20_000)
            break
        _assert_focus_visible(page, "Check")
        page.keyboard.press("Enter")
    else:
        pytest.fail(f"never right: {choice.locator('.dk-message').inner_text()!r}")
    page.close()
