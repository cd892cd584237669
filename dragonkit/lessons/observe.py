"""Lesson 1, *Play and observe*: the widgets of the lesson on the deck a turn starts from and a
first guess at when to hold.

The guess is valued by :class:`dragonkit.topics.first_guess.GuessResult` (hold-at-h
policies through their absorbing chains, the optimum by backward induction) and drawn by
:func:`dragonkit.plots.first_guess.guess_figure`; the exercises' answers come from
:mod:`dragonkit.topics.deck` and :mod:`dragonkit.analysis.turn.walk`.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

import ipywidgets as widgets

from .. import i18n
from ..analysis import TurnState
from ..analysis.turn.walk import after_cards, stop_penalty
from ..i18n import tr
from ..i18n.numbers import decimal_text
from ..plots.first_guess import guess_figure, guess_figure_text
from ..plots.next_card import composition_figure, composition_figure_text
from ..rules import Card, Ruleset, whole_number
from ..style import CSS
from ..topics.deck import ender_chance, most_likely_card, stop_chance
from ..topics.first_guess import SCAN_STEP, GuessResult
from ..ui.figures import FigureView
from ..ui.numbers import number_html
from .base import LessonWidget, fresh_turn, largest_pot
from .next_card import next_card_table

__all__ = ["DeckView", "FirstGuess", "answers"]


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
