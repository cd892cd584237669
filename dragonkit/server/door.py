"""A door that slows wrong answers: room codes (:mod:`.rooms`) and teacher's keys (:mod:`.teacher`) guessed by one
visitor are answered later and later, and then refused, while every other visitor goes on at once.

A :class:`Door` (one per kind of secret and server, in memory: nothing about a visitor is written anywhere) counts
the wrong answers of each visitor (*who*: a browser's hold of a nickname, for the rooms' codes; an address, for the
teacher's keys): the first :data:`FREE_WRONG` are answered at once, each later one waits twice as long as the one
before (2, 4, 8 … s, at most :data:`SLOWEST`), on the event loop (no thread waits), and when :data:`CROWD` answers to
that visitor are already waiting the next is refused at once (status 429, ``Retry-After``). A visitor's count is
forgotten :data:`FORGET` seconds after its last wrong answer.

A door that also paces by address (``pace=PACE``: the rooms') bounds what all the browsers behind one address (a
school's network) learn together. A right answer is let in at once, so an answer that is *not* let in at once tells a
guesser that it was wrong, however long its reply waits: what the door paces is the answers it reads, not its replies.
Each answer read from an address is charged to it at once (:meth:`Door.admit`, before it is read; a right one is
refunded, :meth:`Door.right`) by the generic cell rate algorithm (GCRA, ITU-T I.371): the address's *theoretical arrival
time* moves on by ``60 / pace`` seconds a charge, and the address is *flooded* while it is more than a burst of
:data:`FREE_WRONG` charges ahead of now. While its address is flooded, a browser is read once: its answer marks it
(unmarked again if right), and a marked browser is refused before its answer is read (429) while its address is flooded,
for :data:`FIRST_MARK` seconds, each later mark of the same browser twice as long as the one before (at most
:data:`MARKED_FOR`): a classmate who mistypes once during a flood waits a minute, whoever keeps the flood going, while
each of a guesser's browsers is read eleven times in a day, then once a day. So the answers read from one address are
:data:`PACE` a minute in the long run (a marked browser's read is charged too), and in a flood one more for each browser
new to it; the browsers a guesser can make are those of the nicknames it can take, which the join page paces by address
(:data:`JOINS_AT_ONCE`, then one each :data:`JOIN_EVERY` seconds). A classmate of the guesser is never marked by a right
code: it is read, and let in at once, however long the flood.

Its tables are bounded: each is kept in the order of its entries' last change, so that forgetting reads only the
oldest (no answer scans a table), and at most :data:`MOST_ADDRESSES` entries are kept in each (the oldest goes first:
a guesser cycling through more than that is slowed by none of them beyond their first :data:`FREE_WRONG`, as a new
visitor is); a visitor with no answer waiting leaves the table of answers waiting. A reply waits :data:`SLOWEST`
seconds at most, and :data:`CROWD` replies at most wait for one visitor. ``benchmarks/bench_room_door.py`` measures
its memory at 100,000 browsers and addresses.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from tornado.web import RequestHandler

__all__ = [
    "CROWD",
    "FIRST_MARK",
    "FORGET",
    "FREE_WRONG",
    "JOINS_AT_ONCE",
    "JOIN_EVERY",
    "MARKED_FOR",
    "MOST_ADDRESSES",
    "PACE",
    "SLOWEST",
    "Door",
    "JoinPace",
    "Pace",
    "Ticket",
]

T = TypeVar("T")

#: Wrong answers from one visitor answered at once.
FREE_WRONG = 5
#: The longest wait before a wrong answer's reply (seconds).
SLOWEST = 30.0
#: Replies to one visitor that may wait at once; beyond, the next answer is refused (429).
CROWD = 10
#: Seconds after its last wrong answer when a visitor's count is forgotten.
FORGET = 600.0
#: The most visitors (and addresses) whose count is kept in each table (the oldest forgotten first).
MOST_ADDRESSES = 100_000
#: Answers read from one address a minute, in the long run, by a door that paces addresses.
PACE = 30
#: Seconds a browser whose answer was read while its address was flooded stays refused while it is flooded, at its
#: first mark; each later mark twice as long as the one before.
FIRST_MARK = 60.0
#: The longest mark (seconds), and how long a browser's marks are remembered after its last.
MARKED_FOR = 24 * 3600.0
#: Nicknames taken from one address at once (a class arriving behind a school's address), before the join page's pace.
JOINS_AT_ONCE = 60
#: Seconds between two nicknames taken from one address beyond :data:`JOINS_AT_ONCE`.
JOIN_EVERY = 60.0


class Pace:
    """The generic cell rate algorithm (GCRA, ITU-T I.371) by key: each key's *theoretical arrival time* moves on by
    ``every`` seconds a charge, and a key is *over* its pace while that time is more than ``burst - 1`` charges ahead
    of now (``burst`` charges at once, then one each ``every`` seconds).

    Parameters
    ----------
    every : float
        Seconds a charge.
    burst : int
        Charges at once, from nothing.
    clock : callable
        Seconds, monotonic.
    most : int
        The most keys kept (the oldest change forgotten first; a key whose time is past needs none).
    """

    def __init__(
        self, every: float, burst: int, clock: Callable[[], float] = time.monotonic, most: int = MOST_ADDRESSES
    ):
        self.every, self._tolerance = every, (burst - 1) * every
        self._clock, self._most = clock, most
        self._due: OrderedDict[str, float] = OrderedDict()  # key -> its theoretical arrival time, oldest change first

    def __len__(self) -> int:
        return len(self._due)

    def ahead(self, key: str) -> float:
        """Seconds until ``key`` is within its pace again (0: it is)."""
        now = self._clock()
        return max(0.0, self._due.get(key, now) - now - self._tolerance)

    def over(self, key: str) -> bool:
        """Whether ``key`` is over its pace: a charge now would be more than the burst ahead."""
        now = self._clock()
        return self._due.get(key, now) - now > self._tolerance

    def charge(self, key: str) -> None:
        """Move ``key``'s time on by one charge."""
        now = self._clock()
        _forget(self._due, lambda due: due < now)
        due = max(self._due.pop(key, now), now)
        self._due[key] = due + self.every
        if len(self._due) > self._most:
            self._due.popitem(last=False)

    def refund(self, key: str) -> None:
        """Take back one charge of ``key`` (never before now)."""
        if key in self._due:
            self._due[key] = max(self._clock(), self._due[key] - self.every)


