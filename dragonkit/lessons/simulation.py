r"""Lesson 8, simulation: Monte Carlo estimates against the exact values, the law
of large numbers, confidence intervals and their coverage, the :math:`1/\sqrt{n}`
shrinkage of the error, and a tournament of strategies.

Every simulated turn comes from :func:`dragonkit.simulate.simulate_turns`, every
exact value from :func:`dragonkit.analysis.evaluate_policy` (the turn's absorbing
chain), every interval from :mod:`dragonkit.simulate.stats` and
:mod:`dragonkit.topics.coverage` (:func:`~dragonkit.topics.coverage.exact_turn`,
:func:`~dragonkit.topics.coverage.coverage`, :func:`~dragonkit.topics.coverage.error_by_n`),
every tournament from :func:`dragonkit.simulate.round_robin`; the figures are
:mod:`dragonkit.plots.simulation`'s.

* :class:`MonteCarloLab` and :func:`running_mean_figure` — the law of large numbers;
* :class:`CoverageLab` — how often a 95% interval contains the truth;
* :func:`error_shrinkage` — the error against n on a log-log plot;
* :class:`TournamentLab` — a round robin of bots, with a progress bar;
* :func:`estimates_table` — a simulation's estimates beside the exact values, as the lesson's code cell shows them;
* :class:`ClassCards` — the cards our class turned up against the exact probabilities and a Monte Carlo
  (:mod:`dragonkit.topics.our_class`, :mod:`dragonkit.plots.our_class`);
* :func:`answers` computes the answers of the lesson's exercises.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure

from ..bots import BotKind, parse_spec
from ..i18n import N_, ntr, tr
from ..i18n.numbers import decimal_text, integer_text, interval_text, percent_text
from ..plots import simulation as plots
from ..plots.our_class import cards_figure, cards_figure_text, running_cards_figure, running_cards_figure_text
from ..plots.tournament import win_rates, win_rates_text
from ..rules import Message, Ruleset
from ..simulate import round_robin, simulate_turns
from ..style import CSS
from ..topics.coverage import (
    ExactTurn,
    check_estimate,
    coverage,
    error_by_n,
    exact_turn,
    expected_misses,
    standard_error,
    turns_to_shrink,
)
from ..topics.named import menu_policy
from ..topics.our_class import card_frequencies, kind_card, replay_reveals, reveal_decks, running_frequency
from ..ui.figures import FigureView
from ..ui.numbers import number_html
from ..ui.setup import SEAT_KINDS
from .base import (
    EDITIONS,
    POLICIES,
    ClassSource,
    LessonWidget,
    LiveFigure,
    edition_label,
    error_text,
    fresh_turn,
    policy_label,
    relabel,
)

if TYPE_CHECKING:
    import pandas as pd

    from ..plots.text import FigureText

__all__ = [
    "BOT_CHOICES",
    "COACH_GAMES",
    "ClassCards",
    "CoverageLab",
    "ErrorShrinkage",
    "MonteCarloLab",
    "TournamentLab",
    "answers",
    "bot_label",
    "error_shrinkage",
    "estimates_html",
    "estimates_table",
    "running_mean_figure",
    "running_mean_figure_text",
]

#: Turns per simulation offered by the lab (a 1-3-10 ladder).
SIZES = (10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
#: Turns per experiment offered by the coverage lab.
COVERAGE_SIZES = (5, 10, 20, 50, 100, 200, 500, 1000)
#: The confidence levels offered.
LEVELS = (0.8, 0.9, 0.95, 0.99)


def running_mean_figure(gains: np.ndarray, exact: ExactTurn, level: float = 0.95) -> Figure:
    """:func:`dragonkit.plots.simulation.running_mean_figure`, titled with the policy as the menus name it."""
    return plots.running_mean_figure(gains, exact, policy_label(exact.policy), level)


def running_mean_figure_text(gains: np.ndarray, exact: ExactTurn, level: float = 0.95) -> FigureText:
    """:func:`dragonkit.plots.simulation.running_mean_figure_text` in the current language, the policy named as
    the menus name it."""
    return plots.running_mean_figure_text(gains, exact, policy_label(exact.policy), level)


def _signed(value: float, digits: int = 3) -> str:
    """A difference with its sign, in the current language: ``+0.125``, ``-0.125`` (``+0,125``)."""
    return ("+" if value >= 0 else "") + decimal_text(value, digits)


def _count(value: float) -> str:
    """A count that may hold halves (a tie is half a win): ``12``, ``12.5``, ``1,200``."""
    return integer_text(int(value)) if value == int(value) else decimal_text(value, 1)


def _sizes(sizes) -> list[tuple[str, int]]:
    """A size slider's options, labelled in the current language: ``("10,000", 10000)``."""
    return [(integer_text(n), n) for n in sizes]


