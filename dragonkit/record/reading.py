"""Reading the class's record: its tables as pandas DataFrames, for the teacher's dashboard, the lessons' "our class"
and ``dragonkit class export``.

Each reader takes the engine (:func:`dragonkit.record.store.connect`), or a connection of :func:`snapshot` where
several readings must agree, and narrows to a class, a day (the machine's local calendar day) and, for a dashboard
that updates itself, to the rows after the last one it has (``after``: a row's ``id``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

import pandas as pd
from sqlalchemy import Connection, Engine, Select, func, select

from .schema import EVENTS, TABLES, Attempt, Decision, GamePlayed, NicknameHold, Room, RoomMove, RoomSeat, Visit

__all__ = [
    "EXPORTS",
    "HOLD_COLUMNS",
    "ROOM_COLUMNS",
    "attempts",
    "columns",
    "day_bounds",
    "decisions",
    "decisions_in_game",
    "export",
    "games",
    "nickname_holds",
    "present",
    "rooms",
    "rows",
    "snapshot",
]

#: The columns of :func:`nickname_holds`'s table.
HOLD_COLUMNS = ["nickname", "held", "taken", "releases", "last_released"]
#: The file formats ``dragonkit class export`` writes, by suffix.
EXPORTS = (".csv", ".parquet")


@contextmanager
def snapshot(engine: Engine) -> Iterator[Connection]:
    """A connection whose readings all see the record as one moment left it: one read transaction, so that rows
    another process commits meanwhile (a kernel's game with its decisions, in one transaction) are seen whole by the
    next snapshot, never in part by this one (the dashboard once announced a game whose decisions it had not read).

    PostgreSQL: the transaction is ``REPEATABLE READ`` (its default, ``READ COMMITTED``, gives each statement a moment
    of its own). SQLite: ``BEGIN`` is sent at once (its Python driver begins no transaction before a ``SELECT``), and
    the write-ahead log keeps that moment for the transaction's reads while writers go on.

    Parameters
    ----------
    engine : sqlalchemy.Engine

    Yields
    ------
    sqlalchemy.Connection
        For the readers of this module; the transaction is rolled back (nothing was written) when the block ends.

    Raises
    ------
    sqlalchemy.exc.SQLAlchemyError
        If the database cannot be reached or read.
    """
    with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            connection.execution_options(isolation_level="REPEATABLE READ")
        elif engine.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN")
        yield connection


@contextmanager
def _connected(source: Engine | Connection) -> Iterator[Connection]:
    """``source`` itself where it is a connection (a :func:`snapshot`'s), else a connection of the engine."""
    if isinstance(source, Connection):
        yield source
    else:
        with source.connect() as connection:
            yield connection


def day_bounds(day: date) -> tuple[datetime, datetime]:
    """The UTC times (without a zone, as the record keeps them) between which ``day`` of this machine's calendar
    lies: ``[start, end)``."""
    start = datetime.combine(day, time()).astimezone()  # the local midnight, with the local zone
    end = datetime.combine(day + timedelta(days=1), time()).astimezone()
    return start.astimezone(UTC).replace(tzinfo=None), end.astimezone(UTC).replace(tzinfo=None)


def _narrowed(
    query: Select[*tuple[Any, ...]],
    table: type[Decision | Attempt | GamePlayed],
    class_name: str | None,
    day: date | None,
    after: int = 0,
) -> Select[*tuple[Any, ...]]:
    if class_name is not None:
        query = query.where(table.class_name == class_name)
    if day is not None:
        start, end = day_bounds(day)
        query = query.where(table.at >= start, table.at < end)
    if after:
        query = query.where(table.id > after)
    return query.order_by(table.id)


def columns(table: str) -> list[str]:
    """The columns of the record's ``table`` (``"visits"``, ``"decisions"``, ``"attempts"``, ``"games"``), in the
    order the readers give them.

    Raises
    ------
    KeyError
        If the record has no such table.
    """
    return [c.name for c in TABLES[table].__table__.columns]


def rows(
    engine: Engine | Connection, table: str, class_name: str | None = None, day: date | None = None, after: int = 0
) -> pd.DataFrame:
    """The rows of the record's ``table`` (``"decisions"``, ``"attempts"``, ``"games"``), oldest first.

    Parameters
    ----------
    engine : sqlalchemy.Engine or sqlalchemy.Connection
        The record, or a connection of :func:`snapshot`.
    table : str
    class_name : str, optional
        Only this class's rows.
    day : datetime.date, optional
        Only this day's (local calendar).
    after : int
        Only the rows whose ``id`` is greater.

    Returns
    -------
    pandas.DataFrame
        One row per row of the table, its columns the table's (JSON columns as Python values).

    Raises
    ------
    ValueError
        If ``table`` is not one of the event tables.
    """
    if table not in EVENTS:
        raise ValueError(f"the record's event tables are decisions, attempts and games, not {table!r}")
    model = EVENTS[table]
    query = _narrowed(select(*model.__table__.columns), model, class_name, day, after)
    with _connected(engine) as connection:
        found = connection.execute(query).all()
    return pd.DataFrame([tuple(r) for r in found], columns=columns(table))


def decisions(
    engine: Engine | Connection, class_name: str | None = None, day: date | None = None, after: int = 0
) -> pd.DataFrame:
    """The decisions (:class:`~dragonkit.record.schema.Decision`): see :func:`rows`."""
    return rows(engine, Decision.__tablename__, class_name, day, after)


def decisions_in_game(engine: Engine, game_id: str, nickname: str) -> list[dict[str, Any]]:
    """``nickname``'s decisions in the game ``game_id`` (a room's, whose player may have played from several pages),
    oldest first, each a dict of the ``decisions`` table's columns."""
    query = (
        select(*Decision.__table__.columns)
        .where(Decision.game_id == game_id, Decision.nickname == nickname)
        .order_by(Decision.id)
    )
    with engine.connect() as connection:
        return [dict(r._mapping) for r in connection.execute(query).all()]


def attempts(
    engine: Engine | Connection, class_name: str | None = None, day: date | None = None, after: int = 0
) -> pd.DataFrame:
    """The exercise attempts (:class:`~dragonkit.record.schema.Attempt`): see :func:`rows`."""
    return rows(engine, Attempt.__tablename__, class_name, day, after)


def games(
    engine: Engine | Connection, class_name: str | None = None, day: date | None = None, after: int = 0
) -> pd.DataFrame:
    """The games that ended (:class:`~dragonkit.record.schema.GamePlayed`): see :func:`rows`."""
    return rows(engine, GamePlayed.__tablename__, class_name, day, after)


def present(engine: Engine | Connection, class_name: str | None = None, within: float = 60.0) -> pd.DataFrame:
    """The pages seen in the last ``within`` seconds (who is on the kit now), the latest first.

    Returns
    -------
    pandas.DataFrame
        Columns ``nickname``, ``page``, ``language``, ``started``, ``last_seen`` (UTC).
    """
    since = datetime.now(UTC).replace(tzinfo=None) - timedelta(seconds=within)
    query = select(Visit.nickname, Visit.page, Visit.language, Visit.started, Visit.last_seen).where(
        Visit.last_seen >= since
    )
    if class_name is not None:
        query = query.where(Visit.class_name == class_name)
    with _connected(engine) as connection:
        found = connection.execute(query.order_by(Visit.last_seen.desc())).all()
    return pd.DataFrame([tuple(r) for r in found], columns=["nickname", "page", "language", "started", "last_seen"])


#: The columns of :func:`rooms`' table.
ROOM_COLUMNS = [
    "code",
    "edition",
    "status",
    "coach",
    "host",
    "players",
    "kinds",
    "moves",
    "game_id",
    "created",
    "changed",
]


def rooms(engine: Engine | Connection, class_name: str | None = None) -> pd.DataFrame:
    """The class's rooms that are not closed (waiting, playing, or with their game over), newest first: their code,
    edition, status, coach's setting, host, players and moves so far (never their seed). The closed ones (a host
    left before the game, a waiting room left idle, a table nobody came back to) are not read: a page that opened
    many rooms could hide the class's rooms from the teacher's view among the latest.

    Returns
    -------
    pandas.DataFrame
        :data:`ROOM_COLUMNS`: ``players`` a list of the seats' names, ``kinds`` of ``"human"`` or the bot's kind,
        ``moves`` the moves made, ``game_id`` the game's id in the record's ``games`` once it has ended.
    """
    query = (
        select(Room.id, *(getattr(Room, c) for c in ROOM_COLUMNS if hasattr(Room, c)))
        .where(Room.status != "closed")
        .order_by(Room.id.desc())
    )
    if class_name is not None:
        query = query.where(Room.class_name == class_name)
    with _connected(engine) as connection:
        found = connection.execute(query).all()
        ids = [r.id for r in found]
        seats = connection.execute(
            select(RoomSeat.room_id, RoomSeat.name, RoomSeat.kind)
            .where(RoomSeat.room_id.in_(ids))
            .order_by(RoomSeat.room_id, RoomSeat.seat)
        ).all()
        moves = dict(
            connection.execute(
                select(RoomMove.room_id, func.count()).where(RoomMove.room_id.in_(ids)).group_by(RoomMove.room_id)
            ).all()
        )
    names: dict[int, list[str]] = {i: [] for i in ids}
    kinds: dict[int, list[str]] = {i: [] for i in ids}
    for seat in seats:
        names[seat.room_id].append(seat.name)
        kinds[seat.room_id].append(seat.kind)
    table = [
        {
            **{c: getattr(r, c) for c in ROOM_COLUMNS if c not in ("players", "kinds", "moves")},
            "players": names[r.id],
            "kinds": kinds[r.id],
            "moves": int(moves.get(r.id, 0)),
        }
        for r in found
    ]
    return pd.DataFrame(table, columns=ROOM_COLUMNS)


def nickname_holds(engine: Engine | Connection, class_name: str) -> pd.DataFrame:
    """Each nickname of ``class_name`` ever held (:mod:`dragonkit.record.holds`), with when its browser took it and
    its releases.

    Returns
    -------
    pandas.DataFrame
        A row per nickname, sorted by nickname: ``nickname``; ``held`` (bool: a browser holds it now); ``taken``
        (datetime, UTC: when the browser that holds it, or held it last, took it); ``releases`` (int) and
        ``last_released`` (datetime, UTC, or NaT: never released).
    """
    query = (
        select(NicknameHold.nickname, NicknameHold.taken, NicknameHold.released)
        .where(NicknameHold.class_name == class_name)
        .order_by(NicknameHold.nickname, NicknameHold.taken)
    )
    with _connected(engine) as connection:
        rows = pd.DataFrame(connection.execute(query).all(), columns=["nickname", "taken", "released"])
    if rows.empty:
        return pd.DataFrame(columns=HOLD_COLUMNS)
    rows["released"] = pd.to_datetime(rows["released"])
    by_nickname = rows.groupby("nickname", sort=True)
    table = pd.DataFrame(
        {
            "held": by_nickname["released"].apply(lambda released: bool(released.isna().any())),
            "taken": by_nickname["taken"].max(),
            "releases": by_nickname["released"].count(),
            "last_released": by_nickname["released"].max(),
        }
    )
    return table.reset_index()[HOLD_COLUMNS]


def export(engine: Engine, path: Path, class_name: str | None = None, day: date | None = None) -> int:
    """Write the decisions and the exercise attempts to ``path``, one row a decision or an attempt (column ``kind``:
    ``"decision"`` or ``"attempt"``; the columns of the other kind empty), oldest first; CSV or Parquet by the
    file's suffix. The JSON columns (the situation, the coach's views) are written as JSON text.

    Parameters
    ----------
    engine : sqlalchemy.Engine
    path : pathlib.Path
        ``….csv`` or ``….parquet``.
    class_name : str, optional
    day : datetime.date, optional

    Returns
    -------
    int
        The rows written.

    Raises
    ------
    ValueError
        If the suffix is neither ``.csv`` nor ``.parquet``.
    """
    import json

    suffix = path.suffix.lower()
    if suffix not in EXPORTS:
        raise ValueError(f"export to a .csv or a .parquet file, not {path.name!r}")
    parts = []
    with snapshot(engine) as moment:  # the decisions and the attempts of one moment
        read = [("decision", decisions(moment, class_name, day)), ("attempt", attempts(moment, class_name, day))]
    for kind, frame in read:
        frame = frame.drop(columns=["id"]).assign(kind=kind)
        for column in ("situation", "gems", "win", "best_gems", "best_win"):
            if column in frame:
                frame[column] = frame[column].map(lambda v: None if v is None else json.dumps(v, sort_keys=True))
        parts.append(frame.convert_dtypes())  # integers stay integers beside the other kind's empty cells
    table = pd.concat([p for p in parts if not p.empty] or parts[:1], ignore_index=True)
    table = table.sort_values("at", kind="stable", ignore_index=True)
    first = ["kind", "at", "class_name", "nickname"]
    table = table[first + [c for c in table.columns if c not in first]]
    if suffix == ".csv":
        table.to_csv(path, index=False)
    else:
        table.to_parquet(path, index=False)
    return len(table)
