"""Monte Carlo of turns, vectorized: many turns walk the decision graph at once.

All simulated turns advance one card per step together, so the only Python loop
is over the depth of the turn (at most the number of footprint cards), never
over cards or turns.  The card drawn is uniform among the cards left (a draw
without replacement from the remaining composition); what it does comes from
the decision graph, which the engine's own rule arithmetic built, folded with
the policy into one lookup table per layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..analysis.turn.graph import CONTINUES, HEAD, DecisionGraph
from ..analysis.turn.policies import PolicyLike, as_policy
from ..analysis.turn.state import check_state
from ..rules import Outcome, whole_number
from ..turn import TurnState
from .stats import ESTIMATE_COLUMNS, mean_estimate, proportion_estimate

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["OUTCOMES", "TurnSimulation", "simulate_turns"]

#: How a simulated turn ended: :attr:`TurnSimulation.outcome` holds indices into this tuple.
OUTCOMES = tuple(Outcome)
HELD, STOPPED, DANGER, FINAL_DANGER, AT_HEAD, DECK_EMPTY = (
    OUTCOMES.index(o)
    for o in (Outcome.HELD, Outcome.STOPPED, Outcome.DANGER, Outcome.FINAL_DANGER, Outcome.HEAD, Outcome.DECK_EMPTY)
)


@dataclass(frozen=True)
class TurnSimulation:
    """Simulated turns from one situation under one policy.

    Attributes
    ----------
    policy : str
    gain : ndarray of int, shape (n,)
        Gem change of the active player in each turn (gems).
    cards : ndarray of int, shape (n,)
        Cards revealed in each turn (cards).
    outcome : ndarray of int, shape (n,)
        How each turn ended, an index into :data:`OUTCOMES`.
    """

    policy: str
    gain: np.ndarray
    cards: np.ndarray
    outcome: np.ndarray

    @property
    def n(self) -> int:
        return len(self.gain)

    def summary(self, level: float = 0.95) -> pd.DataFrame:
        """Estimates with standard errors and confidence intervals at ``level``.

        Returns
        -------
        pandas.DataFrame
            Rows ``expected_gain``, ``expected_cards`` (normal intervals), ``p_stopped``,
            ``p_danger``, ``p_head``, ``p_loss`` (Wilson intervals); columns
            ``estimate``, ``std_error``, ``ci_low``, ``ci_high``, ``n``.
        """
        import pandas as pd  # heavy: loaded when a summary is asked for, not with the package

        n = self.n
        rows = {
            "expected_gain": mean_estimate(self.gain, level),
            "expected_cards": mean_estimate(self.cards, level),
            "p_stopped": proportion_estimate(int(np.sum(self.outcome == STOPPED)), n, level),
            "p_danger": proportion_estimate(
                int(np.sum((self.outcome == DANGER) | (self.outcome == FINAL_DANGER))), n, level
            ),
            "p_head": proportion_estimate(int(np.sum(self.outcome == AT_HEAD)), n, level),
            "p_loss": proportion_estimate(int(np.sum(self.gain < 0)), n, level),
        }
        return pd.DataFrame.from_dict(rows, orient="index")[ESTIMATE_COLUMNS]

    def running_mean(self) -> np.ndarray:
        """The mean gain after 1, 2, ..., n turns: the law of large numbers at work (gems)."""
        return np.cumsum(self.gain) / np.arange(1, self.n + 1)


def _slot_table(graph: DecisionGraph, depth: int, masks: list[np.ndarray]):
    """What happens when each card slot of each decision point of a layer is drawn.

    The ``cards_left`` slots of a point hold its footprints by kind, then its stops,
    then its dangers; drawing is then one uniform integer per turn.  Returns three
    flat arrays indexed by ``point * cards_left + slot``: the next decision point
    (-1 where the turn ends, the policy's holds included), the gem change and the
    outcome code of a turn that ends.
    """
    graph_layer, k = graph.layers[depth], len(graph.steps)
    m, n = len(graph_layer), graph_layer.cards_left
    weights = np.concatenate([graph_layer.counts, np.tile([graph.stops, graph.dangers], (m, 1))], axis=1)
    kind = np.repeat(np.tile(np.arange(k + 2), m), weights.ravel())  # (m * n,) the kind in each slot
    point = np.repeat(np.arange(m), n)
    child = np.full(m * n, -1, dtype=np.int64)
    reward = np.zeros(m * n, dtype=np.int64)
    code = np.full(m * n, HELD, dtype=np.int64)
    danger = FINAL_DANGER if graph.danger_outcome is Outcome.FINAL_DANGER else DANGER
    for value, gems, kind_index in ((STOPPED, graph.stop_reward, k), (danger, graph.danger_reward, k + 1)):
        hit = kind == kind_index
        reward[hit], code[hit] = gems, value
    layer_ends, layer_child, layer_reward = graph_layer.ends, graph_layer.child, graph_layer.end_reward
    if layer_ends is None or layer_child is None or layer_reward is None:
        raise ValueError(f"layer {depth} of the decision graph has no edges")
    fp = np.flatnonzero(kind < k)
    p, i = point[fp], kind[fp]
    ends = layer_ends[p, i]
    stop_here = ends != CONTINUES
    reward[fp[stop_here]] = layer_reward[p[stop_here], i[stop_here]]
    code[fp[stop_here]] = np.where(ends[stop_here] == HEAD, AT_HEAD, DECK_EMPTY)
    go = fp[~stop_here]
    nxt = layer_child[p[~stop_here], i[~stop_here]]
    if go.size:
        reveal = masks[depth + 1][nxt]
        child[go[reveal]] = nxt[reveal]
        reward[go[~reveal]] = graph.layers[depth + 1].pot[nxt[~reveal]]  # the policy holds: outcome HELD
    return child, reward, code


def simulate_turns(
    state: TurnState, policy: PolicyLike, n: int, rng: np.random.Generator | int | None = None
) -> TurnSimulation:
    """Simulate ``n`` turns from ``state`` under ``policy``.

    Parameters
    ----------
    state : TurnState
    policy : Policy or callable
    n : int
        Number of turns (>= 1).
    rng : numpy.random.Generator or int, optional
        The random generator, or a seed for :func:`numpy.random.default_rng`.

    Returns
    -------
    TurnSimulation

    Raises
    ------
    ValueError
        For ``n < 1``, a state that is not a TurnState, or an empty deck.
    """
    check_state(state)
    n = whole_number(n, "n", minimum=1)
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    policy = as_policy(policy)
    graph = DecisionGraph.from_state(state)
    layers, _k = graph.layers, len(graph.steps)
    masks = [policy.reveal_mask(graph, d) for d in range(len(layers))]
    if state.must_reveal:
        masks[0] = np.ones(1, dtype=bool)
    gain = np.zeros(n, dtype=np.int64)
    cards = np.zeros(n, dtype=np.int64)
    outcome = np.full(n, HELD, dtype=np.int64)
    if not masks[0][0]:  # the policy holds at once
        gain[:] = state.pot
        return TurnSimulation(policy.name, gain, cards, outcome)
    tables = [_slot_table(graph, d, masks) for d in range(len(layers))]
    active = np.arange(n)
    node = np.zeros(n, dtype=np.int64)
    for depth, layer in enumerate(layers):
        if not active.size:
            break
        child, reward, code = tables[depth]
        slot = node[active] * layer.cards_left + rng.integers(0, layer.cards_left, size=active.size)
        nxt = child[slot]
        cards[active] += 1
        ends = nxt < 0
        gain[active[ends]] = reward[slot[ends]]
        outcome[active[ends]] = code[slot[ends]]
        active, node_next = active[~ends], nxt[~ends]
        node[active] = node_next
    return TurnSimulation(policy.name, gain, cards, outcome)