def _levels() -> list[tuple[str, float]]:
    """The confidence level menu's options, labelled in the current language: ``("95%", 0.95)``."""
    return [(percent_text(v, 0), v) for v in LEVELS]


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
            options=_sizes(SIZES), value=n, continuous_update=False, style=style, layout=widgets.Layout(width="420px")
        )
        self.seed = widgets.BoundedIntText(
            value=seed, min=0, max=10**6, style=style, layout=widgets.Layout(width="160px")
        )
        self.report = widgets.HTML()
        self.plot = FigureView("740px", layout=widgets.Layout(width="740px", max_width="100%"))
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
            self.exact.state, menu_policy(self.policy.value), self.n.value, rng=self.seed.value
        )

    def _on_change(self, _change=None) -> None:
        if self._muted:
            return
        self._simulate()
        self._redraw()

    def _redraw(self, _change=None) -> None:
        with self.muted():  # new option labels re-set the values: not a change of the learner's
            _label_controls(self.edition, self.policy)
            relabel(self.n, _sizes(SIZES))
        self.n.description = tr("Turns n")
        self.seed.description = tr("Seed")
        gains = self.simulation.gain
        self.plot.show(running_mean_figure(gains, self.exact), running_mean_figure_text(gains, self.exact))
        row = check_estimate(self.simulation, self.exact, 0.95)
        inside = row["covers"]
        verdict = (
            tr("The interval contains the exact value.")
            if inside
            else tr("The interval misses the exact value: with a large n this happens to about 1 interval in 20.")
        )
        rows = [
            (tr("estimate (sample mean)"), decimal_text(row["estimate"], 3)),
            (tr("standard error s/√n"), decimal_text(row["std_error"], 3)),
            (
                tr("{level} confidence interval", level=percent_text(0.95, 0)),
                interval_text(row["ci_low"], row["ci_high"]),
            ),
            (tr("exact expected gain"), number_html(row["exact"])),
            (tr("error of the estimate"), _signed(row["error"])),
        ]
        table = "".join(f"<tr><td>{name}</td><td>{value}</td></tr>" for name, value in rows)
        level = "success" if inside else "warning"
        self.report.value = (
            f'<div class="dk-coach"><table class="dk-values">{table}</table>'
            f'<div class="dk-message dk-{level}">{verdict}</div></div>'
        )


# -- the code cell: estimates against exact values ----------------------------------------------------------------

#: The rows of :meth:`TurnSimulation.summary <dragonkit.simulate.TurnSimulation.summary>` (and the fields of
#: :class:`~dragonkit.analysis.PolicyEvaluation` of the same names), as :func:`estimates_html` names them.
ESTIMATES = {
    "expected_gain": N_("expected gem change E[X]"),
    "expected_cards": N_("expected cards revealed"),
    "p_stopped": N_("probability of ending on a stop"),
    "p_danger": N_("probability of ending on a danger"),
    "p_head": N_("probability of reaching the head"),
    "p_loss": N_("probability of a loss P(X < 0)"),
}


