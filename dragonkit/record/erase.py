"""Erasing the class's record: a class, a day, or everything (``dragonkit class erase``); a room goes with its seats
and its moves, by the day it was opened; a nickname's holds by the day they were taken."""

from __future__ import annotations

from datetime import date

from sqlalchemy import Engine, delete, select

from .reading import day_bounds
from .schema import TABLES, NicknameHold, Room, RoomMove, RoomSeat, Visit

__all__ = ["erase"]


def erase(engine: Engine, class_name: str | None = None, day: date | None = None, everything: bool = False) -> int:
    """Erase the visits, decisions, attempts, games, rooms and nicknames' holds of ``class_name`` and/or of ``day``
    (both: that class's day), or everything; in one transaction.

    Parameters
    ----------
    engine : sqlalchemy.Engine
    class_name : str, optional
    day : datetime.date, optional
        A day of this machine's calendar.
    everything : bool
        Erase every row (``class_name`` and ``day`` must then be None).

    Returns
    -------
    int
        The rows erased.

    Raises
    ------
    ValueError
        If nothing is named (neither a class, a day nor everything), or everything is asked with a class or a day.
    """
    if everything == (class_name is not None or day is not None):
        raise ValueError("name a class, a day (or both), or everything — not everything with a class or a day")
    erased = 0
    with engine.begin() as connection:
        for model in TABLES.values():
            statement = delete(model)
            if class_name is not None:
                statement = statement.where(model.class_name == class_name)
            if day is not None:
                start, end = day_bounds(day)
                column = model.last_seen if issubclass(model, Visit) else model.at
                statement = statement.where(column >= start, column < end)
            erased += connection.execute(statement).rowcount
        holds = delete(NicknameHold)
        if class_name is not None:
            holds = holds.where(NicknameHold.class_name == class_name)
        if day is not None:
            start, end = day_bounds(day)
            holds = holds.where(NicknameHold.taken >= start, NicknameHold.taken < end)
        erased += connection.execute(holds).rowcount
        rooms = select(Room.id)
        if class_name is not None:
            rooms = rooms.where(Room.class_name == class_name)
        if day is not None:
            start, end = day_bounds(day)
            rooms = rooms.where(Room.created >= start, Room.created < end)
        ids = list(connection.execute(rooms).scalars())
        if ids:
            for part in (RoomMove, RoomSeat):
                erased += connection.execute(delete(part).where(part.room_id.in_(ids))).rowcount
            erased += connection.execute(delete(Room).where(Room.id.in_(ids))).rowcount
    return erased
