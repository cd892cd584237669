"""A first guess at when to hold (lesson 1): the policy "hold as soon as the pot reaches t gems"
(:class:`~dragonkit.analysis.HoldAtPot`) valued exactly through its absorbing Markov chain
(:func:`~dragonkit.analysis.evaluate_policy`), next to the best hold-at-h policy of a scan of
thresholds (:func:`threshold_scan`) and the optimum by backward induction
(:func:`~dragonkit.analysis.solve_turn`)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ..analysis.turn.evaluate import compare_policies, evaluate_policy
from ..analysis.turn.optimal import solve_turn
from ..analysis.turn.policies import HoldAtPot
from ..rules import whole_number
from ..turn import TurnState

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SCAN_STEP", "GuessResult", "threshold_scan"]

#: Spacing of the thresholds t of :func:`threshold_scan` (gems).
SCAN_STEP = 4


@lru_cache(maxsize=8)
def threshold_scan(state: TurnState, top: int, step: int = SCAN_STEP) -> pd.DataFrame:
    """Hold-at-h policies from ``state`` for ``h = 1, 1 + step, ...`` and ``top``,
    evaluated in floats (:func:`~dragonkit.analysis.compare_policies`); cached.

    Parameters
    ----------
    state : TurnState
    top : int
        The largest threshold (gems): the largest pot a turn from ``state`` can collect.
    step : int
        Spacing of the thresholds (gems).

    Returns
    -------
    pandas.DataFrame
        One row per threshold and one for the optimal policy; columns as
        :func:`~dragonkit.analysis.compare_policies`.
    """
    return compare_policies(state, thresholds=sorted({*range(1, top + 1, step), top}))


class GuessResult:
    """The exact value of a guessed threshold, next to the best hold-at-h and the optimum.

    Attributes
    ----------
    threshold : int
        The guess t (gems).
    gain : Fraction
        Exact expected gem change of a turn under "hold at h" (gems).
    p_loss, p_head : float
        Probabilities that the turn ends with fewer gems, and at the head.
    best_threshold : int
        The best t among the scanned thresholds and their neighbours (gems).
    best_gain, best_p_loss, best_p_head : float
        Its expected gem change (gems), probability of a loss and probability of reaching the head.
    optimal : Fraction
        The optimal turn value (gems), by backward induction.
    optimal_p_loss, optimal_p_head : float
        The optimal policy's probabilities of a loss and of reaching the head.
    scan : pandas.DataFrame
        The hold-at-h table behind the curve (floats).

    Parameters
    ----------
    state : TurnState
        The situation the policies start from (a fresh turn in the lesson).
    threshold : int
        The guess t (gems), at least 1.
    top : int
        The largest threshold scanned (gems): the largest pot a turn from ``state`` can collect.

    Raises
    ------
    ValueError
        For a threshold that is not a whole number >= 1.
    """

    threshold: int
    gain: Fraction
    p_loss: float
    p_head: float
    best_threshold: int
    best_gain: float
    best_p_loss: float
    best_p_head: float
    optimal: Fraction
    optimal_p_loss: float
    optimal_p_head: float
    scan: pd.DataFrame

    def __init__(self, state: TurnState, threshold: int, top: int) -> None:
        threshold = whole_number(threshold, "threshold", minimum=1)

        scan = threshold_scan(state, top)
        rows = scan[scan["threshold"].notna()]
        near = int(rows["threshold"].iloc[int(np.argmax(rows["expected_gain"].to_numpy(dtype=float)))])
        extra = [t for t in range(max(1, near - SCAN_STEP + 1), near + SCAN_STEP) if t not in set(rows["threshold"])]
        if threshold not in set(rows["threshold"]):
            extra.append(threshold)
        if extra:
            scan = compare_policies(state, thresholds=extra).pipe(lambda more: _merge(scan, more))
        rows = scan[scan["threshold"].notna()]
        best = rows.index[int(np.argmax(rows["expected_gain"].to_numpy(dtype=float)))]
        guess = evaluate_policy(state, HoldAtPot(threshold), exact=True)
        self.threshold = threshold
        self.gain = Fraction(guess.expected_gain)
        self.p_loss, self.p_head = float(guess.p_loss), float(guess.p_head)
        self.best_threshold = int(rows.loc[best, "threshold"])
        self.best_gain = float(rows.loc[best, "expected_gain"])
        self.best_p_loss = float(rows.loc[best, "p_loss"])
        self.best_p_head = float(rows.loc[best, "p_head"])
        self.optimal = Fraction(solve_turn(state, exact=True).value)
        self.optimal_p_loss = float(scan["p_loss"].loc["optimal"])
        self.optimal_p_head = float(scan["p_head"].loc["optimal"])
        self.scan = scan


def _merge(scan: pd.DataFrame, more: pd.DataFrame) -> pd.DataFrame:
    """Two compare_policies tables as one, thresholds in order, the optimum last."""
    import pandas as pd

    rows = pd.concat([scan[scan["threshold"].notna()], more[more["threshold"].notna()]])
    return pd.concat([rows.sort_values("threshold"), scan.loc[["optimal"]]])
