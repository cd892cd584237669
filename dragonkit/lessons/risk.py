r"""Lesson 6: risk — the whole distribution of a turn's outcome, not only its mean.

A policy turns a turn into an absorbing chain, and the absorption
probabilities grouped by gem change are the exact distribution of the gain
:math:`X` (:func:`dragonkit.analysis.evaluate_policy`).  This module shows:

* :class:`OutcomeExplorer` — the distribution of :math:`X` under a chosen policy,
  with :math:`E[X]`, :math:`E[X^2]`, :math:`\operatorname{Var}X = E[X^2] - E[X]^2`,
  the standard deviation and :math:`P(X < 0)`, worked out from the table;
* :class:`RiskReturnExplorer` — mean against the probability of a loss for the
  hold-at-t policies, a cautious, a greedy and the optimal policy;
* :class:`CatchUpExplorer` — a player ``d`` gems behind on the last turn: the
  policy that maximizes :math:`P(X \ge d)` is not the one that maximizes :math:`E[X]`;
* :class:`NeverHold` — the greedy policy, and :func:`answers`.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

import ipywidgets as widgets
import numpy as np
import pandas as pd

from .. import i18n, palette
from ..analysis import (
    HoldAfterReveals,
    HoldAtPot,
    OptimalPolicy,
    Policy,
    PolicyEvaluation,
    TurnState,
    compare_policies,
    evaluate_policy,
)
from ..i18n import tr
from ..plots import figure_png
from ..rules import Ruleset
from ..style import CSS
from ..ui.numbers import decimal, number_html
from .base import LessonWidget, fresh_turn, largest_pot, policy_name, relabel, situation_sliders

__all__ = [
    "CatchUpExplorer",
    "NeverHold",
    "OutcomeExplorer",
    "RiskReturnExplorer",
    "answers",
    "catch_up",
    "catch_up_figure",
    "evaluation",
    "moments_table",
    "named_policy",
    "risk_return_figure",
]


class NeverHold(Policy):
    """The greedy policy: reveal until the turn ends by itself (a stop, a danger or the head)."""

    name = "never hold"

    def decide(self, state: TurnState, reveals: int = 0) -> str:
        return "reveal"

    def reveal_mask(self, graph, depth: int) -> np.ndarray:
        return np.ones(len(graph.layers[depth]), dtype=bool)


#: The named policies of the lesson: key -> a factory.
NAMED = {"cautious": lambda: HoldAfterReveals(1), "greedy": NeverHold, "optimal": OptimalPolicy}

#: Their labels (msgids).
LABELS = {
    "cautious": "cautious: hold after 1 card",
    "greedy": "greedy: never hold",
    "optimal": "optimal (the largest expected gain)",
}


def named_policy(kind: str, threshold: int = 1) -> Policy:
    """A policy of the lesson by name: ``"threshold"`` (hold at ``threshold``), ``"cautious"``
    (hold after one card), ``"greedy"`` (never hold) or ``"optimal"``.

    Raises
    ------
    ValueError
        For another name, or a threshold that is not a whole number >= 0.
    """
    if kind == "threshold":
        return HoldAtPot(threshold)
    if kind not in NAMED:
        raise ValueError(f"policy must be one of threshold, {', '.join(NAMED)}, not {kind!r}")
    return NAMED[kind]()


@lru_cache(maxsize=512)
def evaluation(state: TurnState, kind: str, threshold: int = 1, exact: bool = False) -> PolicyEvaluation:
    """:func:`~dragonkit.analysis.evaluate_policy` of a named policy, cached (the widgets ask again on redraws).

    Parameters
    ----------
    state : TurnState
    kind, threshold
        As for :func:`named_policy`.
    exact : bool
        Fractions (exact elimination) or floats (sparse LU).

    Returns
    -------
    PolicyEvaluation
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
        so that E[X] = sum(xp), E[X²] = sum(x2p) and Var X = E[X²] − E[X]².
    """
    x = distribution.index.to_numpy()
    p = distribution.to_numpy()
    return pd.DataFrame(
        {"p": p, "xp": [int(a) * b for a, b in zip(x, p)], "x2p": [int(a) * int(a) * b for a, b in zip(x, p)]},
        index=distribution.index,
    )


@lru_cache(maxsize=32)
def _compare(state: TurnState, thresholds: tuple[int, ...] | None, exact: bool) -> pd.DataFrame:
    return compare_policies(state, thresholds, exact=exact)


def _exact_flag(rules: Ruleset) -> bool:
    return rules.deck_size <= 16


class OutcomeExplorer(LessonWidget):
    """The exact distribution of a turn's gem change under a chosen policy.

    Parameters
    ----------
    rules : Ruleset or str
        The deck (default the classroom deck, computed in exact fractions; a
        deck of more than 16 cards is computed in floats).
    policy : {"threshold", "cautious", "greedy", "optimal"}
        The initial policy.
    threshold : int
        The initial t of *hold at t* (gems).
    gems, treasure : int, optional
        The situation (default: the ruleset's).

    Attributes
    ----------
    widget : ipywidgets.VBox
    """

    def __init__(
        self,
        rules: Ruleset | str = "mini",
        policy: str = "threshold",
        threshold: int = 4,
        gems: int | None = None,
        treasure: int | None = None,
    ):
        named_policy(policy, threshold)  # validates
        self.state = fresh_turn(rules, gems=gems, treasure=treasure)
        self.exact = _exact_flag(self.state.rules)
        self.kind = widgets.Dropdown(
            options=self._kind_options(i18n.get_language()),
            value=policy,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="460px"),
        )
        self.threshold = widgets.IntSlider(
            value=threshold,
            min=1,
            max=largest_pot(self.state) + 1,
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="520px"),
        )
        self.picture = widgets.Image(format="png", layout=widgets.Layout(width="680px"))
        self.stats = widgets.HTML()
        self.table = widgets.HTML(layout=widgets.Layout(overflow="auto", max_width="980px"))
        self.widget = widgets.VBox([widgets.HTML(CSS), self.kind, self.threshold, self.picture, self.stats, self.table])
        self.widget.add_class("dk-lesson")
        self._options(i18n.get_language())
        self.kind.observe(self._on_control, names="value")
        self.threshold.observe(self._on_control, names="value")
        self._follow_language()

    @staticmethod
    def _kind_options(lang: str) -> list[tuple[str, str]]:
        return [(tr("hold at t (slider)", lang), "threshold")] + [
            (tr(label, lang), kind) for kind, label in LABELS.items()
        ]

    def _options(self, lang: str) -> None:
        with self.muted():  # relabelling the menu is not the learner's choice
            relabel(self.kind, self._kind_options(lang))

    def _on_control(self, _change=None) -> None:
        if not self._muted:
            self._redraw()

    @property
    def evaluation(self) -> PolicyEvaluation:
        """The current policy's :class:`~dragonkit.analysis.PolicyEvaluation`."""
        return evaluation(self.state, self.kind.value, self.threshold.value, self.exact)

    def policy_label(self, lang: str | None = None) -> str:
        """The current policy's name in ``lang``."""
        if self.kind.value == "threshold":
            return policy_name(HoldAtPot(self.threshold.value), lang)
        return tr(LABELS[self.kind.value], lang)

    def _redraw(self, _change=None) -> None:
        from ..plots import outcome_bars

        lang = i18n.get_language()
        self._options(lang)
        self.kind.description = tr("Policy", lang)
        self.threshold.description = tr("hold when the pot reaches t =", lang)
        self.threshold.layout.display = None if self.kind.value == "threshold" else "none"
        e = self.evaluation
        self.picture.value = figure_png(outcome_bars(dataclasses.replace(e, policy=self.policy_label(lang))))
        shown = (lambda v: number_html(v)) if self.exact else (lambda v: decimal(v, 3))
        rows = [
            (tr("expected gem change E[X]", lang), shown(e.expected_gain)),
            (tr("variance Var X = E[X²] − E[X]²", lang), shown(e.variance)),
            (tr("standard deviation √Var X", lang), decimal(e.std, 3)),
            (tr("probability of a loss P(X < 0)", lang), shown(e.p_loss)),
            (
                tr("probability of a gain P(X > 0)", lang),
                shown(sum((p for x, p in e.distribution.items() if x > 0), Fraction(0) if self.exact else 0.0)),
            ),
            (tr("expected cards revealed", lang), shown(e.expected_cards)),
        ]
        self.stats.value = (
            '<table class="dk-matrix">'
            + "".join(
                f'<tr><th style="text-align:left">{label}</th><td style="text-align:left">{value}</td></tr>'
                for label, value in rows
            )
            + "</table>"
        )
        self._draw_table(e, lang, shown)

    def _draw_table(self, e: PolicyEvaluation, lang: str, shown) -> None:
        table = moments_table(e.distribution)
        if len(table) > 24:
            self.table.value = (
                "<p>" + tr("The distribution has {n} values: too many for a table.", lang, n=len(table)) + "</p>"
            )
            return
        head = [tr("x (gems)", lang), "P(X = x)", "x · P(X = x)", "x² · P(X = x)"]
        body = "".join(
            f"<tr><th>{x}</th><td>{shown(r.p)}</td><td>{shown(r.xp)}</td><td>{shown(r.x2p)}</td></tr>"
            for x, r in table.iterrows()
        )
        total = (
            f"<tr><th>{tr('sum', lang)}</th><td>{shown(table.p.sum())}</td><td>E[X] = {shown(table.xp.sum())}"
            f"</td><td>E[X²] = {shown(table.x2p.sum())}</td></tr>"
        )
        self.table.value = (
            f"<h4>{tr('The distribution, term by term', lang)}</h4>"
            '<table class="dk-matrix"><tr>'
            + "".join(f"<th>{h}</th>" for h in head)
            + "</tr>"
            + body
            + total
            + "</table>"
        )


# -- mean against risk -----------------------------------------------------------------------


def risk_return_figure(points: pd.DataFrame, named: dict):
    """Expected gem change against the probability of a loss.

    Parameters
    ----------
    points : pandas.DataFrame
        The hold-at-t policies: columns ``threshold``, ``expected_gain``, ``p_loss``.
    named : dict
        Label -> :class:`~dragonkit.analysis.PolicyEvaluation` of other policies, drawn as big markers.

    Returns
    -------
    matplotlib.figure.Figure
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.4, 3.9), dpi=100, layout="constrained")
    ax = fig.subplots()
    dots = ax.scatter(
        points["p_loss"].astype(float),
        points["expected_gain"].astype(float),
        c=points["threshold"].astype(float),
        cmap=palette.SEQUENTIAL,
        s=22,
        zorder=3,
    )
    fig.colorbar(dots, ax=ax).set_label(tr("threshold t of “hold at t” (gems)"))
    markers = ["s", "^", "*", "D"]
    colours = [palette.GOOD, palette.BAD, palette.HIGHLIGHT, palette.REDDISH_PURPLE]
    for k, (label, e) in enumerate(named.items()):
        ax.scatter(
            [float(e.p_loss)],
            [float(e.expected_gain)],
            marker=markers[k % 4],
            s=160,
            color=colours[k % 4],
            edgecolors=palette.INK,
            zorder=4,
            label=label,
        )
    ax.axhline(0, color=palette.GRID, lw=0.8)
    ax.set_xlabel(tr("probability of a loss P(X < 0)"))
    ax.set_ylabel(tr("expected gem change E[X]"))
    ax.set_title(tr("Mean against risk: every dot is a policy"), fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    return fig


class RiskReturnExplorer(LessonWidget):
    """Mean against the probability of a loss, for hold-at-t and three named policies.

    Parameters
    ----------
    rules : Ruleset or str
        Default the full deck ``"dragon-stripes"`` (floats).
    treasure, gems : int, optional
        The situation (default: the ruleset's); a slider changes the treasure.
    thresholds : tuple of int, optional
        The hold-at-t policies drawn (gems; default: those of :func:`~dragonkit.analysis.compare_policies`).

    Attributes
    ----------
    widget : ipywidgets.VBox
    """

    def __init__(
        self,
        rules: Ruleset | str = "dragon-stripes",
        treasure: int | None = None,
        gems: int | None = None,
        thresholds: tuple[int, ...] | None = None,
    ):
        self.rules = Ruleset.preset(rules) if isinstance(rules, str) else rules
        self.gems, self.thresholds = gems, None if thresholds is None else tuple(thresholds)
        self.treasure = situation_sliders(self.rules, gems, treasure)["treasure"]
        self.picture = widgets.Image(format="png", layout=widgets.Layout(width="720px"))
        self.table = widgets.HTML()
        self.widget = widgets.VBox([widgets.HTML(CSS), self.treasure, self.picture, self.table])
        self.widget.add_class("dk-lesson")
        self.treasure.observe(self._redraw, names="value")
        self._follow_language()

    @property
    def state(self) -> TurnState:
        return fresh_turn(self.rules, gems=self.gems, treasure=self.treasure.value)

    def points(self) -> pd.DataFrame:
        """The hold-at-t policies' row of :func:`~dragonkit.analysis.compare_policies` (one row per t)."""
        table = _compare(self.state, self.thresholds, _exact_flag(self.rules))
        return table[table["threshold"].notna()]

    def named(self, lang: str | None = None) -> dict[str, PolicyEvaluation]:
        """The cautious, greedy and optimal policies' evaluations, by translated label."""
        exact = _exact_flag(self.rules)
        return {tr(label, lang): evaluation(self.state, kind, 1, exact) for kind, label in LABELS.items()}

    def _redraw(self, _change=None) -> None:
        lang = i18n.get_language()
        self.treasure.description = tr("Gems in the treasure", lang)
        named = self.named(lang)
        self.picture.value = figure_png(risk_return_figure(self.points(), named))
        head = [tr("policy", lang), "E[X]", tr("standard deviation", lang), "P(X < 0)", tr("P(head)", lang)]
        body = "".join(
            f"<tr><th style='text-align:left'>{label}</th><td>{decimal(e.expected_gain, 2)}</td>"
            f"<td>{decimal(e.std, 2)}</td><td>{decimal(e.p_loss, 3)}</td>"
            f"<td>{decimal(e.p_head, 3)}</td></tr>"
            for label, e in named.items()
        )
        self.table.value = (
            '<table class="dk-matrix"><tr>' + "".join(f"<th>{h}</th>" for h in head) + "</tr>" + body + "</table>"
        )


# -- expected gems or the chance to win --------------------------------------------------------


def catch_up(state: TurnState, needed: int, thresholds, exact: bool = False) -> pd.DataFrame:
    """For each hold-at-t policy, the chance to gain at least ``needed`` gems and the expected gain.

    A player ``needed`` gems behind the leader on the game's last turn draws level
    (a shared win) or wins exactly when the turn's gain X is at least ``needed``.

    Parameters
    ----------
    state : TurnState
    needed : int
        Gems needed (gems).
    thresholds : iterable of int
        The t of the hold-at-t policies (gems).
    exact : bool

    Returns
    -------
    pandas.DataFrame
        Index: t; columns ``p_catch_up`` = P(X >= needed) and ``expected_gain`` = E[X] (gems),
        both read off the exact distribution of X (:func:`evaluate_policy`).

    Raises
    ------
    ValueError
        If ``needed`` is not a whole number.
    """
    if isinstance(needed, bool) or not isinstance(needed, (int, np.integer)):
        raise ValueError(f"needed must be a whole number of gems, not {needed!r}")
    rows = {}
    for t in thresholds:
        e = evaluation(state, "threshold", int(t), exact)
        rows[int(t)] = {"p_catch_up": _at_least(e, needed, exact), "expected_gain": e.expected_gain}
    return pd.DataFrame.from_dict(rows, orient="index")


def _at_least(e: PolicyEvaluation, needed: int, exact: bool):
    return sum((p for x, p in e.distribution.items() if x >= needed), Fraction(0) if exact else 0.0)


def _argmax(series: pd.Series) -> list[int]:
    best = max(series)
    return [int(t) for t, v in series.items() if v == best]


def catch_up_figure(table: pd.DataFrame, needed: int, optimum: tuple | None = None):
    """Two panels against the threshold t: P(X >= needed) and E[X], each best t marked.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`catch_up` output.
    needed : int
        Gems needed (gems).
    optimum : (P(X >= needed), E[X]) of the optimal policy, optional
        Drawn as dashed lines.

    Returns
    -------
    matplotlib.figure.Figure
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.6, 5.0), dpi=100, layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True)
    t = table.index.to_numpy()
    p = table["p_catch_up"].astype(float).to_numpy()
    g = table["expected_gain"].astype(float).to_numpy()
    win, ev = _argmax(table["p_catch_up"]), _argmax(table["expected_gain"])
    top.bar(t, p, color=np.where(np.isin(t, win), palette.HIGHLIGHT, palette.SERIES), width=0.8)
    top.set_ylabel(tr("P(X ≥ {d})", d=needed))
    top.set_title(tr("Behind by {d} gems on the last turn: chance to draw level or win", d=needed), fontsize=10)
    bottom.plot(t, g, marker="o", markersize=3, color=palette.EXACT)
    bottom.plot(ev, table.loc[ev, "expected_gain"].astype(float), "o", color=palette.HIGHLIGHT, markersize=9)
    bottom.set_ylabel(tr("E[X] (gems)"))
    bottom.set_xlabel(tr("threshold t of “hold at t” (gems)"))
    if optimum is not None:
        top.axhline(float(optimum[0]), color=palette.GOOD, ls="--", label=tr("optimal policy (expected gems)"))
        bottom.axhline(float(optimum[1]), color=palette.GOOD, ls="--", label=tr("optimal policy (expected gems)"))
        top.legend(fontsize="small")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    top.annotate(
        tr("best for winning: t = {t}", t=win[0]),
        (win[0], p[list(t).index(win[0])]),
        xytext=(8, -2),
        textcoords="offset points",
        fontsize=8,
        va="top",
        bbox={"boxstyle": "round,pad=0.2", "fc": palette.WHITE, "ec": "none", "alpha": 0.85},
    )
    # the label below the curve, clear of its dots, with an arrow up to the best t
    low = g.min() + 0.25 * (g.max() - g.min())
    right = ev[0] > (t[0] + t[-1]) / 2
    bottom.annotate(
        tr("best for gems: t = {t}", t=ev[0]),
        (ev[0], g[list(t).index(ev[0])]),
        xytext=(ev[0] - 0.06 * (t[-1] - t[0]) if right else ev[0] + 0.06 * (t[-1] - t[0]), low),
        textcoords="data",
        fontsize=8,
        ha="right" if right else "left",
        va="center",
        bbox={"boxstyle": "round,pad=0.2", "fc": palette.WHITE, "ec": palette.HIGHLIGHT},
        arrowprops={"arrowstyle": "->", "color": palette.AMBER},
    )
    return fig


class CatchUpExplorer(LessonWidget):
    """A player ``d`` gems behind on the last turn: which hold-at-t policy wins most often?

    Parameters
    ----------
    needed : int
        The slider's initial d (gems).
    deck : str
        The initial deck, a key of :attr:`DECKS`: the classroom deck (exact, d up to 16)
        or the full deck with its whole treasure (floats, d up to 60).  Every hold-at-t
        policy is drawn: t from 1 to one more than the largest pot a turn can collect
        (:meth:`thresholds`; 1..16 and 1..154), so the best t for gems is always among them.

    Attributes
    ----------
    widget : ipywidgets.VBox
    """

    #: label (msgid) -> (preset, treasure, the largest d of the slider).
    DECKS: ClassVar[dict[str, tuple[str, int | None, int]]] = {
        "classroom deck (mini), exact": ("mini", None, 16),
        "full deck (dragon-stripes)": ("dragon-stripes", None, 60),
    }

    def __init__(self, needed: int = 5, deck: str = "classroom deck (mini), exact"):
        if deck not in self.DECKS:
            raise ValueError(f"deck must be one of {list(self.DECKS)}, not {deck!r}")
        self.deck = widgets.ToggleButtons(
            options=[(tr(label), label) for label in self.DECKS], value=deck, style={"button_width": "240px"}
        )
        self.needed = widgets.IntSlider(
            value=needed,
            min=1,
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="560px"),
        )
        self.picture = widgets.Image(format="png", layout=widgets.Layout(width="720px"))
        self.verdict = widgets.HTML()
        self.widget = widgets.VBox([widgets.HTML(CSS), self.deck, self.needed, self.verdict, self.picture])
        self.widget.add_class("dk-lesson")
        self._deck_options(i18n.get_language())
        self._limits()
        self.deck.observe(self._on_deck, names="value")
        self.needed.observe(self._redraw, names="value")
        self._follow_language()

    def _deck_options(self, lang: str) -> None:
        with self.muted():  # relabelling the menu is not the learner's choice: d and its range stay
            relabel(self.deck, [(tr(label, lang), label) for label in self.DECKS])

    @property
    def state(self) -> TurnState:
        rules, treasure, _ = self.DECKS[self.deck.value]
        return fresh_turn(rules, treasure=treasure)

    @property
    def exact(self) -> bool:
        return _exact_flag(self.state.rules)

    def _limits(self) -> None:
        top = self.DECKS[self.deck.value][2]
        self.needed.max = top
        self.needed.value = min(self.needed.value, top)

    def thresholds(self) -> range:
        """Every distinct hold-at-t policy of the current deck: t = 1 .. largest pot + 1 (gems;
        a larger t never holds either, like t = largest pot + 1)."""
        return range(1, largest_pot(self.state) + 2)

    def table(self) -> pd.DataFrame:
        """:func:`catch_up` for the current deck and d, over :meth:`thresholds`."""
        return catch_up(self.state, self.needed.value, self.thresholds(), self.exact)

    def optimum(self) -> tuple:
        """P(X >= d) and E[X] of the optimal policy (the one maximizing expected gems)."""
        e = evaluation(self.state, "optimal", 1, self.exact)
        return _at_least(e, self.needed.value, self.exact), e.expected_gain

    def _on_deck(self, _change=None) -> None:
        if not self._muted:
            self._limits()
            self._redraw()

    def _redraw(self, _change=None) -> None:
        lang = i18n.get_language()
        self._deck_options(lang)
        self.needed.description = tr("Gems needed to draw level, d =", lang)
        self.verdict.value = f'<div class="dk-read">{tr("Computing…", lang)}</div>'  # the full deck's first time
        table, optimum = self.table(), self.optimum()
        self.picture.value = figure_png(catch_up_figure(table, self.needed.value, optimum))
        win, ev = _argmax(table["p_catch_up"]), _argmax(table["expected_gain"])
        shown = (lambda v: number_html(v)) if self.exact else (lambda v: decimal(v, 3))
        text = tr(
            "Most expected gems among the hold-at-t policies (t = 1..{top}): t = {t}, E[X] = {gain}, "
            "but it draws level with probability only {p}. The best chance to draw level: "
            "t = {t_win}, with probability {p_win} (E[X] = {gain_win}). "
            "The optimal policy for expected gems (E[X] = {gain_opt}) draws level with probability {p_opt}.",
            lang,
            t=ev[0],
            gain=shown(table.loc[ev[0], "expected_gain"]),
            p=shown(table.loc[ev[0], "p_catch_up"]),
            t_win=win[0],
            p_win=shown(table.loc[win[0], "p_catch_up"]),
            gain_win=shown(table.loc[win[0], "expected_gain"]),
            gain_opt=shown(optimum[1]),
            p_opt=shown(optimum[0]),
            top=table.index[-1],
        )
        self.verdict.value = f'<div class="dk-read">{text}</div>'


# -- exercises --------------------------------------------------------------------------------


def answers() -> dict:
    """The answers of lesson 6's exercises (classroom deck, exact).

    Returns
    -------
    dict
        ``"variance_1"``: Var X under hold at 1; ``"loss_2"``: P(X < 0) under hold at 2;
        ``"catch_up_5"``: P(X >= 5) under hold at 5; ``"catch_up_ev"``: P(X >= 5) under
        the optimal policy; ``"best_t_5"``: the single t maximizing P(X >= 5) (all Fractions or ints).

    Raises
    ------
    RuntimeError
        If the best t is not unique (a changed ruleset).
    """
    mini = fresh_turn("mini")
    table = catch_up(mini, 5, range(1, 17), exact=True)
    best = _argmax(table["p_catch_up"])
    if len(best) != 1:
        raise RuntimeError("the catch-up exercise needs a single best t")
    return {
        "variance_1": evaluation(mini, "threshold", 1, True).variance,
        "loss_2": evaluation(mini, "threshold", 2, True).p_loss,
        "catch_up_5": table.loc[5, "p_catch_up"],
        "catch_up_ev": _at_least(evaluation(mini, "optimal", 1, True), 5, True),
        "best_t_5": best[0],
    }
