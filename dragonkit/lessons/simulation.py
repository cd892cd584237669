r"""Lesson 8, simulation: Monte Carlo estimates against the exact values, the law
of large numbers, confidence intervals and their coverage, the :math:`1/\sqrt{n}`
shrinkage of the error, and a tournament of strategies.

Every simulated turn comes from :func:`dragonkit.simulate.simulate_turns`, every
exact value from :func:`dragonkit.analysis.evaluate_policy` (the turn's absorbing
chain), every interval from :mod:`dragonkit.simulate.stats`, every tournament
from :func:`dragonkit.simulate.round_robin`.

* :func:`exact_turn` — the exact mean and standard deviation to compare with;
* :class:`MonteCarloLab` and :func:`running_mean_figure` — the law of large numbers;
* :func:`coverage` , :class:`CoverageLab` — how often a 95% interval contains the truth;
* :func:`error_by_n`, :func:`error_shrinkage` — the error against n on a log-log plot;
* :class:`TournamentLab` — a round robin of bots, with a progress bar;
* :func:`answers` computes the answers of the lesson's exercises.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import ipywidgets as widgets
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from .. import palette
from ..analysis import TurnState
from ..i18n import tr
from ..plots import figure_png
from ..rules import Message, Ruleset
from ..simulate import round_robin, simulate_turns
from ..simulate.stats import mean_estimate
from ..style import CSS
from ..ui.numbers import decimal, number_html
from .base import (
    EDITIONS,
    POLICIES,
    LessonWidget,
    LiveFigure,
    analysis_policy,
    edition_label,
    error_text,
    fresh_turn,
    policy_label,
    relabel,
)

__all__ = [
    "BOT_CHOICES",
    "COACH_GAMES",
    "Coverage",
    "CoverageLab",
    "ExactTurn",
    "MonteCarloLab",
    "TournamentLab",
    "answers",
    "bot_label",
    "coverage",
    "coverage_figure",
    "error_by_n",
    "error_figure",
    "error_shrinkage",
    "exact_turn",
    "running_mean_figure",
    "standings_figure",
]

#: Turns per simulation offered by the lab (a 1-3-10 ladder).
SIZES = (10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
#: The confidence levels offered.
LEVELS = (0.8, 0.9, 0.95, 0.99)


@dataclass(frozen=True)
class ExactTurn:
    """The exact values a simulation of a turn estimates.

    Attributes
    ----------
    state : TurnState
    policy : "optimal" or int
    mean : Fraction
        Expected gem change (gems), exact.
    std : float
        Standard deviation of the gem change (gems).
    """

    state: TurnState
    policy: object
    mean: Fraction
    std: float


@lru_cache(maxsize=32)
def exact_turn(edition: str, policy="optimal", stage: int = 0) -> ExactTurn:
    """The exact mean and standard deviation of a fresh turn of a preset under ``policy``.

    The mean is exact (the absorbing chain in ``Fraction``\\ s for a hold-at-t
    policy, backward induction for optimal play); the standard deviation comes
    from the chain in floats.

    Raises
    ------
    ValueError
        For an unknown preset, stage or policy.
    """
    from ..analysis import evaluate_policy, optimal_policy, solve_turn

    state = fresh_turn(Ruleset.preset(edition), stage)
    if policy == "optimal":
        chosen = optimal_policy(state)
        mean = Fraction(solve_turn(state, exact=True).value)
    else:
        chosen = analysis_policy(policy)
        mean = Fraction(evaluate_policy(state, chosen, exact=True).expected_gain)
    return ExactTurn(state, policy, mean, evaluate_policy(state, chosen).std)


def running_mean_figure(gains: np.ndarray, exact: ExactTurn, level: float = 0.95) -> Figure:
    """The law of large numbers: the running mean of simulated gains against the exact mean.

    Parameters
    ----------
    gains : ndarray, shape (n,)
        Simulated gem changes (gems), in order.
    exact : ExactTurn
    level : float
        The funnel drawn is ``exact ± z σ / √k`` (the band the running mean stays in
        with probability ``level`` at each k, by the central limit theorem).

    Returns
    -------
    matplotlib.figure.Figure
        x: turns simulated (log scale); y: gems.
    """
    from scipy import stats

    n = len(gains)
    k = np.arange(1, n + 1)
    running = np.cumsum(gains) / k
    mean, z = float(exact.mean), stats.norm.ppf(0.5 + level / 2)
    fig = Figure(figsize=(7.4, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    half = z * exact.std / np.sqrt(k)
    ax.fill_between(
        k,
        mean - half,
        mean + half,
        color=palette.SERIES,
        alpha=0.15,
        label=tr("exact mean ± {z} σ/√n ({level} band)", z=f"{z:.2f}", level=f"{level:.0%}"),
    )
    ax.plot(k, running, color=palette.VERMILLION, linewidth=1.3, label=tr("running mean of the simulated turns"))
    ax.axhline(mean, color=palette.EXACT, linestyle="--", label=tr("exact expected gain {value}", value=f"{mean:.3f}"))
    ax.set_xscale("log")
    ax.set_xlim(1, n)
    spread = max(4 * exact.std / np.sqrt(max(n, 1)) + abs(running[-1] - mean), 3 * exact.std / np.sqrt(10))
    ax.set_ylim(mean - spread, mean + spread)
    ax.set_xlabel(tr("turns simulated, n (log scale)"))
    ax.set_ylabel(tr("mean gem change (gems)"))
    ax.set_title(tr("The law of large numbers: {policy}", policy=policy_label(exact.policy)))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper right")
    return fig


def _controls(edition: str, policy):
    """The edition and policy menus the labs share."""
    style = {"description_width": "initial"}
    return (
        widgets.Dropdown(options=[(edition_label(e), e) for e in EDITIONS], value=edition, style=style),
        widgets.Dropdown(options=[(policy_label(p), p) for p in POLICIES], value=policy, style=style),
    )


def _label_controls(edition: widgets.Dropdown, policy: widgets.Dropdown) -> None:
    """Relabel the shared menus in the current language (callers mute their observers)."""
    edition.description = tr("Edition")
    relabel(edition, [(edition_label(e), e) for e in EDITIONS])
    policy.description = tr("Play")
    relabel(policy, [(policy_label(p), p) for p in POLICIES])


class MonteCarloLab(LessonWidget):
    """Simulate n fresh turns of an edition under a policy; compare the estimate,
    its standard error and its confidence interval with the exact value.

    Parameters
    ----------
    edition : str
    policy : "optimal" or int
    n : int
        One of :data:`SIZES`.
    seed : int

    Attributes
    ----------
    widget : ipywidgets.VBox
    simulation : dragonkit.simulate.TurnSimulation
    exact : ExactTurn
    """

    def __init__(self, edition: str = "dragon-stripes", policy=20, n: int = 1_000, seed: int = 1):
        style = {"description_width": "initial"}
        self.edition, self.policy = _controls(edition, policy)
        self.n = widgets.SelectionSlider(
            options=SIZES, value=n, continuous_update=False, style=style, layout=widgets.Layout(width="420px")
        )
        self.seed = widgets.BoundedIntText(
            value=seed, min=0, max=10**6, style=style, layout=widgets.Layout(width="160px")
        )
        self.report = widgets.HTML()
        self.plot = widgets.Image(format="png", layout=widgets.Layout(width="740px"))
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox([self.edition, self.policy]),
                widgets.HBox([self.n, self.seed]),
                self.plot,
                self.report,
            ]
        )
        self.widget.add_class("dk-app")
        self._simulate()
        for control in (self.edition, self.policy, self.n, self.seed):
            control.observe(self._on_change, names="value")
        self._follow_language()

    def _simulate(self) -> None:
        self.exact = exact_turn(self.edition.value, self.policy.value)
        self.simulation = simulate_turns(
            self.exact.state, analysis_policy(self.policy.value), self.n.value, rng=self.seed.value
        )

    def _on_change(self, _change=None) -> None:
        if self._muted:
            return
        self._simulate()
        self._redraw()

    def _redraw(self, _change=None) -> None:
        with self.muted():  # new option labels re-set the values: not a change of the learner's
            _label_controls(self.edition, self.policy)
        self.n.description = tr("Turns n")
        self.seed.description = tr("Seed")
        self.plot.value = figure_png(running_mean_figure(self.simulation.gain, self.exact))
        row = self.simulation.summary(0.95).loc["expected_gain"]
        exact = self.exact.mean
        inside = row["ci_low"] <= exact <= row["ci_high"]
        verdict = (
            tr("The interval contains the exact value.")
            if inside
            else tr("The interval misses the exact value: it happens to about 1 interval in 20.")
        )
        rows = [
            (tr("estimate (sample mean)"), f"{row['estimate']:.3f}"),
            (tr("standard error s/√n"), f"{row['std_error']:.3f}"),
            (tr("95% confidence interval"), f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}]"),
            (tr("exact expected gain"), number_html(exact)),
            (tr("error of the estimate"), f"{row['estimate'] - float(exact):+.3f}"),
        ]
        table = "".join(f"<tr><td>{name}</td><td>{value}</td></tr>" for name, value in rows)
        level = "success" if inside else "warning"
        self.report.value = (
            f'<div class="dk-coach"><table class="dk-values">{table}</table>'
            f'<div class="dk-message dk-{level}">{verdict}</div></div>'
        )


# -- coverage -----------------------------------------------------------------------------------------------------


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
    for name, value, low in (("n", n, 2), ("experiments", experiments, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be a whole number >= {low}, not {value!r}")
    if n * experiments > 5_000_000:
        raise ValueError(f"n * experiments must be at most 5,000,000 turns, not {n * experiments}")
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, not {level!r}")
    gains = simulate_turns(exact.state, analysis_policy(exact.policy), n * experiments, rng=seed).gain.reshape(
        experiments, n
    )
    rows = [mean_estimate(block, level) for block in gains]
    frame = pd.DataFrame(rows)[["estimate", "ci_low", "ci_high"]]
    frame["covers"] = (frame["ci_low"] <= exact.mean) & (exact.mean <= frame["ci_high"])
    frame.index.name = "experiment"
    return Coverage(frame, exact, n, level)


def coverage_figure(result: Coverage, shown: int = 100) -> Figure:
    """The first ``shown`` intervals as vertical bars: blue if they contain the exact mean, red if not."""
    frame = result.intervals.iloc[:shown]
    fig = Figure(figsize=(7.4, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    x = np.arange(1, len(frame) + 1)
    colours = np.where(frame["covers"], palette.BLUE, palette.BAD)
    ax.vlines(x, frame["ci_low"], frame["ci_high"], colors=colours, linewidth=2)
    ax.plot(x, frame["estimate"], "o", color=palette.INK, markersize=2.5)
    ax.axhline(
        float(result.exact.mean),
        color=palette.GOOD,
        linestyle="--",
        label=tr("exact expected gain {value}", value=decimal(result.exact.mean)),
    )
    misses = int((~frame["covers"]).sum())
    ax.set_title(
        tr(
            "{level} intervals of {n} turns each: {k} of the {m} shown miss",
            level=f"{result.level:.0%}",
            n=result.n,
            k=misses,
            m=len(frame),
        )
    )
    ax.set_xlabel(tr("experiment"))
    ax.set_ylabel(tr("mean gem change (gems)"))
    ax.legend(fontsize="small", loc="upper right")
    ax.grid(axis="y", alpha=0.3)
    return fig


class CoverageLab(LessonWidget):
    """Repeat a simulation many times: how often does the confidence interval contain the exact value?

    Parameters
    ----------
    edition : str
    policy : "optimal" or int
    n : int
        Turns per experiment.
    experiments : int
    level : float
        One of :data:`LEVELS`.
    seed : int

    Attributes
    ----------
    widget : ipywidgets.VBox
    result : Coverage
    """

    def __init__(
        self,
        edition: str = "dragon-stripes",
        policy=20,
        n: int = 100,
        experiments: int = 200,
        level: float = 0.95,
        seed: int = 2,
    ):
        style = {"description_width": "initial"}
        self.edition, self.policy = _controls(edition, policy)
        self.n = widgets.SelectionSlider(
            options=(5, 10, 20, 50, 100, 200, 500, 1000),
            value=n,
            continuous_update=False,
            style=style,
            layout=widgets.Layout(width="380px"),
        )
        self.experiments = widgets.IntSlider(
            value=experiments,
            min=20,
            max=1000,
            step=20,
            continuous_update=False,
            style=style,
            layout=widgets.Layout(width="380px"),
        )
        self.level = widgets.Dropdown(
            options=[(f"{v:.0%}", v) for v in LEVELS], value=level, style=style, layout=widgets.Layout(width="220px")
        )
        self.seed = widgets.BoundedIntText(
            value=seed, min=0, max=10**6, style=style, layout=widgets.Layout(width="160px")
        )
        self.report = widgets.HTML()
        self.plot = widgets.Image(format="png", layout=widgets.Layout(width="740px"))
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox([self.edition, self.policy]),
                widgets.HBox([self.n, self.experiments]),
                widgets.HBox([self.level, self.seed]),
                self.plot,
                self.report,
            ]
        )
        self.widget.add_class("dk-app")
        self._run()
        for control in (self.edition, self.policy, self.n, self.experiments, self.level, self.seed):
            control.observe(self._on_change, names="value")
        self._follow_language()

    def _run(self) -> None:
        self.result = coverage(
            exact_turn(self.edition.value, self.policy.value),
            self.n.value,
            self.experiments.value,
            self.level.value,
            self.seed.value,
        )

    def _on_change(self, _change=None) -> None:
        if self._muted:
            return
        self._run()
        self._redraw()

    def _redraw(self, _change=None) -> None:
        with self.muted():
            _label_controls(self.edition, self.policy)
        self.n.description = tr("Turns per experiment")
        self.experiments.description = tr("Experiments")
        self.level.description = tr("Confidence level")
        self.seed.description = tr("Seed")
        result = self.result
        self.plot.value = figure_png(coverage_figure(result))
        m = len(result.intervals)
        covered = int(result.intervals["covers"].sum())
        expected, spread = m * result.level, np.sqrt(m * result.level * (1 - result.level))
        self.report.value = (
            '<div class="dk-coach">'
            + tr(
                "{k} of {m} intervals contain the exact value: coverage {rate}, for a nominal level of {level}. "
                "With {m} experiments about {expected} ± {spread} would, if the intervals were exact.",
                k=covered,
                m=m,
                rate=f"{result.rate:.1%}",
                level=f"{result.level:.0%}",
                expected=f"{expected:.0f}",
                spread=f"{spread:.1f}",
            )
            + "</div>"
        )


# -- the error shrinks like 1/sqrt(n) -----------------------------------------------------------------------------


def error_by_n(
    exact: ExactTurn, sizes=(10, 30, 100, 300, 1_000, 3_000), repetitions: int = 100, seed: int = 3
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
    if repetitions * sum(sizes) > 5_000_000:
        raise ValueError(f"repetitions * sum(sizes) must be at most 5,000,000 turns, not {repetitions * sum(sizes)}")
    rng = np.random.default_rng(seed)
    policy = analysis_policy(exact.policy)
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


def error_figure(errors: pd.DataFrame, exact: ExactTurn) -> Figure:
    """The observed error against n, with the line σ/√n, on log-log axes (slope −1/2)."""
    fig = Figure(figsize=(7.0, 3.6), dpi=100, layout="constrained")
    ax = fig.subplots()
    ax.loglog(
        errors.index,
        errors["theory"],
        color=palette.EXACT,
        linestyle="--",
        label=tr("σ/√n with the exact σ = {sigma} (slope −1/2)", sigma=f"{exact.std:.2f}"),
    )
    ax.loglog(
        errors.index, errors["rms_error"], "o", color=palette.VERMILLION, label=tr("observed error (root mean square)")
    )
    plain = FuncFormatter(lambda value, _pos: f"{value:g}")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain)
    ax.set_xlabel(tr("turns simulated, n (log scale)"))
    ax.set_ylabel(tr("error of the mean (gems, log scale)"))
    ax.set_title(tr("Ten times more turns, about three times less error"))
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def error_shrinkage(edition: str = "dragon-stripes", policy=20, repetitions: int = 100, seed: int = 3) -> LiveFigure:
    """:func:`error_figure` of :func:`error_by_n` for a fresh turn of ``edition``, as a widget that follows the
    language (the simulation runs once).

    Returns
    -------
    LiveFigure
        With ``errors``, the table of :func:`error_by_n`, as an attribute.
    """
    exact = exact_turn(edition, policy)
    errors = error_by_n(exact, repetitions=repetitions, seed=seed)
    view = LiveFigure(lambda: error_figure(errors, exact), width="700px")
    view.errors = errors
    return view


# -- the tournament -----------------------------------------------------------------------------------------------

#: The bots a tournament may include (specs of :func:`dragonkit.simulate.round_robin`).
BOT_CHOICES = ("threshold:5", "threshold:10", "threshold:20", "threshold:40", "random", "coach")
#: The most games the coach (which solves every decision) plays in one tournament, summed over its pairs:
#: about 50 ms a game, so a tournament stays within about ten seconds.
COACH_GAMES = 200


def bot_label(spec: str) -> str:
    """A bot spec in words: ``hold at 20 gems``, ``random``, ``coach (optimal)``."""
    kind, _, arg = spec.partition(":")
    if kind == "threshold":
        return tr("hold at {t} gems", t=int(arg or 20))
    return tr("random moves") if kind == "random" else tr("coach (optimal, slow)")


def standings_figure(standings: pd.DataFrame, level: float) -> Figure:
    """Win rates with their Wilson intervals, best first (x: bots; y: win rate)."""
    fig = Figure(figsize=(7.2, 3.4), dpi=100, layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(standings))
    ax.bar(
        x,
        standings["estimate"],
        color=palette.SERIES,
        yerr=[standings["estimate"] - standings["ci_low"], standings["ci_high"] - standings["estimate"]],
        capsize=6,
    )
    ax.axhline(0.5, color=palette.GRID, linestyle="--", linewidth=1)
    crowded = len(standings) > 4
    ax.set_xticks(
        x, [bot_label(s) for s in standings.index], rotation=20 if crowded else 0, ha="right" if crowded else "center"
    )
    ax.set_ylim(0, 1)
    ax.set_ylabel(tr("win rate"))
    ax.set_title(tr("Round robin: win rates with {level} Wilson intervals", level=f"{level:.0%}"))
    ax.grid(axis="y", alpha=0.3)
    return fig


class TournamentLab(LessonWidget):
    """Choose bots and a number of games; play a round robin with a progress bar;
    see the win rates with their confidence intervals.

    Parameters
    ----------
    bots : sequence of str
        The bots ticked at the start (from :data:`BOT_CHOICES`).
    games : int
        Games per pair of bots.
    edition : str
    seed : int
    run : bool
        Play the first tournament at once.

    Attributes
    ----------
    widget : ipywidgets.VBox
    result : dragonkit.simulate.TournamentResult or None
    """

    def __init__(
        self,
        bots=("threshold:5", "threshold:20", "threshold:40", "random"),
        games: int = 60,
        edition: str = "dragon-stripes",
        seed: int = 1,
        run: bool = True,
    ):
        style = {"description_width": "initial"}
        self.checks = {
            spec: widgets.Checkbox(
                value=spec in bots, indent=False, layout=widgets.Layout(width="auto", margin="0 14px 0 0")
            )
            for spec in BOT_CHOICES
        }
        self.games = widgets.IntSlider(
            value=games,
            min=10,
            max=400,
            step=10,
            continuous_update=False,
            style=style,
            layout=widgets.Layout(width="380px"),
        )
        self.edition = widgets.Dropdown(options=[(edition_label(e), e) for e in EDITIONS], value=edition, style=style)
        self.seed = widgets.BoundedIntText(
            value=seed, min=0, max=10**6, style=style, layout=widgets.Layout(width="160px")
        )
        self.run_button = widgets.Button(icon="play", button_style="primary", layout=widgets.Layout(width="220px"))
        self.run_button.on_click(lambda _b: self.run())
        self.progress = widgets.Output()
        self.message, self.report = widgets.HTML(), widgets.HTML()
        self.plot = widgets.Image(format="png", layout=widgets.Layout(width="720px", display="none"))
        self.result = None
        self._error: ValueError | None = None
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox(list(self.checks.values())),
                widgets.HBox([self.games, self.edition, self.seed]),
                self.run_button,
                self.message,
                self.progress,
                self.plot,
                self.report,
            ]
        )
        self.widget.add_class("dk-app")
        self._follow_language()
        if run:
            self.run()

    def run(self):
        """Play the round robin of the ticked bots (a progress bar shows while it runs).

        Fewer than two bots shows an error and changes nothing.

        Returns
        -------
        dragonkit.simulate.TournamentResult or None
        """
        bots = [spec for spec, box in self.checks.items() if box.value]
        if len(bots) < 2:
            self._error = ValueError(Message("Tick at least two bots."))
            self._redraw()
            return None
        coach_pairs = len(bots) - 1 if "coach" in bots else 0
        if coach_pairs * self.games.value > COACH_GAMES:
            self._error = ValueError(
                Message(
                    "The coach is slow: it may play at most {limit} games in a tournament, "
                    "here {n} opponents x {games} games. Choose at most {most} games per pair or fewer bots.",
                    limit=COACH_GAMES,
                    n=coach_pairs,
                    games=self.games.value,
                    most=COACH_GAMES // coach_pairs,
                )
            )
            self._redraw()
            return None
        self._error = None
        self.run_button.disabled = True
        self.progress.clear_output()
        try:
            with self.progress:
                self.result = round_robin(
                    bots,
                    self.games.value,
                    seed=self.seed.value,
                    rules=Ruleset.preset(self.edition.value),
                    progress=True,
                )
        finally:
            self.run_button.disabled = False
        self._redraw()
        return self.result

    def _redraw(self, _change=None) -> None:
        for spec, box in self.checks.items():
            box.description = bot_label(spec)
        self.games.description = tr("Games per pair")
        self.edition.description = tr("Edition")
        relabel(self.edition, [(edition_label(e), e) for e in EDITIONS])
        self.seed.description = tr("Seed")
        self.run_button.description = tr("Play the tournament")
        self.message.value = (
            f'<div class="dk-message dk-danger">{error_text(self._error)}</div>' if self._error is not None else ""
        )
        result = self.result
        if result is None:
            return
        self.plot.value = figure_png(standings_figure(result.standings, result.level))
        self.plot.layout.display = None
        s = result.standings
        head = "".join(
            f"<th>{h}</th>"
            for h in (
                tr("bot"),
                tr("games"),
                tr("wins"),
                tr("win rate"),
                tr("standard error"),
                tr("{level} interval", level="95%"),
            )
        )
        rows = "".join(
            f"<tr><td>{bot_label(spec)}</td><td>{int(r['games'])}</td><td>{r['wins']:g}</td>"
            f"<td>{r['estimate']:.3f}</td><td>{r['std_error']:.3f}</td>"
            f"<td>[{r['ci_low']:.3f}, {r['ci_high']:.3f}]</td></tr>"
            for spec, r in s.iterrows()
        )
        self.report.value = (
            f'<table class="dk-table"><tr>{head}</tr>{rows}</table>'
            '<p class="dk-note">'
            + tr(
                "Games end at the head or with the final danger; "
                "{turns} turns per game on average. A tie counts as half a "
                "win for each.",
                turns=f"{result.mean_turns:.1f}",
            )
            + "</p>"
        )


# -- the exercises' answers --------------------------------------------------------------------------------------


def answers(n: int = 400, sd: int = 12, experiments: int = 200, level: Fraction = Fraction(95, 100)) -> dict:
    """The answers of the lesson's exercises, computed exactly.

    Parameters
    ----------
    n : int
        Turns of the simulation in the standard-error questions (a perfect square).
    sd : int
        Its sample standard deviation (gems).
    experiments : int
        Simulations repeated in the coverage question.
    level : Fraction
        Their confidence level.

    Returns
    -------
    dict
        ``standard_error`` (sd/√n, gems), ``halve`` (turns that halve the interval's
        width), ``misses`` (intervals expected to miss the exact value), ``hold_after_one``
        (the exact expected gain of the mini deck's first turn when the player reveals
        one card and holds, gems; by the absorbing chain).

    Raises
    ------
    ValueError
        If ``n`` is not a perfect square.
    """
    from ..analysis import HoldAfterReveals, evaluate_policy

    root = int(np.sqrt(n))
    if root * root != n:
        raise ValueError(f"n must be a perfect square, not {n}")
    mini = fresh_turn(Ruleset.preset("mini"))
    return {
        "standard_error": Fraction(sd, root),
        "halve": 4 * n,
        "misses": experiments * (1 - Fraction(level)),
        "hold_after_one": evaluate_policy(mini, HoldAfterReveals(1), exact=True).expected_gain,
    }