def estimates_html(summary: pd.DataFrame, exact, level: float = 0.95, lang: str | None = None) -> str:
    """A simulation's estimates beside the exact values, as an HTML table in ``lang``: per quantity, the estimate,
    its standard error, its confidence interval, the exact value and whether the interval contains it.

    Parameters
    ----------
    summary : pandas.DataFrame
        :meth:`TurnSimulation.summary <dragonkit.simulate.TurnSimulation.summary>` at ``level``.
    exact : dragonkit.analysis.PolicyEvaluation
        The exact values of the same turn and policy (:func:`~dragonkit.analysis.evaluate_policy`), in fractions
        or in floats.
    level : float
        The level of the summary's intervals.
    lang : str, optional
        The language (default: the current one).

    Raises
    ------
    ValueError
        If the summary lacks a quantity of :data:`ESTIMATES`.
    """
    missing = [name for name in ESTIMATES if name not in summary.index]
    if missing:
        raise ValueError(f"the summary has no row {', '.join(missing)}: pass simulation.summary()")
    columns = (
        tr("quantity", lang),
        tr("estimate (sample mean)", lang),
        tr("standard error", lang),
        tr("{level} confidence interval", lang, level=percent_text(level, 0, lang)),
        tr("exact value", lang),
        tr("contains the exact value", lang),
    )
    head = "".join(f'<th scope="col">{escape(column)}</th>' for column in columns)
    rows = []
    for name, label in ESTIMATES.items():
        row, value = summary.loc[name].to_dict(), getattr(exact, name)
        covers = float(row["ci_low"]) <= value <= float(row["ci_high"])
        cells = (
            decimal_text(float(row["estimate"]), 3, lang),
            decimal_text(float(row["std_error"]), 3, lang),
            interval_text(float(row["ci_low"]), float(row["ci_high"]), 3, lang),
            number_html(value, 3, lang) if isinstance(value, Fraction) else decimal_text(float(value), 3, lang),
            tr("yes", lang) if covers else f"<b>{tr('no', lang)}</b>",
        )
        rows.append(f'<tr><th scope="row">{escape(tr(label, lang))}</th>{"".join(f"<td>{c}</td>" for c in cells)}</tr>')
    n = int(summary["n"].iloc[0])
    turns = ntr(
        "{n} simulated turn against the exact values",
        "{n} simulated turns against the exact values",
        n,
        lang,
        n=integer_text(n, lang),
    )
    return (
        f'<div class="dk-coach"><table class="dk-values"><caption>{turns}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def estimates_table(summary: pd.DataFrame, exact, level: float = 0.95):
    """:func:`estimates_html` for a notebook cell (and Voilà), in the current language: the result of the lesson's
    code shown as a page shows it, not as Python's printout.

    Returns
    -------
    IPython.display.HTML
    """
    from IPython.display import HTML

    return HTML(CSS + estimates_html(summary, exact, level))


# -- coverage -----------------------------------------------------------------------------------------------------


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
            options=_sizes(COVERAGE_SIZES),
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
        self.level = widgets.Dropdown(options=_levels(), value=level, style=style, layout=widgets.Layout(width="220px"))
        self.seed = widgets.BoundedIntText(
            value=seed, min=0, max=10**6, style=style, layout=widgets.Layout(width="160px")
        )
        self.report = widgets.HTML()
        self.plot = FigureView("740px", layout=widgets.Layout(width="740px", max_width="100%"))
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
            relabel(self.n, _sizes(COVERAGE_SIZES))
            relabel(self.level, _levels())
        self.n.description = tr("Turns per experiment")
        self.experiments.description = tr("Experiments")
        self.level.description = tr("Confidence level")
        self.seed.description = tr("Seed")
        result = self.result
        self.plot.show(plots.coverage_figure(result), plots.coverage_figure_text(result))
        self.report.value = (
            '<div class="dk-coach">'
            + tr(
                "{k} of {m} intervals contain the exact value: coverage {rate}, for a nominal level of {level}. "
                "With {m} experiments about {expected} ± {spread} would, if the intervals were exact.",
                k=integer_text(result.covered),
                m=integer_text(result.experiments),
                rate=percent_text(result.rate, 1),
                level=percent_text(result.level, 0),
                expected=decimal_text(result.expected_covered, 0),
                spread=decimal_text(result.covered_spread, 1),
            )
            + "</div>"
        )


# -- the error shrinks like 1/sqrt(n) -----------------------------------------------------------------------------


class ErrorShrinkage(LiveFigure):
    """:func:`~dragonkit.plots.simulation.error_figure` of a table of :func:`error_by_n`, as a
    widget that follows the language.

    Attributes
    ----------
    errors : pandas.DataFrame
        The table of :func:`error_by_n` drawn.
    """

    def __init__(self, errors: pd.DataFrame, exact: ExactTurn) -> None:
        self.errors = errors
        super().__init__(
            lambda: (plots.error_figure(errors, exact), plots.error_figure_text(errors, exact)), width="700px"
        )


def error_shrinkage(
    edition: str = "dragon-stripes", policy: str | int = 20, repetitions: int = 100, seed: int = 3
) -> ErrorShrinkage:
    """:func:`error_figure` of :func:`error_by_n` for a fresh turn of ``edition``, as a widget that follows the
    language (the simulation runs once).

    Returns
    -------
    ErrorShrinkage
        With ``errors``, the table of :func:`error_by_n`, as an attribute.
    """
    exact = exact_turn(edition, policy)
    return ErrorShrinkage(error_by_n(exact, repetitions=repetitions, seed=seed), exact)


# -- the tournament -----------------------------------------------------------------------------------------------

#: The bots a tournament may include (specs of :func:`dragonkit.simulate.round_robin`).
BOT_CHOICES = ("threshold:5", "threshold:10", "threshold:20", "threshold:40", "random", "coach")
#: The most games the coach (which solves every decision) plays in one tournament, summed over its pairs:
#: about 50 ms a game, so a tournament stays within about ten seconds.
COACH_GAMES = 200


#: How the tournament names a bot of these kinds (msgids; ``{t}`` is the spec's number); another kind by its label
#: in the play app's setup form (:data:`~dragonkit.ui.setup.SEAT_KINDS`).
BOT_LABELS = {
    BotKind.THRESHOLD: N_("hold at {t} gems"),
    BotKind.RANDOM: N_("random moves"),
    BotKind.COACH: N_("coach (most gems per turn)"),
}


def bot_label(spec: str) -> str:
    """A bot spec (:func:`~dragonkit.bots.parse_spec`) in words: ``hold at 20 gems``, ``random moves``, ``coach
    (most gems per turn)``, ``win bot (plays to win the game)``.

    Raises
    ------
    ValueError
        For an unknown spec.
    """
    kind, value = parse_spec(spec)
    label = BOT_LABELS.get(kind, SEAT_KINDS[kind])
    return tr(label) if value is None else tr(label, t=value)


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
        self.plot = FigureView("720px", layout=widgets.Layout(width="720px", max_width="100%", display="none"))
        self.result = None
        self._error: ValueError | None = None
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox(list(self.checks.values()), layout=widgets.Layout(flex_flow="row wrap")),
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
        coach_pairs = len(bots) - 1 if any(parse_spec(spec).kind is BotKind.COACH for spec in bots) else 0
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
        labels = {spec: bot_label(spec) for spec in result.standings.index}
        self.plot.show(win_rates(result, labels), win_rates_text(result, labels))
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
                tr("{level} interval", level=percent_text(0.95, 0)),
            )
        )
        rows = "".join(
            f"<tr><td>{bot_label(spec)}</td><td>{integer_text(int(r['games']))}</td><td>{_count(r['wins'])}</td>"
            f"<td>{decimal_text(r['estimate'], 3)}</td><td>{decimal_text(r['std_error'], 3)}</td>"
            f"<td>{interval_text(r['ci_low'], r['ci_high'])}</td></tr>"
            for spec, r in s.iterrows()
        )
        self.report.value = (
            f'<table class="dk-table"><tr>{head}</tr>{rows}</table>'
            '<p class="dk-note">'
            + tr(
                "Games end at the head or with the final danger; "
                "{turns} turns per game on average. A tie counts as half a "
                "win for each.",
                turns=decimal_text(result.mean_turns, 1),
            )
            + "</p>"
        )


