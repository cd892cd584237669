"""Walking a turn along cards that are known: the situation after a run of revealed footprints.

A lesson tells a story ("the first four cards were footprints of 4, 1, 2 and 1 steps") and a
learner types the cards of a held turn; both are the state reached by stepping
:meth:`TurnState.child <dragonkit.turn.TurnState.child>` once per card, which is all this
module does.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...rules import STOP_CARD, Card
from ...turn import TurnState

__all__ = ["after_cards", "stop_penalty"]


def after_cards(state: TurnState, cards: Iterable[Card]) -> TurnState:
    """The situation after revealing ``cards`` from ``state``, each one a card that keeps the turn going.

    Parameters
    ----------
    state : TurnState
    cards : iterable of Card
        Revealed in this order, each stepped with :meth:`TurnState.child`.

    Returns
    -------
    TurnState
        The knight moved, the pot filled from the treasure, the cards gone from the deck,
        holding allowed (``must_reveal`` False) — unless ``cards`` is empty: then ``state`` itself.

    Raises
    ------
    ValueError
        If a card is not left in the deck, or would end the turn (the message names it).
    """
    for card in cards:
        after = state.child(card)  # ValueError if no such card is left
        if after.is_terminal():
            assert after.outcome is not None
            raise ValueError(f"a {card.label} card here ends the turn ({after.outcome.label})")
        state = after
    return state


def stop_penalty(state: TurnState) -> int:
    """What a stop card revealed now costs the active player (gems): minus the
    :meth:`~dragonkit.turn.TurnState.returns` of ``state.child(stop)``.

    Raises
    ------
    ValueError
        If no stop card is left or the turn has ended.
    """
    return -state.child(STOP_CARD).returns()
