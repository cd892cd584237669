"""Rooms kept in the class's record: a table of 2 to 6 seats that students share, each from their own page.

The database is the one authoritative place of a room's game, outside every student's kernel: the room (its code,
edition, coach's setting, how long a seat waits for a player who left, the seed that orders its deck), its seats (who
sits where, which page holds the seat now, when that page was last seen) and its moves in order
(:class:`~dragonkit.record.schema.RoomMove`). A page replays the moves on the seeded game
(:meth:`RoomInfo.game`) and reads the room again when its :attr:`~RoomInfo.version` moves on; a kernel that dies, a
page that reloads or a laptop that reconnects reads the same moves and takes its seat back (:func:`hold`).

Two moves made at once meet in :func:`record_move`: the key ``(room, seq)`` takes one of them as move ``seq`` and
refuses the other (:class:`MoveConflictError`), whose page reads the new moves and checks its move again against the
game it now meets; a move sent twice (its ``event_id``) is stored once. A move for a seat is recorded only from the
page that holds that seat (:class:`SeatLostError` otherwise), and the game's own legality check comes before it
(:class:`~dragonkit.engine.IllegalActionError`): a forged click changes nothing.

A room's code is :data:`CODE_LENGTH` symbols of :data:`CODE_ALPHABET` (no 0 or O, no 1 or I: read aloud and typed
without a doubt); the seed, hence the deck's order, is read here and in the kernels only, never written to a page
(:class:`RoomInfo`'s ``seed`` is left out of its ``repr``).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from sqlalchemy import Connection, Engine, Row, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..bots import BotKind
from ..engine import Game
from ..rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Message, Ruleset
from .room_settings import LEAVE_AFTER, RoomCoach
from .schema import NAME, Room, RoomMove, RoomSeat

__all__ = [
    "ABANDONED",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "LEAVE_AFTER",
    "LIVE",
    "MoveBy",
    "MoveConflictError",
    "RoomCoach",
    "RoomError",
    "RoomInfo",
    "RoomNotFoundError",
    "RoomStatus",
    "RoomWaitingError",
    "SeatInfo",
    "SeatLostError",
    "StoredMove",
    "close",
    "close_abandoned",
    "heartbeat",
    "hold",
    "kernel_engine",
    "leave",
    "moves",
    "normal_code",
    "open_room",
    "read",
    "record_move",
    "rematch",
    "rooms_of",
    "sit",
    "start",
    "version",
]

#: The symbols of a room's code: capitals and digits without 0, O, 1 and I (32 symbols).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: The symbols in a code: 32⁵ ≈ 33.5 million codes, so that guessing one is hopeless.
CODE_LENGTH = 5
#: A page seen within this many seconds is live (it sends a sign of life every second or two).
LIVE = 8.0
#: A room is abandoned when nothing moved in it and no page of its players was seen for this long (seconds): the
#: server closes it at its start (:func:`close_abandoned`).
ABANDONED = 2 * 3600


class RoomStatus(StrEnum):
    """A room's life: waiting for its players, playing, its game over, or closed before its end."""

    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"
    CLOSED = "closed"


class MoveBy(StrEnum):
    """Who made a room's move: the seat's student, the bot of a bot's seat, or a bot standing in for a player who
    left."""

    PLAYER = "player"
    BOT = "bot"
    STAND_IN = "stand-in"


class RoomError(ValueError):
    """A room refused what was asked; its only argument is a :class:`~dragonkit.rules.Message` that says why."""


class RoomNotFoundError(RoomError):
    """No room has this code (or the code cannot be one)."""


class SeatLostError(RoomError):
    """The page does not hold the seat (another page took it, or the room has no such seat)."""


class RoomWaitingError(RoomError):
    """The host has a room of the class still waiting for its players (:attr:`code`): a host holds one at most."""

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(Message("your room {code} is still waiting for its players: start it, or leave it", code=code))


