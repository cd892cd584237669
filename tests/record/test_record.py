"""The class's record on SQLite and on a real PostgreSQL server: the schema's migrations, the writer (a click never
waits; what fails is written later, once), the readers, export and erase."""

from __future__ import annotations

import os
import stat
import threading
import time
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import delete, insert, inspect, make_url, text

from dragonkit.bots import BotKind
from dragonkit.game_state import GameState
from dragonkit.record import AttemptRow, DecisionRow, GameRow, rooms
from dragonkit.record import session as record_session
from dragonkit.record.erase import erase
from dragonkit.record.nicknames import NicknameError, NicknameProblem, query_nickname
from dragonkit.record.nicknames import nickname as nickname_of
from dragonkit.record.reading import attempts, day_bounds, decisions, export, games, present
from dragonkit.record.schema import Base, Room, RoomMove
from dragonkit.record.session import Visit, visit
from dragonkit.record.store import check_integrity, connect, default_url, head, revision, upgrade
from dragonkit.record.where import class_name, record_url
from dragonkit.record.writer import Writer
from dragonkit.rules import Card, Ruleset
from dragonkit.turn import Action

FRESH = GameState.fresh(Ruleset.preset("dragon-stripes"))


def _decision(action: Action = Action.REVEAL, **given) -> DecisionRow:
    state = FRESH.child(Card.footprint(2))
    gems = {Action.REVEAL: Fraction(7, 3), Action.HOLD: Fraction(2)}
    return DecisionRow.of(state, action, app="play", seconds=1.5, gems=gems, **given)


def test_migrations_build_the_schema_at_head(record_url):
    engine = connect(record_url)
    assert revision(engine) == head()
    tables = set(inspect(engine).get_table_names())
    assert {"visits", "decisions", "attempts", "games", "alembic_version"} <= tables
    upgrade(engine)  # a record at head: nothing to do
    assert check_integrity(engine) == ["ok"]
    engine.dispose()


