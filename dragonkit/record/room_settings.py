"""A room's settings, as the page that opens a room offers them and the record keeps them: plain values, without
SQLAlchemy, so that every page of the play app can offer them (a kernel without a record never loads SQLAlchemy;
:mod:`dragonkit.record.rooms` keeps the rooms themselves)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["CLOSING_EVERY", "LEAVE_AFTER", "WAITING_IDLE", "RoomCoach"]

#: The choices of how long a seat waits for a player who left before a bot plays it (seconds); the first is the
#: default.
LEAVE_AFTER = (60, 30, 120, 300)
#: A room waiting for its players is closed once nothing changed in it and no page of its players was seen for this
#: long (seconds), while a class's server runs (:func:`dragonkit.record.rooms.close_abandoned`, every
#: :data:`CLOSING_EVERY` seconds): a page that opened rooms and went leaves none waiting long.
WAITING_IDLE = 20 * 60
#: How often (seconds) a class's server closes the waiting rooms left idle.
CLOSING_EVERY = 60


class RoomCoach(StrEnum):
    """When the coach speaks in a room: during the game, never, or after the game."""

    ON = "on"
    OFF = "off"
    AFTER = "after"