class MoveConflictError(RoomError):
    """Another move was recorded first as the move this one wanted to be: read the moves again."""


@dataclass(frozen=True)
class SeatInfo:
    """A seat of a room as the record has it.

    Attributes
    ----------
    seat : int
        0-based.
    name : str
        The name the seat plays under (the student's nickname, or the bot's name).
    nickname : str or None
        The student sitting there; None for a bot's seat.
    kind : BotKind
        :attr:`BotKind.HUMAN <dragonkit.bots.BotKind.HUMAN>` for a student's seat, else the bot's kind.
    holder : str or None
        The page that holds the seat now (its id); None: nobody's page.
    last_seen : datetime or None
        When that page was last seen (UTC).
    """

    seat: int
    name: str
    nickname: str | None
    kind: BotKind
    holder: str | None
    last_seen: datetime | None

    @property
    def is_person(self) -> bool:
        """Whether a student sits here."""
        return self.nickname is not None

    def seen_within(self, seconds: float, now: datetime | None = None) -> bool:
        """Whether a page holds the seat and was seen within ``seconds`` of ``now`` (UTC; default: now)."""
        if self.holder is None or self.last_seen is None:
            return False
        return (now or _now()) - self.last_seen <= timedelta(seconds=seconds)


@dataclass(frozen=True)
class RoomInfo:
    """A room as the record has it, its seats included (its moves: :func:`moves`).

    Attributes
    ----------
    id : int
    code : str
    class_name : str
    edition : str
        A preset's name (:data:`dragonkit.rules.PRESETS`).
    seats : tuple of SeatInfo
        2 to 6, in order.
    coach : RoomCoach
    leave_after : int
        Seconds a seat waits for a player who left before a bot plays it.
    host : str
        The nickname of the student who opened the room (seat 0).
    status : RoomStatus
    version : int
        Grows with every change of the room.
    game_id : str
        The game's id in the class's record (32 hex digits).
    created : datetime
    seed : int
        The seed of the deck's order (kept out of the ``repr``).
    """

    id: int
    code: str
    class_name: str
    edition: str
    seats: tuple[SeatInfo, ...]
    coach: RoomCoach
    leave_after: int
    host: str
    status: RoomStatus
    version: int
    game_id: str
    created: datetime
    seed: int = field(repr=False)

    @property
    def rules(self) -> Ruleset:
        """The edition's ruleset."""
        return PRESETS[self.edition]

    @property
    def players(self) -> tuple[str, ...]:
        """The seats' names, in order."""
        return tuple(s.name for s in self.seats)

    def seat_of(self, nickname: str) -> int | None:
        """The seat where ``nickname`` sits, or None."""
        return next((s.seat for s in self.seats if s.nickname == nickname), None)

    def game(self, moves: Sequence[StoredMove] = ()) -> Game:
        """The room's game (its seeded deck) after ``moves``.

        Raises
        ------
        IllegalActionError
            If a move is not legal where it falls (a record written by something else than dragonkit).
        """
        game = Game(self.players, self.rules, seed=self.seed)
        for move in moves:
            game.apply(move.action, by=move.seat)
        return game


