r"""Lesson 6: risk — the whole distribution of a turn's outcome, not only its mean.

A policy turns a turn into an absorbing chain, and the absorption
probabilities grouped by gem change are the exact distribution of the gain
:math:`X` (:func:`dragonkit.analysis.evaluate_policy`).  This module shows:

* :class:`OutcomeExplorer` — the distribution of :math:`X` under a chosen policy,
  with :math:`E[X]`, :math:`E[X^2]`, :math:`\operatorname{Var}X = E[X^2] - E[X]^2`,
  the standard deviation and :math:`P(X < 0)`, worked out from the table;
* :class:`RiskReturnExplorer` — mean against the probability of a loss for the
  hold-at-h policies, a cautious, a greedy and the optimal policy;
* :class:`CatchUpExplorer` — a player ``δ`` gems behind on the last turn: the
  policy that maximizes :math:`P(X \ge \delta)` is not the one that maximizes :math:`E[X]`;
* :func:`answers` — the exercises' answers.

The numbers come from :mod:`dragonkit.topics.risk` (the greedy policy is
:class:`dragonkit.topics.named.NeverHold`), the figures from :mod:`dragonkit.plots.risk`.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import ClassVar

import ipywidgets as widgets
import pandas as pd

from .. import i18n
from ..analysis import HoldAtPot, PolicyEvaluation, TurnState, compare_policies
from ..analysis.turn.thresholds import best_thresholds, every_threshold
from ..i18n import N_, tr
from ..i18n.numbers import decimal_text
from ..plots.risk import catch_up_figure, catch_up_figure_text, risk_return_figure, risk_return_figure_text
from ..rules import Ruleset
from ..style import CSS
from ..topics.named import named_policy
from ..topics.risk import catch_up, evaluation, moment_sums, moments_table, probability_at_least
from ..ui.figures import FigureView
from ..ui.numbers import number_html
from .base import LessonWidget, fresh_turn, policy_name, relabel, situation_sliders

__all__ = ["CatchUpExplorer", "OutcomeExplorer", "RiskReturnExplorer", "answers"]


#: The labels (msgids) of the named policies of :data:`dragonkit.topics.named.NAMED`.
LABELS = {
    "cautious": N_("cautious: hold after 1 card"),
    "greedy": N_("greedy: never hold"),
    "optimal": N_("optimal (the largest expected gain)"),
}


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
        The initial h of *hold at h* (gems).
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
            max=every_threshold(self.state)[-1],
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="520px"),
        )
        self.picture = FigureView("680px")
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
        return [(tr("hold at h (slider)", lang), "threshold")] + [
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
        from ..plots.policy import outcome_bars, outcome_bars_text

        lang = i18n.get_language()
        self._options(lang)
        self.kind.description = tr("Policy", lang)
        self.threshold.description = tr("hold when the pot reaches h =", lang)
        self.threshold.layout.display = None if self.kind.value == "threshold" else "none"
        e = self.evaluation
        named = dataclasses.replace(e, policy=self.policy_label(lang))
        self.picture.show(outcome_bars(named), outcome_bars_text(named, lang), lang)
        shown = (lambda v: number_html(v)) if self.exact else (lambda v: decimal_text(v, 3, lang))
        rows = [
            (tr("expected gem change E[X]", lang), shown(e.expected_gain)),
            (tr("variance Var X = E[X²] − E[X]²", lang), shown(e.variance)),
            (tr("standard deviation √Var X", lang), decimal_text(e.std, 3, lang)),
            (tr("probability of a loss P(X < 0)", lang), shown(e.p_loss)),
            (
                tr("probability of a gain P(X > 0)", lang),
                shown(probability_at_least(e, 1, self.exact)),  # X is a whole number of gems
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
        sums = moment_sums(table)
        total = (
            f"<tr><th>{tr('sum', lang)}</th><td>{shown(sums.p)}</td><td>E[X] = {shown(sums.xp)}"
            f"</td><td>E[X²] = {shown(sums.x2p)}</td></tr>"
        )
        self.table.value = (
            f"<h3>{tr('The distribution, term by term', lang)}</h3>"
            '<table class="dk-matrix"><tr>'
            + "".join(f"<th>{h}</th>" for h in head)
            + "</tr>"
            + body
            + total
            + "</table>"
        )


# -- mean against risk -----------------------------------------------------------------------


class RiskReturnExplorer(LessonWidget):
    """Mean against the probability of a loss, for hold-at-h and three named policies.

    Parameters
    ----------
    rules : Ruleset or str
        Default the full deck ``"dragon-stripes"`` (floats).
    treasure, gems : int, optional
        The situation (default: the ruleset's); a slider changes the treasure.
    thresholds : tuple of int, optional
        The hold-at-h policies drawn (gems; default: those of :func:`~dragonkit.analysis.compare_policies`).

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
        self.picture = FigureView("720px")
        self.table = widgets.HTML()
        self.widget = widgets.VBox([widgets.HTML(CSS), self.treasure, self.picture, self.table])
        self.widget.add_class("dk-lesson")
        self.treasure.observe(self._redraw, names="value")
        self._follow_language()

    @property
    def state(self) -> TurnState:
        return fresh_turn(self.rules, gems=self.gems, treasure=self.treasure.value)

    def points(self) -> pd.DataFrame:
        """The hold-at-h policies' row of :func:`~dragonkit.analysis.compare_policies` (one row per h)."""
        table = _compare(self.state, self.thresholds, _exact_flag(self.rules))
        return table[table["threshold"].notna()]

    def named(self, lang: str | None = None) -> dict[str, PolicyEvaluation]:
        """The cautious, greedy and optimal policies' evaluations, by translated label."""
        exact = _exact_flag(self.rules)
        return {tr(label, lang): evaluation(self.state, kind, 1, exact) for kind, label in LABELS.items()}

    def _redraw(self, _change=None) -> None:
        lang = i18n.get_language()
        self.treasure.description = tr("Treasure at the start of the turn", lang)
        named = self.named(lang)
        points = self.points()
        self.picture.show(risk_return_figure(points, named), risk_return_figure_text(points, named, lang), lang)
        head = [tr("policy", lang), "E[X]", tr("standard deviation", lang), "P(X < 0)", tr("P(head)", lang)]
        body = "".join(
            f"<tr><th style='text-align:left'>{label}</th><td>{decimal_text(e.expected_gain, 2, lang)}</td>"
            f"<td>{decimal_text(e.std, 2, lang)}</td><td>{decimal_text(e.p_loss, 3, lang)}</td>"
            f"<td>{decimal_text(e.p_head, 3, lang)}</td></tr>"
            for label, e in named.items()
        )
        self.table.value = (
            '<table class="dk-matrix"><tr>' + "".join(f"<th>{h}</th>" for h in head) + "</tr>" + body + "</table>"
        )


# -- expected gems or the chance to win --------------------------------------------------------


class CatchUpExplorer(LessonWidget):
    """A player ``δ`` gems behind on the last turn: which hold-at-h policy wins most often?

    Parameters
    ----------
    needed : int
        The slider's initial δ (gems).
    deck : str
        The initial deck, a key of :attr:`DECKS`: the classroom deck (exact, δ up to 16)
        or the full deck with its whole treasure (floats, δ up to 60).  Every hold-at-h
        policy is drawn: t from 1 to one more than the largest pot a turn can collect
        (:meth:`thresholds`; 1..16 and 1..154), so the best t for gems is always among them.

    Attributes
    ----------
    widget : ipywidgets.VBox
    """

    #: label (msgid) -> (preset, treasure, the largest δ of the slider).
    DECKS: ClassVar[dict[str, tuple[str, int | None, int]]] = {
        N_("classroom deck (mini), exact"): ("mini", None, 16),
        N_("full deck (dragon-stripes)"): ("dragon-stripes", None, 60),
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
        self.picture = FigureView("720px")
        self.verdict = widgets.HTML()
        self.widget = widgets.VBox([widgets.HTML(CSS), self.deck, self.needed, self.verdict, self.picture])
        self.widget.add_class("dk-lesson")
        self._deck_options(i18n.get_language())
        self._limits()
        self.deck.observe(self._on_deck, names="value")
        self.needed.observe(self._redraw, names="value")
        self._follow_language()

    def _deck_options(self, lang: str) -> None:
        with self.muted():  # relabelling the menu is not the learner's choice: δ and its range stay
            relabel(self.deck, [(tr(label, lang), label) for label in self.DECKS])

    @property
    def state(self) -> TurnState:
        rules, treasure, _ = self.DECKS[self.deck.value]
        return fresh_turn(rules, treasure=treasure)

    @property
    def exact(self) -> bool:
        return _exact_flag(self.state.rules)

    def _limits(self) -> None:
        self.needed.max = self.DECKS[self.deck.value][2]  # the slider keeps its value within its new range

    def thresholds(self) -> range:
        """Every distinct hold-at-h policy of the current deck (t in gems;
        :func:`~dragonkit.analysis.turn.thresholds.every_threshold`)."""
        return every_threshold(self.state)

    def table(self) -> pd.DataFrame:
        """:func:`catch_up` for the current deck and δ, over :meth:`thresholds`."""
        return catch_up(self.state, self.needed.value, self.thresholds(), self.exact)

    def optimum(self) -> tuple:
        """P(X >= δ) and E[X] of the optimal policy (the one maximizing expected gems)."""
        e = evaluation(self.state, "optimal", 1, self.exact)
        return probability_at_least(e, self.needed.value, self.exact), e.expected_gain

    def _on_deck(self, _change=None) -> None:
        if not self._muted:
            self._limits()
            self._redraw()

    def _redraw(self, _change=None) -> None:
        lang = i18n.get_language()
        self._deck_options(lang)
        self.needed.description = tr("Gems needed to draw level, δ =", lang)
        self.verdict.value = f'<div class="dk-read">{tr("Computing…", lang)}</div>'  # the full deck's first time
        table, optimum = self.table(), self.optimum()
        self.picture.show(
            catch_up_figure(table, self.needed.value, optimum),
            catch_up_figure_text(table, self.needed.value, optimum, lang),
            lang,
        )
        win, ev = best_thresholds(table["p_catch_up"]), best_thresholds(table["expected_gain"])
        shown = (lambda v: number_html(v)) if self.exact else (lambda v: decimal_text(v, 3, lang))
        text = tr(
            "Most expected gems among the hold-at-h policies (h = 1..{top}): h = {t}, E[X] = {gain}, "
            "but it draws level with probability only {p}. The best chance to draw level: "
            "h = {t_win}, with probability {p_win} (E[X] = {gain_win}). "
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
    table = catch_up(mini, 5, every_threshold(mini), exact=True)
    best = best_thresholds(table["p_catch_up"])
    if len(best) != 1:
        raise RuntimeError("the catch-up exercise needs a single best t")
    return {
        "variance_1": evaluation(mini, "threshold", 1, True).variance,
        "loss_2": evaluation(mini, "threshold", 2, True).p_loss,
        "catch_up_5": table.loc[5, "p_catch_up"],
        "catch_up_ev": probability_at_least(evaluation(mini, "optimal", 1, True), 5, True),
        "best_t_5": best[0],
    }
