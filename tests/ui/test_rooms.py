"""The play app's rooms (dragonkit/ui/room_controller.py, dragonkit/ui/rooms.py): pages that share a table through the
class's record, each in its own app as each student's kernel has its own; here in one process, each app reading the
room when the test says (a page does it every POLL seconds, in a thread)."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import timedelta

import pytest
from ipywidgets import DOMWidget
from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from dragonkit import Action, Game, Ruleset, i18n
from dragonkit.record import rooms, session
from dragonkit.record.reading import games
from dragonkit.record.rooms import MoveBy, RoomCoach, RoomStatus
from dragonkit.record.schema import RoomSeat
from dragonkit.record.store import connect
from dragonkit.topics import room_table
from dragonkit.ui import PlayApp
from dragonkit.ui.dashboard import DashboardApp
from dragonkit.ui.rooms import render_lobby, spelled

from ..room_decks import first_seed, give_deck


@pytest.fixture
def as_student(recording, monkeypatch):
    """Open pages as students: ``as_student("Bo", room="K7MQX")`` is the app of Bo's new page."""
    apps = []

    def page(name: str, room: str | None = None) -> PlayApp:
        monkeypatch.setenv("DRAGONKIT_NICKNAME", name)
        if room is None:
            monkeypatch.delenv("QUERY_STRING", raising=False)
        else:
            monkeypatch.setenv("QUERY_STRING", f"room={room}")
        app = PlayApp(bot_delay=0.0)
        app.widget._view_count = 1  # as a browser's widget manager says once it has drawn the page
        apps.append(app)
        return app

    yield page
    for app in apps:
        app.close()


def _open(app: PlayApp, players: int = 4, coach: RoomCoach = RoomCoach.ON, edition: str = "mini") -> str:
    app.setup_form.n_players.value = players
    app.setup_form.preset.value = edition
    app.rooms.form.coach.value = coach
    app.rooms.form.open_button.click()
    assert app.table is not None, app.message.value + app.setup_form.message.value
    return app.table.room.code


def _read(*apps: PlayApp) -> None:
    for app in apps:
        app.rooms.read_room()


def _choice(app: PlayApp) -> Action:
    legal = app.game.legal_actions()
    if Action.DECLINE in legal:
        return Action.DECLINE
    return Action.HOLD if Action.HOLD in legal and app.game.pot >= 4 else Action.REVEAL


def _play_to_the_end(pages: dict[int, PlayApp], moves: int = 3000) -> None:
    first = next(iter(pages.values()))
    for _ in range(moves):
        _read(*pages.values())
        if first.game.is_over:
            return
        mover = first.game.to_move
        if mover in pages:
            app = pages[mover]
            app.act(_choice(app))  # (a click on the same button within 0.35 s would be a double click)
    raise AssertionError("the game did not end")


def test_a_room_opened_from_the_setup_waits_for_its_players_who_join_by_code(as_student, recording):
    ana = as_student("Ana")
    assert ana.rooms.form is not None and ana.rooms.form.layout.display is None
    assert 'name="code" required' in ana.rooms.form.join.value  # the browser asks for a code before it goes
    code = _open(ana)
    assert ana.setup_form.layout.display == "none" and ana.rooms.lobby_view.layout.display is None
    assert code in ana.rooms.lobby.value and spelled(code) in ana.rooms.lobby.value
    assert ana.rooms.buttons["start_room"].layout.display is None  # the host starts
    bo = as_student("Bo", room=code.lower())
    assert bo.table is not None and bo.table.seat == 1
    assert bo.rooms.buttons["start_room"].layout.display == "none"  # only the host starts
    _read(ana)
    assert "Bo" in ana.rooms.lobby.value
    ana.rooms.buttons["start_room"].click()
    _read(bo)
    for app in (ana, bo):
        assert app.game_view.layout.display is None and app.rooms.lobby_view.layout.display == "none"
        assert code in app.rooms.room_line.value
    assert ana.game.players[:2] == ("Ana", "Bo")


def test_each_page_acts_only_for_its_own_seat_and_sees_the_others_moves(as_student):
    ana = as_student("Ana")
    code = _open(ana, players=2)
    bo = as_student("Bo", room=code)
    ana.rooms.buttons["start_room"].click()
    _read(bo)
    assert ana.game.to_move == 0
    assert bo.buttons["reveal"].layout.display == "none"  # not Bo's move: no button
    bo.buttons["reveal"].click()  # a forged click
    assert "not Bo's" in bo.message.value and bo.game.actions == ()
    assert "waiting for Ana" in bo.rooms.room_line.value
    ana.buttons["reveal"].click()
    _read(bo)
    assert len(bo.game.actions) == 1 and bo.game.last_card == ana.game.last_card
    assert " reveals " in bo.event_log.value


