"""The class's record as the teacher's dashboard follows it: the rows read so far, and the new ones read at each
update, only those after the last row it has (the readers' ``after``), so that an update costs three small queries
when nothing changed.

A :class:`ClassFeed` reads a record (:meth:`ClassFeed.of_record`) or holds a simulated class
(:meth:`ClassFeed.of_sample`, :mod:`dragonkit.topics.sample_class`), which it gives whole at its first update.
Reading never changes what it holds when the database fails: the error goes to the caller, who tries again later.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pandas as pd

from .class_summary import PLAYING_WITHIN, playing_now
from .our_class import stopping_choices
from .sample_class import SampleClass

if TYPE_CHECKING:
    from sqlalchemy import Engine

__all__ = ["EVENT_TABLES", "ClassFeed", "NewRows"]

#: The record's tables the dashboard follows.
EVENT_TABLES = ("decisions", "attempts", "games")


@dataclass(frozen=True)
class NewRows:
    """What one read brought: the rows of each table after the last one held, and who is playing now.

    Attributes
    ----------
    decisions, attempts, games : pandas.DataFrame
        As :mod:`dragonkit.record.reading` gives them (empty when nothing is new).
    playing : pandas.DataFrame
        :func:`~dragonkit.topics.class_summary.playing_now`'s table.
    rooms : pandas.DataFrame
        The class's rooms as they are now (:func:`dragonkit.record.reading.rooms`; none for a sample class).
    holds : pandas.DataFrame
        The class's nicknames held and released (:func:`dragonkit.record.reading.nickname_holds`; none for a sample).
    """

    decisions: pd.DataFrame
    attempts: pd.DataFrame
    games: pd.DataFrame
    playing: pd.DataFrame
    rooms: pd.DataFrame
    holds: pd.DataFrame

    def count(self, table: str) -> int:
        """The new rows of ``table``."""
        return len(getattr(self, table))


class ClassFeed:
    """The rows of a class's record read so far, and the reads of the new ones.

    Build it with :meth:`of_record` or :meth:`of_sample`.

    Attributes
    ----------
    class_name : str
    sample : bool
        Whether it holds a simulated class, not a record.
    decisions, attempts, games : pandas.DataFrame
        Every row read so far, oldest first.
    choices : pandas.DataFrame
        The reveal-or-hold decisions among them, judged (:func:`~dragonkit.topics.our_class.stopping_choices`).
    playing : pandas.DataFrame
        Who was playing at the last read.
    rooms : pandas.DataFrame
        The class's rooms at the last read.
    holds : pandas.DataFrame
        The class's nicknames held and released at the last read.
    sample_end : datetime.datetime or None
        When the simulated class ended (None for a record).
    """

    def __init__(self, class_name: str, engine: Engine | None = None, sample: SampleClass | None = None) -> None:
        if (engine is None) == (sample is None):
            raise ValueError("a class feed reads a record or holds a sample, one of the two")
        self.class_name = class_name
        self.sample = sample is not None
        from ..record.reading import HOLD_COLUMNS, ROOM_COLUMNS, columns

        self._engine = engine
        self._pending = sample  # a sample is given whole at the first read
        self.sample_end = None if sample is None else sample.end
        self.decisions = pd.DataFrame(columns=columns("decisions"))
        self.attempts = pd.DataFrame(columns=columns("attempts"))
        self.games = pd.DataFrame(columns=columns("games"))
        self.choices = stopping_choices(self.decisions)
        self.playing = pd.DataFrame(columns=["nickname", "page", "since", "last_seen"])
        self.rooms = pd.DataFrame(columns=ROOM_COLUMNS)
        self.holds = pd.DataFrame(columns=HOLD_COLUMNS)

    @property
    def engine(self) -> Engine | None:
        """The engine of the record read (None for a sample class)."""
        return self._engine

    @classmethod
    def of_record(cls, url: str, class_name: str) -> ClassFeed:
        """The feed of the record at ``url`` (an SQLAlchemy URL), for the class ``class_name``.

        Raises
        ------
        ValueError
            If ``url`` is not a database URL.
        """
        from ..record.store import connect

        return cls(class_name, engine=connect(url))

    @classmethod
    def of_sample(cls, sample: SampleClass) -> ClassFeed:
        """The feed of a simulated class: all its rows at the first read, nothing new after."""
        return cls(sample.class_name, sample=sample)

    def now(self) -> datetime:
        """The time now for the class held: the sample's end for a simulated class, else the time now (UTC, without
        a zone)."""
        return self.sample_end if self.sample_end is not None else datetime.now(UTC).replace(tzinfo=None)

    def last_id(self, table: str) -> int:
        """The ``id`` of the last row of ``table`` read (0 before any)."""
        frame: pd.DataFrame = getattr(self, table)
        return int(frame["id"].iloc[-1]) if len(frame) else 0

    def read(self) -> NewRows:
        """Read the rows after the last ones held, and who is playing now, all as one moment left the record
        (:func:`~dragonkit.record.reading.snapshot`: a game and its decisions together or not at all); nothing is kept
        yet (:meth:`keep`).

        It may run in a thread of its own: it reads the database and changes nothing.

        Raises
        ------
        sqlalchemy.exc.SQLAlchemyError
            If the database cannot be read (down, unreachable, locked); what the feed holds is unchanged.
        """
        if self._engine is None:
            sample, self._pending = self._pending, None
            if sample is None:
                return NewRows(
                    self.decisions.iloc[:0],
                    self.attempts.iloc[:0],
                    self.games.iloc[:0],
                    self.playing,
                    self.rooms,
                    self.holds,
                )
            playing = playing_now(sample.visits, self.now())
            return NewRows(sample.decisions, sample.attempts, sample.games, playing, self.rooms, self.holds)
        from ..record import reading

        name = self.class_name
        with reading.snapshot(self._engine) as moment:  # a game and its decisions, read together or not at all
            new = {table: getattr(reading, table)(moment, name, after=self.last_id(table)) for table in EVENT_TABLES}
            present, rooms = reading.present(moment, name, within=PLAYING_WITHIN), reading.rooms(moment, name)
            holds = reading.nickname_holds(moment, name)
        playing = playing_now(present, self.now())
        return NewRows(new["decisions"], new["attempts"], new["games"], playing, rooms, holds)

    def keep(self, new: NewRows) -> None:
        """Add ``new``'s rows to those held (the rows already held are never read twice: ``after``)."""
        for table in EVENT_TABLES:
            rows, held = getattr(new, table), getattr(self, table)
            if len(rows):
                setattr(self, table, rows if held.empty else pd.concat([held, rows], ignore_index=True))
        if len(new.decisions):
            fresh = stopping_choices(new.decisions)
            self.choices = fresh if self.choices.empty else pd.concat([self.choices, fresh], ignore_index=True)
        self.playing = new.playing
        self.rooms = new.rooms
        self.holds = new.holds

    def update(self) -> NewRows:
        """:meth:`read`, then :meth:`keep`; returns what was new.

        Raises
        ------
        sqlalchemy.exc.SQLAlchemyError
            As :meth:`read`.
        """
        new = self.read()
        self.keep(new)
        return new

    def close(self) -> None:
        """Close the database's connections (nothing for a sample)."""
        if self._engine is not None:
            self._engine.dispose()