def test_the_migrations_build_the_tables_the_orm_declares(record_url):
    """Alembic's autogenerate finds nothing to do between a freshly migrated record and the ORM's metadata: the same
    tables, columns, types, nullability, indexes, unique constraints and foreign keys."""
    engine = connect(record_url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []


def test_the_integrity_check_finds_a_room_s_seats_and_moves_whose_room_is_gone(record_url):
    """A room deleted alone, its seats and its move left behind: by hand in ``sqlite3`` (SQLite keeps foreign keys as
    declarations), or on PostgreSQL as a restore without its constraints would (the replica role fires no foreign
    key's trigger)."""
    engine = connect(record_url)
    room = rooms.open_room(engine, "3B", "Ana", "dragon-stripes", [("Ana", BotKind.HUMAN), ("Bo", BotKind.COACH)])
    move = {"seq": 1, "seat": 0, "action": "reveal", "by": "player", "event_id": "e" * 32, "at": datetime(2026, 12, 4)}
    with engine.begin() as connection:
        connection.execute(insert(RoomMove).values(room_id=room.id, **move))
    assert check_integrity(engine) == ["ok"]
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SET LOCAL session_replication_role = replica"))
        connection.execute(delete(Room))
    assert check_integrity(engine) == [
        "1 row of room_moves names a room_id that rooms does not have",
        "2 rows of room_seats name a room_id that rooms does not have",
    ]
    engine.dispose()


def test_the_integrity_check_finds_a_table_that_is_missing(record_url):
    engine = connect(record_url)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE room_moves"))
    assert check_integrity(engine) == ["table room_moves is missing"]
    engine.dispose()


def test_a_decision_is_written_once_with_its_exact_values(record_url):
    writer = Writer(record_url)
    page = Visit("play", "it", writer, "3B")
    row = _decision(Action.HOLD, card=None)
    page.decision(row)
    page.decision(_decision(Action.REVEAL, card=Card("danger")))
    assert writer.flush(20)
    engine = connect(record_url)
    found = decisions(engine, "3B")
    assert list(found["action"]) == ["hold", "reveal"]
    first = found.iloc[0]
    assert first["gems"] == {"reveal": "7/3", "hold": "2"}
    assert first["gems_given_up"] == pytest.approx(1 / 3)
    assert first["best_gems"] == ["reveal"]
    assert first["situation"]["pot"] == 2 and first["pot"] == 2 and first["position"] == 2
    assert found.iloc[1]["card"] == "danger" and found.iloc[1]["gems_given_up"] == 0
    assert decisions(engine, "another class").empty
    assert decisions(engine, "3B", after=int(found["id"].iloc[0]))["action"].tolist() == ["reveal"]
    seen = present(engine, "3B")
    assert seen["page"].tolist() == ["play"] and seen["language"].tolist() == ["it"]
    writer.close()
    engine.dispose()


def test_a_batch_written_twice_is_kept_once(record_url):
    """A retried batch (its commit cut after the database kept it) is not doubled: rows carry their event id."""
    writer = Writer(record_url)
    row = {
        "event_id": "e" * 32,
        "visit_id": "v" * 32,
        "class_name": "3B",
        "nickname": "Ada",
        "at": datetime(2026, 12, 4, 9, 0),
        **AttemptRow("02-counting-the-deck", "3", "1/5", False, 1, "en").__dict__,
    }
    writer.put("attempts", row)
    writer.put("attempts", dict(row))
    assert writer.flush(20)
    writer.put("attempts", dict(row))
    assert writer.flush(20)
    engine = connect(record_url)
    assert len(attempts(engine)) == 1
    writer.close()
    engine.dispose()


def test_a_click_never_waits_for_the_database(monkeypatch):
    """While the database hangs (a write that never returns), a page queues its rows and goes on."""
    stuck = threading.Event()
    monkeypatch.setattr(Writer, "_write", lambda self, batch: stuck.wait(30))
    writer = Writer("sqlite://")
    page = Visit("play", "en", writer, "3B")
    clicks = threading.Thread(target=lambda: [page.decision(_decision()) for _ in range(200)])
    clicks.start()
    clicks.join(10)
    assert not clicks.is_alive()
    assert writer.pending == 400 and writer.written == 0  # 200 decisions and their visit's rows, all waiting
    stuck.set()
    writer.close(timeout=1)


def test_a_database_that_is_gone_keeps_the_rows():
    writer = Writer("postgresql+psycopg://nobody@127.0.0.1:1/nothing")
    Visit("play", "en", writer, "3B").decision(_decision())
    deadline = time.monotonic() + 30  # (its first try loads the driver: a while on a loaded machine)
    while not writer.failures and time.monotonic() < deadline:
        time.sleep(0.05)
    assert writer.failures >= 1 and writer.pending == 2 and writer.written == 0
    assert not writer.close(timeout=0.2)


def test_what_could_not_be_written_is_written_when_postgresql_is_back(postgres):
    postgres.psql("DROP DATABASE IF EXISTS outage", database="postgres")
    postgres.psql("CREATE DATABASE outage", database="postgres")
    url = postgres.url.rsplit("/", 1)[0] + "/outage"
    writer = Writer(url)
    page = Visit("play", "en", writer, "3B")
    page.decision(_decision())
    assert writer.flush(20)
    postgres.stop()
    try:
        for _ in range(5):
            page.decision(_decision())
        time.sleep(1.5)
        assert writer.pending > 0 and writer.failures >= 1
    finally:
        postgres.start()
    assert writer.flush(40)
    engine = connect(url)
    assert len(decisions(engine)) == 6
    writer.close()
    engine.dispose()


def test_rows_of_many_threads_all_arrive(record_url):
    writer = Writer(record_url)
    pages = [Visit(f"lesson-{n}", "en", writer, "3B") for n in range(4)]

    def answer(page: Visit) -> None:
        for n in range(25):
            page.attempt(AttemptRow("02-counting-the-deck", str(n % 3), str(n), n % 2 == 0, 0))

    threads = [threading.Thread(target=answer, args=(p,)) for p in pages]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert writer.flush(30)
    engine = connect(record_url)
    found = attempts(engine, "3B")
    assert len(found) == 100 and found["correct"].sum() == 52
    assert len(present(engine, "3B")) == 4
    writer.close()
    engine.dispose()


def test_a_game_row(record_url):
    state = FRESH
    while not state.is_terminal():
        moves = state.legal_actions()
        plain = next((a for a in (Action.HOLD, Action.DECLINE) if a in moves), None)
        state = state.child(plain if plain is not None else state.chance_outcomes()[0][0])
    writer = Writer(record_url)
    Visit("play", "en", writer, "3B").game(GameRow.of("g" * 32, state, ["human", "optimal"]))
    assert writer.flush(20)
    engine = connect(record_url)
    found = games(engine)
    assert found["seats"].tolist() == [["human", "optimal"]]
    assert found["winners"].iloc[0] == list(state.winners)
    writer.close()
    engine.dispose()


def test_rows_that_are_not_decisions_are_refused():
    with pytest.raises(ValueError, match="not an option"):
        DecisionRow.of(FRESH, Action.HOLD, app="play", seconds=1, gems={Action.REVEAL: Fraction(1)})
    with pytest.raises(ValueError, match="seconds"):
        DecisionRow.of(FRESH, Action.REVEAL, app="play", seconds=-1, gems={Action.REVEAL: Fraction(1)})
    with pytest.raises(ValueError, match="not over"):
        GameRow.of("g", FRESH, ["human", "human"])
    writer = Writer("sqlite://")
    with pytest.raises(ValueError, match="no table"):
        writer.put("passwords", {})
    writer.close()


def _export_rows(url: str) -> None:
    writer = Writer(url)
    for klass, nickname in (("3B", "Ada"), ("3B", "Bea"), ("4A", "Cy")):
        page = Visit("play", "en", writer, klass)
        page.decision(_decision())
        page.attempt(AttemptRow("08-simulation", "2", "0,5", nickname == "Ada", 2, "it"))
    assert writer.flush(20)
    writer.close()


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_export_writes_a_row_a_decision_or_an_attempt(record_url, tmp_path, suffix):
    _export_rows(record_url)
    engine = connect(record_url)
    path = tmp_path / f"class{suffix}"
    assert export(engine, path, class_name="3B") == 4
    table = pd.read_csv(path) if suffix == ".csv" else pd.read_parquet(path)
    assert sorted(table["kind"]) == ["attempt", "attempt", "decision", "decision"]
    assert set(table["class_name"]) == {"3B"}
    assert table["players"].dropna().astype(int).tolist() == [2, 2]
    with pytest.raises(ValueError, match=r"\.csv or a \.parquet"):
        export(engine, tmp_path / "class.xlsx")
    engine.dispose()


def test_erase_a_class_a_day_or_everything(record_url):
    _export_rows(record_url)
    engine = connect(record_url)
    with pytest.raises(ValueError, match="name a class"):
        erase(engine)
    with pytest.raises(ValueError, match="name a class"):
        erase(engine, class_name="3B", everything=True)
    assert erase(engine, day=date.today() - timedelta(days=2)) == 0
    assert erase(engine, class_name="4A") == 3  # its visit, decision and attempt
    assert set(decisions(engine)["class_name"]) == {"3B"}
    assert erase(engine, class_name="3B", day=date.today()) == 6
    _export_rows(record_url)
    assert erase(engine, everything=True) == 9
    assert decisions(engine).empty and attempts(engine).empty
    engine.dispose()


def test_a_day_is_the_local_calendar_day():
    start, end = day_bounds(date(2026, 12, 4))
    assert end - start == timedelta(days=1)
    local_midnight = datetime(2026, 12, 4).astimezone()
    assert start == local_midnight.astimezone(UTC).replace(tzinfo=None)


def test_a_new_sqlite_record_is_its_users_alone(tmp_path, monkeypatch):
    """The record's file is made ``0600`` in a folder made ``0700`` (with a umask that would give ``0644`` and
    ``0755``), its write-ahead log too; the default folder likewise; a file that exists keeps its permissions."""
    old = os.umask(0o022)
    try:
        path = tmp_path / "school" / "record.sqlite"
        engine = connect(f"sqlite:///{path}")
        upgrade(engine)
        with engine.connect() as connection:  # the write-ahead log exists while a connection is open
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
            assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
            wal = path.with_name(path.name + "-wal")
            assert wal.exists() and stat.S_IMODE(wal.stat().st_mode) == 0o600
            assert connection.execute(text("SELECT count(*) FROM visits")).scalar() == 0
        engine.dispose()
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
        assert stat.S_IMODE(Path(make_url(default_url()).database).parent.stat().st_mode) == 0o700
        shared = tmp_path / "shared.sqlite"
        shared.touch(mode=0o640)
        connect(f"sqlite:///{shared}").dispose()
        assert stat.S_IMODE(shared.stat().st_mode) == 0o640
    finally:
        os.umask(old)


def test_the_kernel_records_only_with_a_record(monkeypatch, tmp_path):
    monkeypatch.delenv("DRAGONKIT_RECORD", raising=False)
    assert record_url() is None and not visit("play").recording
    monkeypatch.setenv("DRAGONKIT_RECORD", "off")
    assert record_url() is None
    monkeypatch.setenv("DRAGONKIT_RECORD", "not a url")
    with pytest.raises(ValueError, match="not a database URL"):
        record_url()
    monkeypatch.setenv("DRAGONKIT_CLASS", "  ")
    assert class_name() == "class"


def test_a_page_writes_its_nickname_from_its_address(recording, monkeypatch):
    """The nickname composed (a decomposed "Zoë" is "Zoë", not "Zoe", another student's); an address with two
    nicknames, or with one a nickname may not be, gives none (the server answers it with its join page)."""
    monkeypatch.setenv("QUERY_STRING", "lang=it&nickname=Zoe%CC%88")
    page = visit("play", "it")
    assert page.recording and page.class_name == "3B"
    page.attempt(AttemptRow("01-play-and-observe", "1", "12", True))
    assert record_session.flush()
    engine = connect(recording)
    found = attempts(engine)
    assert found["nickname"].tolist() == ["Zoë"] and found["language"].tolist() == ["it"]
    with engine.connect() as connection:
        assert connection.execute(text("SELECT nickname FROM visits")).scalar() == "Zoë"
    engine.dispose()
    for query in ("nickname=Ada&nickname=%3C%3E", "nickname=Ada&nickname=Ada", "nickname=Zo%C3%AB+%F0%9F%90%89"):
        monkeypatch.setenv("QUERY_STRING", query)
        assert record_session.nickname() == "", query


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("  Ada  ", "Ada"),
        ("Ada \t  L.", "Ada L."),
        ("a" * 24, "a" * 24),
        ("O'Neil-Ó_2", "O'Neil-Ó_2"),
        ("Zoe\u0308", "Zoë"),
        ("Đặng Thị", "Đặng Thị"),
        ("李小龍", "李小龍"),
        ("नमस्ते", "नमस्ते"),
    ],
)
def test_a_nickname_is_kept_whole_and_composed(given, kept):
    assert nickname_of(given) == kept


