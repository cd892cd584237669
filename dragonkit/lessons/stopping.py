r"""Lesson 5: optimal stopping of a turn by backward induction.

* :class:`InductionStepper` — Bellman's equation solved one layer at a time,
  from the last cards of the classroom deck back to the start of the turn:
  the decision graph fills in with values, reveal (push) or hold, and any
  point's push value is written out term by term;
* :class:`PolicyMapExplorer` — the optimal policy of the full deck by
  (position, pot), with sliders for the stage, the player's gems and the
  treasure, and where holding starts compared with a reference player;
* :class:`ThresholdExplorer` — the *hold at h* policies against the optimum;
* :func:`answers` — the exercises' answers.

Values come from :func:`dragonkit.analysis.turn.optimal.backward_induction` over the
:class:`~dragonkit.analysis.turn.graph.DecisionGraph` (exact integers with a common
denominator per layer; Bellman's terms from :mod:`dragonkit.topics.stopping`), the maps
from :func:`~dragonkit.analysis.policy_map` and :func:`~dragonkit.analysis.policy_shift`, the
best thresholds from :mod:`dragonkit.analysis.turn.thresholds`; the figures are
:mod:`dragonkit.plots.stopping`'s.  Nothing here knows a rule of the game.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from html import escape

import ipywidgets as widgets
import numpy as np
import pandas as pd

from .. import i18n
from ..analysis import TurnState, compare_policies, policy_map, policy_shift, solve_turn
from ..analysis.turn.graph import HEAD, DecisionGraph
from ..analysis.turn.thresholds import every_threshold, threshold_verdict
from ..i18n import N_, ntr, tr
from ..i18n.numbers import decimal_text, fraction_text
from ..plots.stopping import boundary_figure, boundary_figure_text, induction_figure, induction_figure_text
from ..rules import Ruleset
from ..style import CSS
from ..topics.stopping import (
    bellman_terms,
    hold_boundaries,
    last_richest_point,
    map_treasure,
    point_value,
    solved_graph,
    stepper_gem_range,
)
from ..turn import Action
from ..ui.figures import FigureView
from ..ui.numbers import number_html
from .base import LessonWidget, fresh_turn, situation_sliders

__all__ = [
    "InductionStepper",
    "PolicyMapExplorer",
    "ThresholdExplorer",
    "answers",
]


def _point_name(graph: DecisionGraph, depth: int, index: int, lang: str) -> str:
    layer = graph.layers[depth]
    return tr("@{position}, pot {pot}", lang, position=int(layer.position[index]), pot=int(layer.pot[index]))


def _signed(value: Fraction) -> str:
    """A term of a sum: negative numbers in brackets."""
    return f"({fraction_text(value)})" if value < 0 else fraction_text(value)


class InductionStepper(LessonWidget):
    """Backward induction on the classroom deck, one layer per click.

    Every decision point of a layer has the same number of cards left, and a
    footprint only leads to the next layer, so the values of the last layer
    need nothing else, and each layer needs only the one after it.

    Parameters
    ----------
    gems : int
        The active player's gems (gems); a slider changes it.
    rules : Ruleset or str
        The deck (default ``"mini"``: 18 decision points in 5 layers).

    Attributes
    ----------
    solved : int
        Layers solved so far, from the last one (0 to the number of layers).
    widget : ipywidgets.VBox
    """

    def __init__(self, gems: int = 12, rules: Ruleset | str = "mini"):
        self.rules = Ruleset.preset(rules) if isinstance(rules, str) else rules
        self.state = fresh_turn(self.rules, gems=gems)
        self.solved = 0
        gem_range = stepper_gem_range(self.rules)
        self.gems = widgets.IntSlider(
            value=gems,
            min=gem_range.low,
            max=gem_range.high,
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="480px"),
        )
        self.buttons = {
            name: widgets.Button(icon=icon, layout=widgets.Layout(width="auto"))
            for name, icon in (
                ("reset", "fast-backward"),
                ("back", "step-backward"),
                ("next", "step-forward"),
                ("all", "fast-forward"),
            )
        }
        self.status = widgets.HTML()
        self.picture = FigureView("860px")
        self.table = widgets.HTML(layout=widgets.Layout(overflow="auto", max_width="980px"))
        self.point = widgets.Dropdown(style={"description_width": "initial"}, layout=widgets.Layout(width="420px"))
        self.formula = widgets.HTML()
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                self.gems,
                widgets.HBox(list(self.buttons.values())),
                self.status,
                self.picture,
                self.table,
                self.point,
                self.formula,
            ]
        )
        self.widget.add_class("dk-lesson")
        self.buttons["reset"].on_click(lambda _b: self.go(0))
        self.buttons["back"].on_click(lambda _b: self.go(self.solved - 1))
        self.buttons["next"].on_click(lambda _b: self.go(self.solved + 1))
        self.buttons["all"].on_click(lambda _b: self.go(self.layers))
        self.gems.observe(self._on_gems, names="value")
        self.point.observe(lambda _c: self._draw_formula(), names="value")
        self._follow_language()

    @property
    def graph(self) -> DecisionGraph:
        return solved_graph(self.state)[0]

    @property
    def values(self):
        """The backward induction's exact values, a list of LayerValues (all layers)."""
        return solved_graph(self.state)[1]

    @property
    def layers(self) -> int:
        return len(self.graph.layers)

    @property
    def depth(self) -> int | None:
        """The layer solved last (None before the first step)."""
        return self.layers - self.solved if self.solved else None

    def go(self, solved: int) -> None:
        """Show the graph after ``solved`` layers (clipped to 0..layers)."""
        self.solved = max(0, min(self.layers, int(solved)))
        self._redraw()

    def known_values(self) -> dict[tuple[int, int], Fraction]:
        """The values V shown so far, by (layer, row); the root's is its push value."""
        out = {}
        for d in range(self.layers - self.solved, self.layers):
            for i in range(len(self.graph.layers[d])):
                out[(d, i)] = point_value(self.values, d, i, "push" if d == 0 else "value")
        return out

    def _on_gems(self, _change=None) -> None:
        self.state = fresh_turn(self.rules, gems=self.gems.value)
        self._redraw()

    def _redraw(self, _change=None) -> None:
        lang = i18n.get_language()
        self.gems.description = tr("The player's gems", lang)
        for name, label in (
            ("reset", tr("Start again", lang)),
            ("back", tr("Back", lang)),
            ("next", tr("Next layer", lang)),
            ("all", tr("Solve all", lang)),
        ):
            self.buttons[name].description = label
        self.buttons["reset"].disabled = self.buttons["back"].disabled = self.solved == 0
        self.buttons["next"].disabled = self.buttons["all"].disabled = self.solved == self.layers
        depth = self.depth
        if depth is None:
            self.status.value = (
                "<p>"
                + tr(
                    "Nothing is solved yet. Press <b>Next layer</b>: the induction starts from the last cards a turn "
                    "can reach, whose values need nothing else.",
                    lang,
                )
                + "</p>"
            )
        else:
            layer = self.graph.layers[depth]
            self.status.value = (
                "<p>"
                + tr(
                    "Layer {depth} solved: {m} decision points with {n} cards left. Each push value W uses only the "
                    "values V of the next layer; V = max(pot, W).",
                    lang,
                    depth=depth,
                    m=len(layer),
                    n=layer.cards_left,
                )
                + (" " + tr("At the start of a turn the reveal is compulsory: V = W.", lang) if depth == 0 else "")
                + "</p>"
            )
        args = (self.graph, self.values, self.solved, self.state.must_reveal)
        self.picture.show(induction_figure(*args), induction_figure_text(*args, lang=lang), lang)
        self._draw_table(lang)
        if depth is None:
            self.point.layout.display = "none"
            self.point.options = []
        else:
            self.point.layout.display = None
            self.point.description = tr("Write out the push value of", lang)
            options = [(_point_name(self.graph, depth, i, lang), i) for i in range(len(self.graph.layers[depth]))]
            chosen = self.point.value
            self.point.options = options
            self.point.value = chosen if chosen is not None and chosen < len(options) else 0
        self._draw_formula()

    def _draw_table(self, lang: str) -> None:
        depth = self.depth
        if depth is None:
            self.table.value = ""
            return
        layer = self.graph.layers[depth]
        drawn = self.graph.drawn(depth, np.arange(len(layer)))
        head = [
            tr("cards drawn", lang),
            tr("knight position", lang),
            tr("pot (gems)", lang),
            tr("cards left", lang),
            tr("push value W", lang),
            tr("hold value", lang),
            "V",
            tr("best", lang),
        ]
        rows = []
        for i in range(len(layer)):
            info = bellman_terms(self.graph, self.values, depth, i)
            compulsory = depth == 0 and self.state.must_reveal
            action = (
                tr("reveal (compulsory)", lang)
                if compulsory
                else tr(N_("reveal (push)") if info["action"] is Action.REVEAL else N_("hold"), lang)
            )
            value = info["push"] if compulsory else info["value"]
            cells = [
                drawn[i] or "–",
                int(layer.position[i]),
                info["hold"],
                layer.cards_left,
                number_html(info["push"]),
                "–" if compulsory else info["hold"],
                number_html(value),
                f"<b>{escape(action)}</b>",
            ]
            rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        self.table.value = (
            '<table class="dk-matrix"><tr>'
            + "".join(f"<th>{escape(h)}</th>" for h in head)
            + "</tr>"
            + "".join(rows)
            + "</table>"
        )

    def _draw_formula(self) -> None:
        depth, index = self.depth, self.point.value
        if depth is None or index is None:
            self.formula.value = ""
            return
        lang = i18n.get_language()
        info = bellman_terms(self.graph, self.values, depth, index)
        parts, notes = [], []
        for kind, count, x, child in info["terms"]:
            parts.append(f"{count} × {_signed(x)}")
            if isinstance(kind, str):
                notes.append(
                    tr("{count} × {card}: {change}", lang, count=count, card=tr(kind, lang), change=i18n.Gems(x))
                )
            elif child is not None:
                notes.append(
                    tr(
                        "{count} × {steps}-step footprint: V of {point} = {value}",
                        lang,
                        count=count,
                        steps=kind,
                        point=_point_name(self.graph, child[0], child[1], lang),
                        value=number_html(x),
                    )
                )
            else:
                notes.append(
                    tr(
                        "{count} × {steps}-step footprint: the head, {change}",
                        lang,
                        count=count,
                        steps=kind,
                        change=i18n.Gems(x),
                    )
                    if info["ends"][kind] == HEAD
                    else tr(
                        "{count} × {steps}-step footprint: the deck runs out, {change}",
                        lang,
                        count=count,
                        steps=kind,
                        change=i18n.Gems(x),
                    )
                )
        n = info["cards_left"]
        compulsory = depth == 0 and self.state.must_reveal
        verdict = (
            tr("The reveal is compulsory here, so V = W = {value}.", lang, value=number_html(info["push"]))
            if compulsory
            else tr(
                "V = max(pot, W) = max({pot}, {push}) = {value}: best to {action}.",
                lang,
                pot=info["hold"],
                push=number_html(info["push"]),
                value=number_html(info["value"]),
                action=tr(N_("reveal") if info["action"] is Action.REVEAL else N_("hold"), lang),
            )
        )
        self.formula.value = (
            '<div class="dk-read">'
            + f"<b>{escape(_point_name(self.graph, depth, index, lang))}</b>: "
            + f"W = 1/{n} × [ {' + '.join(parts)} ] = {number_html(info['push'])}"
            + "<ul>"
            + "".join(f"<li>{note}</li>" for note in notes)
            + "</ul>"
            + verdict
            + "</div>"
        )


