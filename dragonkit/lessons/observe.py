"""Lesson 1, *Play and observe*: the widgets of the lesson on the deck a turn starts from and a
first guess at when to hold.

The guess is valued by :class:`dragonkit.topics.first_guess.GuessResult` (hold-at-h
policies through their absorbing chains, the optimum by backward induction) and drawn by
:func:`dragonkit.plots.first_guess.guess_figure`; the class's own stopping pots against the
optimum (:class:`ClassStops`) come from :mod:`dragonkit.topics.our_class` and are drawn by
:func:`dragonkit.plots.our_class.holding_figure`; the exercises' answers come from
:mod:`dragonkit.topics.deck` and :mod:`dragonkit.analysis.turn.walk`.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

import ipywidgets as widgets

from .. import i18n
from ..analysis import TurnState
from ..analysis.turn.walk import after_cards, stop_penalty
from ..i18n import ntr, tr
from ..i18n.numbers import decimal_text, integer_text
from ..plots.first_guess import guess_figure, guess_figure_text
from ..plots.next_card import composition_figure, composition_figure_text
from ..plots.our_class import holding_figure, holding_figure_text
from ..rules import Card, Ruleset, whole_number
from ..style import CSS
from ..topics.deck import ender_chance, most_likely_card, stop_chance
from ..topics.first_guess import SCAN_STEP, GuessResult
from ..topics.our_class import holding_pots, stopping_choices, stopping_summary
from ..ui.figures import FigureView
from ..ui.numbers import number_html
from .base import ClassSource, LessonWidget, edition_label, fresh_turn, largest_pot, relabel
from .next_card import next_card_table

__all__ = ["ClassStops", "DeckView", "FirstGuess", "answers"]


class DeckView(LessonWidget):
    """The full deck of an edition: a bar per kind of card with the exact chance
    that the first card of the game is of that kind, and the same as a table.

    Parameters
    ----------
    rules : Ruleset, optional
        The edition (default ``dragon-stripes``).

    Attributes
    ----------
    widget : ipywidgets.HBox
    """

    def __init__(self, rules: Ruleset | None = None):
        self.rules = rules or Ruleset.preset("dragon-stripes")
        self.picture = FigureView("600px")
        self.table = widgets.HTML()
        self.widget = widgets.HBox([widgets.HTML(CSS), self.picture, self.table])
        self.widget.add_class("dk-lesson")
        self._follow_language()

    def _redraw(self, _change=None) -> None:
        deck = self.rules.composition
        self.picture.show(composition_figure(deck), composition_figure_text(deck))
        self.table.value = f"<b>{escape(tr('The first card of the game'))}</b>{next_card_table(deck)}"


class FirstGuess(LessonWidget):
    """ "I would hold when the pot reaches ___ gems": a slider, a button that records
    the guess, and what that policy is worth on a fresh turn compared with the best
    hold-at-h policy and with optimal play.

    Parameters
    ----------
    rules : Ruleset, optional
        The edition (default ``dragon-stripes``).
    start : int
        The slider's first value (gems).

    Attributes
    ----------
    widget : ipywidgets.VBox
    slider : ipywidgets.IntSlider
        The threshold h (gems), 1 up to the largest pot a turn can collect.
    submit : ipywidgets.Button
    guesses : list of int
        Every threshold submitted, in order.
    result : GuessResult or None
        The evaluation of the last guess.
    """

    def __init__(self, rules: Ruleset | None = None, start: int = 20):
        self.rules = rules or Ruleset.preset("dragon-stripes")
        self.state = fresh_turn(self.rules)
        top = largest_pot(self.state)
        start = whole_number(start, "start", minimum=1, maximum=top)
        self.guesses: list[int] = []
        self.result: GuessResult | None = None
        self.prompt = widgets.HTML()
        self.slider = widgets.IntSlider(
            value=start, min=1, max=top, continuous_update=False, layout=widgets.Layout(width="420px")
        )
        self.unit = widgets.HTML()
        self.submit = widgets.Button(icon="paper-plane", button_style="primary", layout=widgets.Layout(width="220px"))
        self.submit.on_click(lambda _b: self.record())
        self.report = widgets.HTML()
        self.picture = FigureView("1000px", layout=widgets.Layout(display="none"))
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                self.prompt,
                widgets.HBox([self.slider, self.unit, self.submit]),
                self.report,
                self.picture,
            ]
        )
        self.widget.add_class("dk-lesson")
        self._follow_language()

    def record(self) -> GuessResult:
        """Record the slider's threshold as a guess and show what it is worth."""
        self.report.value = f'<div class="dk-message dk-info">{escape(tr("Computing the exact values…"))}</div>'
        threshold = int(self.slider.value)
        self.result = GuessResult(self.state, threshold, largest_pot(self.state))
        self.guesses.append(threshold)
        self._redraw()
        return self.result

    def _redraw(self, _change=None) -> None:
        self.prompt.value = f'<div class="dk-question">{escape(tr("I would hold when the pot reaches"))}</div>'
        self.unit.value = escape(tr("gems"))
        self.submit.description = tr("Submit my guess")
        if self.result is None:
            self.report.value = ""
            return
        r = self.result
        rows = [
            (tr("your guess: hold at {t}", t=r.threshold), number_html(r.gain, 4), r.p_loss, r.p_head),
            (
                tr("best hold-at-h: hold at {t}", t=r.best_threshold),
                number_html(r.best_gain, 4),
                r.best_p_loss,
                r.best_p_head,
            ),
            (tr("optimal play (backward induction)"), number_html(r.optimal, 4), r.optimal_p_loss, r.optimal_p_head),
        ]
        body = "".join(
            f"<tr><td>{escape(name)}</td><td>{gain}</td>"
            f"<td>{decimal_text(loss, 3)}</td><td>{decimal_text(head, 3)}</td></tr>"
            for name, gain, loss, head in rows
        )
        head = (
            f"<tr><th>{escape(tr('policy'))}</th><th>{escape(tr('expected gem change per turn'))}</th>"
            f"<th>{escape(tr('P(loss)'))}</th><th>{escape(tr('P(head)'))}</th></tr>"
        )
        guesses = tr("Your guesses so far: {guesses}.", guesses=", ".join(str(g) for g in self.guesses))
        where = tr(
            "A fresh turn of a fresh game: full deck, {gems}, the knight on the tail.", gems=i18n.Gems(self.state.gems)
        )
        note = tr(
            "Exact values from the absorbing Markov chain of each policy; the curve is computed every {step} gems.",
            step=SCAN_STEP,
        )
        self.report.value = (
            f"<p>{escape(guesses)} {escape(where)}</p>"
            f'<table class="dk-table">{head}{body}</table><p class="dk-note">{escape(note)}</p>'
        )
        self.picture.show(guess_figure(r), guess_figure_text(r))
        self.picture.layout.display = None


