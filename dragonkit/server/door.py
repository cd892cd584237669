"""A door that slows wrong answers: room codes (:mod:`.rooms`) and teacher's keys (:mod:`.teacher`) guessed from one
address are answered later and later, and then refused, while every other address goes on at once.

A :class:`Door` (one per kind of secret and server, in memory: nothing about an address is written anywhere) counts
the wrong answers of each address: the first :data:`FREE_WRONG` are answered at once, each later one waits twice as
long as the one before (2, 4, 8 … s, at most :data:`SLOWEST`), on the event loop (no thread waits), and when
:data:`CROWD` answers to that address are already waiting the next is refused at once (status 429, ``Retry-After``).
An address's count is forgotten :data:`FORGET` seconds after its last wrong answer.

Its tables are bounded: the counts are kept in the order of each address's last wrong answer, so that forgetting
reads only the oldest (no wrong answer scans the table), and at most :data:`MOST_ADDRESSES` are kept (the oldest goes
first: a guesser cycling through more addresses than that is slowed by none of them beyond their first
:data:`FREE_WRONG`, as a new address is); an address with no answer waiting leaves the table of answers waiting.
``benchmarks/bench_door.py`` measures its memory at 100,000 addresses.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tornado.web import RequestHandler

__all__ = ["CROWD", "FORGET", "FREE_WRONG", "MOST_ADDRESSES", "SLOWEST", "Door"]

#: Wrong answers from one address answered at once.
FREE_WRONG = 5
#: The longest wait before a wrong answer's reply (seconds).
SLOWEST = 30.0
#: Replies to one address that may wait at once; beyond, the next wrong answer is refused (429).
CROWD = 10
#: Seconds after its last wrong answer when an address's count is forgotten.
FORGET = 600.0
#: The most addresses whose count is kept (the oldest forgotten first).
MOST_ADDRESSES = 100_000


class Door:
    """The count of wrong answers by address, how long each reply waits, and the replies waiting now.

    Parameters
    ----------
    clock : callable
        Seconds, monotonic (default :func:`time.monotonic`; a test gives its own).
    most : int
        The most addresses whose count is kept (:data:`MOST_ADDRESSES`).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, most: int = MOST_ADDRESSES) -> None:
        self._clock = clock
        self._most = most
        self._wrong: OrderedDict[str, tuple[int, float]] = OrderedDict()  # address -> (count, last), oldest first
        self.waiting: dict[str, int] = {}  # address -> replies waiting now (an address with none is not kept)

    def __len__(self) -> int:
        """The addresses whose count is kept."""
        return len(self._wrong)

    def crowded(self, address: str) -> bool:
        """Whether :data:`CROWD` replies to ``address`` are waiting already (the next wrong answer is refused)."""
        return self.waiting.get(address, 0) >= CROWD

    def wrong(self, address: str) -> float:
        """Count a wrong answer from ``address``; the seconds its reply waits (0 for the first :data:`FREE_WRONG`)."""
        now = self._clock()
        while self._wrong:  # the oldest first: stop at the first address seen lately
            oldest, (_count, last) = next(iter(self._wrong.items()))
            if now - last <= FORGET:
                break
            del self._wrong[oldest]
        count = self._wrong.pop(address, (0, now))[0] + 1
        self._wrong[address] = (count, now)  # the newest, at the end
        if len(self._wrong) > self._most:
            self._wrong.popitem(last=False)
        return 0.0 if count <= FREE_WRONG else min(SLOWEST, 2.0 ** (count - FREE_WRONG))

    @contextmanager
    def _counted(self, address: str) -> Iterator[None]:
        self.waiting[address] = self.waiting.get(address, 0) + 1
        try:
            yield
        finally:
            left = self.waiting[address] - 1
            if left:
                self.waiting[address] = left
            else:
                del self.waiting[address]

    @staticmethod
    def refuse(handler: RequestHandler, page: str) -> None:
        """Answer ``handler`` with ``page`` (a whole HTML document), status 429 and ``Retry-After``: the door is
        crowded for its address."""
        handler.set_status(429)
        handler.set_header("Retry-After", str(int(SLOWEST)))
        handler.set_header("Cache-Control", "no-store")
        handler.finish(page)

    async def wait_wrong(self, address: str) -> None:
        """Count a wrong answer from ``address`` and wait as long as its reply must (:meth:`wrong`), counted among the
        replies waiting for that address meanwhile."""
        wait = self.wrong(address)
        with self._counted(address):
            await asyncio.sleep(wait)