@pytest.mark.parametrize(
    ("given", "problem", "character"),
    [
        ("   ", NicknameProblem.EMPTY, ""),
        ("a" * 25, NicknameProblem.TOO_LONG, ""),
        ("Zoë 🐉", NicknameProblem.CHARACTER, "🐉"),
        ("<script>", NicknameProblem.CHARACTER, "<"),
        ("Ada\u200bL", NicknameProblem.CHARACTER, "\u200b"),
        ("Ada²", NicknameProblem.CHARACTER, "²"),
    ],
)
def test_a_nickname_with_what_it_may_not_hold_is_refused_never_changed(given, problem, character):
    with pytest.raises(NicknameError) as refused:
        nickname_of(given)
    assert refused.value.problem is problem and refused.value.character == character
    if character:
        assert repr(character) in str(refused.value) and "letters, digits, spaces and . ' - _" in str(refused.value)


def test_an_address_gives_one_nickname_or_none():
    assert query_nickname([]) is None and query_nickname([" Bo "]) == "Bo"
    for given in (["Ada", "<>"], ["Ada", "Ada"]):
        with pytest.raises(NicknameError) as refused:
            query_nickname(given)
        assert refused.value.problem is NicknameProblem.REPEATED


def test_a_preheated_page_waits_for_its_student_before_it_shows_as_playing(recording, monkeypatch):
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.delenv("QUERY_STRING", raising=False)
    page = visit("play")
    page.seen()
    assert record_session.flush()
    engine = connect(recording)
    assert present(engine).empty
    monkeypatch.setenv("QUERY_STRING", "nickname=Bo")  # the visitor's request arrives (dragonkit.ui.visitor)
    page.seen()
    assert record_session.flush()
    assert present(engine)["nickname"].tolist() == ["Bo"]
    engine.dispose()


def test_a_kernel_without_a_record_never_loads_sqlalchemy():
    import subprocess
    import sys

    code = (
        "import sys, os; os.environ.pop('DRAGONKIT_RECORD', None); import dragonkit.record as r; "
        "r.visit('play').seen(); print('sqlalchemy' in sys.modules)"
    )
    assert (
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
        == "False"
    )


def test_two_threads_of_one_process_bring_a_new_record_up_to_date_once(tmp_path):
    """A kernel's writer and its rooms both upgrade a new record at once: Alembic's context is the process's, so one
    waits for the other."""
    import threading

    engine = connect(f"sqlite:///{tmp_path / 'new.sqlite'}")
    errors = []

    def bring_up():
        try:
            upgrade(engine)
        except Exception as exc:  # any error is the failure this test looks for
            errors.append(exc)

    threads = [threading.Thread(target=bring_up) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and revision(engine) == head()
    engine.dispose()
