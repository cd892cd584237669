"""The class's record as tables: the visits (a page a student opened), their decisions, their exercise attempts and
their games, and the rooms (a table students share from their own pages: its seats and its moves in order), declared
with SQLAlchemy's ORM (:class:`Base`'s metadata is what the migrations build).

Every row written from a kernel carries an ``event_id`` made in that kernel (a UUID's 32 hex digits), unique in its
table: a write retried after a connection that broke mid-commit is stored once (the writer inserts "on conflict do
nothing"). Times are UTC, without a time zone (SQLite keeps none). The only personal data is the ``nickname`` a student
gives, and what makes it the student's: the digest of a secret that only their browser keeps (:class:`NicknameHold`);
nothing identifies an address or a machine.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "EVENTS",
    "TABLES",
    "Attempt",
    "Base",
    "Decision",
    "GamePlayed",
    "NicknameHold",
    "Room",
    "RoomMove",
    "RoomSeat",
    "Visit",
]

#: The longest nickname, class name, page name and edition name stored (characters).
NAME = 40


class Base(DeclarativeBase):
    """The record's tables."""


def _unique_where(name: str, columns: tuple[str, ...], where: str) -> Index:
    """A partial unique index ``name`` over ``columns``: unique among the rows where ``where`` holds (SQL), in SQLite
    and PostgreSQL alike."""
    return Index(name, *columns, unique=True, sqlite_where=text(where), postgresql_where=text(where))


class Visit(Base):
    """A page a student opened: who, in which class, which page, when; ``last_seen`` moves on with each row the
    page writes and with its heartbeat (:data:`dragonkit.record.session.HEARTBEAT`), so "playing now" is a visit seen
    lately."""

    __tablename__ = "visits"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    class_name: Mapped[str] = mapped_column(String(NAME), index=True)
    nickname: Mapped[str] = mapped_column(String(NAME))
    page: Mapped[str] = mapped_column(String(NAME))
    language: Mapped[str] = mapped_column(String(8))
    started: Mapped[datetime] = mapped_column(DateTime)
    last_seen: Mapped[datetime] = mapped_column(DateTime, index=True)


class _Event:
    """The columns every event row has."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(String(32), unique=True)
    visit_id: Mapped[str] = mapped_column(String(32))
    class_name: Mapped[str] = mapped_column(String(NAME))
    nickname: Mapped[str] = mapped_column(String(NAME))
    at: Mapped[datetime] = mapped_column(DateTime)


class Decision(_Event, Base):
    """A decision a student made for their own seat in the play app or the trainer: the public situation, the
    action, what the coach's two views said of each option, and the seconds it took.

    ``situation`` is the public state as JSON (:func:`dragonkit.record.rows.situation_fields`); ``gems`` maps each
    legal action to its expected gems for the turn, exact, as ``"p/q"``; ``win`` maps each to the chance of winning
    the game after it (None where the coach had none); ``gems_given_up`` is the best option's expected gems minus the
    chosen one's (≥ 0, gems); ``card`` is the card a reveal turned up (``"1"``…``"4"`` steps of a footprint, ``"stop"``,
    ``"danger"``; public once revealed), None for the other actions.
    """

    __tablename__ = "decisions"
    app: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    edition: Mapped[str] = mapped_column(String(NAME))
    players: Mapped[int] = mapped_column(Integer)
    stage: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    pot: Mapped[int] = mapped_column(Integer)
    cards_left: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(16))
    situation: Mapped[dict[str, Any]] = mapped_column(JSON)
    action: Mapped[str] = mapped_column(String(16))
    card: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seconds: Mapped[float] = mapped_column(Float)
    gems: Mapped[dict[str, str]] = mapped_column(JSON)
    win: Mapped[dict[str, float] | None] = mapped_column(JSON, nullable=True)
    win_source: Mapped[str | None] = mapped_column(String(16), nullable=True)
    best_gems: Mapped[list[str]] = mapped_column(JSON)
    best_win: Mapped[list[str]] = mapped_column(JSON)
    verdict: Mapped[str] = mapped_column(String(16))
    gems_given_up: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_decisions_class_at", "class_name", "at"),)


class Attempt(_Event, Base):
    """An answer a student checked in a lesson's exercise: the lesson, the exercise, the answer as typed, whether it
    was right, and how many hints they had opened.

    ``lesson`` is the notebook's stem (``"02-the-next-card"``: its first two digits are the lesson's number),
    ``exercise`` the exercise's number within it (``"3"``), the same in every language; ``answer`` is the text typed,
    or for a choice the option's index (``"0"`` for the first): :mod:`dragonkit.teach.attempts`.
    """

    __tablename__ = "attempts"
    lesson: Mapped[str] = mapped_column(String(NAME))
    exercise: Mapped[str] = mapped_column(String(NAME))
    answer: Mapped[str] = mapped_column(Text)
    correct: Mapped[bool] = mapped_column(Boolean)
    hints: Mapped[int] = mapped_column(Integer)
    language: Mapped[str] = mapped_column(String(8))

    __table_args__ = (Index("ix_attempts_class_at", "class_name", "at"),)


class GamePlayed(_Event, Base):
    """A game of the play app that ended: the edition, who sat where (``"human"`` or a bot's kind), the gems at the
    end and the winners' seats."""

    __tablename__ = "games"
    game_id: Mapped[str] = mapped_column(String(32))
    edition: Mapped[str] = mapped_column(String(NAME))
    seats: Mapped[list[str]] = mapped_column(JSON)
    gems: Mapped[list[int]] = mapped_column(JSON)
    winners: Mapped[list[int]] = mapped_column(JSON)
    ending: Mapped[str] = mapped_column(String(16))

    __table_args__ = (Index("ix_games_class_at", "class_name", "at"),)


class Room(Base):
    """A room: a table of 2 to 6 seats that students share, each from their own page (:mod:`dragonkit.record.rooms`).

    ``code`` is what players type to join (:data:`dragonkit.record.rooms.CODE_ALPHABET`); ``seed`` makes the order
    of the deck, so it is read on the server's side only (it never reaches a browser); ``coach`` is ``"on"``,
    ``"off"`` or ``"after"`` (the game); ``leave_after`` the seconds a seat waits for a player who left before a bot
    plays it; ``status`` ``"waiting"`` (for players), ``"playing"``, ``"over"`` or ``"closed"``; ``version`` grows with
    every change (a seat taken, the start, a move), so a page asks one number to know whether to read the room again;
    ``next_code`` is the room where its table plays again once its game is over
    (:func:`~dragonkit.record.rooms.rematch`).
    """

    __tablename__ = "rooms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(8), unique=True)
    class_name: Mapped[str] = mapped_column(String(NAME), index=True)
    edition: Mapped[str] = mapped_column(String(NAME))
    seats: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    coach: Mapped[str] = mapped_column(String(8))
    leave_after: Mapped[int] = mapped_column(Integer)
    host: Mapped[str] = mapped_column(String(NAME))
    status: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str] = mapped_column(String(32))
    created: Mapped[datetime] = mapped_column(DateTime)
    changed: Mapped[datetime] = mapped_column(DateTime)
    next_code: Mapped[str | None] = mapped_column(String(8), nullable=True)

    __table_args__ = (  # one room waiting per host of a class at most (migration 0004)
        _unique_where("ix_rooms_one_waiting_per_host", ("class_name", "host"), "status = 'waiting'"),
    )


