"""Rooms in the class's record: codes, seats, moves in order, and the pages that share a room (on SQLite and on
PostgreSQL)."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pandas as pd
import pytest
from sqlalchemy import select, update

from dragonkit.bots import BotKind
from dragonkit.engine import IllegalActionError, NotYourTurnError
from dragonkit.record import rooms
from dragonkit.record.room_settings import WAITING_IDLE
from dragonkit.record.rooms import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MoveBy,
    MoveConflictError,
    RoomError,
    RoomNotFoundError,
    RoomStatus,
    RoomWaitingError,
    SeatLostError,
)
from dragonkit.record.schema import Room, RoomSeat
from dragonkit.record.store import connect
from dragonkit.topics.room_table import RoomTable
from dragonkit.turn import Action

SEATS = [("Ana", BotKind.HUMAN), ("Bo", BotKind.HUMAN), ("Coach", BotKind.COACH), ("Tess", BotKind.THRESHOLD)]


@pytest.fixture
def engine(record_url):
    engine = connect(record_url)
    yield engine
    engine.dispose()


def _room(engine, host="Ana", **options):
    return rooms.open_room(engine, "3B", host, "dragon-stripes", SEATS, holder=f"page-{host.lower()}", **options)


def test_a_code_is_easy_to_read_aloud_and_type(engine):
    codes = {_room(engine, host=f"Ana{i}").code for i in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
        assert not set(code) & set("0O1I")
    code = next(iter(codes))
    typed = f" {code[:2].lower()}-{code[2:]} "
    assert rooms.read(engine, typed).code == code


def test_a_code_that_does_not_exist_gets_a_clear_answer(engine):
    _room(engine)
    with pytest.raises(RoomNotFoundError, match="no room has the code"):
        rooms.read(engine, "ZZZZZ" if _room(engine, host="Bo").code != "ZZZZZ" else "YYYYY")
    for wrong in ("", "AB", "K0MQX", "KIMQX", "ABCDEF", "<b>"):
        with pytest.raises(RoomNotFoundError, match="without 0, O, 1 or I"):
            rooms.read(engine, wrong)


def test_an_invalid_room_is_refused_and_nothing_is_written(engine):
    for change, message in (
        ({"edition": "chess"}, "unknown edition"),
        ({"seats": SEATS[:1]}, "2 to 6 seats"),
        ({"seats": SEATS * 2}, "2 to 6 seats"),
        ({"coach": "sometimes"}, "on, off or after"),
        ({"leave_after": 5}, "10 to 3600"),
        ({"host": "  "}, "1 to 40 characters"),
    ):
        arguments = {"class_name": "3B", "host": "Ana", "edition": "dragon-stripes", "seats": SEATS} | change
        with pytest.raises(RoomError, match=message):
            rooms.open_room(engine, **arguments)
    with engine.connect() as connection:
        assert connection.execute(select(Room)).first() is None


def test_players_sit_in_order_and_come_back_to_their_seat(engine):
    room = _room(engine)
    assert [s.nickname for s in room.seats] == ["Ana", None, None, None]
    assert room.status is RoomStatus.WAITING
    room, seat = rooms.sit(engine, room.code, "Bo")
    assert seat == 1 and room.seats[1].name == "Bo" and room.seats[1].kind is BotKind.HUMAN
    assert rooms.sit(engine, room.code.lower(), "Bo")[1] == 1  # Bo again: the same seat
    assert rooms.sit(engine, room.code, "Cy")[1] == 2
    assert rooms.sit(engine, room.code, "Di")[1] == 3
    with pytest.raises(RoomError, match="is full"):
        rooms.sit(engine, room.code, "Ed")
    assert rooms.rooms_of(engine, "3B", "Cy") == []  # seated, but no page of Cy's holds the seat yet
    rooms.hold(engine, room.id, 2, "page-cy")
    assert [r.code for r in rooms.rooms_of(engine, "3B", "Cy")] == [room.code]
    assert rooms.rooms_of(engine, "4C", "Cy") == []


def test_only_the_host_starts_and_a_started_game_takes_no_newcomer(engine):
    room = _room(engine)
    rooms.sit(engine, room.code, "Bo")
    with pytest.raises(SeatLostError, match="only Ana"):
        rooms.start(engine, room.id, "page-bo")
    room = rooms.start(engine, room.id, "page-ana")
    assert room.status is RoomStatus.PLAYING
    with pytest.raises(RoomError, match="already started"):
        rooms.start(engine, room.id, "page-ana")
    with pytest.raises(RoomError, match="only its players can come back"):
        rooms.sit(engine, room.code, "Ed")
    assert rooms.sit(engine, room.code, "Bo")[1] == 1


def test_leaving_before_the_game_frees_the_seat_and_the_host_leaving_closes_the_room(engine):
    room = _room(engine)
    room, seat = rooms.sit(engine, room.code, "Bo")
    rooms.hold(engine, room.id, seat, "page-bo")
    room = rooms.leave(engine, room.id, seat, "page-bo")
    assert room.seats[1].nickname is None and room.status is RoomStatus.WAITING
    assert rooms.leave(engine, room.id, 0, "page-nobody").status is RoomStatus.WAITING  # not the host's page
    assert rooms.leave(engine, room.id, 0, "page-ana").status is RoomStatus.CLOSED
    assert rooms.rooms_of(engine, "3B", "Ana") == []


def _two_pages(engine):
    room = _room(engine)
    room, _ = rooms.sit(engine, room.code, "Bo")
    rooms.start(engine, room.id, "page-ana")
    ana = RoomTable.enter(engine, rooms.read(engine, room.code), "Ana", "page-ana")
    bo = RoomTable.enter(engine, rooms.read(engine, room.code), "Bo", "page-bo")
    return ana, bo


def test_a_move_is_seen_by_the_other_page_and_a_move_out_of_turn_changes_nothing(engine):
    ana, bo = _two_pages(engine)
    assert ana.my_turn and not bo.my_turn
    with pytest.raises(NotYourTurnError, match="it is Ana's move, not Bo's"):
        bo.act(Action.REVEAL)
    assert bo.game.actions == () and rooms.moves(engine, ana.room.id) == []
    with pytest.raises(IllegalActionError, match="must reveal a card first"):
        ana.act(Action.HOLD)
    assert rooms.moves(engine, ana.room.id) == []
    card = ana.act(Action.REVEAL)
    assert card is not None
    assert bo.sync() and bo.game.actions == ana.game.actions and bo.game.last_card == card
    assert not bo.sync()  # nothing new: one query


def test_a_reading_made_in_another_thread_is_taken_once_and_left_if_the_page_moved_meanwhile(engine):
    """A page reads its room in a thread (the kernel's event loop never waits for the database) and takes what the
    reading found on the loop; a move the page made meanwhile is not applied twice: that news is left, the next
    reading finds the same."""
    ana, bo = _two_pages(engine)
    asked = ana.reading()
    ana.act(Action.REVEAL)  # the page moves while its reading is out: the reading finds that move
    assert not ana.take(asked()) and len(ana.game.actions) == 1  # left: not applied twice
    found = []
    reader = threading.Thread(target=lambda: found.append(bo.reading(beat=True)()))
    reader.start()
    reader.join()
    news = found[0]
    assert news.room is not None and [m.seq for m in news.moves] == [1] and news.beat is not None
    assert bo.game.actions == ()  # nothing taken yet: the reading touched the database only
    assert bo.take(news) and bo.game.actions == ana.game.actions and bo.held
    assert not bo.take(bo.reading()())  # nothing new


def test_a_move_from_a_page_that_lost_its_seat_is_refused(engine):
    ana, bo = _two_pages(engine)
    again = RoomTable.enter(engine, rooms.read(engine, ana.room.code), "Ana", "page-ana-2")  # Ana reloads her page
    ana.sync(beat=True)
    assert not ana.held
    with pytest.raises(NotYourTurnError, match="does not play a seat"):
        ana.act(Action.REVEAL)
    ana.held = True  # a forged state of the old page: the record still refuses it
    with pytest.raises(SeatLostError):
        ana.act(Action.REVEAL)
    assert rooms.moves(engine, ana.room.id) == [] and ana.game.actions == ()
    again.act(Action.REVEAL)
    assert len(rooms.moves(engine, ana.room.id)) == 1
    assert bo.sync() and len(bo.game.actions) == 1


def test_two_moves_at_once_are_applied_once_in_order(engine):
    ana, _bo = _two_pages(engine)
    ana.act(Action.REVEAL)
    twin = RoomTable(engine, rooms.read(engine, room_id=ana.room.id), 0, "page-ana")  # the same page, twice
    twin.game = rooms.read(engine, room_id=ana.room.id).game()  # it has not seen the reveal yet
    with pytest.raises(MoveConflictError, match="another move came first"):
        twin.act(Action.REVEAL)
    assert len(twin.game.actions) == 1  # read again: the game as it is
    assert [m.seq for m in rooms.moves(engine, ana.room.id)] == [1]


def test_the_same_move_sent_twice_is_stored_once(engine):
    ana, _bo = _two_pages(engine)
    args = (engine, ana.room.id, 1, 0, "reveal", MoveBy.PLAYER, "e" * 32)
    assert rooms.record_move(*args, holder="page-ana")
    assert not rooms.record_move(*args, holder="page-ana")
    assert len(rooms.moves(engine, ana.room.id)) == 1


def test_many_pages_clicking_at_once_keep_one_game(engine):
    ana, bo = _two_pages(engine)
    ana.act(Action.REVEAL)
    pages = [RoomTable(engine, rooms.read(engine, room_id=ana.room.id), 0, "page-ana") for _ in range(4)]
    errors = []

    def click(page):
        try:
            page.act(Action.REVEAL)
        except (RoomError, IllegalActionError) as exc:
            errors.append(exc)

    threads = [threading.Thread(target=click, args=(p,)) for p in pages]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stored = rooms.moves(engine, ana.room.id)
    assert [m.seq for m in stored] == list(range(1, len(stored) + 1))
    assert len(stored) + len(errors) == 5
    bo.sync()
    assert [a.value for a in bo.game.actions] == [m.action for m in stored]


def test_the_bots_are_played_by_one_page_and_a_player_who_left_by_a_stand_in(engine):
    ana, bo = _two_pages(engine)
    game = ana.game
    # play until a bot's seat is to move
    while ana.game.to_move in (0, 1) and not ana.game.is_over:
        page = ana if ana.game.to_move == 0 else bo
        page.sync()
        page.act(
            Action.HOLD if Action.HOLD in page.game.legal_actions() and page.game.pot else page.game.legal_actions()[0]
        )
        ana.sync()
        bo.sync()
    assert game is ana.game
    ana.sync(beat=True)
    bo.sync(beat=True)
    assert ana.drives and not bo.drives
    assert ana.stand_in() is MoveBy.BOT
    assert not bo.play_bot()
    assert ana.play_bot()
    assert rooms.moves(engine, ana.room.id)[-1].by is MoveBy.BOT
    # Bo's page is gone for longer than the room waits: when Bo is to move, a bot stands in
    with engine.begin() as connection:
        connection.execute(
            update(RoomSeat)
            .where(RoomSeat.room_id == bo.room.id, RoomSeat.seat == 1)
            .values(last_seen=ana.room.created - timedelta(minutes=5))
        )
    ana.sync(beat=True)
    assert ana.away(1) and not ana.away(0)
    moves_made = 0
    while ana.game.to_move != 0 and not ana.game.is_over and moves_made < 200:
        assert ana.play_bot()
        moves_made += 1
    stored = rooms.moves(engine, ana.room.id)
    assert {m.by for m in stored if m.seat == 1} <= {MoveBy.PLAYER, MoveBy.STAND_IN}


def _play_to_the_end(ana: RoomTable, bo: RoomTable) -> None:
    pages = {0: ana, 1: bo}
    for _ in range(5000):
        ana.sync()
        if ana.game.is_over:
            break
        seat = ana.game.to_move
        if seat in pages:
            page = pages[seat]
            page.sync()
            page.act(page.game.legal_actions()[0] if page.game.pot < 15 else page.game.legal_actions()[-1])
        else:
            for page in pages.values():  # both pages live (a slow machine outlasts one sign of life): Ana's drives
                page.sync(beat=True)
            assert ana.play_bot()


def test_a_game_played_to_its_end_closes_the_room_as_over(engine):
    ana, bo = _two_pages(engine)
    _play_to_the_end(ana, bo)
    assert ana.game.is_over
    assert rooms.read(engine, room_id=ana.room.id).status is RoomStatus.OVER
    bo.sync()
    assert bo.game.winners == ana.game.winners
    with pytest.raises(RoomError):
        rooms.record_move(engine, ana.room.id, 10_000, 0, "reveal", MoveBy.PLAYER, "f" * 32, holder="page-ana")


def test_a_room_nobody_came_back_to_is_closed_and_one_played_lately_is_left_to_resume(engine):
    old, lately = _room(engine), _room(engine, host="Bo")
    rooms.start(engine, old.id, "page-ana")
    rooms.start(engine, lately.id, "page-bo")
    long_ago = old.created - timedelta(hours=3)
    with engine.begin() as connection:
        connection.execute(update(Room).where(Room.id == old.id).values(changed=long_ago))
        connection.execute(update(RoomSeat).where(RoomSeat.room_id == old.id).values(last_seen=long_ago))
    assert rooms.close_abandoned(engine) == 1
    assert rooms.read(engine, room_id=old.id).status is RoomStatus.CLOSED
    assert rooms.read(engine, room_id=lately.id).status is RoomStatus.PLAYING
    assert rooms.close_abandoned(engine) == 0


def test_a_host_holds_one_waiting_room_and_a_flood_of_opens_gets_one(engine):
    """A page clicked "Open a room" 55 times in ten seconds and got 55 rooms (the dashboard lists the latest, and the
    class's real rooms vanished from it): a host of a class holds one waiting room; eight pages of the same host
    opening at the same moment get one room, the others an error naming it; once it is started (or left, which
    closes it) the host opens another; another host, or the same nickname in another class, is not concerned."""
    opened, refused = [], []

    def open_one() -> None:
        try:
            opened.append(_room(engine))
        except RoomWaitingError as error:
            refused.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(opened) == 1 and len(refused) == 7, (opened, refused)
    code = opened[0].code
    assert {error.code for error in refused} == {code}
    assert str(refused[0]) == f"your room {code} is still waiting for its players: start it, or leave it"
    with engine.connect() as connection:
        assert connection.execute(select(Room.code).where(Room.status == "waiting")).scalars().all() == [code]
    assert _room(engine, host="Bo").host == "Bo"
    assert rooms.open_room(engine, "4C", "Ana", "mini", SEATS[:2]).class_name == "4C"
    rooms.start(engine, opened[0].id, "page-ana")
    again = _room(engine)
    rooms.leave(engine, again.id, 0, "page-ana")  # the host leaving closes it
    assert _room(engine).status is RoomStatus.WAITING


def test_a_waiting_room_left_idle_20_minutes_is_closed_and_one_seen_or_playing_is_not(engine):
    """The server closes, every minute, the rooms left waiting: nothing changed in them and no page of theirs seen
    for 20 minutes (the clock given)."""
    left, watched, playing = _room(engine), _room(engine, host="Bo"), _room(engine, host="Cy")
    rooms.start(engine, playing.id, "page-cy")
    opened = max(room.created for room in (left, watched, playing))
    waiting = (RoomStatus.WAITING,)
    assert rooms.close_abandoned(engine, WAITING_IDLE, waiting, now=opened + timedelta(minutes=19)) == 0
    with engine.begin() as connection:  # its host's page seen (its heartbeat) 15 minutes after the opening
        seen = opened + timedelta(minutes=15)
        connection.execute(update(RoomSeat).where(RoomSeat.room_id == watched.id).values(last_seen=seen))
    assert rooms.close_abandoned(engine, WAITING_IDLE, waiting, now=opened + timedelta(minutes=21)) == 1
    assert rooms.read(engine, room_id=left.id).status is RoomStatus.CLOSED
    assert rooms.read(engine, room_id=watched.id).status is RoomStatus.WAITING
    assert rooms.read(engine, room_id=playing.id).status is RoomStatus.PLAYING
    assert rooms.close_abandoned(engine, WAITING_IDLE, waiting, now=opened + timedelta(minutes=36)) == 1
    assert rooms.read(engine, room_id=watched.id).status is RoomStatus.CLOSED


def test_the_dashboard_lists_every_room_not_closed_games_first_and_counts_those_it_does_not_show(engine):
    """A flood of waiting rooms (55 nicknames, one room each) no longer hides the class's games from the teacher:
    the rooms playing come first, closed rooms are not listed, and a sentence counts the rooms past the 50 shown."""
    from dragonkit.record.reading import rooms as read_rooms
    from dragonkit.ui.dashboard_tables import ROOMS_SHOWN, render_rooms

    game = _room(engine)
    rooms.start(engine, game.id, "page-ana")
    left = _room(engine, host="Bo")
    rooms.leave(engine, left.id, 0, "page-bo")  # closed
    for i in range(55):
        _room(engine, host=f"Flood{i}")
    listed = read_rooms(engine, "3B")
    assert len(listed) == 56 and left.code not in set(listed["code"])
    assert list(listed["code"])[-1] == game.code  # newest first
    page = render_rooms(listed, pd.DataFrame(), "en")
    codes = re.findall(r'<span class="dk-room-code">(\w+)</span>', page)
    assert len(codes) == ROOMS_SHOWN and codes[0] == game.code
    assert "…and 6 more rooms, not shown." in page
    assert "…e altre 6 stanze, non mostrate." in render_rooms(listed, pd.DataFrame(), "it")


def test_erasing_a_class_erases_its_rooms_with_their_seats_and_moves(engine):
    from dragonkit.record.erase import erase

    ana, _bo = _two_pages(engine)
    ana.act(Action.REVEAL)
    other = rooms.open_room(engine, "4C", "Cy", "mini", SEATS[:2])
    assert erase(engine, class_name="3B") >= 1 + 4 + 1  # the room, its seats, its move
    with pytest.raises(RoomNotFoundError):
        rooms.read(engine, ana.room.code)
    assert rooms.read(engine, other.code).class_name == "4C"
    with engine.connect() as connection:
        assert connection.execute(select(RoomSeat).where(RoomSeat.room_id == ana.room.id)).first() is None


def test_a_move_the_database_did_not_take_is_not_kept_by_the_page(engine, record_url):
    if not record_url.startswith("sqlite"):
        pytest.skip("an SQLite file locked by another connection")
    from sqlalchemy import create_engine

    ana, bo = _two_pages(engine)
    impatient = create_engine(record_url, connect_args={"timeout": 0.2})  # waits 0.2 s for a lock, not 5 s
    ana.engine = impatient
    locker = create_engine(record_url).connect()
    locker.exec_driver_sql("BEGIN EXCLUSIVE")  # another process holds the database
    try:
        with pytest.raises(RoomError, match="did not answer"):
            ana.act(Action.REVEAL)
    finally:
        locker.rollback()
        locker.close()
    assert ana.sync() and ana.game.actions == ()  # read again: the move is not there
    ana.act(Action.REVEAL)
    assert bo.sync() and len(bo.game.actions) == 1
    impatient.dispose()


def test_the_table_plays_again_in_one_next_room_whoever_asks_first(engine):
    ana, bo = _two_pages(engine)
    with pytest.raises(RoomError, match="not over"):
        rooms.rematch(engine, ana.room.id, "Bo", "page-bo")
    _play_to_the_end(ana, bo)
    old = rooms.read(engine, room_id=ana.room.id)
    with pytest.raises(SeatLostError):
        rooms.rematch(engine, old.id, "Cy", "page-cy")
    following = rooms.rematch(engine, old.id, "Bo", "page-bo")  # Bo asks first: he begins
    assert following.code != old.code and following.status is RoomStatus.WAITING
    assert following.seed != old.seed and following.game_id != old.game_id
    assert (following.edition, following.coach, following.leave_after) == (old.edition, old.coach, old.leave_after)
    assert following.host == "Bo" and following.seats[0].nickname == "Bo" and following.seats[0].holder == "page-bo"
    # the table in its order from Bo, every other seat free (played by its bot if nobody comes): Ana's too
    assert [s.kind for s in following.seats] == [BotKind.HUMAN, BotKind.COACH, BotKind.THRESHOLD, BotKind.COACH]
    assert [s.nickname for s in following.seats] == ["Bo", None, None, None]
    again = rooms.rematch(engine, old.id, "Ana", "page-ana")  # Ana asks next: the same room, where she sits
    assert again.code == following.code
    room, seat = rooms.sit(engine, again.code, "Ana")
    assert seat == 1 and room.seats[1].nickname == "Ana"
    assert rooms.rematch(engine, old.id, "Bo", "page-bo-2").code == following.code  # asked twice: one room


def test_two_players_asking_at_once_to_play_again_open_one_room(engine):
    ana, bo = _two_pages(engine)
    _play_to_the_end(ana, bo)
    found: list[str] = []
    asks = [
        threading.Thread(target=lambda n=name: found.append(rooms.rematch(engine, ana.room.id, n, f"page-{n}").code))
        for name in ("Ana", "Bo")
    ]
    for ask in asks:
        ask.start()
    for ask in asks:
        ask.join()
    assert len(found) == 2 and found[0] == found[1]
    assert rooms.read(engine, found[0]).status is RoomStatus.WAITING
