"""A room as one page sees it: the room and its game replayed from the class's record, kept up to date, the moves
this page may make for its own seat, and the bots' moves it makes when it is the page that drives them.

The record is the authority (:mod:`dragonkit.record.rooms`); a :class:`RoomTable` holds a copy of the game that it
brings up to date (:meth:`RoomTable.sync`: one query when nothing moved) and checks a move on before sending it. A page
reads the record away from the thread that owns its table (the kernel's event loop): :meth:`RoomTable.reading` gives a
:class:`Reading` of plain values, which touches only the database and may run in any thread; its :class:`News` is
taken on the table's own thread (:meth:`RoomTable.take`), and left if the table changed meanwhile (a move of this
page): the next reading finds it. :meth:`RoomTable.sync` is the two at once.

- a player's move is the engine's to check first (not their turn, not legal now: :class:`~dragonkit.engine.
  IllegalActionError`, nothing written), then the record's: only the page that holds the seat may send it, and only
  as the next move (a move that another came before is refused, the page reads the moves again and the player sees
  the game as it now is);
- the bots' moves (a bot's seat, or a bot standing in for a player whose page has not been seen for the room's
  ``leave_after``) are made by one page, the one that *drives* the room: the live page of the lowest seat (a page
  seen within :data:`~dragonkit.record.rooms.LIVE` seconds); if it goes, the next live page drives. Should two pages
  send a bot's move at once, the record keeps one.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from ..bots import Bot, BotKind, bot_seed, make_bot
from ..engine import NotYourTurnError
from ..record.rooms import (
    LIVE,
    MoveBy,
    MoveConflictError,
    RoomError,
    RoomInfo,
    RoomStatus,
    SeatInfo,
    SeatLostError,
    StoredMove,
    heartbeat,
    hold,
    moves,
    read,
    record_move,
    version,
)
from ..rules import Card, Message
from ..turn import Action

__all__ = ["News", "Reading", "RoomTable"]


@dataclass(frozen=True)
class Reading:
    """One reading of a room in the record, as a table asked it (:meth:`RoomTable.reading`): plain values and the
    record's engine, so that it runs in any thread (calling it touches the database only).

    Attributes
    ----------
    engine : sqlalchemy.Engine
    room_id : int
    version : int
        The room's version the table knows.
    after : int
        The moves the table's game holds.
    players : tuple of str
        The seats' names the table's game has.
    whole : bool
        Read the room and its whole game again (a move of the table failed half-way).
    beat : (int, str) or None
        ``(seat, holder)``: a sign of life of the page at its seat, after the reading (:func:`~dragonkit.record.rooms.
        heartbeat`); None: none.
    asked : int
        How many times the table had changed when it asked (its news is left if the table changed since).
    """

    engine: Engine
    room_id: int
    version: int
    after: int
    players: tuple[str, ...]
    whole: bool
    beat: tuple[int, str] | None
    asked: int

    def __call__(self) -> News:
        """Read the record: one query when nothing moved (and the sign of life, if asked).

        Returns
        -------
        News

        Raises
        ------
        sqlalchemy.exc.SQLAlchemyError
            If the database cannot be read.
        RoomError
            If the room is not in the record any more.
        """
        room: RoomInfo | None = None
        found: tuple[StoredMove, ...] = ()
        whole = False
        if self.whole or version(self.engine, self.room_id) != self.version:
            room = read(self.engine, room_id=self.room_id)
            whole = self.whole or room.players != self.players  # a seat taken or freed before the game: its names
            found = tuple(moves(self.engine, self.room_id, after=0 if whole else self.after))
        beat = None if self.beat is None else heartbeat(self.engine, self.room_id, *self.beat)
        return News(self, room, found, whole, beat)


@dataclass(frozen=True)
class News:
    """What a :class:`Reading` found, for :meth:`RoomTable.take`.

    Attributes
    ----------
    reading : Reading
    room : RoomInfo or None
        The room as it is now; None: nothing changed since the version the table knew.
    moves : tuple of StoredMove
        The moves after the table's (:attr:`Reading.after`), or the whole game's if :attr:`whole`.
    whole : bool
        Whether :attr:`moves` are the whole game, to be replayed from its start.
    beat : (bool, tuple of SeatInfo) or None
        The sign of life's answer (:func:`~dragonkit.record.rooms.heartbeat`): whether the page still holds its seat,
        and every seat as it is now; None: no sign of life was sent.
    """

    reading: Reading
    room: RoomInfo | None
    moves: tuple[StoredMove, ...]
    whole: bool
    beat: tuple[bool, tuple[SeatInfo, ...]] | None


class RoomTable:
    """One page's view of a room and its game.

    Parameters
    ----------
    engine : sqlalchemy.Engine
        The class's record.
    room : RoomInfo
    seat : int or None
        The page's seat (0-based); None: a page that watches.
    holder : str
        The page's id (32 hex digits).

    Attributes
    ----------
    room : RoomInfo
        As last read.
    game : Game
        The room's game after every move read so far.
    held : bool
        Whether this page still holds its seat (another page of the same player may take it).
    """

    def __init__(self, engine: Engine, room: RoomInfo, seat: int | None, holder: str) -> None:
        self.engine, self.room, self.seat, self.holder = engine, room, seat, holder
        self.game = room.game(moves(engine, room.id))
        self.held = seat is not None
        self._changes = 0  # how many times the table changed: news of a reading asked before the last is left
        self._bots: dict[int, Bot] = {}
        self._stale = False  # a move failed half-way: the copy may hold it, read the whole game again

    @classmethod
    def enter(cls, engine: Engine, room: RoomInfo, nickname: str, holder: str) -> RoomTable:
        """Page ``holder`` enters ``room`` as ``nickname``'s, taking their seat (from any page that held it).

        Raises
        ------
        SeatLostError
            If ``nickname`` has no seat in the room.
        """
        seat = room.seat_of(nickname)
        if seat is None:
            raise SeatLostError(Message("{name} has no seat in room {code}", name=nickname, code=room.code))
        return cls(engine, hold(engine, room.id, seat, holder), seat, holder)

    # -- reading ------------------------------------------------------------------------

    def sync(self, beat: bool = False) -> bool:
        """Read what changed in the room since it was last read (one query when nothing did), here and now.

        Parameters
        ----------
        beat : bool
            Send a sign of life of this page at its seat too, and learn whether the seat is still this page's and
            who else was seen lately.

        Returns
        -------
        bool
            Whether anything changed (a seat taken, the start, a move).
        """
        return self.take(self.reading(beat=beat)())

    def reading(self, beat: bool = False) -> Reading:
        """The reading that brings this table up to date, to run in any thread; :meth:`take` its news after.

        Parameters
        ----------
        beat : bool
            Send a sign of life of this page at its seat too (none from a page that watches).
        """
        return Reading(
            self.engine,
            self.room.id,
            self.room.version,
            len(self.game.actions),
            self.game.players,
            self._stale,
            (self.seat, self.holder) if beat and self.seat is not None else None,
            self._changes,
        )

    def take(self, news: News) -> bool:
        """Bring the table up to what ``news`` found: the room, the moves made since (the whole game if it was read
        whole), and the answer to the sign of life (whether the seat is still this page's, and when the others were
        seen). News of a reading asked before the table last changed is left: the next reading finds the same.

        Returns
        -------
        bool
            Whether the room or its game changed (a seat taken, the start, a move).
        """
        if news.reading.asked != self._changes:
            return False
        changed = news.room is not None
        if news.room is not None:
            self.room = news.room
            if news.whole:
                self.game = self.room.game(news.moves)
            else:
                for move in news.moves:
                    self.game.apply(move.action, by=move.seat)
            if news.reading.whole:  # read again after a move that failed half-way
                self._stale = False
                self.held = self._holds()
        if news.beat is not None:
            self.held, seats = news.beat
            self.room = replace(self.room, seats=seats)
        if changed or news.beat is not None:
            self._changes += 1
        return changed

    @property
    def playing(self) -> bool:
        """Whether the room's game is going on."""
        return self.room.status is RoomStatus.PLAYING and not self.game.is_over

    @property
    def my_turn(self) -> bool:
        """Whether this page's player is to move."""
        return self.playing and self.held and self.seat is not None and self.game.to_move == self.seat

    def away(self, seat: int) -> bool:
        """Whether ``seat``'s player has left: no page of theirs seen for the room's ``leave_after``."""
        info = self.room.seats[seat]
        return info.is_person and not info.seen_within(self.room.leave_after)

    def stand_in(self) -> MoveBy | None:
        """Who plays the seat to move if not a player: :attr:`MoveBy.BOT` (a bot's seat), :attr:`MoveBy.STAND_IN`
        (a player who left), None (a player present, or no move to make)."""
        if not self.playing:
            return None
        seat = self.game.to_move
        if seat is None:
            return None
        if not self.room.seats[seat].is_person:
            return MoveBy.BOT
        return MoveBy.STAND_IN if self.away(seat) else None

    @property
    def drives(self) -> bool:
        """Whether this page makes the bots' moves: the live page of the lowest seat."""
        if self.seat is None or not self.held:
            return False
        live = [s.seat for s in self.room.seats if s.is_person and s.seen_within(LIVE)]
        return (min(live) if live else self.seat) == self.seat

    # -- moving -------------------------------------------------------------------------

    def act(self, action: Action | str) -> Card | None:
        """This page's player's move; returns the card a reveal turned up.

        Raises
        ------
        NotYourTurnError
            If the page has no seat, or does not hold it any more, or another seat is to move; nothing changes.
        IllegalActionError
            If the action is not legal now (the engine's check); nothing changes.
        RoomError
            If the record refuses it (another move came first, the seat is another page's now, the game is not
            being played): the game is read again, as it now is.
        """
        if self.seat is None or not self.held:
            raise NotYourTurnError(Message("this page does not play a seat of room {code}", code=self.room.code))
        if self.room.status is not RoomStatus.PLAYING:
            raise RoomError(Message("the game of room {code} is not being played", code=self.room.code))
        return self._move(action, self.seat, MoveBy.PLAYER)

    def play_bot(self) -> bool:
        """If this page drives the room and a bot is to move (a bot's seat, or one standing in for a player who
        left), make its move.

        Returns
        -------
        bool
            Whether a move was made (by this page, or found already made by another).
        """
        by = self.stand_in()
        if by is None or not self.drives:
            return False
        seat = self.game.to_move
        assert seat is not None  # stand_in() found a move to make
        action = self._bot(seat).choose(self.game)
        try:
            self._move(action, seat, by)
        except RoomError:
            return True  # another page made a move first (the game has been read again), or the record is away
        return True

    def _bot(self, seat: int) -> Bot:
        if seat not in self._bots:
            kind = self.room.seats[seat].kind
            kind = BotKind.COACH if kind is BotKind.HUMAN else kind  # a player who left: the coach stands in
            options = {"seed": bot_seed(self.room.seed, seat)} if kind is BotKind.RANDOM else {}
            self._bots[seat] = make_bot(kind, **options)
        return self._bots[seat]

    def _move(self, action: Action | str, seat: int, by: MoveBy) -> Card | None:
        self._changes += 1
        game = self.game
        seq = len(game.actions) + 1
        card = game.apply(action, by=seat)  # the engine's check first: an illegal move changes nothing
        try:
            record_move(
                self.engine,
                self.room.id,
                seq,
                seat,
                game.actions[-1].value,
                by,
                uuid.uuid4().hex,
                holder=self.holder,
                over=game.is_over,
            )
        except (MoveConflictError, SeatLostError, RoomError):
            self._reread()
            raise
        except SQLAlchemyError as error:  # the database did not answer: the copy is read again at the next sync
            self._stale = True
            raise RoomError(Message("the room's record did not answer, so the move was not made: try again")) from error
        return card

    def _reread(self) -> None:
        """Read the room and replay its game from the record (after a refused move, which the copy had applied)."""
        self._changes += 1
        self.room = read(self.engine, room_id=self.room.id)
        self.game = self.room.game(moves(self.engine, self.room.id))
        self.held = self._holds()

    def _holds(self) -> bool:
        """Whether the room, as last read, has this page at its seat."""
        return self.seat is not None and self.room.seats[self.seat].holder == self.holder
