r"""Optimal stopping of a turn by backward induction.

The decision graph (:mod:`.graph`) is acyclic, so Bellman's equation is solved
layer by layer from the deepest one up:

.. math::

    W(s) = \frac{1}{n} \Bigl[\, S\, r_{\text{stop}} + D\, r_{\text{danger}}
           + \sum_i c_i(s)\, x_i(s) \Bigr], \qquad
    V(s) = \max\bigl(\text{pot}(s),\ W(s)\bigr),

where :math:`n` is the number of cards left, :math:`c_i` the footprint cards of
kind :math:`i`, :math:`x_i` the reward of a card that ends the turn or the value
:math:`V` of the decision point it leads to, :math:`W` the *push value* and the
pot the *hold value*.  Where the reveal is compulsory, :math:`V = W`.

Exact arithmetic needs no ``Fraction`` at all: every point of layer ``L`` has
the same ``n_L`` cards left, so with :math:`M_L = n_L n_{L+1} \cdots` the scaled
values :math:`M_L W` and :math:`M_L V` are integers.  A factor of :math:`M_L`
common to all of a layer's scaled values is divided out before the next layer
up multiplies by its :math:`n`, so the common denominator stays near the least
one, and the integers within int64 on the presets' decks.  The float path
performs the same operations with ``M_L = 1``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ...turn import Action, TurnState
from .graph import DecisionGraph
from .state import check_state

__all__ = [
    "LayerValues",
    "SolvedTurn",
    "TurnSolution",
    "backward_induction",
    "fair_bounty",
    "solve_turn",
    "takeover_gain",
]

Number = float | Fraction

#: The exact path's integers stay in int64 while their bound is below this; beyond, Python ints.
_INT64 = 2**63


@dataclass
class LayerValues:
    """Values of one layer's decision points, scaled by ``scale`` (exact mode).

    Attributes
    ----------
    push, value : ndarray, shape (m,)
        Push value W and value V = max(pot, W), times ``scale`` (gems).
        int64 or ``int`` objects in exact mode, float64 otherwise.
    scale : int
        A common denominator of the layer's values, :math:`M_L` with the factors common to
        all of them divided out (1 in float mode).
    """

    push: np.ndarray
    value: np.ndarray
    scale: int

    def reveal(self, pot: np.ndarray) -> np.ndarray:
        """Where revealing is strictly better than holding (a tie holds)."""
        return self.push > pot * self.scale

    def exact(self, array: np.ndarray, index: int) -> Number:
        """One entry as a number in gems: a ``Fraction`` in exact mode."""
        x = array[index]
        return Fraction(int(x), self.scale) if isinstance(x, (int, np.integer)) else float(x)


def backward_induction(graph: DecisionGraph, exact: bool = False) -> list[LayerValues]:
    """Push and optimal values of every decision point of ``graph``.

    Parameters
    ----------
    graph : DecisionGraph
    exact : bool
        Integer arithmetic with a common denominator per layer (exact), or float64.

    Returns
    -------
    list of LayerValues, one per layer.  Entries are values *as if* holding
    were allowed; at a root with a compulsory reveal use ``push``.

    Notes
    -----
    Each layer is one gather of the next layer's values along its edges, kind by kind.
    Every value is an average of end rewards and pots, so ``bound * scale`` bounds the
    scaled integers of a layer, where ``bound`` is the largest of those in absolute
    value (:attr:`DecisionGraph.end_bound`, the stop and the danger): while it fits, the
    exact path computes in int64, and in Python integers (object arrays) from the first
    layer where it might not.
    """
    const = graph.stops * graph.stop_reward + graph.dangers * graph.danger_reward
    bound = max(abs(graph.stop_reward), abs(graph.danger_reward), graph.end_bound) if exact else 0
    results: list[LayerValues] = [None] * len(graph.layers)  # type: ignore[list-item]
    # The next layer's values and a 0 after them, the term of a card with no child (index -1).
    following = np.zeros(1, dtype=np.int64 if exact else float)  # the deepest layer's cards all end the turn
    next_scale = 1
    for depth in range(len(graph.layers) - 1, -1, -1):
        layer = graph.layers[depth]
        m = len(layer)
        # Each card's term, kind by kind (shape (k, m)): the next point's value, or the reward of a card
        # that ends the turn (a card that does not ends it with no reward, and a card that does has no
        # child), times the cards of the kind left (none: whatever the term, it counts for nothing).
        if exact:
            scale = layer.cards_left * next_scale
            dtype: type = np.int64 if bound * scale < _INT64 else object
            x: np.ndarray = following.astype(dtype, copy=False).take(layer.child.T)
            x *= layer.counts.T
            # The rewards, small integers, summed before they are scaled.
            ends = np.add.reduce(layer.gain.T * layer.counts.T, axis=0, initial=const)
            push = np.add.reduce(x, axis=0) + ends.astype(dtype) * next_scale
            # A factor of the scale common to every value cancels out.
            common = math.gcd(scale, int(np.gcd.reduce(push)))
            push //= common
            scale //= common
            following = np.empty(m + 1, dtype=dtype)
            np.maximum(layer.pot.astype(dtype) * scale, push, out=following[:m])
        else:
            x = following.take(layer.child.T)
            x += layer.gain.T
            x *= layer.counts.T
            push, scale = np.add.reduce(x, axis=0, initial=float(const)), 1
            push /= layer.cards_left
            following = np.empty(m + 1)
            np.maximum(layer.pot, push, out=following[:m])
        following[m] = 0
        results[depth] = LayerValues(push, following[:m], scale)
        next_scale = scale
    return results


@dataclass(frozen=True)
class TurnSolution:
    """The optimal-stopping solution at one decision point.

    Attributes
    ----------
    value : float or Fraction
        The turn value: expected change of the active player's gems to the end of
        the turn under optimal play (gems).
    push_value : float or Fraction
        Expected gem change when revealing one card now, then playing optimally.
    hold_value : int
        Gem change when holding now: the pot (gems).
    best_action : Action
        ``Action.REVEAL`` when the reveal is compulsory or strictly better, else
        ``Action.HOLD`` (a tie holds).
    must_reveal : bool
        Whether holding is allowed at all.
    states : int
        Decision points reachable from here (the backward induction's size).
    """

    value: Number
    push_value: Number
    hold_value: int
    best_action: Action
    must_reveal: bool
    states: int = 0


def solve_turn(state: TurnState, exact: bool = False) -> TurnSolution:
    """Solve the turn from ``state`` by backward induction (RULES.md section 7).

    Parameters
    ----------
    state : TurnState
    exact : bool
        Return ``Fraction`` values instead of floats.

    Returns
    -------
    TurnSolution
        ``value = push_value`` if ``state.must_reveal``, else ``max(pot, push_value)``.

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or the deck is empty (nothing can be revealed).

    Notes
    -----
    Solutions are cached (the app asks again at every redraw); ``solve_turn.cache_clear()``
    empties the cache.
    """
    return _solve(check_state(state), bool(exact))


@lru_cache(maxsize=256)
def _solve(state: TurnState, exact: bool) -> TurnSolution:
    turn = SolvedTurn(state, exact)
    solution = turn.solution(state)
    assert solution is not None  # the root is the graph's first point
    return dataclasses.replace(solution, states=turn.graph.size)


solve_turn.cache_clear = _solve.cache_clear  # type: ignore[attr-defined]


class SolvedTurn:
    """A whole turn solved once, from one decision point, and every later decision of it looked up.

    Within a turn only footprint cards keep it going, so every decision point after
    ``state`` is a point of its decision graph (:class:`~.graph.DecisionGraph`), and
    backward induction has already valued it: a bot or a coach that asks at each
    decision of the same turn needs one solve, not one per decision.

    Parameters
    ----------
    state : TurnState
        The turn's first decision point (any decision point: later ones are looked up).
    exact : bool
        Values as ``Fraction`` objects (integer arithmetic) instead of floats.

    Attributes
    ----------
    graph : DecisionGraph
    values : list of LayerValues
        The backward induction, one entry per layer of ``graph``.

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or its deck is empty.
    """

    def __init__(self, state: TurnState, exact: bool = False) -> None:
        self.root = check_state(state)
        self.exact = bool(exact)
        self.graph = DecisionGraph.from_state(state)
        self.values = backward_induction(self.graph, self.exact)
        self._rows: dict[int, dict[tuple[int, ...], int]] = {}

    def _turn_key(self, state: TurnState) -> tuple[object, ...]:
        return (state.rules, state.stops, state.dangers, state.dangers_revealed, state.gems, state.bank)

    def locate(self, state: TurnState) -> tuple[int, int] | None:
        """``(layer, index)`` of ``state`` in the graph, or None if it is not a decision point of this turn."""
        if state.is_terminal() or self._turn_key(state) != self._turn_key(self.root):
            return None
        depth = self.root.cards_left - state.cards_left
        if not 0 <= depth < len(self.graph.layers):
            return None
        if depth not in self._rows:
            layer = self.graph.layers[depth]
            keys = np.column_stack([layer.counts, layer.position, layer.pot]).tolist()
            self._rows[depth] = {tuple(key): i for i, key in enumerate(keys)}
        index = self._rows[depth].get((*state.footprints.values(), state.position, state.pot))
        return None if index is None else (depth, index)

    def solution(self, state: TurnState) -> TurnSolution | None:
        """The optimal-stopping solution at ``state``, read from the solved turn (no new solve).

        Returns
        -------
        TurnSolution or None
            As :func:`solve_turn` would give it (``states`` is 0: nothing was solved anew);
            None if ``state`` is not a decision point of this turn.
        """
        where = self.locate(check_state(state))
        if where is None:
            return None
        layer_values = self.values[where[0]]
        push = layer_values.exact(layer_values.push, where[1])
        hold = state.pot
        best = Action.REVEAL if state.must_reveal or push > hold else Action.HOLD
        value: Number = push if state.must_reveal else max(push, hold)
        value = Fraction(value) if self.exact else float(value)
        return TurnSolution(value, push, hold, best, state.must_reveal)


def fair_bounty(state: TurnState, gems: int, exact: bool = False) -> Number:
    """The fair bounty for a player with ``gems`` gems thinking of taking over.

    It is that player's turn value of the same situation with a compulsory
    reveal (RULES.md section 7), computed with ``gems`` as the player's gems.
    Negative when even a free takeover loses gems on average.  Whether a
    takeover for a given bounty pays is :func:`takeover_gain` (the bounty is
    paid first, so the turn is played with fewer gems).

    Raises
    ------
    ValueError
        If ``gems`` is negative or the deck is empty.
    """
    return solve_turn(check_state(state).taken_over(gems, 0), exact=exact).value


def takeover_gain(state: TurnState, gems: int, bounty: int, exact: bool = False) -> Number:
    """The expected change of a taker's gems from accepting a takeover offer to the end of the turn.

    The taker pays ``bounty`` first and then plays the turn with ``gems - bounty``
    gems (:meth:`TurnState.taken_over <dragonkit.turn.TurnState.taken_over>`), so penalties
    are charged on what is left: the gain is ``fair_bounty(state, gems - bounty) - bounty``.  Taking over pays exactly
    when it is positive.  (Comparing :func:`fair_bounty` at the gems *before*
    paying with the bounty overstates the penalties and errs on the side of declining.)

    Parameters
    ----------
    state : TurnState
        The held turn.
    gems : int
        The taker's gems before paying (gems).
    bounty : int
        The bounty asked (gems), at most ``gems``.

    Returns
    -------
    float or Fraction
        Gems.

    Raises
    ------
    ValueError
        If ``bounty`` is negative or more than ``gems``, or the deck is empty.
    """
    taker = check_state(state).taken_over(gems, bounty)  # refuses a bounty outside 0..gems
    return solve_turn(taker, exact=exact).value - bounty
