"""Nicknames held in the class's record (dragonkit.record.holds), on SQLite and on PostgreSQL: the first browser holds
a nickname, the record keeps only its secret's digest, another browser is refused until the teacher releases it, and
the dashboard's table says when each release happened."""

from __future__ import annotations

import threading
from datetime import date, datetime, timedelta

import pandas as pd
import pytest
from sqlalchemy import func, select

from dragonkit.record import holds
from dragonkit.record.erase import erase
from dragonkit.record.holds import NicknameTakenError
from dragonkit.record.reading import HOLD_COLUMNS, nickname_holds
from dragonkit.record.schema import NicknameHold
from dragonkit.record.store import connect

MONDAY = datetime(2026, 12, 7, 8, 30)


@pytest.fixture
def engine(record_url):
    engine = connect(record_url)
    yield engine
    engine.dispose()


def _rows(engine) -> list[tuple]:
    with engine.connect() as connection:
        query = select(NicknameHold.class_name, NicknameHold.nickname, NicknameHold.digest, NicknameHold.released)
        return [tuple(row) for row in connection.execute(query.order_by(NicknameHold.id))]


def test_the_first_browser_holds_a_nickname_and_the_record_keeps_only_its_secrets_digest(engine):
    secret = holds.take(engine, "3B", "Ada", MONDAY)
    assert len(secret) == 43 and holds.holder(engine, "3B", secret) == "Ada"
    assert holds.released_from(engine, "3B", secret) is None
    assert _rows(engine) == [("3B", "Ada", holds.digest(secret), None)]
    assert secret not in str(_rows(engine))
    assert holds.holder(engine, "3B", secret + "x") is None and holds.holder(engine, "3B", "") is None
    assert holds.holder(engine, "4A", secret) is None  # a hold is of its class


def test_another_browser_is_refused_and_nothing_is_written(engine):
    holds.take(engine, "3B", "Ada", MONDAY)
    before = _rows(engine)
    with pytest.raises(NicknameTakenError, match="'Ada' of class '3B' is held by another browser"):
        holds.take(engine, "3B", "Ada", MONDAY)
    assert _rows(engine) == before
    assert holds.holder(engine, "4A", holds.take(engine, "4A", "Ada", MONDAY)) == "Ada"  # another class's Ada
    for look_alike in ("ada", "ADA", "\uff21da"):  # another case, a fullwidth letter: a classmate's look-alike
        with pytest.raises(NicknameTakenError):
            holds.take(engine, "3B", look_alike, MONDAY)


def test_a_release_lets_the_next_browser_hold_it_and_is_kept_with_its_time(engine):
    first = holds.take(engine, "3B", "Ada", MONDAY)
    holds.take(engine, "3B", "Bo", MONDAY)
    assert holds.release(engine, "3B", "Ada", MONDAY + timedelta(minutes=10))
    assert not holds.release(engine, "3B", "Ada", MONDAY + timedelta(minutes=11))  # nobody holds it now
    assert holds.holder(engine, "3B", first) is None and holds.released_from(engine, "3B", first) == "Ada"
    second = holds.take(engine, "3B", "Ada", MONDAY + timedelta(minutes=12))
    assert holds.holder(engine, "3B", second) == "Ada" and second != first
    holds.release(engine, "3B", "Ada", MONDAY + timedelta(minutes=20))

    table = nickname_holds(engine, "3B")
    assert list(table.columns) == HOLD_COLUMNS and list(table["nickname"]) == ["Ada", "Bo"]
    ada, bo = table.iloc[0], table.iloc[1]
    assert not ada["held"] and ada["releases"] == 2 and ada["last_released"] == MONDAY + timedelta(minutes=20)
    assert ada["taken"] == MONDAY + timedelta(minutes=12)
    assert bo["held"] and bo["releases"] == 0 and pd.isna(bo["last_released"])
    assert nickname_holds(engine, "4A").empty and list(nickname_holds(engine, "4A").columns) == HOLD_COLUMNS


def test_browsers_joining_with_one_nickname_at_once_leave_one_holding_it(engine):
    """Eight browsers send "Cy" at the same moment: the database's index lets one hold it, the others are told."""
    start, held, refused = threading.Barrier(8), [], []

    def join() -> None:
        start.wait()
        try:
            held.append(holds.take(engine, "3B", "Cy", MONDAY))
        except NicknameTakenError:
            refused.append(1)

    threads = [threading.Thread(target=join) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(held) == 1 and len(refused) == 7
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(NicknameHold)).scalar_one() == 1


def test_erasing_a_class_erases_its_holds(engine):
    holds.take(engine, "3B", "Ada")
    holds.take(engine, "4A", "Ada")
    assert erase(engine, class_name="3B", day=date.today() - timedelta(days=3)) == 0
    assert erase(engine, class_name="3B") == 1
    assert [row[0] for row in _rows(engine)] == ["4A"]
