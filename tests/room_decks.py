"""A game's deck chosen by a test. A game's seed is random, as it must be, and a random deck can end the game, or a
player's turns, before the moment a test needs (one game of the mini edition in eight ends at its first card); a test
that needs a moment finds, with the engine, the first seed from 10¹² whose game has it, and gives the room that deck
before the other players join (each join makes every page read the room again), or types it in a game's setup. The
seed is large, so that its digits cannot appear on a page by chance (a test looks for them)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import update

from dragonkit.record.schema import Room
from dragonkit.record.store import connect

#: The first seed tried.
FIRST_SEED = 10**12


def first_seed(wanted: Callable[[int], bool], tries: int = 1000) -> int:
    """The first seed from :data:`FIRST_SEED` for which ``wanted(seed)`` holds."""
    found = next((seed for seed in range(FIRST_SEED, FIRST_SEED + tries) if wanted(seed)), None)
    assert found is not None, f"none of {tries} decks will do"
    return found


def give_deck(record: str, code: str, seed: int) -> None:
    """Give room ``code`` of the record at URL ``record`` the deck of ``seed``."""
    engine = connect(record)
    try:
        with engine.begin() as connection:
            connection.execute(update(Room).where(Room.code == code).values(seed=seed))
    finally:
        engine.dispose()