# -- the policy map of the full deck ----------------------------------------------------------


@lru_cache(maxsize=64)
def _map(state: TurnState) -> pd.DataFrame:
    return policy_map(state)


class PolicyMapExplorer(LessonWidget):
    """The optimal policy of the full deck by (position, pot), with sliders for
    the stage, the player's gems and the treasure.

    The map keeps the full deck (minus the dangers already revealed), so that
    only the stage, the gems or the treasure change.  Below it, where holding
    starts at each position for a reference player (stage 0, the ruleset's
    starting gems, the same treasure), with only the gems changed, with only
    the stage changed, and with both, as the sliders say.

    Parameters
    ----------
    rules : Ruleset or str
        Default ``"dragon-stripes"``.
    stage, gems, treasure : int
        The sliders' initial values (gems); treasure defaults to a quarter of the ruleset's.

    Attributes
    ----------
    widget : ipywidgets.VBox
    """

    def __init__(
        self,
        rules: Ruleset | str = "dragon-stripes",
        stage: int = 0,
        gems: int | None = None,
        treasure: int | None = None,
    ):
        self.rules = Ruleset.preset(rules) if isinstance(rules, str) else rules
        treasure = map_treasure(self.rules) if treasure is None else treasure
        sliders = situation_sliders(self.rules, gems, treasure, stage)
        self.stage, self.gems_slider, self.treasure = sliders["stage"], sliders["gems"], sliders["treasure"]
        for slider in sliders.values():
            slider.observe(self._redraw, names="value")
        self.facts = widgets.HTML()
        self.heatmap = FigureView("760px")
        self.boundary = FigureView("720px")
        self.widget = widgets.VBox(
            [widgets.HTML(CSS), self.stage, self.gems_slider, self.treasure, self.facts, self.heatmap, self.boundary]
        )
        self.widget.add_class("dk-lesson")
        self._follow_language()

    @property
    def state(self) -> TurnState:
        """The situation mapped: a full deck at the sliders' stage, gems and treasure."""
        return fresh_turn(self.rules, gems=self.gems_slider.value, treasure=self.treasure.value, stage=self.stage.value)

    def shift(self) -> pd.DataFrame:
        """Where holding starts for the reference player (stage 0, the starting gems), with the
        gems, the stage and both changed (:func:`~dragonkit.topics.stopping.hold_boundaries`)."""
        return hold_boundaries(self.state, fresh_turn(self.rules, treasure=self.treasure.value))

    def _redraw(self, _change=None) -> None:
        from ..plots.policy import policy_heatmap, policy_heatmap_text

        lang = i18n.get_language()
        self.stage.description = tr("Stage (dangers revealed)", lang)
        self.gems_slider.description = tr("The player's gems", lang)
        self.treasure.description = tr("Treasure at the start of the turn", lang)
        state, stage = self.state, self.rules.stage(self.stage.value)
        self.facts.value = (
            "<p>"
            + ntr(
                "At stage {d} a stop costs {rate} of the player's gems ({penalty} here) and stripes pay ×{mult}; "
                "the deck holds {dangers} danger card. Reaching the head pays the pot and the whole treasure.",
                "At stage {d} a stop costs {rate} of the player's gems ({penalty} here) and stripes pay ×{mult}; "
                "the deck holds {dangers} danger cards. Reaching the head pays the pot and the whole treasure.",
                state.dangers,
                lang,
                d=self.stage.value,
                rate=str(stage.rate),
                penalty=i18n.Gems(self.rules.penalty(state.gems, self.stage.value)),
                mult=stage.multiplier,
                dangers=state.dangers,
            )
            + "</p>"
        )
        title = tr(
            "Optimal policy: stage {d}, {gems}, treasure {treasure}",
            lang,
            d=self.stage.value,
            gems=i18n.Gems(state.gems),
            treasure=state.treasure,
        )
        grid = _map(state)
        self.heatmap.show(policy_heatmap(grid, title=title), policy_heatmap_text(grid, title, lang), lang)
        start = self.rules.starting_gems
        names = {
            "reference": tr("reference: stage 0, {gems}", lang, gems=i18n.Gems(start)),
            "gems": tr("only the gems changed: {gems}", lang, gems=i18n.Gems(self.gems_slider.value)),
            "stage": tr("only the stage changed: stage {d}", lang, d=self.stage.value),
            "both": tr("both, as on the map", lang),
        }
        shift = self.shift()
        lines = shift[~shift.duplicated()]  # equal lines drawn once
        self.boundary.show(boundary_figure(lines, names), boundary_figure_text(lines, names, lang), lang)


