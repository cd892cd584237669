"""A class in Chromium, as the issue of the class's record asks: three students, each in a browser of their own (a
context: their own cookies), join with a nickname, play the play app and answer a lesson's exercise, while a fourth
page, the teacher's, watches the dashboard and sees their decisions and answers arrive; a student's page cannot open
the dashboard. The record is the server's SQLite file, read back at the end: every click is in it."""

from __future__ import annotations

import time

import pytest

from dragonkit.bots import bot_seed
from dragonkit.cli import notebooks_dir
from dragonkit.engine import Action, Game
from dragonkit.record.reading import attempts, decisions
from dragonkit.record.store import connect
from dragonkit.ui.controls import DOUBLE_CLICK_SECONDS
from dragonkit.ui.setup import SetupForm

from ..conftest import ARTIFACTS, POLLING, _worker_log, click_shown, log_events, voila_server, wait_for_log
from ..room_decks import first_seed
from .pages import ERROR_TEXTS

pytestmark = pytest.mark.browser

TOKEN = "class-token-1234"
KEY = "teachers-key-1234"
CLASS = "5C"
STUDENTS = ("Ana", "Bo", "Cy")
#: The decisions each student makes.
DECISIONS = 4
#: The buttons a student presses, by turns: the first of them that shows.
CLICKS = (("Reveal", "Decline"), ("Hold", "Decline", "Reveal"))


def _decks(count: int) -> list[int]:
    """``count`` seeds (:mod:`tests.room_decks`) whose games, set up as the form's default (the student, the coach bot
    and the threshold bot) and played as :func:`_decide` plays them, last :data:`DECISIONS` of the student's decisions
    and give them at least one choice (a random deck may end each of their turns at its first card, a compulsory reveal:
    such a student gives up nothing, and the dashboard rightly leaves them out of its expected gems given up)."""
    config = SetupForm().config()
    names = [seat.name for seat in config.seats]

    def wanted(seed: int) -> bool:
        game = Game(names, config.rules, seed=seed)
        bots = [seat.make_bot(bot_seed(seed, number)) for number, seat in enumerate(config.seats)]
        made, chose = 0, False
        while made < DECISIONS and not game.is_over:
            bot, legal = bots[game.to_move], game.legal_actions()
            if bot is not None:
                game.apply(bot.choose(game), by=game.to_move)
                continue
            chose |= len(legal) > 1
            pressed = next(Action(label.lower()) for label in CLICKS[made % 2] if Action(label.lower()) in legal)
            game.apply(pressed, by=game.to_move)
            made += 1
        return made == DECISIONS and chose

    seeds: list[int] = []
    for _ in range(count):
        seeds.append(first_seed(lambda seed: seed not in seeds and wanted(seed)))
    return seeds


@pytest.fixture(scope="module")
def classroom(tmp_path_factory, race_tables):
    """``dragonkit serve`` for a class: a token, a teacher's key and the record in an SQLite file; its base URL and
    the record's URL."""
    record = f"sqlite:///{tmp_path_factory.mktemp('class') / 'record.sqlite'}"
    options = {"token": TOKEN, "teacher_key": KEY, "record": record, "class_name": CLASS}
    with voila_server(notebooks_dir(), _worker_log("voila-class.log"), **options) as url:
        yield url, record