#: The longest denominator :func:`_gems_cell` shows as a fraction (digits).
SHORT_FRACTION = 4


def _gems_cell(value: Fraction, digits: int) -> str:
    """An exact sum of expected gems as HTML: its fraction where short (``437/21 ≈ 20.81``), else its decimal alone
    (``≈ 4,415.07``): a class's sums have denominators dozens of digits long."""
    if len(str(value.denominator)) <= SHORT_FRACTION:
        return number_html(value, digits)
    return f"≈ {decimal_text(value, digits)}"


class ClassStops(LessonWidget):
    """Where our class held, against optimal play: the pots of the class's holds for an edition and a stage, with
    where optimal play starts holding in the same situations, and how many choices stopped short of its boundary or
    pushed past it, with the expected gems that cost.

    The decisions are the class's of today from the class's record, or a simulated class's
    (:class:`~dragonkit.lessons.base.ClassSource`); each choice is judged by the exact expected gems the record keeps
    for each option (:func:`~dragonkit.topics.our_class.stopping_choices`), each hold's boundary by backward induction
    (:func:`~dragonkit.topics.our_class.holding_pots`).

    Attributes
    ----------
    widget : ipywidgets.VBox
    source : ClassSource
    where : ipywidgets.Dropdown
        The ``(edition, stage)`` shown, among those with choices, most choices first.
    summary : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.stopping_summary` of the decisions shown.
    holds : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.holding_pots` of the edition and stage shown.
    """

    def __init__(self) -> None:
        self.where = widgets.Dropdown(style={"description_width": "initial"}, layout=widgets.Layout(width="420px"))
        self.picture = FigureView("740px", layout=widgets.Layout(width="740px", max_width="100%"))
        self.report = widgets.HTML()
        self.source = ClassSource(self._read)
        self.widget = widgets.VBox([widgets.HTML(CSS), self.source.widget, self.where, self.report, self.picture])
        self.widget.add_class("dk-lesson")
        self._judge()
        self.where.observe(self._shown, names="value")
        self._follow_language()

    def _judge(self) -> None:
        """Judge the choices of the decisions shown, and find the holds' boundaries for the edition and stage shown."""
        decisions = self.source.data.decisions
        self._decisions = decisions
        self.summary = stopping_summary(stopping_choices(decisions))
        with self.muted():
            keep = self.where.value
            options = self._options()
            self.where.options = options
            self.where.value = keep if keep in self.summary.index else options[0][1] if options else None
        self._bound()

    def _bound(self) -> None:
        decisions, chosen = self._decisions, self.where.value
        if chosen is None:
            self.holds = holding_pots(decisions.iloc[:0])
        else:
            edition, stage = chosen
            self.holds = holding_pots(decisions[(decisions["edition"] == edition) & (decisions["stage"] == stage)])

    def _read(self) -> None:
        """The decisions shown changed."""
        self._judge()
        self._redraw()

    def _options(self) -> list[tuple[str, tuple[str, int]]]:
        options = []
        for (edition, stage), choices in zip(self.summary.index.tolist(), self.summary["choices"].tolist()):
            label = ntr(
                "{edition}, stage {stage}: {n} choice",
                "{edition}, stage {stage}: {n} choices",
                int(choices),
                edition=edition_label(edition),
                stage=stage,
                n=integer_text(int(choices)),
            )
            options.append((label, (str(edition), int(stage))))
        return options

    def _shown(self, _change=None) -> None:
        if self._muted:
            return
        self._bound()
        self._redraw()

    def _place(self) -> str:
        edition, stage = self.where.value
        return tr("{edition}, stage {stage}", edition=edition_label(edition), stage=stage)

    def _redraw(self, _change=None) -> None:
        with self.muted():
            relabel(self.where, self._options())
        self.where.description = tr("Edition and stage")
        if self.where.value is None:
            self.report.value = f'<p class="dk-note">{escape(tr("No choice between revealing and holding yet."))}</p>'
            self.picture.layout.display = "none"
            return
        row = self.summary.loc[self.where.value]
        choices = int(row["choices"])
        lines = [
            (tr("choices between revealing and holding"), integer_text(choices), ""),
            (tr("holds"), integer_text(int(row["holds"])), ""),
            (
                tr("held short of optimal play's boundary (it would reveal)"),
                integer_text(int(row["short"])),
                _gems_cell(row["short_gems"], 2),
            ),
            (
                tr("revealed past it (optimal play would hold)"),
                integer_text(int(row["past"])),
                _gems_cell(row["past_gems"], 2),
            ),
            (tr("expected gems given up per choice"), "", _gems_cell(row["per_choice"], 3)),
        ]
        columns = (tr("the class's choices"), tr("how many"), tr("expected gems given up"))
        head = "<tr>" + "".join(f'<th scope="col">{escape(c)}</th>' for c in columns) + "</tr>"
        body = "".join(
            f'<tr><th scope="row">{escape(name)}</th><td>{count}</td><td>{gems}</td></tr>'
            for name, count, gems in lines
        )
        note = tr(
            "Each choice is judged by the exact expected gems of its two options for the rest of the turn, as the "
            "coach computes them (backward induction); what a choice gives up is the better option's value minus "
            "the chosen one's."
        )
        self.report.value = (
            f'<table class="dk-table"><caption>{escape(self._place())}</caption>{head}{body}</table>'
            f'<p class="dk-note">{escape(note)}</p>'
        )
        place = self._place()
        self.picture.show(holding_figure(self.holds, place), holding_figure_text(self.holds, place))
        self.picture.layout.display = None

    def close(self) -> None:
        """Close this widget and its source control."""
        self.source.close()
        super().close()


def answers() -> dict[str, Fraction | int]:
    """The exact answers of the lesson's exercises (edition ``dragon-stripes``), from the
    deck's composition and the first turn of a game stepped on the turn model.

    Returns
    -------
    dict
        ``"deck"`` cards in the deck; ``"stop"`` P(the first card is a stop);
        ``"ends"`` P(the first card ends the turn: a stop or a danger); ``"penalty"``
        what a stop costs a player with the starting gems (gems); ``"pot"`` the pot
        after a 2-step then a 3-step footprint (gems); ``"likely"`` the index, in the
        deck's order (:meth:`Composition.counts`), of the most likely first card.
    """
    state = TurnState.fresh(Ruleset.preset("dragon-stripes"))
    deck = state.composition
    return {
        "deck": deck.total,
        "stop": stop_chance(deck),
        "ends": ender_chance(deck),
        "penalty": stop_penalty(state),
        "pot": after_cards(state, [Card.footprint(2), Card.footprint(3)]).pot,
        "likely": [card for card, _count in deck.counts()].index(most_likely_card(deck)),
    }