class RoomSeat(Base):
    """A seat of a room: the name it plays under, the student sitting there (``nickname``; None: a bot's seat) or the
    bot's kind, which page holds it now (``holder``, a page's id; None: nobody's page) and when that page was last
    seen."""

    __tablename__ = "room_seats"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(NAME))
    nickname: Mapped[str | None] = mapped_column(String(NAME), nullable=True)
    kind: Mapped[str] = mapped_column(String(16))
    holder: Mapped[str | None] = mapped_column(String(32), nullable=True)
    last_seen: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class RoomMove(Base):
    """A move of a room's game, in order: ``seq`` 1, 2, … is the primary key with the room, so that of two moves made
    at once exactly one is the next (the other is checked again against the game it now meets); ``by`` says who made
    it: ``"player"`` (the seat's student), ``"bot"`` (a bot's seat) or ``"stand-in"`` (a bot for a player who left);
    ``event_id`` is unique, so a move sent again is stored once."""

    __tablename__ = "room_moves"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(16))
    by: Mapped[str] = mapped_column(String(16))
    event_id: Mapped[str] = mapped_column(String(32), unique=True)
    at: Mapped[datetime] = mapped_column(DateTime)


class NicknameHold(Base):
    """A nickname of a class held by the browser that took it (:mod:`dragonkit.record.holds`): the SHA-256 digest of
    the secret that browser keeps in a cookie (never the secret), when it was taken, and when the teacher released it
    (None: held still). ``look_alike`` is what the nickname shares with the nicknames a reader could take for it
    (:func:`~dragonkit.record.nicknames.look_alike_key`): a class has one hold not released per look-alike at most (a
    partial unique index, migration 0005); the released ones stay, so that the dashboard says when each release
    happened."""

    __tablename__ = "nickname_holds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    class_name: Mapped[str] = mapped_column(String(NAME))
    nickname: Mapped[str] = mapped_column(String(NAME))
    look_alike: Mapped[str] = mapped_column(Text)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    taken: Mapped[datetime] = mapped_column(DateTime)
    released: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    __table_args__ = (  # one hold of a class's nickname not released at most (migration 0005)
        _unique_where("ix_nickname_holds_held", ("class_name", "look_alike"), "released IS NULL"),
    )


#: The event tables by name (a row each of a student's decisions, attempts and games), as the readers name them.
EVENTS: dict[str, type[Decision | Attempt | GamePlayed]] = {
    "decisions": Decision,
    "attempts": Attempt,
    "games": GamePlayed,
}
#: The tables a kernel writes (the visits and the event tables) by name, as the writer and the readers name them.
TABLES: dict[str, type[Visit | Decision | Attempt | GamePlayed]] = {"visits": Visit, **EVENTS}