def _join(browser, url: str, nickname: str):
    """A student's own browser: the play app's address sends them to the join page; their nickname, then the app."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{url}/voila/render/play.ipynb?token={TOKEN}", timeout=180_000)
    page.wait_for_selector("#nickname", timeout=60_000)
    page.fill("#nickname", nickname)
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Start the game", timeout=180_000)
    return context, page


def _decide(pages: list, seeds: list[int], count: int) -> None:
    """Each page starts a game of its deck (the setup's default: the student against two bots), then the students
    make ``count`` decisions each, pressing :data:`CLICKS` by turns, side by side as a class does: one page's click,
    then the next page's, while each page's bots play (none waits for another's bots)."""
    for page, seed in zip(pages, seeds, strict=True):
        page.fill(".dk-seed input", str(seed))
        page.click("text=Start the game")
    for page in pages:
        page.wait_for_selector(".dk-log", timeout=60_000)
    made, clicked = [0] * len(pages), [0.0] * len(pages)
    deadline = time.monotonic() + 180
    while min(made) < count:
        assert time.monotonic() < deadline, f"{made} decisions made in 180 s, not {count} each"
        pages[0].wait_for_timeout(100)  # the bots' moves, and the next turn's buttons
        for number, (page, seed) in enumerate(zip(pages, seeds, strict=True)):
            if made[number] == count or time.monotonic() - clicked[number] < 2 * DOUBLE_CLICK_SECONDS:
                continue  # done, or the next click would be the second half of a double one
            assert not page.locator(".dk-over").count(), f"the game of deck {seed} ended after {made[number]}"
            before = log_events(page)
            if click_shown(page, CLICKS[made[number] % 2]):
                made[number], clicked[number] = made[number] + 1, time.monotonic()
                wait_for_log(page, before)


def _answer(context, url: str) -> None:
    """The student opens lesson 2 (their nickname goes with them: the join page's cookie) and answers an exercise
    wrong."""
    page = context.new_page()
    page.goto(f"{url}/voila/render/02-the-next-card.ipynb?token={TOKEN}", timeout=180_000)
    exercise = page.locator(".dk-exercise:has(input[type=text])").first
    exercise.wait_for(timeout=180_000)
    exercise.scroll_into_view_if_needed()
    box = exercise.locator("input[type=text]")
    box.fill("999999")
    box.press("Enter")
    exercise.locator(".dk-message", has_text="too high").wait_for(timeout=30_000)


def test_three_students_play_while_the_teacher_watches_the_dashboard(classroom, browser):
    url, record = classroom
    teacher = browser.new_context(viewport={"width": 1280, "height": 900})
    dashboard = teacher.new_page()
    dashboard.goto(f"{url}/voila/render/dashboard.ipynb?token={TOKEN}&key={KEY}", timeout=180_000)
    dashboard.wait_for_function(
        "document.querySelectorAll('.dk-dashboard h2').length == 7", timeout=180_000, polling=POLLING
    )
    assert "key=" not in dashboard.url  # the key left the address bar (its cookie opens the page)

    students = [_join(browser, url, nickname) for nickname in STUDENTS]
    _decide([page for _context, page in students], _decks(len(STUDENTS)), DECISIONS)
    _answer(students[2][0], url)

    # the teacher's page updates itself: the three students, their decisions and Cy's wrong answer arrive
    dashboard.wait_for_function(  # on the kit now, and (after the section's heading) their decisions' gems given up
        "names => { const text = document.querySelector('.dk-dashboard').innerText;"
        " const gems = text.slice(text.indexOf('Expected gems given up'));"
        " return names.every(n => text.includes(n) && gems.includes(n)); }",
        arg=list(STUDENTS),
        timeout=60_000,
        polling=POLLING,
    )
    dashboard.wait_for_function(
        "() => document.querySelector('.dk-dashboard').innerText.includes('999999')", timeout=60_000, polling=POLLING
    )
    assert "No decision between revealing and holding yet" not in dashboard.inner_text(".dk-dashboard")
    text = dashboard.inner_text("body")
    assert not any(error in text for error in ERROR_TEXTS)
    tall = dashboard.eval_on_selector(".dk-dashboard", "e => Math.ceil(e.getBoundingClientRect().height) + 80")
    dashboard.set_viewport_size({"width": 1280, "height": tall})
    dashboard.wait_for_timeout(500)
    dashboard.screenshot(path=str(ARTIFACTS / "class-dashboard.png"))

    # a student's page, with the students' token and their nickname, cannot open the dashboard
    context, page = students[0]
    response = page.goto(f"{url}/voila/render/dashboard.ipynb?token={TOKEN}", timeout=60_000)
    assert response is not None and response.status == 403
    assert "teacher's" in page.inner_text("h1") and not page.locator(".dk-dashboard").count()
    wrong = page.goto(f"{url}/voila/render/dashboard.ipynb?token={TOKEN}&key=not-the-key", timeout=60_000)
    assert wrong is not None and wrong.status == 403

    # every decision and the answer are in the record, under their nicknames and their class
    engine = connect(record)
    try:
        made = decisions(engine, CLASS)
        answered = attempts(engine, CLASS)
    finally:
        engine.dispose()
    assert made.groupby("nickname").size().to_dict() == dict.fromkeys(STUDENTS, DECISIONS)
    assert set(made["app"]) == {"play"} and set(made["action"]) <= {"reveal", "hold", "decline"}
    assert answered[["nickname", "lesson", "answer", "correct"]].values.tolist() == [
        ["Cy", "02-the-next-card", "999999", False]
    ]
    for context, _page in students:
        context.close()
    teacher.close()
