r"""Monte Carlo against the exact values (lesson 8): how close the estimates come, and
how often their confidence intervals contain the truth.

* :func:`exact_turn` — the exact mean and standard deviation a simulation of a fresh turn estimates;
* :func:`check_estimate` — one simulation's estimate and interval against the exact mean;
* :func:`coverage` — many experiments, each with its interval: the share that contains the exact mean;
* :func:`error_by_n` — the root-mean-square error of the mean against n, beside :math:`\sigma/\sqrt n`;
* :func:`standard_error`, :func:`turns_to_shrink`, :func:`expected_misses` — the exact arithmetic of
  normal intervals: :math:`s/\sqrt n`, :math:`k^2 n` turns for a k times narrower interval, and
  :math:`m(1-\text{level})` misses among m intervals.

Simulated turns come from :func:`~dragonkit.simulate.simulate_turns`, exact values from
:func:`~dragonkit.analysis.evaluate_policy` and :func:`~dragonkit.analysis.solve_turn`,
intervals from :func:`~dragonkit.simulate.stats.mean_estimate`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from ..analysis import Policy, TurnState, evaluate_policy, optimal_policy, solve_turn
from ..analysis.turn.start import fresh_turn
from ..rules import Ruleset, whole_number
from ..simulate.stats import mean_estimate
from ..simulate.turns import TurnSimulation, simulate_turns
from .named import menu_policy

__all__ = [
    "Coverage",
    "ExactTurn",
    "check_estimate",
    "coverage",
    "error_by_n",
    "exact_turn",
    "expected_misses",
    "standard_error",
    "turns_to_shrink",
]

#: The most turns :func:`coverage` and :func:`error_by_n` simulate in one call.
MOST_TURNS = 5_000_000


@dataclass(frozen=True)
class ExactTurn:
    """The exact values a simulation of a turn estimates.

    Attributes
    ----------
    state : TurnState
    policy : "optimal" or int
        As the lessons' menus name it (a threshold in gems).
    mean : Fraction
        Expected gem change (gems), exact.
    std : float
        Standard deviation of the gem change (gems).
    """

    state: TurnState
    policy: Any
    mean: Fraction
    std: float


@lru_cache(maxsize=32)
def exact_turn(edition: str, policy: Any = "optimal", stage: int = 0) -> ExactTurn:
    """The exact mean and standard deviation of a fresh turn of a preset under ``policy``.

    The mean is exact (the absorbing chain in ``Fraction``\\ s for a hold-at-h
    policy, backward induction for optimal play); the standard deviation comes
    from the chain in floats.

    Parameters
    ----------
    edition : str
        A preset name.
    policy : "optimal" or int
        Optimal play, or hold when the pot reaches ``policy`` gems.
    stage : int
        Dangers revealed in earlier turns (:func:`~dragonkit.analysis.turn.start.fresh_turn`).

    Raises
    ------
    ValueError
        For an unknown preset, stage or policy.
    """
    state = fresh_turn(Ruleset.preset(edition), stage)
    chosen: Policy
    if policy == "optimal":
        chosen = optimal_policy(state)
        mean = Fraction(solve_turn(state, exact=True).value)
    else:
        chosen = menu_policy(policy)
        mean = Fraction(evaluate_policy(state, chosen, exact=True).expected_gain)
    return ExactTurn(state, policy, mean, evaluate_policy(state, chosen).std)


def check_estimate(simulation: TurnSimulation, exact: ExactTurn, level: float = 0.95) -> pd.Series:
    """A simulation's estimate of the expected gain against the exact value.

    Returns
    -------
    pandas.Series
        ``estimate``, ``std_error``, ``ci_low``, ``ci_high`` (gems) and ``n`` of
        :meth:`TurnSimulation.summary <dragonkit.simulate.TurnSimulation.summary>`, with
        ``exact`` (the exact mean, a Fraction), ``error`` (estimate − exact, gems) and
        ``covers`` (whether the interval contains the exact mean).
    """
    row = mean_estimate(simulation.gain, level)  # the summary's expected_gain row
    error = row["estimate"] - float(exact.mean)
    covers = bool(row["ci_low"] <= exact.mean <= row["ci_high"])
    return pd.Series({**row, "exact": exact.mean, "error": error, "covers": covers}, dtype=object)


@dataclass(frozen=True)
class Coverage:
    """Many simulated experiments, each with its confidence interval for the mean.

    Attributes
    ----------
    intervals : pandas.DataFrame
        One row per experiment: ``estimate``, ``ci_low``, ``ci_high`` (gems) and
        ``covers`` (whether the interval contains the exact mean).
    exact : ExactTurn
    n : int
        Turns per experiment.
    level : float
    """

    intervals: pd.DataFrame
    exact: ExactTurn
    n: int
    level: float

    @property
    def rate(self) -> float:
        """The share of intervals that contain the exact mean."""
        return float(self.intervals["covers"].mean())

    @property
    def experiments(self) -> int:
        """The number of experiments (intervals)."""
        return len(self.intervals)

    @property
    def covered(self) -> int:
        """How many intervals contain the exact mean."""
        return int(self.intervals["covers"].sum())

    @property
    def expected_covered(self) -> float:
        """How many would, on average, if the intervals were exact: experiments × level."""
        return self.experiments * self.level

    @property
    def covered_spread(self) -> float:
        """The binomial standard deviation of :attr:`covered` for exact intervals: √(m level (1 − level))."""
        return float(np.sqrt(self.experiments * self.level * (1 - self.level)))


def coverage(exact: ExactTurn, n: int, experiments: int, level: float = 0.95, seed: int = 0) -> Coverage:
    """Run ``experiments`` independent simulations of ``n`` turns and check each interval.

    The experiments are consecutive blocks of one seeded simulation of
    ``n * experiments`` turns, so they are independent; each interval is the
    normal interval of :func:`dragonkit.simulate.stats.mean_estimate`.

    Raises
    ------
    ValueError
        For ``n < 2``, fewer than one experiment, more than 5 million turns in all,
        or a level outside (0, 1).
    """
    n = whole_number(n, "n", minimum=2)
    experiments = whole_number(experiments, "experiments", minimum=1)
    if n * experiments > MOST_TURNS:
        raise ValueError(f"n * experiments must be at most 5,000,000 turns, not {n * experiments}")
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, not {level!r}")
    gains = simulate_turns(exact.state, menu_policy(exact.policy), n * experiments, rng=seed).gain.reshape(
        experiments, n
    )
    rows = [mean_estimate(block, level) for block in gains]
    frame = pd.DataFrame(rows)[["estimate", "ci_low", "ci_high"]]
    frame["covers"] = (frame["ci_low"] <= exact.mean) & (exact.mean <= frame["ci_high"])
    frame.index.name = "experiment"
    return Coverage(frame, exact, n, level)


def error_by_n(
    exact: ExactTurn,
    sizes: Iterable[int] = (10, 30, 100, 300, 1_000, 3_000),
    repetitions: int = 100,
    seed: int = 3,
) -> pd.DataFrame:
    """The root-mean-square error of the simulated mean for each n, over ``repetitions`` runs.

    Returns
    -------
    pandas.DataFrame
        Index ``n``; columns ``rms_error`` (observed, gems) and ``theory`` (σ/√n, gems).

    Raises
    ------
    ValueError
        For more than 5 million turns in all.
    """
    sizes = list(sizes)
    if repetitions * sum(sizes) > MOST_TURNS:
        raise ValueError(f"repetitions * sum(sizes) must be at most 5,000,000 turns, not {repetitions * sum(sizes)}")
    rng = np.random.default_rng(seed)
    policy = menu_policy(exact.policy)
    rows = {}
    for n in sizes:
        means = simulate_turns(exact.state, policy, n * repetitions, rng=rng).gain.reshape(repetitions, n).mean(axis=1)
        rows[n] = {
            "rms_error": float(np.sqrt(np.mean((means - float(exact.mean)) ** 2))),
            "theory": exact.std / np.sqrt(n),
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "n"
    return frame


def standard_error(sd: int, n: int) -> Fraction:
    """The standard error s/√n of a mean of ``n`` turns with sample standard deviation ``sd``, exactly (gems).

    Raises
    ------
    ValueError
        If ``n`` is not a perfect square (the answer would not be a fraction).
    """
    root = int(np.sqrt(n))
    if root * root != n:
        raise ValueError(f"n must be a perfect square, not {n}")
    return Fraction(sd, root)


def turns_to_shrink(n: int, factor: int = 2) -> int:
    """Turns that make a normal interval of ``n`` turns ``factor`` times narrower: factor² n
    (its width goes as 1/√n)."""
    return factor * factor * n


def expected_misses(experiments: int, level: Fraction) -> Fraction:
    """How many of ``experiments`` intervals at confidence ``level`` are expected to miss
    the exact value: experiments × (1 − level)."""
    return experiments * (1 - Fraction(level))