class JoinPace:
    """The nicknames the join page takes from each address: ``at_once`` at once (a class behind a school's address),
    then one each :data:`JOIN_EVERY` seconds (:class:`Pace`); a nickname the teacher releases gives its address one
    back, so that a student who took a class's worth of nicknames in a second shuts the class out only until the
    teacher releases them on the dashboard.

    Parameters
    ----------
    at_once : int
        Nicknames taken from one address at once (:data:`JOINS_AT_ONCE` for a server).
    clock : callable
        Seconds, monotonic.
    most : int
        The most addresses, and nicknames taken, kept.
    """

    def __init__(self, at_once: int, clock: Callable[[], float] = time.monotonic, most: int = MOST_ADDRESSES):
        self.pace = Pace(JOIN_EVERY, at_once, clock, most)
        self._clock, self._most, self._window = clock, most, at_once * JOIN_EVERY
        self._taken: OrderedDict[str, tuple[str, float]] = OrderedDict()  # hold -> (address, when), oldest first

    def taken(self, hold: str, address: str) -> None:
        """The nickname of ``hold`` (its digest) was taken from ``address``, its charge made (:meth:`Pace.charge`)."""
        now = self._clock()
        self._taken[hold] = (address, now)
        _forget(self._taken, lambda kept: now - kept[1] > self._window)  # its charge has run out: nothing to give
        if len(self._taken) > self._most:
            self._taken.popitem(last=False)

    def holds(self) -> set[str]:
        """The holds taken recently enough that a release gives their address a nickname back."""
        return set(self._taken)

    def released(self, holds: Iterable[str]) -> None:
        """The teacher released the nicknames of ``holds``: each gives its address one back."""
        for hold in holds:
            address, _ = self._taken.pop(hold, (None, 0.0))
            if address is not None:
                self.pace.refund(address)


@dataclass(frozen=True)
class Ticket:
    """An answer admitted to be read (:meth:`Door.admit`): who gave it, from where, whether reading it marked the
    browser (its address flooded), and the browser's marks before (their count and the last's time), which a right
    answer puts back."""

    who: str
    address: str | None
    marked: bool
    before: tuple[int, float] | None = None