def test_a_reloaded_page_takes_its_seat_back_and_the_old_page_only_watches(as_student, recording):
    ana = as_student("Ana")
    code = _open(ana, players=3, edition="dragon-stripes")  # (the mini's first card may end its game: its one danger)
    bo = as_student("Bo", room=code)
    ana.rooms.buttons["start_room"].click()
    _read(bo)
    ana.buttons["reveal"].click()
    _read(bo)
    bo_again = as_student("Bo")  # Bo reloads: a new page, no code in its address
    assert bo_again.table is not None and bo_again.table.seat == 1
    assert bo_again.game.actions == ana.game.actions
    bo.rooms._beat_at = 0  # the old page learns it at its next sign of life
    _read(bo)
    assert not bo.table.held and "another page" in bo.rooms.room_line.value


def test_a_game_played_to_its_end_is_written_once_and_the_coach_reviews_after(as_student, recording):
    ana = as_student("Ana")
    code = _open(ana, players=3, coach=RoomCoach.AFTER)
    bo = as_student("Bo", room=code)
    assert ana.table.room.coach is RoomCoach.AFTER and bo.table.room.coach is RoomCoach.AFTER
    ana.rooms.buttons["start_room"].click()
    _read(bo)
    assert ana.show_coach.layout.display == "none" and ana.coach.value == ""  # the coach waits for the end
    _play_to_the_end({0: ana, 1: bo})
    engine = connect(recording)
    room = rooms.read(engine, code)
    assert room.status is RoomStatus.OVER
    stored = rooms.moves(engine, room.id)
    assert {m.by for m in stored if m.seat < 2} == {MoveBy.PLAYER}
    assert {m.by for m in stored if m.seat == 2} <= {MoveBy.BOT}
    for app in (ana, bo):
        app._write_end()
        assert "The coach on your decisions" in app.coach.value
    session.flush()
    played = games(engine, "3B")
    assert len(played) == 1 and played.iloc[0]["game_id"] == room.game_id
    assert list(played.iloc[0]["seats"]) == ["human", "human", "threshold"]
    assert rooms.rooms_of(engine, "3B", "Ana") == []  # over: a new page starts at the setup
    engine.dispose()


def test_rooms_speak_italian(as_student):
    ana = as_student("Ana")
    i18n.set_language("it")
    try:
        assert ana.rooms.form.open_button.description == "Apri una stanza"
        assert ana.rooms.form.coach.label == "allenatore attivo" and ana.rooms.form.coach.value is RoomCoach.ON
        assert ana.rooms.play_again.description == "Gioca ancora a questo tavolo"
        html = render_lobby("K7MQX", [("Ana", "human"), (None, "coach bot")], "Ana", RoomCoach.ON, 0, "it")
        assert "Stanza" in html and "K 7 M Q X" in html
    finally:
        i18n.set_language("en")


def test_without_a_record_there_are_no_rooms(monkeypatch):
    monkeypatch.delenv("DRAGONKIT_RECORD", raising=False)
    app = PlayApp()
    try:
        assert app.rooms.form is None
    finally:
        app.close()


def test_the_teachers_dashboard_lists_the_rooms_and_their_games(as_student, recording):
    ana = as_student("Ana")
    code = _open(ana, players=2)
    bo = as_student("Bo", room=code)
    waiting = DashboardApp(url=recording, klass="3B")
    try:
        text = waiting.sections["rooms"].value
        assert code in text and "waiting for players" in text and "Ana, Bo" in text
    finally:
        waiting.close()
    ana.rooms.buttons["start_room"].click()
    _play_to_the_end({0: ana, 1: bo})
    ana._write_end()
    session.flush()
    over = DashboardApp(url=recording, klass="3B")
    try:
        text = over.sections["rooms"].value
        assert "game over · won by" in text and code in text
        assert str(len(ana.game.actions)) in text
    finally:
        over.close()


