r"""A turn's absorbing chain as the tables lesson 4 shows.

* :func:`threshold_chain` — the exact chain of *hold when the pot reaches t* (cached);
* :func:`outcome_order` — its absorbing states from the worst to the best gem change;
* :func:`chain_matrices` — :math:`P, Q, R, N = (I-Q)^{-1}, t = N\mathbf 1, B = NR` and
  :math:`Br` as labelled tables (:class:`~dragonkit.markov.AbsorbingChain` computes them);
* :func:`state_counts` — how many transient and absorbing states a chain has;
* :func:`situation_after` — the transient state a turn chain reaches by given footprints.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..analysis.turn.evaluate import Situation, TurnChain, turn_chain
from ..analysis.turn.policies import HoldAtPot
from ..turn import TurnState

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import NDArray
    from scipy.sparse import csr_matrix

    from ..markov import AbsorbingChain

__all__ = ["chain_matrices", "outcome_order", "situation_after", "state_counts", "threshold_chain"]


@lru_cache(maxsize=64)
def threshold_chain(state: TurnState, threshold: int) -> TurnChain:
    """:func:`~dragonkit.analysis.turn_chain` of *hold when the pot reaches* ``threshold`` (gems)
    from ``state``, in exact fractions; cached (a state is immutable).

    Raises
    ------
    ValueError
        For a threshold that is not a whole number >= 0.
    """
    return turn_chain(state, HoldAtPot(threshold), exact=True)


def outcome_order(chain: AbsorbingChain) -> list[Any]:
    """A turn chain's absorbing states from the worst to the best gem change (the
    order of the columns of R and B in the lessons; ties by name); other chains keep theirs.

    Parameters
    ----------
    chain : dragonkit.markov.AbsorbingChain
        With ``rewards`` (a :class:`~dragonkit.analysis.TurnChain`: gems by absorbing state), sorted.
    """
    rewards = getattr(chain, "rewards", None)
    if rewards is None:
        return list(chain.absorbing)
    return sorted(chain.absorbing, key=lambda a: (rewards[a], str(a)))


def chain_matrices(chain: AbsorbingChain) -> dict[str, pd.DataFrame]:
    """The canonical-form blocks and the results of an absorbing chain, as labelled tables.

    Parameters
    ----------
    chain : dragonkit.markov.AbsorbingChain
        With ``rewards`` (a :class:`~dragonkit.analysis.TurnChain`) the expected reward is included.

    Returns
    -------
    dict of pandas.DataFrame
        With t transient and a absorbing states, n = t + a: ``"P"`` (n x n, canonical
        order: transient states, then the outcomes by :func:`outcome_order`), ``"Q"`` (t x t),
        ``"R"`` (t x a), ``"N"`` (t x t, visits), ``"t"`` (t x 1, cards), ``"B"`` (t x a,
        probabilities) and, for a turn chain, ``"Br"`` (t x 1, gems).
    """
    import pandas as pd

    tr_, ab = chain.transient, chain.absorbing
    order = outcome_order(chain)
    out = {
        "P": chain.canonical_form().loc[tr_ + order, tr_ + order],
        "Q": pd.DataFrame(_dense(chain.Q), index=tr_, columns=tr_),
        "R": pd.DataFrame(_dense(chain.R), index=tr_, columns=ab)[order],
        "N": chain.fundamental_matrix(),
        "t": chain.expected_steps().to_frame("t"),
        "B": chain.absorption_probabilities()[order],
    }
    rewards = getattr(chain, "rewards", None)
    if rewards is not None:
        out["Br"] = chain.expected_reward(rewards).to_frame("Br")
    return out


def state_counts(chain: AbsorbingChain) -> tuple[int, int]:
    """How many transient states (t: the decision points where a turn chain's policy reveals)
    and absorbing states (a: the outcomes) ``chain`` has.

    Returns
    -------
    tuple of int
        ``(t, a)``.
    """
    return len(chain.transient), len(chain.absorbing)


def situation_after(chain: TurnChain, drawn: str) -> Situation:
    """The transient state of ``chain`` reached by the footprints ``drawn`` (as
    :attr:`Situation.drawn <dragonkit.analysis.Situation.drawn>` writes them, e.g. ``"1+1"``).

    Raises
    ------
    KeyError
        If no transient state of the chain was reached that way.
    """
    for state in chain.transient:
        if isinstance(state, Situation) and state.drawn == drawn:
            return state
    raise KeyError(f"no transient state reached by {drawn!r}")


def _dense(block: NDArray[Any] | csr_matrix) -> NDArray[Any]:
    """A block of :class:`~dragonkit.markov.AbsorbingChain` as a dense array (a sparse chain gives CSR blocks)."""
    import numpy as np

    return block if isinstance(block, np.ndarray) else block.toarray()
