"""Lesson 3, *One more card?*: the widgets of the lesson on a single push.

:class:`OnePushExplorer` shows the expected value :math:`E_1` of revealing exactly one more
card and then holding, its break-even pot and how that moves with the player's wealth;
:class:`MyopicVsOptimal` sets the one-step rule against optimal play.  Every number comes
from :mod:`dragonkit.topics.one_push` (which walks the turn model) and
:func:`dragonkit.analysis.solve_turn`; the figures from :mod:`dragonkit.plots.one_push`.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

import ipywidgets as widgets

from ..analysis import TurnState, solve_turn
from ..analysis.turn.state import check_state
from ..i18n import Gems, tr
from ..i18n.numbers import decimal_text
from ..plots.one_push import myopic_figure, myopic_figure_text, one_push_figure, one_push_figure_text
from ..style import CSS
from ..topics.one_push import OnePush, break_even_pot, compare_with_optimal, one_push, situation, story_state
from ..topics.sliders import stage_range
from ..turn import Action
from ..ui.figures import FigureView
from ..ui.numbers import format_fraction, number_html
from .base import LessonWidget

__all__ = ["RICH", "MyopicVsOptimal", "OnePushExplorer", "answers", "outcome_table"]


def outcome_table(push: OnePush) -> str:
    """HTML table of one push: each kind of card, its probability, what it does, the
    gain if you hold right after, and its share of the expected value."""
    head = (
        f"<tr><th>{escape(tr('next card'))}</th><th>{escape(tr('probability'))}</th>"
        f"<th>{escape(tr('what happens'))}</th><th>{escape(tr('gain, then hold'))}</th>"
        f"<th>{escape(tr('probability × gain'))}</th></tr>"
    )
    rows = "".join(
        f"<tr><td>{escape(o.card.describe())}</td><td>{format_fraction(o.probability)}</td>"
        f"<td>{escape(o.effect.describe())}</td><td>{o.gain:+d}</td>"
        f"<td>{format_fraction(o.contribution)}</td></tr>"
        for o in push.outcomes
    )
    total = (
        f'<tr class="dk-sum"><td colspan="4"><b>{escape(tr("one more card, then hold: E1 ="))}</b></td>'
        f"<td>{number_html(push.value, 4)}</td></tr>"
    )
    return f'<table class="dk-table">{head}{rows}{total}</table>'


def _signed(value: Fraction) -> str:
    """An advantage with its sign, three decimals, in the current language: ``+0.375``, ``-1.250`` (``+0,375``)."""
    return ("+" if value >= 0 else "") + decimal_text(value, 3)


class OnePushExplorer(LessonWidget):
    """One more card or hold? Sliders for the knight's position, the pot, the player's
    gems and the stage; the table of one push, its break-even pot, how the break-even
    pot moves with the player's gems, and optimal play for comparison.

    Parameters
    ----------
    state : TurnState, optional
        The deck and the starting values of the sliders (default :func:`story_state`).
        The deck stays fixed; at a later stage the dangers already revealed leave it.
    pot_max, gems_max : int
        The sliders' ranges (gems).

    Attributes
    ----------
    widget : ipywidgets.VBox
    sliders : dict of str to ipywidgets.IntSlider
        ``"position"``, ``"pot"``, ``"gems"``, ``"stage"``.
    push : OnePush
        The current situation's one push.
    break_even : Fraction
        Its break-even pot (:func:`break_even_pot`).

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or its values lie outside the sliders' ranges.
    """

    def __init__(self, state: TurnState | None = None, pot_max: int = 80, gems_max: int = 200):
        self.base = story_state() if state is None else check_state(state)
        rules = self.base.rules
        ranges = {
            "position": (0, rules.n_stripes),
            "pot": (0, pot_max),
            "gems": (0, gems_max),
            "stage": stage_range(rules)[:2],
        }
        values = {
            "position": self.base.position,
            "pot": self.base.pot,
            "gems": self.base.gems,
            "stage": self.base.dangers_revealed,
        }
        for name, (low, high) in ranges.items():
            if not low <= values[name] <= high:
                raise ValueError(f"the state's {name} ({values[name]}) lies outside the slider's {low}..{high}")
        self.sliders = {}
        for name, (low, high) in ranges.items():
            self.sliders[name] = widgets.IntSlider(
                value=values[name],
                min=low,
                max=high,
                continuous_update=False,
                style={"description_width": "160px"},
                layout=widgets.Layout(width="430px"),
            )
        self.deck, self.table, self.verdict = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.picture = FigureView("1000px")
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox([widgets.VBox(list(self.sliders.values())), widgets.VBox([self.deck, self.verdict])]),
                self.table,
                self.picture,
            ]
        )
        self.widget.add_class("dk-lesson")
        for slider in self.sliders.values():
            slider.observe(self._redraw, names="value")
        self._follow_language()

    def situation(self) -> TurnState:
        """The situation the sliders describe (:func:`~dragonkit.topics.one_push.situation`)."""
        s = {name: slider.value for name, slider in self.sliders.items()}
        return situation(self.base, s["position"], s["pot"], s["gems"], s["stage"])

    def _redraw(self, _change=None) -> None:
        names = {
            "position": tr("knight on stripe"),
            "pot": tr("pot (gems)"),
            "gems": tr("your gems"),
            "stage": tr("stage"),
        }
        for name, slider in self.sliders.items():
            slider.description = names[name]
        state = self.situation()
        self.push = one_push(state)
        self.break_even = break_even_pot(state)
        deck = state.composition
        cards = ", ".join(f"{card.describe()} ×{count}" for card, count in deck.counts())
        stage = state.rules.stage(state.dangers_revealed)
        rules = tr(
            "Stage {d}: penalty {rate} of your gems, stripes pay ×{m}.",
            d=state.dangers_revealed,
            rate=str(stage.rate),
            m=stage.multiplier,
        )
        cards = tr("Deck: {n} cards ({cards}).", n=deck.total, cards=cards)
        self.deck.value = f'<div class="dk-status">{escape(cards)}<br>{escape(rules)}</div>'
        self.table.value = outcome_table(self.push)
        self.verdict.value = self._verdict_html(state)
        ranges = (self.sliders["pot"].max, self.sliders["gems"].max)
        self.picture.show(
            one_push_figure(self.push, self.break_even, *ranges),
            one_push_figure_text(self.push, self.break_even, *ranges),
        )

    def _verdict_html(self, state: TurnState) -> str:
        push = self.push
        rule = (tr("Reveal") if push.pays else tr("Hold")).upper()
        lines = [
            tr("Hold now: {pot}.", pot=Gems(push.hold)),
            tr("One more card, then hold: E1 = {value} gems.", value=decimal_text(push.value)),
            tr("One-step rule: {action} (advantage {adv} gems).", action=rule, adv=_signed(push.advantage)),
        ]
        if self.break_even == 0:
            lines.append(tr("One more card pays at no pot here."))
        else:
            lines.append(
                tr(
                    "Break-even pot: {p} gems (exact {exact}); one more card pays below it.",
                    p=decimal_text(self.break_even),
                    exact=str(self.break_even),
                )
            )
        best = solve_turn(state, exact=True)
        optimal = (tr("Reveal") if best.best_action is Action.REVEAL else tr("Hold")).upper()
        lines.append(
            tr(
                "Optimal play (backward induction): {action}; revealing, then playing on optimally, "
                "is worth {value} gems.",
                action=optimal,
                value=decimal_text(best.push_value),
            )
        )
        agree = (best.best_action is Action.REVEAL) == push.pays
        lines.append(
            tr("The one-step rule and optimal play agree.")
            if agree
            else tr("They disagree: optimal play looks further ahead than one card.")
        )
        css = "dk-success" if agree else "dk-warning"
        return (
            "<br>".join(escape(line) for line in lines[:-1])
            + f'<div class="dk-message {css}">{escape(lines[-1])}</div>'
        )


class MyopicVsOptimal(LessonWidget):
    """The one-step rule against optimal play on the whole board: the optimal
    policy's map (push minus hold by knight position and pot, :func:`policy_map`)
    with the one-step break-even pot of every position drawn over it.

    Parameters
    ----------
    state : TurnState, optional
        The deck, stage and treasure (default :func:`story_state`).
    gems_max : int
        The gems slider's range (gems).

    Attributes
    ----------
    widget : ipywidgets.VBox
    gems : ipywidgets.IntSlider
        The player's gems.
    break_even : dict of int to Fraction
        The one-step break-even pot by knight position (:func:`break_even_pot`).
    disagree : int
        Decision points of the map (position, pot) where the one-step rule and optimal play differ.
    hold_points : int
        Reachable decision points where optimal play holds (the red cells; none with few gems).

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or its gems lie outside the slider's range.
    """

    def __init__(self, state: TurnState | None = None, gems_max: int = 200):
        self.base = story_state() if state is None else check_state(state)
        if not 0 <= self.base.gems <= gems_max:
            raise ValueError(f"the state's gems ({self.base.gems}) lie outside 0..{gems_max}")
        self.gems = widgets.IntSlider(
            value=self.base.gems,
            min=0,
            max=gems_max,
            step=5,
            continuous_update=False,
            style={"description_width": "120px"},
            layout=widgets.Layout(width="420px"),
        )
        self.summary = widgets.HTML()
        self.picture = FigureView("900px")
        self.widget = widgets.VBox([widgets.HTML(CSS), self.gems, self.summary, self.picture])
        self.widget.add_class("dk-lesson")
        self.gems.observe(self._redraw, names="value")
        self._follow_language()

    def _redraw(self, _change=None) -> None:
        self.gems.description = tr("your gems")
        comparison = compare_with_optimal(self.base.replace(gems=self.gems.value))
        self.break_even, self.disagree = comparison.break_even, comparison.disagree
        self.hold_points = comparison.hold_points
        self.picture.show(myopic_figure(comparison), myopic_figure_text(comparison))
        state = comparison.state
        summary = tr(
            "With {gems}, {stage}: the one-step rule and optimal play differ at {n} of the {total} cells of the map "
            "(position, pot); at {bolder} of them optimal play reveals where the one-step rule holds.",
            gems=Gems(state.gems),
            stage=tr("stage {d}", d=state.dangers_revealed),
            n=comparison.disagree,
            total=comparison.reachable,
            bolder=comparison.bolder,
        )
        if self.hold_points == 0:  # the colour legend's "hold" has nothing to point at: say why
            summary += " " + tr(
                "No cell is red (hold): with {gems} at stake optimal play reveals in every cell of the "
                "map. Move the gems slider up: the more a stop or a danger costs you, the more "
                "cells turn red.",
                gems=Gems(state.gems),
            )
        self.summary.value = f"<p>{escape(summary)}</p>"


#: The richer player of the exercises (gems).
RICH = 100


def answers() -> dict[str, Fraction]:
    """The exact answers of the lesson's exercises, in :func:`story_state`.

    Returns
    -------
    dict
        ``"value"`` E1, one more card then hold (gems); ``"advantage"`` E1 minus the pot
        (gems); ``"break_even"`` the break-even pot with 40 gems; ``"break_even_rich"``
        with :data:`RICH` gems (gems).
    """
    story = story_state()
    push = one_push(story)
    return {
        "value": push.value,
        "advantage": push.advantage,
        "break_even": break_even_pot(story),
        "break_even_rich": break_even_pot(story_state(RICH)),
    }