@dataclass(frozen=True)
class StoredMove:
    """A room's move as the record has it: its number (1, 2, …), the seat, the action's value and who made it."""

    seq: int
    seat: int
    action: str
    by: MoveBy


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def normal_code(text: str) -> str:
    """``text`` as a room's code: capitals, without spaces or dashes (``"k7m-qx"`` → ``"K7MQX"``).

    Raises
    ------
    RoomNotFoundError
        If it cannot be a code (its length, or a symbol no code has: 0, O, 1, I, punctuation).
    """
    code = "".join(str(text).split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise RoomNotFoundError(
            Message(
                "{code} is not a room's code: a code has {length} letters and digits, without 0, O, 1 or I",
                code=repr(str(text)[: 2 * CODE_LENGTH]),
                length=CODE_LENGTH,
            )
        )
    return code


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _checked_name(name: str, what: str) -> str:
    name = " ".join(str(name).split())
    if not name or len(name) > NAME:
        raise RoomError(Message("{what} must have 1 to {most} characters", what=what, most=NAME))
    return name


def open_room(
    engine: Engine,
    class_name: str,
    host: str,
    edition: str,
    seats: Sequence[tuple[str, BotKind]],
    coach: RoomCoach | str = RoomCoach.ON,
    leave_after: int = LEAVE_AFTER[0],
    holder: str | None = None,
    seed: int | None = None,
) -> RoomInfo:
    """Open a room with a new code; ``host`` sits at seat 0, the other seats wait for players (until the game starts,
    their bots are who plays them if nobody comes).

    Parameters
    ----------
    engine : sqlalchemy.Engine
    class_name : str
    host : str
        The opener's nickname.
    edition : str
        A preset's name.
    seats : sequence of (str, BotKind)
        Every seat's name and kind for when no student takes it (a ``HUMAN`` there becomes the coach bot); seat 0's
        is the host's, whose name is their nickname.
    coach : RoomCoach or str
    leave_after : int
        Seconds (10 to 3,600).
    holder : str, optional
        The host's page, which holds seat 0 at once.
    seed : int, optional
        The deck's seed (default: a random one, 63 bits).

    Returns
    -------
    RoomInfo

    Raises
    ------
    RoomWaitingError
        If ``host`` has a room of ``class_name`` still waiting (a host holds one at most; the database's index
        ``ix_rooms_one_waiting_per_host`` keeps it so when two pages open one at the same moment); nothing is written.
    RoomError
        For an unknown edition, a number of seats outside 2–6, an unknown coach's setting, a wait outside 10 s to
        1 h, or an empty name; nothing is written.
    """
    if edition not in PRESETS:
        raise RoomError(Message("unknown edition {name}", name=repr(edition)))
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise RoomError(
            Message("a room has {low} to {high} seats, not {n}", low=MIN_PLAYERS, high=MAX_PLAYERS, n=len(seats))
        )
    try:
        coach = RoomCoach(coach)
    except ValueError:
        raise RoomError(Message("the coach is on, off or after the game, not {given}", given=repr(coach))) from None
    if not isinstance(leave_after, int) or not 10 <= leave_after <= 3600:
        raise RoomError(
            Message("a seat waits 10 to 3600 seconds for a player who left, not {given}", given=leave_after)
        )
    host = _checked_name(host, Message("a nickname"))
    names = [host] + [_checked_name(name, Message("a seat's name")) for name, _kind in seats[1:]]
    kinds = [BotKind.HUMAN] + [BotKind.COACH if BotKind(k) is BotKind.HUMAN else BotKind(k) for _n, k in seats[1:]]
    now = _now()
    seed = secrets.randbits(63) if seed is None else seed
    for _ in range(10):  # a code already taken (one chance in millions): draw another
        try:
            with engine.begin() as connection:
                waiting = _waiting_room(connection, class_name, host)
                if waiting is not None:
                    raise RoomWaitingError(waiting)
                room_id = connection.execute(
                    insert(Room)
                    .values(
                        code=_new_code(),
                        class_name=class_name,
                        edition=edition,
                        seats=len(seats),
                        seed=seed,
                        coach=coach.value,
                        leave_after=leave_after,
                        host=host,
                        status=RoomStatus.WAITING.value,
                        version=1,
                        game_id=uuid.uuid4().hex,
                        created=now,
                        changed=now,
                    )
                    .returning(Room.id)
                ).scalar_one()
                connection.execute(
                    insert(RoomSeat),
                    [
                        {
                            "room_id": room_id,
                            "seat": seat,
                            "name": names[seat],
                            "nickname": host if seat == 0 else None,
                            "kind": kinds[seat].value,
                            "holder": holder if seat == 0 else None,
                            "last_seen": now if seat == 0 and holder else None,
                        }
                        for seat in range(len(seats))
                    ],
                )
            return read(engine, room_id=room_id)
        except IntegrityError:
            with engine.connect() as connection:  # another page of the host opened one meanwhile, or the code was taken
                waiting = _waiting_room(connection, class_name, host)
            if waiting is not None:
                raise RoomWaitingError(waiting) from None
    raise RoomError(Message("no free room code was found; try again"))  # pragma: no cover - 10 collisions in 33 M


def _waiting_room(connection: Connection, class_name: str, host: str) -> str | None:
    """The code of the room of ``class_name`` that ``host`` opened and is still waiting, if any."""
    query = select(Room.code).where(
        Room.class_name == class_name, Room.host == host, Room.status == RoomStatus.WAITING.value
    )
    return connection.execute(query).scalar_one_or_none()


def read(engine: Engine, code: str | None = None, room_id: int | None = None) -> RoomInfo:
    """The room with ``code`` (as typed: :func:`normal_code`) or ``room_id``.

    Raises
    ------
    RoomNotFoundError
        If no room has it.
    """
    with engine.connect() as connection:
        query = select(Room)
        query = (
            query.where(Room.id == room_id)
            if room_id is not None
            else query.where(Room.code == normal_code(code or ""))
        )
        room = connection.execute(query).one_or_none()
        if room is None:
            raise RoomNotFoundError(Message("no room has the code {code}", code=code or ""))
        seats = connection.execute(select(RoomSeat).where(RoomSeat.room_id == room.id).order_by(RoomSeat.seat)).all()
    return _info(room, seats)


def _info(room: Row[Room], seats: Sequence[Row[RoomSeat]]) -> RoomInfo:
    return RoomInfo(
        id=room.id,
        code=room.code,
        class_name=room.class_name,
        edition=room.edition,
        seats=tuple(_seat(s) for s in seats),
        coach=RoomCoach(room.coach),
        leave_after=room.leave_after,
        host=room.host,
        status=RoomStatus(room.status),
        version=room.version,
        game_id=room.game_id,
        created=room.created,
        seed=room.seed,
    )


def _seat(row: Row[RoomSeat]) -> SeatInfo:
    return SeatInfo(
        seat=row.seat,
        name=row.name,
        nickname=row.nickname,
        kind=BotKind(row.kind),
        holder=row.holder,
        last_seen=row.last_seen,
    )


def _changed(connection: Connection, room_id: int, **values: object) -> None:
    """The room moved on: its version grows (and ``values`` are written), in the caller's transaction."""
    connection.execute(
        update(Room).where(Room.id == room_id).values(version=Room.version + 1, changed=_now(), **values)
    )


def sit(engine: Engine, code: str, nickname: str) -> tuple[RoomInfo, int]:
    """Seat ``nickname`` in the room with ``code``: at their seat if they have one (a student coming back), else at
    the first free seat while the room waits for its players.

    Returns
    -------
    (RoomInfo, int)
        The room, and the seat (0-based).

    Raises
    ------
    RoomNotFoundError
        If no room has the code.
    RoomError
        If the room is full, its game has started (only its players come back) or is over, or the nickname is empty.
    """
    nickname = _checked_name(nickname, Message("a nickname"))
    room = read(engine, code)
    seat = room.seat_of(nickname)
    if seat is not None and room.status in (RoomStatus.WAITING, RoomStatus.PLAYING):
        return room, seat
    if room.status is not RoomStatus.WAITING:
        raise RoomError(
            Message("the game of room {code} has started: only its players can come back", code=room.code)
            if room.status is RoomStatus.PLAYING
            else Message("room {code} is closed", code=room.code)
        )
    with engine.begin() as connection:
        for free in (s.seat for s in room.seats if s.nickname is None):
            taken = connection.execute(
                update(RoomSeat)
                .where(RoomSeat.room_id == room.id, RoomSeat.seat == free, RoomSeat.nickname.is_(None))
                .values(nickname=nickname, name=nickname, kind=BotKind.HUMAN.value)
            ).rowcount
            if taken:
                _changed(connection, room.id)
                break
        else:
            raise RoomError(Message("room {code} is full", code=room.code))
    return read(engine, room_id=room.id), free


def rematch(engine: Engine, room_id: int, nickname: str, holder: str) -> RoomInfo:
    """``nickname``'s page ``holder`` asks to play again at the table of room ``room_id``, whose game is over: the
    first to ask opens the next room (a new code and deck; the same edition, coach, wait and seats in the same order
    from the asker's, each free for the others, the bots' with their bots, the students' with the coach bot, until
    somebody sits there) and holds its seat 0, so they begin; the others who ask sit in that room (:func:`sit`).

    Returns
    -------
    RoomInfo
        The next room, where ``nickname`` now sits (their page takes the seat with :func:`hold`).

    Raises
    ------
    SeatLostError
        If ``nickname`` has no seat in the room.
    RoomError
        If the room's game is not over.
    """
    room = read(engine, room_id=room_id)
    seat = room.seat_of(nickname)
    if seat is None:
        raise SeatLostError(Message("{name} has no seat in room {code}", name=nickname, code=room.code))
    if room.status is not RoomStatus.OVER:
        raise RoomError(Message("the game of room {code} is not over", code=room.code))
    following = _next_code(engine, room_id)
    if following is None:
        order = room.seats[seat:] + room.seats[:seat]  # who asks begins; the table keeps its order
        seats = [(_free_name(i) if s.is_person else s.name, s.kind) for i, s in enumerate(order)]
        opened = open_room(
            engine, room.class_name, nickname, room.edition, seats, room.coach, room.leave_after, holder=holder
        )
        with engine.begin() as connection:
            first = connection.execute(
                update(Room).where(Room.id == room_id, Room.next_code.is_(None)).values(next_code=opened.code)
            ).rowcount
        if first:
            return opened
        close(engine, opened.id)  # another player of the table asked at the same moment, and came first
        following = _next_code(engine, room_id)
    return sit(engine, str(following), nickname)[0]


def _next_code(engine: Engine, room_id: int) -> str | None:
    with engine.connect() as connection:
        return connection.execute(select(Room.next_code).where(Room.id == room_id)).scalar_one()


def hold(engine: Engine, room_id: int, seat: int, holder: str) -> RoomInfo:
    """Page ``holder`` holds ``seat`` from now on (a page opened, reloaded or reconnected): a page that held it
    before sees that it does not any more (:func:`heartbeat`)."""
    with engine.begin() as connection:
        connection.execute(
            update(RoomSeat)
            .where(RoomSeat.room_id == room_id, RoomSeat.seat == seat)
            .values(holder=holder, last_seen=_now())
        )
        _changed(connection, room_id)
    return read(engine, room_id=room_id)


def heartbeat(engine: Engine, room_id: int, seat: int, holder: str) -> tuple[bool, tuple[SeatInfo, ...]]:
    """A sign of life of page ``holder`` at ``seat``.

    Returns
    -------
    (bool, tuple of SeatInfo)
        Whether the page still holds the seat, and every seat as it is now (who was seen when: a bot stands in for a
        player whose page has not been seen for the room's ``leave_after``).
    """
    with engine.begin() as connection:
        held = connection.execute(
            update(RoomSeat)
            .where(RoomSeat.room_id == room_id, RoomSeat.seat == seat, RoomSeat.holder == holder)
            .values(last_seen=_now())
        ).rowcount
        seats = connection.execute(select(RoomSeat).where(RoomSeat.room_id == room_id).order_by(RoomSeat.seat)).all()
    return bool(held), tuple(_seat(s) for s in seats)


#: The query of :func:`version`, built once: every page of a room asks it ten times a second.
_VERSION = select(Room.version).where(Room.id == bindparam("room_id"))


def version(engine: Engine, room_id: int) -> int:
    """The room's version: one query, to learn whether anything changed since a page last read it."""
    with engine.connect() as connection:
        return int(connection.execute(_VERSION, {"room_id": room_id}).scalar_one())


def moves(engine: Engine, room_id: int, after: int = 0) -> list[StoredMove]:
    """The room's moves after move ``after``, in order."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(RoomMove.seq, RoomMove.seat, RoomMove.action, RoomMove.by)
            .where(RoomMove.room_id == room_id, RoomMove.seq > after)
            .order_by(RoomMove.seq)
        ).all()
    return [StoredMove(r.seq, r.seat, r.action, MoveBy(r.by)) for r in rows]


def start(engine: Engine, room_id: int, holder: str) -> RoomInfo:
    """The host starts the game: the seats nobody took are played by their bots.

    Raises
    ------
    SeatLostError
        If ``holder`` is not the page of the host's seat.
    RoomError
        If the game has already started, or the room is closed.
    """
    room = read(engine, room_id=room_id)
    if room.seats[0].holder != holder:
        raise SeatLostError(Message("only {host}, who opened the room, can start its game", host=room.host))
    with engine.begin() as connection:
        started = connection.execute(
            update(Room)
            .where(Room.id == room_id, Room.status == RoomStatus.WAITING.value)
            .values(status=RoomStatus.PLAYING.value, version=Room.version + 1, changed=_now())
        ).rowcount
    if not started:
        raise RoomError(Message("the game of room {code} has already started or the room is closed", code=room.code))
    return read(engine, room_id=room_id)


def leave(engine: Engine, room_id: int, seat: int, holder: str) -> RoomInfo:
    """Page ``holder`` leaves ``seat``: before the game, the seat is free again (the host leaving closes the room);
    during the game, it is nobody's page's, and a bot plays it once the room's ``leave_after`` has passed."""
    room = read(engine, room_id=room_id)
    if room.seats[seat].holder != holder:
        return room  # another page holds it: this one has nothing to leave
    waiting = room.status is RoomStatus.WAITING
    with engine.begin() as connection:
        if waiting and seat == 0:
            _changed(connection, room_id, status=RoomStatus.CLOSED.value)
        else:
            values: dict[str, object] = {"holder": None}
            if waiting:
                values.update(nickname=None, name=_free_name(seat), kind=BotKind.COACH.value)
            statement = update(RoomSeat).where(RoomSeat.room_id == room_id, RoomSeat.seat == seat).values(**values)
            connection.execute(statement)
            _changed(connection, room_id)
    return read(engine, room_id=room_id)


def _free_name(seat: int) -> str:
    return f"Bot {seat + 1}"


def close(engine: Engine, room_id: int) -> None:
    """Close a room whose game will not go on (a waiting room nobody started, a game nobody came back to)."""
    with engine.begin() as connection:
        _changed(connection, room_id, status=RoomStatus.CLOSED.value)


def close_abandoned(
    engine: Engine,
    idle: float = ABANDONED,
    statuses: Sequence[RoomStatus] = (RoomStatus.WAITING, RoomStatus.PLAYING),
    now: datetime | None = None,
) -> int:
    """Close the rooms of ``statuses`` in which nothing moved and no page of a player was seen for ``idle`` seconds
    before ``now``: at a server's start, the rooms waiting or playing idle for :data:`ABANDONED` (a class that went
    home, a server stopped for the night; a room a player came back to lately is left as it is, to resume); while it
    runs, the rooms waiting idle for :data:`~dragonkit.record.room_settings.WAITING_IDLE` (rooms opened and left: a
    page that opened many).

    Parameters
    ----------
    engine : sqlalchemy.Engine
    idle : float
        Seconds.
    statuses : sequence of RoomStatus
    now : datetime, optional
        The moment (naive UTC, as the record keeps times; default: now).

    Returns
    -------
    int
        The rooms closed.
    """
    now = _now() if now is None else now
    cutoff = now - timedelta(seconds=idle)
    seen = select(RoomSeat.room_id).where(RoomSeat.last_seen >= cutoff)
    with engine.begin() as connection:
        return int(
            connection.execute(
                update(Room)
                .where(
                    Room.status.in_([status.value for status in statuses]),
                    Room.changed < cutoff,
                    Room.id.not_in(seen),
                )
                .values(status=RoomStatus.CLOSED.value, version=Room.version + 1, changed=now)
            ).rowcount
        )


def record_move(
    engine: Engine,
    room_id: int,
    seq: int,
    seat: int,
    action: str,
    by: MoveBy,
    event_id: str,
    holder: str | None = None,
    over: bool = False,
) -> bool:
    """Record move ``seq`` of the room's game, if it is the next one; the caller has checked it on the game after
    move ``seq - 1``.

    Parameters
    ----------
    engine : sqlalchemy.Engine
    room_id, seq, seat : int
    action : str
        An :class:`~dragonkit.turn.Action`'s value.
    by : MoveBy
    event_id : str
        The move's id (32 hex digits): sent again, it is stored once.
    holder : str, optional
        The page that made it: a player's move needs the page that holds the seat.
    over : bool
        The move ends the game: the room is over.

    Returns
    -------
    bool
        True: recorded now; False: it was recorded before (the same ``event_id``).

    Raises
    ------
    MoveConflictError
        If another move is already move ``seq``.
    SeatLostError
        If a player's move comes from a page that does not hold the seat.
    RoomError
        If the room is not playing.
    """
    try:
        with engine.begin() as connection:
            # the write first: it takes SQLite's write lock before any read, so that no other write slips in between
            # (a read first, then a write, fails at once in WAL mode when another page wrote meanwhile)
            connection.execute(
                insert(RoomMove).values(
                    room_id=room_id, seq=seq, seat=seat, action=action, by=by.value, event_id=event_id, at=_now()
                )
            )
            status = connection.execute(select(Room.status).where(Room.id == room_id)).scalar_one()
            if status != RoomStatus.PLAYING.value:
                raise RoomError(Message("this room's game is not being played"))  # the move rolled back
            if by is MoveBy.PLAYER:
                held = connection.execute(
                    select(RoomSeat.holder).where(RoomSeat.room_id == room_id, RoomSeat.seat == seat)
                ).scalar_one_or_none()
                if held is None or held != holder:
                    raise SeatLostError(Message("this page does not hold that seat any more"))
            _changed(connection, room_id, **({"status": RoomStatus.OVER.value} if over else {}))
    except IntegrityError:
        with engine.connect() as connection:
            known = connection.execute(select(func.count()).where(RoomMove.event_id == event_id)).scalar_one()
        if known:
            return False
        raise MoveConflictError(Message("another move came first")) from None
    return True


def rooms_of(engine: Engine, class_name: str, nickname: str) -> list[RoomInfo]:
    """The rooms of ``class_name`` where ``nickname`` sits whose game is still to come or going on, newest first; not
    those they left with "Leave the room" (their seat held by no page: they come back with the room's code)."""
    with engine.connect() as connection:
        ids = connection.execute(
            select(Room.id)
            .join(RoomSeat, RoomSeat.room_id == Room.id)
            .where(
                Room.class_name == class_name,
                RoomSeat.nickname == nickname,
                RoomSeat.holder.is_not(None),
                Room.status.in_([RoomStatus.WAITING.value, RoomStatus.PLAYING.value]),
            )
            .order_by(Room.id.desc())
        ).scalars()
        found = list(ids)
    return [read(engine, room_id=i) for i in found]


_engines: dict[str, Engine] = {}


def kernel_engine(url: str) -> Engine:
    """This process's engine for the record at ``url`` (made, and its schema brought to the newest, once)."""
    if url not in _engines:
        from .store import connect, upgrade

        engine = connect(url)
        upgrade(engine)
        _engines[url] = engine
    return _engines[url]
