"""Estimates with their uncertainty: means with normal intervals, proportions with
Wilson score intervals (scipy.stats)."""

from __future__ import annotations

import numpy as np

__all__ = ["ESTIMATE_COLUMNS", "mean_estimate", "normal_quantile", "proportion_estimate"]

ESTIMATE_COLUMNS = ["estimate", "std_error", "ci_low", "ci_high", "n"]


def normal_quantile(level: float) -> float:
    """The standard normal quantile ``z`` of a two-sided ``level`` interval, ``Φ⁻¹(1/2 + level/2)``: 1.96 for 0.95
    (scipy.stats.norm.ppf)."""
    from scipy import stats  # loads scipy.sparse: only when an estimate is made

    return float(stats.norm.ppf(0.5 + level / 2))


def mean_estimate(values: np.ndarray, level: float = 0.95) -> dict:
    """The sample mean with its standard error and a normal confidence interval.

    Parameters
    ----------
    values : ndarray, shape (n,)
    level : float
        Confidence level, e.g. 0.95 or 0.999.
    """
    n = len(values)
    mean = float(np.mean(values)) if n else float("nan")
    se = float(np.std(values, ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    z = normal_quantile(level)
    return {"estimate": mean, "std_error": se, "ci_low": mean - z * se, "ci_high": mean + z * se, "n": n}


def proportion_estimate(successes: float, n: int, level: float = 0.95) -> dict:
    """A proportion with its standard error and Wilson score interval
    (:meth:`scipy.stats.binomtest(...).proportion_ci`).  Half successes (shared
    wins) are rounded to the nearest whole number for the interval only."""
    p = successes / n if n else float("nan")
    if n == 0:
        return {"estimate": p, "std_error": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "n": 0}
    from scipy import stats

    ci = stats.binomtest(round(successes), n).proportion_ci(confidence_level=level, method="wilson")
    return {"estimate": p, "std_error": float(np.sqrt(p * (1 - p) / n)), "ci_low": ci.low, "ci_high": ci.high, "n": n}