def test_a_player_who_left_is_played_by_a_bot_and_takes_the_seat_back(as_student, recording):
    ana = as_student("Ana")
    code = _open(ana, players=2, edition="dragon-stripes")
    bo = as_student("Bo", room=code)
    ana.rooms.buttons["start_room"].click()
    _read(bo)
    engine = connect(recording)
    room = rooms.read(engine, code)
    bo.close()  # Bo's laptop is gone; the record has not seen his page for longer than the room waits
    with engine.begin() as connection:
        connection.execute(
            update(RoomSeat)
            .where(RoomSeat.room_id == room.id, RoomSeat.seat == 1)
            .values(last_seen=room.created - timedelta(minutes=5))
        )
    ana.rooms._beat_at = 0
    for _ in range(400):  # Ana plays her seat; her page, which drives the room, plays Bo's by a bot
        if any(m.by is MoveBy.STAND_IN for m in rooms.moves(engine, room.id)) or ana.game.is_over:
            break
        if ana.game.to_move == 0:
            ana.act(_choice(ana))
        _read(ana)
    assert not ana.game.is_over
    assert "Bo left: a bot plays for them" in ana.rooms.room_line.value
    assert {m.by for m in rooms.moves(engine, room.id) if m.seat == 1} == {MoveBy.STAND_IN}
    bo_back = as_student("Bo")  # Bo opens the kit again: his seat, the game as it is
    assert bo_back.table is not None and bo_back.table.seat == 1
    assert bo_back.game.actions == ana.game.actions
    assert not bo_back.table.away(1)
    engine.dispose()


def test_a_code_that_does_not_exist_is_said_on_the_page_and_nothing_changes(as_student, recording):
    ana = as_student("Ana")
    code = _open(ana, players=2)
    for wrong in ("ZZZZZ" if code != "ZZZZZ" else "YYYYY", "K0MQX"):
        page = as_student("Bo", room=wrong)
        assert page.table is None and page.setup_form.layout.display is None
        said = page.rooms.form.message.value  # under the rooms' form, where the code was typed
        assert "room" in said and "code" in said and page.setup_form.message.value == ""
    engine = connect(recording)
    assert [s.nickname for s in rooms.read(engine, code).seats] == ["Ana", None]
    engine.dispose()


def test_a_player_who_leaves_the_room_is_not_pulled_back_but_comes_back_with_the_code(as_student, recording):
    ana = as_student("Ana")
    code = _open(ana, players=3)
    bo = as_student("Bo", room=code)
    ana.rooms.buttons["start_room"].click()
    _read(bo)
    bo.buttons["new_game"].click()  # "Leave the room"
    assert bo.table is None and bo.setup_form.layout.display is None
    again = as_student("Bo")  # a new page: the setup, not the room Bo left
    assert again.table is None
    back = as_student("Bo", room=code)  # with the code: his seat, the game as it is
    assert back.table is not None and back.table.seat == 1


def _a_second_card_for_ana(seed: int) -> bool:
    """Whether the standard edition's deck of ``seed`` lets Ana choose after her first card (a random deck may end each
    of her turns at its first card, and the game before she chooses: one in 30 did)."""
    game = Game(("Ana", "Bo", "Bot"), Ruleset.preset("dragon-stripes"), seed=seed)
    game.apply(Action.REVEAL, by=0)
    return game.to_move == 0 and len(game.legal_actions()) == 2


def test_in_a_room_the_coach_estimates_the_chance_of_winning_when_the_player_asks(as_student, recording):
    """The class shares the server: a room's coach gives the exact expected gems at once, and its Monte Carlo
    estimate of the chance of winning (three players or more) only when the player presses its button."""
    ana = as_student("Ana")
    code = _open(ana, players=3, edition="dragon-stripes")
    give_deck(recording, code, first_seed(_a_second_card_for_ana))
    bo = as_student("Bo", room=code)
    ana.rooms.buttons["start_room"].click()
    _read(bo)
    for _ in range(200):  # until Ana chooses between revealing and holding
        _read(ana, bo)
        if ana.table.my_turn and len(ana.game.legal_actions()) == 2:
            break
        for page in (ana, bo):
            if page.table.my_turn:
                legal = page.game.legal_actions()
                page.act(Action.DECLINE if Action.DECLINE in legal else Action.REVEAL)
    assert ana.table.my_turn and len(ana.game.legal_actions()) == 2
    assert "when you press" in ana.coach.value and "an estimate" not in ana.coach.value
    assert ana.rooms.estimate_button.layout.display is None
    ana.rooms.estimate_button.click()
    assert "an estimate, not an exact value" in ana.coach.value
    assert ana.rooms.estimate_button.layout.display == "none"
    assert bo.rooms.estimate_button.layout.display == "none"  # not Bo's move: nothing to estimate for him


