r"""Risk: the whole distribution of a turn's gem change, not only its mean (lesson 6).

A policy turns a turn into an absorbing chain, and the absorption probabilities
grouped by gem change are the exact distribution of the gain :math:`X`
(:func:`~dragonkit.analysis.evaluate_policy`).  From it:

* :func:`evaluation` — the evaluation of a named policy (:func:`~dragonkit.topics.named.named_policy`), cached;
* :func:`moments_table` and :func:`moment_sums` — :math:`E[X]` and :math:`E[X^2]` term by term;
* :func:`probability_at_least` — :math:`P(X \ge \delta)`;
* :func:`catch_up` — for each *hold at h* policy, :math:`P(X \ge \delta)` and :math:`E[X]`: a player
  δ gems behind on the last turn wants the first, not the second.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..analysis.turn.evaluate import PolicyEvaluation, evaluate_policy
from ..rules import whole_number
from ..turn import TurnState
from .named import named_policy

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["catch_up", "evaluation", "moment_sums", "moments_table", "probability_at_least"]


@lru_cache(maxsize=512)
def evaluation(state: TurnState, kind: str, threshold: int = 1, exact: bool = False) -> PolicyEvaluation:
    """:func:`~dragonkit.analysis.evaluate_policy` of a named policy, cached (the widgets ask again on redraws).

    Parameters
    ----------
    state : TurnState
    kind, threshold
        As for :func:`~dragonkit.topics.named.named_policy` (threshold in gems).
    exact : bool
        Fractions (exact elimination) or floats (sparse LU).

    Returns
    -------
    PolicyEvaluation

    Raises
    ------
    ValueError
        For an unknown policy name or a bad threshold.
    """
    return evaluate_policy(state, named_policy(kind, threshold), exact=exact)


def moments_table(distribution: pd.Series) -> pd.DataFrame:
    """The distribution of a gain X with the columns that give its mean and variance.

    Parameters
    ----------
    distribution : pandas.Series
        P(X = x) indexed by x (gems), as in :attr:`PolicyEvaluation.distribution`.

    Returns
    -------
    pandas.DataFrame
        Index x; columns ``p`` = P(X = x), ``xp`` = x P(X = x), ``x2p`` = x² P(X = x),
        so that E[X] = sum(xp), E[X²] = sum(x2p) and Var X = E[X²] − E[X]² (:func:`moment_sums`).
    """
    import pandas as pd

    x = distribution.index.to_numpy()
    p = distribution.to_numpy()
    return pd.DataFrame(
        {"p": p, "xp": [int(a) * b for a, b in zip(x, p)], "x2p": [int(a) * int(a) * b for a, b in zip(x, p)]},
        index=distribution.index,
    )


def moment_sums(table: pd.DataFrame) -> pd.Series:
    """The column sums of :func:`moments_table`: ``p`` (1), ``xp`` (E[X], gems) and ``x2p`` (E[X²], gems²)."""
    import pandas as pd

    return pd.Series({column: table[column].sum() for column in ("p", "xp", "x2p")}, dtype=object)


def probability_at_least(e: PolicyEvaluation, needed: int, exact: bool = False) -> Any:
    """P(X >= ``needed``) for the gain X of an evaluation (``needed`` in gems).

    Returns
    -------
    Fraction or float
        A ``Fraction`` when ``exact`` (the evaluation's distribution in fractions).
    """
    law = e.distribution
    return sum((p for x, p in zip(law.index.tolist(), law.tolist()) if x >= needed), Fraction(0) if exact else 0.0)


def catch_up(state: TurnState, needed: int, thresholds: Iterable[int], exact: bool = False) -> pd.DataFrame:
    """For each hold-at-h policy, the chance to gain at least ``needed`` gems and the expected gain.

    A player ``needed`` gems behind the leader on the game's last turn draws level
    (a shared win) or wins exactly when the turn's gain X is at least ``needed``.

    Parameters
    ----------
    state : TurnState
    needed : int
        Gems needed (gems).
    thresholds : iterable of int
        The h of the hold-at-h policies (gems).
    exact : bool

    Returns
    -------
    pandas.DataFrame
        Index: t; columns ``p_catch_up`` = P(X >= needed) and ``expected_gain`` = E[X] (gems),
        both read off the exact distribution of X (:func:`~dragonkit.analysis.evaluate_policy`).

    Raises
    ------
    ValueError
        If ``needed`` is not a whole number.
    """
    import pandas as pd

    needed = whole_number(needed, "needed")
    rows = {}
    for t in thresholds:
        e = evaluation(state, "threshold", int(t), exact)
        rows[int(t)] = {"p_catch_up": probability_at_least(e, needed, exact), "expected_gain": e.expected_gain}
    return pd.DataFrame.from_dict(rows, orient="index")