class Door:
    """The count of wrong answers by visitor, how long each reply waits, and the replies waiting now; with ``pace``,
    the answers read from each address paced, and the browsers read while their address is flooded marked.

    Parameters
    ----------
    clock : callable
        Seconds, monotonic (default :func:`time.monotonic`; a test gives its own).
    most : int
        The most visitors (and addresses) kept in each table (:data:`MOST_ADDRESSES`).
    pace : float
        Answers read from one address a minute (:data:`PACE` for the rooms' door); 0: no pace.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, most: int = MOST_ADDRESSES, pace: float = 0):
        self._clock = clock
        self._most = most
        self._wrong: OrderedDict[str, tuple[int, float]] = OrderedDict()  # who -> (count, last), oldest first
        self._pace = Pace(60.0 / pace, FREE_WRONG, clock, most) if pace else None
        self._marked: OrderedDict[str, tuple[int, float]] = OrderedDict()  # who -> (marks, the last), oldest first
        self.waiting: dict[str, int] = {}  # who -> replies waiting now (a visitor with none is not kept)

    def __len__(self) -> int:
        """The visitors and addresses kept."""
        return len(self._wrong) + len(self._marked) + (len(self._pace) if self._pace is not None else 0)

    def flooded(self, address: str) -> bool:
        """Whether the answers read from ``address`` are over the door's pace (never, for a door that does not
        pace)."""
        return self._pace is not None and self._pace.over(address)

    def crowded(self, who: str, address: str | None = None) -> bool:
        """Whether the next answer of ``who`` (from ``address``) is refused before it is read: :data:`CROWD` of its
        replies wait already, or its address is flooded and ``who`` was marked."""
        if self.waiting.get(who, 0) >= CROWD:
            return True
        if address is None or not self.flooded(address):
            return False
        return self.marked_for(who) > 0

    def marked_for(self, who: str) -> float:
        """Seconds ``who`` stays marked (0: it is not): :data:`FIRST_MARK` after its first mark, twice as long after
        each later one, :data:`MARKED_FOR` at most."""
        now = self._clock()
        _forget(self._marked, lambda kept: now - kept[1] > MARKED_FOR)
        marks, since = self._marked.get(who, (0, now))
        return max(0.0, since + min(MARKED_FOR, FIRST_MARK * 2.0 ** min(marks - 1, 20)) - now) if marks else 0.0

    def retry_after(self, who: str) -> int:
        """Whole seconds until the next answer of ``who``, refused now (:meth:`crowded`), may be read: its mark's,
        else :data:`SLOWEST` (its replies waiting)."""
        marked = self.marked_for(who)
        return max(1, math.ceil(marked)) if marked else int(SLOWEST)

    def admit(self, who: str, address: str | None = None) -> Ticket | None:
        """An answer of ``who`` (from ``address``) to be read, charged to the address (marking ``who`` if it is
        flooded); None where it is refused before it is read (:meth:`crowded`)."""
        if self.crowded(who, address):
            return None
        if self._pace is None or address is None:
            return Ticket(who, address, marked=False)
        ticket = Ticket(who, address, marked=False)
        if self.flooded(address):
            before = self._marked.pop(who, None)
            self._marked[who] = ((before[0] if before else 0) + 1, self._clock())  # the newest, at the end
            if len(self._marked) > self._most:
                self._marked.popitem(last=False)
            ticket = Ticket(who, address, marked=True, before=before)
        self._pace.charge(address)
        return ticket

    def right(self, ticket: Ticket) -> None:
        """The answer of ``ticket`` was right: its charge refunded, its mark taken back (the browser's marks as they
        were: a guesser who knows one room's code does not start its marks again with it)."""
        if self._pace is not None and ticket.address is not None:
            self._pace.refund(ticket.address)
        if ticket.marked:
            self._marked.pop(ticket.who, None)
            if ticket.before is not None:
                self._marked[ticket.who] = ticket.before

    def wrong(self, who: str) -> float:
        """Count a wrong answer of ``who``; the seconds its reply waits (0 for the first :data:`FREE_WRONG`)."""
        now = self._clock()
        _forget(self._wrong, lambda kept: now - kept[1] > FORGET)
        count = self._wrong.pop(who, (0, now))[0] + 1
        self._wrong[who] = (count, now)  # the newest, at the end
        if len(self._wrong) > self._most:
            self._wrong.popitem(last=False)
        return 0.0 if count <= FREE_WRONG else min(SLOWEST, 2.0 ** min(count - FREE_WRONG, SLOWEST))  # no overflow

    @staticmethod
    def refuse(handler: RequestHandler, page: str, seconds: int = int(SLOWEST)) -> None:
        """Answer ``handler`` with ``page`` (a whole HTML document), status 429 and ``Retry-After: seconds``: the door
        is crowded for its visitor."""
        handler.set_status(429)
        handler.set_header("Retry-After", str(seconds))
        handler.set_header("Cache-Control", "no-store")
        handler.finish(page)

    async def wait_wrong(self, who: str) -> None:
        """Count a wrong answer of ``who`` and wait as long as its reply must (:meth:`wrong`), counted among the
        replies waiting for that visitor meanwhile."""
        wait = self.wrong(who)
        with _counted(self.waiting, who):
            await asyncio.sleep(wait)


def _forget(table: OrderedDict[str, T], stale: Callable[[T], bool]) -> None:
    """Drop ``table``'s oldest entries while they are ``stale`` (stop at the first that is not: none is scanned)."""
    while table:
        oldest, kept = next(iter(table.items()))
        if not stale(kept):
            return
        del table[oldest]


@contextmanager
def _counted(waiting: dict[str, int], key: str) -> Iterator[None]:
    """Count one more reply waiting for ``key`` in ``waiting`` meanwhile (a key with none left is dropped)."""
    waiting[key] = waiting.get(key, 0) + 1
    try:
        yield
    finally:
        left = waiting[key] - 1
        if left:
            waiting[key] = left
        else:
            del waiting[key]