# -- our class's cards ------------------------------------------------------------------------------------------


class ClassCards(LessonWidget):
    """The cards our class's reveals turned up, against the exact probabilities and a Monte Carlo of the same reveals:
    each kind's frequency with its interval, and one kind's frequency as the reveals accumulate.

    The decisions are the class's of today from the class's record, or a simulated class's
    (:class:`~dragonkit.lessons.base.ClassSource`). Each reveal's chance of each kind is exact, from the deck it was
    drawn from (:func:`~dragonkit.topics.our_class.reveal_decks`); the Monte Carlo draws each reveal's card again from
    its own deck (:func:`~dragonkit.topics.our_class.replay_reveals`).

    Parameters
    ----------
    kind : str
        The kind followed as the reveals accumulate (``"1"``…``"4"``, ``"stop"``, ``"danger"``).
    seed : int
        The Monte Carlo's seed.

    Attributes
    ----------
    widget : ipywidgets.VBox
    source : ClassSource
    kind : ipywidgets.Dropdown
    seed : ipywidgets.BoundedIntText
    reveals : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.reveal_decks` of the decisions shown.
    frequencies : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.card_frequencies` of them.
    """

    def __init__(self, kind: str = "stop", seed: int = 0) -> None:
        style = {"description_width": "initial"}
        self._followed = kind
        self.kind = widgets.Dropdown(style=style, layout=widgets.Layout(width="320px"))
        self.seed = widgets.BoundedIntText(
            value=seed, min=0, max=10**6, style=style, layout=widgets.Layout(width="220px")
        )
        self.report = widgets.HTML()
        self.cards = FigureView("740px", layout=widgets.Layout(width="740px", max_width="100%"))
        self.running = FigureView("740px", layout=widgets.Layout(width="740px", max_width="100%"))
        self.source = ClassSource(self._read)
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                self.source.widget,
                self.seed,
                self.report,
                self.cards,
                self.kind,
                self.running,
            ]
        )
        self.widget.add_class("dk-lesson")
        self._count()
        self.kind.observe(self._on_kind, names="value")
        self.seed.observe(self._on_seed, names="value")
        self._follow_language()

    def _count(self) -> None:
        """Count the cards of the decisions shown, and draw them again from their decks."""
        self.reveals = reveal_decks(self.source.data.decisions)
        self._simulate()

    def _simulate(self) -> None:
        self.simulated = replay_reveals(self.reveals, self.seed.value)
        self.frequencies = card_frequencies(self.reveals, self.simulated)
        kinds = list(self.frequencies.index)
        with self.muted():
            self.kind.options = self._kinds()
            self.kind.value = self._followed if self._followed in kinds else kinds[0] if kinds else None

    def _read(self) -> None:
        """The decisions shown changed."""
        self._count()
        self._redraw()

    def _kinds(self) -> list[tuple[str, str]]:
        return [(kind_card(kind).describe(), kind) for kind in self.frequencies.index]

    def _on_kind(self, _change=None) -> None:
        if self._muted:
            return
        self._followed = self.kind.value
        self._redraw()

    def _on_seed(self, _change=None) -> None:
        if not self._muted:
            self._simulate()
            self._redraw()

    def _redraw(self, _change=None) -> None:
        with self.muted():
            relabel(self.kind, self._kinds())
        self.kind.description = tr("Card followed")
        self.seed.description = tr("Monte Carlo seed")
        n = len(self.reveals)
        if not n:
            self.report.value = f'<p class="dk-note">{escape(tr("No reveal with its card recorded yet."))}</p>'
            for view in (self.cards, self.running):
                view.layout.display = "none"
            return
        table = self.frequencies
        words = tr(
            "Each of the {n} reveals turned up a card of the deck it was drawn from, each card left equally "
            "likely: a kind with c of the N cards left had the exact chance c/N. The exact probability of a kind is "
            "the mean of those chances; our class's {level} interval contains it for {covered} of the {kinds} kinds.",
            n=integer_text(n),
            level=percent_text(0.95, 0),
            covered=integer_text(int(table["covers"].sum())),
            kinds=integer_text(len(table)),
        )
        self.report.value = f'<p class="dk-note">{escape(words)}</p>'
        self.cards.show(cards_figure(table), cards_figure_text(table))
        run = running_frequency(self.reveals, self.simulated, self.kind.value)
        self.running.show(running_cards_figure(run, self.kind.value), running_cards_figure_text(run, self.kind.value))
        for view in (self.cards, self.running):
            view.layout.display = None

    def close(self) -> None:
        """Close this widget and its source control."""
        self.source.close()
        super().close()


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

    mini = fresh_turn(Ruleset.preset("mini"))
    return {
        "standard_error": standard_error(sd, n),
        "halve": turns_to_shrink(n, 2),
        "misses": expected_misses(experiments, level),
        "hold_after_one": evaluate_policy(mini, HoldAfterReveals(1), exact=True).expected_gain,
    }