# -- hold at h against the optimum ------------------------------------------------------------


@lru_cache(maxsize=32)
def _compare(state: TurnState, exact: bool) -> pd.DataFrame:
    if exact:  # every distinct hold-at-h policy
        return compare_policies(state, every_threshold(state), exact=True)
    return compare_policies(state)


class ThresholdExplorer(LessonWidget):
    """The *hold at h* policies compared with the optimal policy.

    Parameters
    ----------
    rules : Ruleset or str
        The deck; the classroom deck ``"mini"`` is computed exactly for every t,
        a larger one in floats for about 25 thresholds.
    gems, treasure : int, optional
        The sliders' initial values (default: the ruleset's).

    Attributes
    ----------
    widget : ipywidgets.VBox
    """

    def __init__(self, rules: Ruleset | str = "mini", gems: int | None = None, treasure: int | None = None):
        self.rules = Ruleset.preset(rules) if isinstance(rules, str) else rules
        self.exact = self.rules.deck_size <= 16
        sliders = situation_sliders(self.rules, gems, treasure)
        self.gems_slider, self.treasure = sliders["gems"], sliders["treasure"]
        for slider in sliders.values():
            slider.observe(self._redraw, names="value")
        self.picture = FigureView("700px")
        self.verdict = widgets.HTML()
        self.widget = widgets.VBox([widgets.HTML(CSS), self.gems_slider, self.treasure, self.picture, self.verdict])
        self.widget.add_class("dk-lesson")
        self._follow_language()

    @property
    def state(self) -> TurnState:
        return fresh_turn(self.rules, gems=self.gems_slider.value, treasure=self.treasure.value)

    def comparison(self) -> pd.DataFrame:
        """:func:`~dragonkit.analysis.compare_policies` for the current sliders."""
        return _compare(self.state, self.exact)

    def best_thresholds(self) -> list[int]:
        """The thresholds h whose expected gem change is the largest among the hold-at-h policies."""
        return threshold_verdict(self.comparison(), self.exact).best

    def _redraw(self, _change=None) -> None:
        from ..plots.policy import threshold_curve, threshold_curve_text

        lang = i18n.get_language()
        self.gems_slider.description = tr("The player's gems", lang)
        self.treasure.description = tr("Treasure at the start of the turn", lang)
        comparison = self.comparison()
        self.picture.show(threshold_curve(comparison), threshold_curve_text(comparison, lang), lang)
        verdict = threshold_verdict(comparison, self.exact)
        best = verdict.best
        shown = (lambda v: number_html(v)) if self.exact else (lambda v: decimal_text(v, 3, lang))
        text = tr(
            "Best of the thresholds tried: h = {t}, expected gem change {gain}. The optimal policy: {optimum}.",
            lang,
            t=" = ".join(str(t) for t in best) if len(best) < 4 else f"{best[0]}–{best[-1]}",
            gain=shown(verdict.gain),
            optimum=shown(verdict.optimum),
        )
        if not verdict.optimal:
            text += " " + tr(
                "No hold-at-h policy is optimal here: the optimal policy also looks at the position "
                "and at the cards left, not only at the pot.",
                lang,
            )
        else:
            text += " " + tr("Here a hold-at-h policy is as good as the optimal one.", lang)
        self.verdict.value = f"<p>{text}</p>"


