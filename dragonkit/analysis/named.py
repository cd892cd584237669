"""The policies the lessons offer by name.

* :class:`NeverHold` — the greedy policy: reveal until the turn ends by itself;
* :func:`named_policy` — ``"threshold"``, ``"cautious"``, ``"greedy"`` or ``"optimal"``;
* :func:`menu_policy` — a menu's choice, ``"optimal"`` or a threshold in gems.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ..i18n import N_
from ..turn import Action, TurnState
from .graph import DecisionGraph
from .policies import HoldAfterReveals, HoldAtPot, OptimalPolicy, Policy

__all__ = ["NAMED", "NeverHold", "menu_policy", "named_policy"]


class NeverHold(Policy):
    """The greedy policy: reveal until the turn ends by itself (a stop, a danger or the head)."""

    name = N_("never hold")

    def decide(self, state: TurnState, reveals: int = 0) -> Action:
        return Action.REVEAL

    def reveal_mask(self, graph: DecisionGraph, depth: int) -> NDArray[np.bool_]:
        return np.ones(len(graph.layers[depth]), dtype=bool)


#: The named policies of the lessons: key -> a factory.
NAMED: dict[str, Callable[[], Policy]] = {
    "cautious": lambda: HoldAfterReveals(1),
    "greedy": NeverHold,
    "optimal": OptimalPolicy,
}


def named_policy(kind: str, threshold: int = 1) -> Policy:
    """A policy by name: ``"threshold"`` (hold at ``threshold`` gems), ``"cautious"``
    (hold after one card), ``"greedy"`` (never hold) or ``"optimal"``.

    Raises
    ------
    ValueError
        For another name, or a threshold that is not a whole number >= 0.
    """
    if kind == "threshold":
        return HoldAtPot(threshold)
    if kind not in NAMED:
        raise ValueError(f"policy must be one of threshold, {', '.join(NAMED)}, not {kind!r}")
    return NAMED[kind]()


def menu_policy(choice: str | int) -> Policy:
    """A policy as the lessons' menus name it — ``"optimal"`` or a threshold t (gems) —
    as :class:`~dragonkit.analysis.OptimalPolicy` or :class:`~dragonkit.analysis.HoldAtPot`.

    Raises
    ------
    ValueError
        For anything else.
    """
    return OptimalPolicy() if choice == "optimal" else HoldAtPot(choice)  # type: ignore[arg-type]
