"""The next card's law at a decision point of a turn (the turn itself is :class:`dragonkit.turn.TurnState`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...rules import Card
from ...turn import TurnState

__all__ = ["check_state", "next_card_probabilities"]


def next_card_probabilities(state: TurnState) -> dict[Card, Fraction]:
    """Exact distribution of the next card: ``{card: count / cards left}``.

    This is one draw of the multivariate hypergeometric law
    (:meth:`TurnState.chance_outcomes <dragonkit.turn.TurnState.chance_outcomes>`);
    cards with no copy left are omitted.  The values are ``Fraction``s summing to 1
    (empty dict for an empty deck).

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState.
    """
    return dict(check_state(state).chance_outcomes())


def check_state(state: Any) -> TurnState:
    """``state`` itself, or a ValueError saying that a TurnState was expected."""
    if not isinstance(state, TurnState):
        raise ValueError(f"expected a TurnState, not {type(state).__name__}")
    return state