# -- exercises --------------------------------------------------------------------------------


def answers() -> dict:
    """The answers of lesson 5's exercises, all computed by the analysis.

    Returns
    -------
    dict
        ``"last_point"``: the decision point of the classroom deck's last layer with
        the largest pot (a TurnState, 12 gems), and ``"last_push"``: its push value W (Fraction);
        ``"value_4"``: the turn value of the classroom deck with 4 gems (Fraction);
        ``"threshold_0"``: the single best hold-at-h threshold with 0 gems (gems);
        ``"position"`` and ``"hold_from"``: where holding starts at that position on
        the full deck with treasure 100 (rows ``"as is"`` — stage 0, 40 gems —,
        ``"gems=80"`` and ``"stage=2"`` of :func:`~dragonkit.analysis.policy_shift`; gems).

    Raises
    ------
    RuntimeError
        If the threshold exercise has no single best t (a changed ruleset).
    """
    mini = fresh_turn("mini")
    graph, values = solved_graph(mini)
    last, index = last_richest_point(graph)
    best = threshold_verdict(_compare(fresh_turn("mini", gems=0), True), True).best
    if len(best) != 1:
        raise RuntimeError("the threshold exercise needs a single best t")
    position = 6
    shift = policy_shift(fresh_turn("dragon-stripes", treasure=100), gems=[80], stages=[2])
    return {
        "last_point": graph.state(last, index),
        "last_push": point_value(values, last, index, "push"),
        "value_4": solve_turn(fresh_turn("mini", gems=4), exact=True).value,
        "threshold_0": best[0],
        "position": position,
        "hold_from": {row: int(shift.loc[row, position]) for row in shift.index},
    }
