"""Playing a taken-over turn out: the winner of a takeover auction pays the price, then plays
the turn optimally from the compulsory reveal (one Monte Carlo turn, :func:`.turns.simulate_turns`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..analysis.turn.policies import optimal_policy
from ..rules import Outcome
from ..turn import TurnState
from .turns import OUTCOMES, simulate_turns

__all__ = ["TakeoverPlay", "mean_profit", "play_takeover"]


@dataclass(frozen=True)
class TakeoverPlay:
    """One taken-over turn played out.

    Attributes
    ----------
    gain : int
        The taker's gem change over the turn (gems).
    profit : int
        ``gain - price``: what taking over at that price brought (gems).
    outcome : Outcome
        How the turn ended.
    """

    gain: int
    profit: int
    outcome: Outcome


def play_takeover(state: TurnState, gems: int, price: int, rng: np.random.Generator) -> TakeoverPlay:
    """Pay ``price`` out of ``gems`` and play the held turn ``state`` once, optimally, from a compulsory reveal.

    Parameters
    ----------
    state : TurnState
        The held turn.
    gems : int
        The taker's gems before paying (gems).
    price : int
        What the taker pays the holder (gems), 0..gems: paid as the bounty
        (:meth:`TurnState.taken_over <dragonkit.turn.TurnState.taken_over>`).
    rng : numpy.random.Generator

    Raises
    ------
    ValueError
        For a price outside 0..gems or an empty deck.
    """
    start = state.taken_over(gems, price)  # refuses a price outside 0..gems
    turn = simulate_turns(start, optimal_policy(start), 1, rng=rng)
    gain = int(turn.gain[0])
    return TakeoverPlay(gain, gain - price, OUTCOMES[int(turn.outcome[0])])


def mean_profit(plays: Sequence[TakeoverPlay]) -> float:
    """The average profit of ``plays`` (gems).

    Raises
    ------
    ValueError
        For no plays.
    """
    if not plays:
        raise ValueError("no turn has been played out")
    return sum(p.profit for p in plays) / len(plays)
