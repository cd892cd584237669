"""The *hold at h* policies worth trying, and the best of them.

* :func:`largest_pot` — the most a turn can collect from a situation (gems);
* :func:`every_threshold` — every distinct hold-at-h policy of a situation;
* :func:`best_thresholds` — the thresholds where a measure is largest;
* :func:`threshold_verdict` — the best hold-at-h policies against the optimal one.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ...turn import TurnState

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ThresholdVerdict", "best_thresholds", "every_threshold", "largest_pot", "threshold_verdict"]

#: How much less than the optimum a float value may be and still count as optimal (gems).
TOLERANCE = 1e-9


def largest_pot(state: TurnState) -> int:
    """The largest pot a turn from ``state`` can collect (gems).

    Every stripe from the knight's position on, at the current stage, within what
    the treasure holds: ``pot + min(treasure, sum of the stripe values ahead)``.

    Parameters
    ----------
    state : TurnState

    Returns
    -------
    int
        Gems.

    Examples
    --------
    >>> from dragonkit.analysis.turn.start import fresh_turn
    >>> largest_pot(fresh_turn("mini"))
    15
    """
    rules = state.rules
    stripes = np.arange(state.position + 1, rules.n_stripes + 1)
    return state.pot + min(state.treasure, int(rules.stripe_value(stripes, state.dangers_revealed).sum()))


def every_threshold(state: TurnState) -> range:
    """Every distinct *hold at h* policy from ``state``: h = 1 .. :func:`largest_pot` + 1 (gems).

    A larger t never holds either, like t = largest pot + 1, the policy that reveals
    until the turn ends by itself.

    Returns
    -------
    range
        Thresholds (gems).
    """
    return range(1, largest_pot(state) + 2)


def best_thresholds(values: pd.Series) -> list[int]:
    """The index labels where ``values`` is largest, in order (ties all kept).

    Parameters
    ----------
    values : pandas.Series
        A measure (an expected gain in gems, a probability ...) indexed by threshold h (gems).

    Returns
    -------
    list of int
    """
    best = max(values)
    return [int(t) for t, v in zip(values.index.tolist(), values.tolist()) if v == best]


@dataclass(frozen=True)
class ThresholdVerdict:
    """The best hold-at-h policies of a comparison, against the optimal policy.

    Attributes
    ----------
    best : list of int
        The thresholds t with the largest expected gain (gems), in order.
    gain : Fraction or float
        Their expected gain (gems).
    optimum : Fraction or float
        The optimal policy's expected gain (gems).
    optimal : bool
        Whether a hold-at-h policy is as good as the optimal one (exactly, or within
        :data:`TOLERANCE` in floats).
    """

    best: list[int]
    gain: Any
    optimum: Any
    optimal: bool


def threshold_verdict(comparison: pd.DataFrame, exact: bool) -> ThresholdVerdict:
    """The best hold-at-h policies of :func:`~dragonkit.analysis.compare_policies` against the optimum.

    Parameters
    ----------
    comparison : pandas.DataFrame
        :func:`~dragonkit.analysis.compare_policies` output: a row ``"optimal"`` and one
        row per threshold (column ``threshold``), column ``expected_gain`` (gems).
    exact : bool
        Whether the values are exact fractions (else floats, compared within :data:`TOLERANCE`).

    Returns
    -------
    ThresholdVerdict
    """
    rows = comparison[comparison["threshold"].notna()]
    best = best_thresholds(rows.set_index(rows["threshold"].astype(int))["expected_gain"])
    gain = comparison.loc[comparison["threshold"] == best[0], "expected_gain"].iloc[0]
    optimum = comparison.loc["optimal", "expected_gain"]
    optimal = not optimum - gain > (Fraction(0) if exact else TOLERANCE)
    return ThresholdVerdict(best, gain, optimum, bool(optimal))
