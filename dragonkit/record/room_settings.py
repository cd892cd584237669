"""A room's settings, as the page that opens a room offers them and the record keeps them: plain values, without
SQLAlchemy, so that every page of the play app can offer them (a kernel without a record never loads SQLAlchemy;
:mod:`dragonkit.record.rooms` keeps the rooms themselves)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["LEAVE_AFTER", "RoomCoach"]

#: The choices of how long a seat waits for a player who left before a bot plays it (seconds); the first is the
#: default.
LEAVE_AFTER = (60, 30, 120, 300)


class RoomCoach(StrEnum):
    """When the coach speaks in a room: during the game, never, or after the game."""

    ON = "on"
    OFF = "off"
    AFTER = "after"
