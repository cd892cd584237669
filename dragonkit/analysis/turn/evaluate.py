"""A turn under a fixed policy is an absorbing Markov chain.

Its transient states are the decision points where the policy reveals a card
(one step of the chain = one card); its absorbing states are the turn's
outcomes: held with pot p, stopped, a danger, the final danger, the head, and
(custom decks only) an empty deck.  :func:`evaluate_policy` reads everything
off the chain with :mod:`dragonkit.markov`: the expected gem change is the
expected reward ``B r``, the number of cards revealed the expected number of
steps ``t = N 1``, and the exact distribution of the gem change is the
absorption probabilities ``B = N R`` grouped by reward.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ...markov import AbsorbingChain
from ...rules import Outcome
from ...turn import Action, TurnState, pot_bound
from .graph import CONTINUES, DECK_EMPTY, HEAD, DecisionGraph
from .policies import HoldAtPot, OptimalPolicy, Policy, PolicyLike, as_policy

if TYPE_CHECKING:  # pandas and scipy.sparse load when a chain is built: the play app needs neither
    import pandas as pd
    import scipy.sparse as sp

__all__ = ["PolicyEvaluation", "Situation", "TurnChain", "compare_policies", "evaluate_policy", "turn_chain"]

Number = float | Fraction


class Situation(NamedTuple):
    """Label of a transient state: where the knight stands, the pot, and the
    footprint cards drawn since the analysed situation (e.g. ``"1+2+2"``)."""

    position: int
    pot: int
    drawn: str


class TurnChain(AbsorbingChain):
    """The :class:`~dragonkit.markov.AbsorbingChain` of a turn under a policy.

    Attributes
    ----------
    start : Situation
        The transient state the turn starts from.
    rewards : dict
        Gem change of the active player for each absorbing state (gems).
    policy : Policy
    """

    def __init__(
        self,
        P: list[dict[int, Fraction]] | sp.csr_matrix,
        labels: list[Hashable],
        start: Situation,
        rewards: dict[Hashable, int],
        policy: Policy,
    ) -> None:
        super().__init__(P, labels)
        self.start, self.rewards, self.policy = start, rewards, policy


def turn_chain(state: TurnState, policy: PolicyLike, exact: bool = False) -> TurnChain:
    """The turn from ``state`` under ``policy`` as an absorbing Markov chain.

    Parameters
    ----------
    state : TurnState
    policy : Policy or callable
    exact : bool
        Build P in ``Fraction``\\ s (exact elimination) instead of a sparse float matrix.

    Returns
    -------
    TurnChain
        Transient states labelled by :class:`Situation`, in layer order (so that
        Q is strictly upper triangular); absorbing states ``"held p"``,
        ``"stopped"``, ``"danger"``, ``"final danger"``, ``"head"``, ``"deck empty"``
        (those that can happen).

    Raises
    ------
    ValueError
        If the deck is empty, or the policy holds at once where holding is
        allowed (no card is revealed: the turn is worth the pot).
    """
    import scipy.sparse as sp

    policy = as_policy(policy)
    graph = DecisionGraph.from_state(state)
    layers = graph.layers
    masks = [policy.reveal_mask(graph, d) for d in range(len(layers))]
    if state.must_reveal:
        masks[0] = np.ones(1, dtype=bool)
    if not masks[0][0]:
        raise ValueError(
            f"the policy {policy.name!r} holds at once: no card is revealed and the turn is worth "
            f"the pot ({state.pot} gems)"
        )
    # forward: which decision points does the policy reach, and where does it reveal?
    active = []
    reached = np.ones(1, dtype=bool)
    for d, layer in enumerate(layers):
        act = reached & masks[d]
        active.append(act)
        if d + 1 < len(layers):
            nxt = np.zeros(len(layers[d + 1]), dtype=bool)
            kids = layer.child[act]
            nxt[kids[kids >= 0]] = True
            reached = nxt
    offsets = np.cumsum([0] + [int(a.sum()) for a in active])
    ids = []
    for d, act in enumerate(active):
        idx = np.full(len(layers[d]), -1, dtype=np.int64)
        idx[act] = offsets[d] + np.arange(int(act.sum()))
        ids.append(idx)
    n_transient = int(offsets[-1])

    absorbing: dict[str, int] = {}
    rewards: dict[Hashable, int] = {}

    def target(label: str, reward: int) -> int:
        if label not in absorbing:
            absorbing[label] = n_transient + len(absorbing)
            rewards[label] = reward
        return absorbing[label]

    rows, cols, nums, dens = [], [], [], []

    def add(r: np.ndarray, c: np.ndarray, num: np.ndarray, den: int) -> None:
        rows.append(r)
        cols.append(c)
        nums.append(num)
        dens.append(np.full(len(r), den, dtype=np.int64))

    danger_label = (graph.danger_outcome or Outcome.DANGER).label
    for d, layer in enumerate(layers):
        src = np.flatnonzero(active[d])
        if not src.size:
            continue
        r, n = ids[d][src], layer.cards_left
        if graph.stops:
            add(
                r,
                np.full(src.size, target(Outcome.STOPPED.label, graph.stop_reward)),
                np.full(src.size, graph.stops),
                n,
            )
        if graph.dangers:
            add(r, np.full(src.size, target(danger_label, graph.danger_reward)), np.full(src.size, graph.dangers), n)
        for i in range(len(graph.steps)):
            ends, count = layer.ends[src, i], layer.counts[src, i]
            for code, label in ((HEAD, Outcome.HEAD.label), (DECK_EMPTY, Outcome.DECK_EMPTY.label)):
                hit = ends == code
                if hit.any():
                    reward = int(layer.end_reward[src[hit][0], i])
                    add(r[hit], np.full(int(hit.sum()), target(label, reward)), count[hit], n)
            go = ends == CONTINUES
            if not go.any():
                continue
            child = layer.child[src[go], i]
            child_id = ids[d + 1][child]
            moves_on = child_id >= 0
            add(r[go][moves_on], child_id[moves_on], count[go][moves_on], n)
            held_pots = layers[d + 1].pot[child[~moves_on]]
            held = np.array([target(f"{Outcome.HELD.label} {p}", int(p)) for p in held_pots.tolist()], dtype=np.int64)
            add(r[go][~moves_on], held, count[go][~moves_on], n)

    size = n_transient + len(absorbing)
    rows_a, cols_a = np.concatenate(rows), np.concatenate(cols)
    nums_a, dens_a = np.concatenate(nums), np.concatenate(dens)
    absorbing_ids = np.arange(n_transient, size)
    P: list[dict[int, Fraction]] | sp.csr_matrix
    if exact:
        P = [{} for _ in range(size)]
        for r_, c_, k_, n_ in zip(rows_a.tolist(), cols_a.tolist(), nums_a.tolist(), dens_a.tolist()):
            P[r_][c_] = P[r_].get(c_, 0) + Fraction(k_, n_)
        for a in absorbing_ids.tolist():
            P[a][a] = Fraction(1)
    else:
        P = sp.csr_matrix(
            (
                np.concatenate([nums_a / dens_a, np.ones(len(absorbing_ids))]),
                (np.concatenate([rows_a, absorbing_ids]), np.concatenate([cols_a, absorbing_ids])),
            ),
            shape=(size, size),
        )
    labels: list[Hashable] = []
    for d, act in enumerate(active):
        layer, rows_d = layers[d], np.flatnonzero(act)
        labels += [
            Situation(p, q, w)
            for p, q, w in zip(layer.position[rows_d].tolist(), layer.pot[rows_d].tolist(), graph.drawn(d, rows_d))
        ]
    start = labels[0]
    assert isinstance(start, Situation)  # the root is the first transient state
    labels += list(absorbing)
    return TurnChain(P, labels, start=start, rewards=rewards, policy=policy)


@dataclass(frozen=True)
class PolicyEvaluation:
    """What a policy earns from a situation, read off its absorbing chain.

    Attributes
    ----------
    policy : str
    expected_gain : float or Fraction
        Expected change of the active player's gems to the end of the turn (gems).
    p_stopped, p_danger, p_head, p_loss : float or Fraction
        Probabilities that the turn ends on a stop card, on a danger card (final
        or not), at the head, and with fewer gems than it started with.
    expected_cards : float or Fraction
        Expected number of cards revealed (cards): the chain's expected steps.
    variance : float or Fraction
        Variance of the gem change (gems squared).
    distribution : pandas.Series
        Exact probability of each gem change (index: gems, sorted).
    outcomes : pandas.Series
        Probability of each absorbing state.
    states : int
        Transient states of the chain (0 when the policy holds at once).
    """

    policy: str
    expected_gain: Number
    p_stopped: Number
    p_danger: Number
    p_head: Number
    p_loss: Number
    expected_cards: Number
    variance: Number
    distribution: pd.Series
    outcomes: pd.Series
    states: int

    @property
    def std(self) -> float:
        """Standard deviation of the gem change (gems)."""
        return float(self.variance) ** 0.5  # type: ignore[no-any-return]  # float ** float: float here

    def summary(self) -> pd.Series:
        """The headline numbers as a labelled Series."""
        import pandas as pd

        return pd.Series(
            {
                "expected gem change": self.expected_gain,
                "standard deviation": self.std,
                "P(stopped)": self.p_stopped,
                "P(danger)": self.p_danger,
                "P(head)": self.p_head,
                "P(loss)": self.p_loss,
                "expected cards revealed": self.expected_cards,
                "transient states": self.states,
            },
            name=self.policy,
            dtype=object,
        )

    def _repr_html_(self) -> str:
        table = self.summary().to_frame().to_html()
        dist = self.distribution.rename("probability").to_frame().T.to_html()
        return f"<p><b>Policy: {self.policy}</b></p>{table}<p>Distribution of the gem change</p>{dist}"


def evaluate_policy(state: TurnState, policy: PolicyLike, exact: bool = False) -> PolicyEvaluation:
    """Evaluate ``policy`` from ``state`` through its absorbing chain.

    Parameters
    ----------
    state : TurnState
    policy : Policy or callable
    exact : bool
        Fractions throughout (exact elimination); otherwise sparse LU in floats.

    Returns
    -------
    PolicyEvaluation

    Raises
    ------
    ValueError
        If the deck is empty or the policy returns something other than
        ``"reveal"`` or ``"hold"``.
    """
    import pandas as pd

    policy = as_policy(policy)
    zero, one = (Fraction(0), Fraction(1)) if exact else (0.0, 1.0)
    if not state.must_reveal and state.composition.total and policy.decide(state, 0) == Action.HOLD:
        # the policy holds at once: the turn ends with the pot, surely
        label = f"{Outcome.HELD.label} {state.pot}"
        dist = pd.Series([one], index=[state.pot], dtype=object if exact else float)
        outcomes = pd.Series([one], index=[label], dtype=object if exact else float)
        return PolicyEvaluation(policy.name, zero + state.pot, zero, zero, zero, zero, zero, zero, dist, outcomes, 0)
    chain = turn_chain(state, policy, exact)
    outcomes = chain.absorption_probabilities(start=chain.start)
    gain = chain.expected_reward(chain.rewards, start=chain.start)
    by_gain: dict[int, Number] = {}
    for outcome, p in outcomes.items():
        by_gain[chain.rewards[outcome]] = by_gain.get(chain.rewards[outcome], zero) + p
    distribution = pd.Series(dict(sorted(by_gain.items())), dtype=object if exact else float)
    second = sum((p * r * r for r, p in by_gain.items()), zero)
    return PolicyEvaluation(
        policy=policy.name,
        expected_gain=gain,
        p_stopped=outcomes.get(Outcome.STOPPED.label, zero),
        p_danger=outcomes.get(Outcome.DANGER.label, zero) + outcomes.get(Outcome.FINAL_DANGER.label, zero),
        p_head=outcomes.get(Outcome.HEAD.label, zero),
        p_loss=sum((p for r, p in by_gain.items() if r < 0), zero),
        expected_cards=chain.expected_steps(start=chain.start),
        variance=second - gain * gain,
        distribution=distribution,
        outcomes=outcomes,
        states=len(chain.transient),
    )


def compare_policies(state: TurnState, thresholds: Iterable[int] | None = None, exact: bool = False) -> pd.DataFrame:
    """Tabulate the hold-at-h policies from ``state``, with the optimal one for reference.

    Parameters
    ----------
    state : TurnState
    thresholds : iterable of int, optional
        Pots t at which to hold (gems); default about 25 values from 1 up to the
        largest pot the dragon can pay.
    exact : bool

    Returns
    -------
    pandas.DataFrame
        One row per policy (``"hold at h"`` and ``"optimal"``), with the columns
        ``threshold``, ``expected_gain``, ``p_stopped``, ``p_danger``, ``p_head``,
        ``p_loss``, ``expected_cards``, ``std``.
    """
    import pandas as pd

    if thresholds is None:
        top = int(pot_bound(state.rules, state.dangers_revealed, state.bank, 0)[-1])  # a whole turn's largest pot
        thresholds = sorted({max(1, round(top * k / 24)) for k in range(25)})
    rows = {}
    for policy in [HoldAtPot(t) for t in thresholds] + [OptimalPolicy()]:
        e = evaluate_policy(state, policy, exact)
        rows[policy.name] = {
            "threshold": getattr(policy, "threshold", None),
            "expected_gain": e.expected_gain,
            "p_stopped": e.p_stopped,
            "p_danger": e.p_danger,
            "p_head": e.p_head,
            "p_loss": e.p_loss,
            "expected_cards": e.expected_cards,
            "std": e.std,
        }
    return pd.DataFrame.from_dict(rows, orient="index")