def test_a_page_whose_address_names_an_old_room_takes_the_players_seat_in_their_room(as_student, recording):
    """A helper trying the kit as a class would: after a game, "Leave the room" kept ``?room=<the old code>`` in
    Marco's address; he opened a new room from that page, and his reload brought him to the setup, told that the old
    room was closed, while his new game waited for him."""
    ana = as_student("Ana")
    old = _open(ana, players=2)
    ana.rooms.buttons["leave_room"].click()  # the host leaves before the game: the room is closed
    assert ana.table is None
    again = as_student("Ana", room=old)  # the page with the old address
    assert again.table is None and "closed" in again.rooms.form.message.value  # no room of hers: the refusal said
    new = _open(again, players=2)
    bo = as_student("Bo", room=new)
    again.rooms.buttons["start_room"].click()
    _read(bo)
    reloaded = as_student("Ana", room=old)  # she reloads: the address still names the old room
    assert reloaded.table is not None and reloaded.table.room.code == new and reloaded.table.seat == 0
    assert reloaded.rooms.form.message.value == ""
    assert again.rooms.form.message.value == ""  # the room opened from that page: the refusal is gone


def test_the_focus_goes_to_the_players_first_button_when_their_turn_comes(as_student, monkeypatch):
    """The keyboard: a helper playing by keyboard found the focus on the page's body at each of his turns (three Tabs
    to his first button), since nothing he had pressed had moved it."""
    focused = []
    monkeypatch.setattr(DOMWidget, "focus", lambda control: focused.append(control))  # recorded instead of sent
    ana = as_student("Ana")
    code = _open(ana, players=2, edition="dragon-stripes")
    bo = as_student("Bo", room=code)
    ana.rooms.buttons["start_room"].click()
    assert focused[-1] is ana.buttons["reveal"]  # the host's turn at once
    focused.clear()
    _read(bo)
    assert focused == []  # not Bo's turn: his focus is left where it is
    for _ in range(2):  # Ana reveals, then holds (if her turn is still on): the move is Bo's (his turn, or an offer)
        if ana.game.to_move == 0:
            ana.act(Action.HOLD if Action.HOLD in ana.game.legal_actions() else Action.REVEAL)
    focused.clear()
    _read(bo)
    assert bo.table.my_turn
    shown = [bo.buttons[n] for n in ("reveal", "hold", "take_over", "decline") if bo.buttons[n].layout.display is None]
    assert shown and focused == shown[:1]  # his turn has come: the focus on his first button


def test_after_the_game_the_table_plays_again_in_a_new_room(as_student, recording, monkeypatch):
    """A helper playing as a class found that a finished room offered only "Leave the room": to play again, the host
    opened a room and everyone typed a new code."""
    focused = []
    monkeypatch.setattr(DOMWidget, "focus", lambda control: focused.append(control))
    ana = as_student("Ana")
    code = _open(ana, players=3)
    bo = as_student("Bo", room=code)
    ana.rooms.buttons["start_room"].click()
    _read(bo)
    assert ana.rooms.play_again.layout.display == "none"  # not before the end
    _play_to_the_end({0: ana, 1: bo})
    _read(ana, bo)
    for app in (ana, bo):
        again = app.rooms.play_again
        assert again.layout.display is None and again.description == "Play again at this table"
    engine = connect(recording)
    last = rooms.moves(engine, ana.table.room.id)[-1].seat
    engine.dispose()
    for seat, app in ((0, ana), (1, bo)):  # the end, on a page that did not make the last move
        assert app.rooms.play_again in focused or seat == last  # the focus on its first button
    bo.rooms.play_again.click()  # Bo asks first: a new room, he begins
    assert bo.table is not None and bo.table.room.code != code and bo.table.seat == 0
    assert bo.rooms.lobby_view.layout.display is None and focused[-1] is bo.rooms.buttons["start_room"]
    following = bo.table.room.code
    monkeypatch.setenv("DRAGONKIT_NICKNAME", "Ana")  # (each page's kernel has its own; here they share one process)
    ana.rooms.play_again.click()
    assert ana.table is not None and ana.table.room.code == following and ana.table.seat == 1
    _read(bo)
    assert "Ana" in bo.rooms.lobby.value
    bo.rooms.buttons["start_room"].click()
    _read(ana)
    assert ana.game.players[:2] == ("Bo", "Ana") and ana.game.actions == () and not ana.game.is_over
    assert ana.rooms.play_again.layout.display == "none"


def test_a_page_whose_seat_another_page_took_in_the_lobby_says_so(as_student):
    """A helper typed a seated classmate's nickname on a fourth laptop: both lobbies said "Bruno (you)", and the real
    Bruno learnt only at the start that his page watched."""
    ana = as_student("Ana")
    code = _open(ana, players=3)
    bruno = as_student("Bruno", room=code)
    assert "(you)" in bruno.rooms.lobby.value and "only watches" not in bruno.rooms.lobby.value
    other = as_student("Bruno", room=code)  # another page, the same nickname: it takes the seat
    assert other.table is not None and other.table.seat == 1
    bruno.rooms._beat_at = 0  # the old page learns it at its next sign of life
    _read(bruno)
    assert not bruno.table.held
    lobby = bruno.rooms.lobby.value
    assert "only watches" in lobby and "reload it" in lobby and "(you)" not in lobby


