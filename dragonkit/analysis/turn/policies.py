"""Policies: what to do at every decision point of a turn, reveal or hold.

A policy answers for single situations (:meth:`Policy.decide`) and, for speed,
for a whole layer of the decision graph at once (:meth:`Policy.reveal_mask`).
Any callable ``f(TurnState) -> Action`` (``Action.REVEAL`` or ``Action.HOLD``, or their
values ``"reveal"``, ``"hold"``) is a policy too
(:func:`as_policy`).  A compulsory reveal is never the policy's choice: the
analysis enforces it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from ...i18n import N_
from ...rules import whole_number
from ...turn import Action, TurnState
from .graph import DecisionGraph
from .optimal import LayerValues, backward_induction, solve_turn

__all__ = [
    "FunctionPolicy",
    "HoldAfterReveals",
    "HoldAtPot",
    "NeverHold",
    "OptimalPolicy",
    "Policy",
    "PolicyLike",
    "as_policy",
    "optimal_policy",
]

ACTIONS = (Action.REVEAL, Action.HOLD)


class Policy:
    """Base class: a rule saying, at each decision point, :attr:`Action.REVEAL <dragonkit.turn.Action.REVEAL>` or
    :attr:`Action.HOLD <dragonkit.turn.Action.HOLD>`."""

    #: A short readable name, used in tables and plots.
    name = "policy"

    def decide(self, state: TurnState, reveals: int = 0) -> Action:
        """The action at ``state``, ``reveals`` cards after the analysed situation: ``Action.REVEAL`` or
        ``Action.HOLD``."""
        raise NotImplementedError

    def reveal_mask(self, graph: DecisionGraph, depth: int) -> np.ndarray:
        """Where the policy reveals, for every decision point of layer ``depth``.

        Returns
        -------
        ndarray of bool, shape (len(layer),)
        """
        layer = graph.layers[depth]
        return np.array(
            [self.decide(graph.state(depth, i), depth) == Action.REVEAL for i in range(len(layer))], dtype=bool
        )

    def __repr__(self) -> str:
        return self.name


class HoldAtPot(Policy):
    """Hold as soon as the pot reaches ``threshold`` gems; reveal below it.

    Raises
    ------
    ValueError
        For a threshold that is not a whole number >= 0.
    """

    def __init__(self, threshold: int):
        self.threshold = whole_number(threshold, "threshold", minimum=0)
        self.name = f"hold at {self.threshold}"

    def decide(self, state: TurnState, reveals: int = 0) -> Action:
        return Action.REVEAL if state.pot < self.threshold else Action.HOLD

    def reveal_mask(self, graph: DecisionGraph, depth: int) -> np.ndarray:
        return graph.layers[depth].pot < self.threshold


class HoldAfterReveals(Policy):
    """Reveal ``reveals`` cards from the analysed situation, then hold.

    Raises
    ------
    ValueError
        For a count that is not a whole number >= 1.
    """

    def __init__(self, reveals: int):
        self.reveals = whole_number(reveals, "reveals", minimum=1)
        self.name = f"hold after {self.reveals} card" + ("s" if self.reveals > 1 else "")

    def decide(self, state: TurnState, reveals: int = 0) -> Action:
        return Action.REVEAL if reveals < self.reveals else Action.HOLD

    def reveal_mask(self, graph: DecisionGraph, depth: int) -> np.ndarray:
        return np.full(len(graph.layers[depth]), depth < self.reveals)


class NeverHold(Policy):
    """The greedy policy: reveal until the turn ends by itself (a stop, a danger or the head)."""

    name = N_("never hold")

    def decide(self, state: TurnState, reveals: int = 0) -> Action:
        return Action.REVEAL

    def reveal_mask(self, graph: DecisionGraph, depth: int) -> NDArray[np.bool_]:
        return np.ones(len(graph.layers[depth]), dtype=bool)


class OptimalPolicy(Policy):
    """Reveal exactly where it is strictly better than holding (backward induction).

    Attributes
    ----------
    state : TurnState or None
        The situation solved by :func:`optimal_policy` (None for a generic instance).
    value : float, Fraction or None
        Its optimal turn value (gems).
    """

    name = "optimal"

    def __init__(self) -> None:
        self.state: TurnState | None = None
        self.value: float | Fraction | None = None
        self._cache: tuple[DecisionGraph, list[LayerValues]] | None = None

    def values(self, graph: DecisionGraph, exact: bool = False) -> list[LayerValues]:
        """The backward induction of ``graph`` (kept for the last graph asked)."""
        if self._cache is None or self._cache[0] is not graph:
            self._cache = (graph, backward_induction(graph, exact))
        return self._cache[1]

    def decide(self, state: TurnState, reveals: int = 0) -> Action:
        return solve_turn(state).best_action

    def reveal_mask(self, graph: DecisionGraph, depth: int) -> np.ndarray:
        return self.values(graph)[depth].reveal(graph.layers[depth].pot)


class FunctionPolicy(Policy):
    """A policy from a callable ``f(TurnState) -> Action`` (or the action's value, ``"reveal"`` or ``"hold"``)."""

    def __init__(self, function: Callable[[TurnState], str], name: str | None = None) -> None:
        self.function = function
        self.name = name or str(getattr(function, "__name__", "custom policy"))

    def decide(self, state: TurnState, reveals: int = 0) -> Action:
        action = self.function(state)
        if action not in ACTIONS:  # Action is a str enum: "reveal" and "hold" are in too
            raise ValueError(f"policy {self.name!r} returned {action!r}; a policy returns 'reveal' or 'hold'")
        return Action(action)


PolicyLike = Policy | Callable[[TurnState], str]


def as_policy(policy: PolicyLike) -> Policy:
    """A :class:`Policy` from a policy or a callable.

    Raises
    ------
    ValueError
        For anything else.
    """
    if isinstance(policy, Policy):
        return policy
    if callable(policy):
        return FunctionPolicy(policy)
    raise ValueError(f"a policy is a Policy or a callable (TurnState) -> 'reveal' | 'hold', not {policy!r}")


def optimal_policy(state: TurnState, exact: bool = False) -> OptimalPolicy:
    """The optimal policy from ``state``, found by backward induction over the
    acyclic decision graph (the deck only shrinks).

    Returns
    -------
    OptimalPolicy
        With ``value``, the optimal turn value (gems; a ``Fraction`` when exact),
        equal to :func:`~dragonkit.analysis.solve_turn`'s.
    """
    policy = OptimalPolicy()
    graph = DecisionGraph.from_state(state)
    root = policy.values(graph, exact)[0]
    push = root.exact(root.push, 0)
    policy.state = state
    policy.value = push if state.must_reveal else max(push, Fraction(state.pot) if exact else float(state.pot))
    return policy