def test_a_page_reopened_in_a_room_reads_it_only_once_its_browser_has_drawn_it(as_student, monkeypatch):
    """A page made in a room (a reload) shows the room as it is made, and reads it again only once the browser has
    drawn the page (ipywidgets' front end counts the view): no move reaches the page while its browser is still
    fetching the widgets' state."""
    ana = as_student("Ana")  # no event loop here: her page reads the room when the test says
    code = _open(ana, players=2, edition="dragon-stripes")
    readings = [0]
    version = room_table.version

    def counted(engine, room_id):
        readings[0] += 1
        return version(engine, room_id)

    monkeypatch.setattr(room_table, "version", counted)
    monkeypatch.setenv("DRAGONKIT_NICKNAME", "Bo")
    monkeypatch.setenv("QUERY_STRING", f"room={code}")

    async def reopen() -> tuple[int, int, bool]:
        bo = PlayApp(bot_delay=0.0)  # made in the kernel, its browser not there yet
        try:
            seated = bo.table is not None
            await asyncio.sleep(0.5)  # the browser loading the page's scripts, fetching the widgets' state
            before = readings[0]
            bo.widget._view_count = 1  # the front end has drawn the page
            for _ in range(200):
                await asyncio.sleep(0.05)
                if readings[0] > before:
                    break
            return before, readings[0], seated
        finally:
            bo.close()

    before, after, seated = asyncio.run(reopen())
    assert seated and before == 0, before
    assert after > 0


def test_in_a_kernel_each_page_reads_its_room_in_a_thread_and_draws_on_the_loop(as_student, monkeypatch):
    """A page in a room reads it ten times a second: the database in a thread (the kernel's event loop never waits
    for it), one reading at a time a page; what it finds changes the widgets on the loop only; a record out of reach
    leaves a note, and the next reading tries again; a closed page reads no more."""
    lock, readers, reading, most, down = threading.Lock(), set(), [0], [0], [0]
    version = room_table.version

    def slow_version(engine, room_id):  # a database slower than POLL, and sometimes away
        with lock:
            reading[0] += 1
            most[0] = max(most[0], reading[0])
            readers.add(threading.current_thread())
        try:
            time.sleep(0.15)
            if down[0]:
                down[0] -= 1
                raise OperationalError("SELECT", {}, ConnectionError("the server is gone"))
            return version(engine, room_id)
        finally:
            with lock:
                reading[0] -= 1

    monkeypatch.setattr(room_table, "version", slow_version)

    async def until(condition, seconds=20.0):
        for _ in range(int(seconds / 0.05)):
            if condition():
                return
            await asyncio.sleep(0.05)
        raise AssertionError("the page did not read the room")

    async def play() -> None:
        loop_thread = threading.current_thread()
        ana = as_student("Ana")
        code = _open(ana, players=2, edition="dragon-stripes")
        bo = as_student("Bo", room=code)
        drawers = set()
        for widget in (bo.rooms.lobby, bo.rooms.room_line, bo.board, bo.message, bo.game_view.layout):
            widget.observe(lambda _change: drawers.add(threading.current_thread()))
        pages = (ana, bo)
        ana.rooms.buttons["start_room"].click()  # (the host's page reads the room at once, on the click)
        with lock:
            readers.clear()
        await until(lambda: bo.game_view.layout.display is None)
        ana.buttons["reveal"].click()
        await until(lambda: len(bo.game.actions) == 1)
        assert " reveals " in bo.event_log.value
        down[0] = 4  # the record goes away for four readings
        await until(lambda: "cannot be reached: trying again" in bo.message.value)
        assert "Traceback" not in bo.message.value
        await until(lambda: down[0] == 0 and bo.message.value == "")
        for page in pages:
            page.close()
        await asyncio.sleep(0.3)  # a reading in its thread ends by itself
        with lock:
            calls = len(readers), reading[0]
        await asyncio.sleep(0.5)
        assert reading[0] == 0 and calls[1] == 0, "a closed page read its room"
        assert all(page.rooms._task is None for page in pages)
        assert loop_thread not in readers and drawers == {loop_thread}
        assert most[0] <= len(pages)  # one reading at a time a page

    asyncio.run(play())
