"""Lesson 2, *The next card*: the widgets of the lesson on the deck left after the discards.

:class:`DeckExplorer` removes cards with sliders and shows the law of the next card and the
chance that the next ``k`` cards are all footprints, without replacement (hypergeometric) and
with it (binomial), next to scipy's floats.  Every number comes from
:mod:`dragonkit.topics.deck`; the figures from :mod:`dragonkit.plots.next_card`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from html import escape

import ipywidgets as widgets

from ..i18n import tr
from ..i18n.numbers import decimal_text
from ..plots.next_card import explorer_figure, explorer_figure_text
from ..rules import DANGER_CARD, STOP_CARD, Card, Composition, Ruleset, whole_number
from ..style import CSS
from ..topics.deck import (
    all_footprints,
    cards_discarded,
    deck_after,
    ender_chance,
    ender_within,
    enders_left,
    footprint_chance,
    footprints_left,
    longest_draw,
    most_discards,
    run_factors,
    run_table,
    stop_chance,
)
from ..ui.figures import FigureView
from ..ui.numbers import format_fraction
from .base import LessonWidget

__all__ = ["EXERCISE_DISCARDS", "DeckExplorer", "answers", "next_card_table"]

#: The discards of the lesson's exercises (a few turns into a game of the default edition).
EXERCISE_DISCARDS = {
    Card.footprint(1): 3,
    Card.footprint(2): 2,
    Card.footprint(3): 1,
    Card.footprint(4): 1,
    STOP_CARD: 3,
    DANGER_CARD: 1,
}


def next_card_table(composition: Composition) -> str:
    """HTML table of the next card's law: each kind of card left, its count and its
    exact probability (:meth:`Composition.outcomes`), then all footprints together
    and the cards that end the turn (stop or danger)."""
    total = composition.total
    header = (
        f"<tr><th>{escape(tr('card'))}</th><th>{escape(tr('left'))}</th>"
        f"<th>{escape(tr('probability'))}</th><th>≈</th></tr>"
    )
    rows = [
        f"<tr><td>{escape(card.describe())}</td><td>{composition.count(card)}</td>"
        f"<td>{format_fraction(p)}</td><td>{decimal_text(p, 4)}</td></tr>"
        for card, p in composition.outcomes()
    ]
    if total:
        for label, count, p in (
            (tr("any footprint"), footprints_left(composition), footprint_chance(composition)),
            (tr("stop or danger (the turn ends)"), enders_left(composition), ender_chance(composition)),
        ):
            rows.append(
                f'<tr class="dk-sum"><td><b>{escape(label)}</b></td><td>{count}</td>'
                f"<td>{format_fraction(p)}</td><td>{decimal_text(p, 4)}</td></tr>"
            )
    return f'<table class="dk-table">{header}{"".join(rows)}</table>'


class DeckExplorer(LessonWidget):
    """Remove cards from the deck with sliders (the discards) and watch the next
    card's law and ``P(next k cards are all footprints)`` change.

    Parameters
    ----------
    rules : Ruleset, optional
        The edition (default ``dragon-stripes``).
    discards : mapping of Card to int, optional
        The sliders' starting values (default: nothing discarded).
    k_max : int
        The largest ``k`` shown at first (cards, 1 to 12).

    Attributes
    ----------
    widget : ipywidgets.VBox
        The whole explorer.
    sliders : dict of Card to ipywidgets.IntSlider
        Discarded cards of each kind.  Dangers stop one short of the deck's count:
        the last danger ends the game.
    k_slider : ipywidgets.IntSlider
        The largest ``k`` in the table and the chart.

    Raises
    ------
    ValueError
        For invalid discards or ``k_max``.
    """

    K_LIMIT = 12

    def __init__(self, rules: Ruleset | None = None, discards: Mapping[Card, int] | None = None, k_max: int = 6):
        self.rules = rules or Ruleset.preset("dragon-stripes")
        discards = dict(discards or {})
        self._check(discards)  # refuse bad input before building anything
        k_max = whole_number(k_max, "k_max", minimum=1, maximum=self.K_LIMIT)
        self._quiet = False
        self.sliders: dict[Card, widgets.IntSlider] = {
            card: widgets.IntSlider(
                value=discards.get(card, 0),
                min=0,
                max=self._most(card),
                continuous_update=False,
                style={"description_width": "170px"},  # "discarded: 4 steps", and a longer language
                layout=widgets.Layout(width="380px"),
            )
            for card, _count in self.rules.composition.counts()
        }
        self.k_slider = widgets.IntSlider(
            value=k_max,
            min=1,
            max=self.K_LIMIT,
            continuous_update=False,
            style={"description_width": "170px"},  # aligned with the sliders above
            layout=widgets.Layout(width="380px"),
        )
        self.reset_button = widgets.Button(icon="undo", layout=widgets.Layout(width="260px"))
        self.reset_button.on_click(lambda _b: self.reset())
        self.summary, self.next_card, self.runs = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.picture = FigureView("1000px")
        self.discards_title = widgets.HTML()
        controls = widgets.VBox([self.discards_title, *self.sliders.values(), self.k_slider, self.reset_button])
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox([controls, widgets.VBox([self.summary, self.next_card])]),
                self.picture,
                self.runs,
            ]
        )
        self.widget.add_class("dk-lesson")
        for slider in (*self.sliders.values(), self.k_slider):
            slider.observe(self._redraw, names="value")
        self._follow_language()

    @property
    def discards(self) -> dict[Card, int]:
        """The discards the sliders show, by kind of card."""
        return {card: slider.value for card, slider in self.sliders.items()}

    @property
    def composition(self) -> Composition:
        """The deck left after the discards."""
        return deck_after(self.rules, self.discards)

    @property
    def k_max(self) -> int:
        """The largest ``k`` shown: the slider's value, at most the cards left."""
        return longest_draw(self.composition, self.k_slider.value)

    def _most(self, card: Card) -> int:
        """How many cards of a kind can be discarded while the game goes on (:func:`most_discards`)."""
        return most_discards(self.rules, card)

    def _check(self, discards: Mapping[Card, int]) -> None:
        deck_after(self.rules, discards)
        for card, count in discards.items():
            if count > self._most(card):
                raise ValueError(
                    f"at most {self._most(card)} {card.label} cards can be discarded while the game goes on"
                )

    def set_discards(self, discards: Mapping[Card, int]) -> None:
        """Move the sliders to ``discards`` (the kinds not named to 0) and redraw once.

        Raises
        ------
        TypeError, ValueError
            As :func:`deck_after`, or for a discarded last danger; the sliders are unchanged.
        """
        discards = dict(discards)
        self._check(discards)
        self._quiet = True
        try:
            for card, slider in self.sliders.items():
                slider.value = discards.get(card, 0)
        finally:
            self._quiet = False
        self._redraw()

    def reset(self) -> None:
        """Put every discarded card back (all sliders to 0)."""
        self.set_discards({})

    def _redraw(self, _change=None) -> None:
        if self._quiet:
            return
        for card, slider in self.sliders.items():
            slider.description = tr("discarded: {card}", card=card)
        self.k_slider.description = tr("largest k")
        self.reset_button.description = tr("Put the discards back")
        self.discards_title.value = f"<b>{escape(tr('The discards'))}</b>"
        deck = self.composition
        discarded = cards_discarded(self.rules, deck)
        footprints = footprints_left(deck)
        status = tr(
            "{left} cards left ({gone} discarded), {f} of them footprints.",
            left=deck.total,
            gone=discarded,
            f=footprints,
        )
        self.summary.value = f'<div class="dk-status">{escape(status)}</div><b>{escape(tr("The next card"))}</b>'
        self.next_card.value = next_card_table(deck)
        k_max = self.k_max
        full = self.rules.composition
        self.picture.show(explorer_figure(deck, full, k_max), explorer_figure_text(deck, full, k_max))
        self.runs.value = self._runs_html(run_table(deck, k_max), run_factors(deck, 2))

    @staticmethod
    def _runs_html(rows: list[dict], factors: list[tuple[int, int]]) -> str:
        head = (
            f"<tr><th>k</th><th colspan='2'>{escape(tr('without replacement (hypergeometric)'))}</th>"
            f"<th>scipy.stats.hypergeom</th><th colspan='2'>{escape(tr('with replacement (binomial)'))}</th>"
            f"<th>scipy.stats.binom</th></tr>"
        )
        body = "".join(
            f"<tr><td>{r['k']}</td><td>{format_fraction(r['without'])}</td><td>{decimal_text(r['without'], 4)}</td>"
            f"<td>{decimal_text(r['hypergeom'], 4)}</td><td>{format_fraction(r['with'])}</td>"
            f"<td>{decimal_text(r['with'], 4)}</td><td>{decimal_text(r['binom'], 4)}</td></tr>"
            for r in rows
        )
        formula = tr(
            "Without replacement: {f}/{n} · {f1}/{n1} · … ; with replacement: ({f}/{n})^k.",
            f=factors[0][0],
            n=factors[0][1],
            f1=factors[1][0],
            n1=factors[1][1],
        )
        return (
            f"<b>{escape(tr('P(the next k cards are all footprints)'))}</b>"
            f'<table class="dk-table">{head}{body}</table><p class="dk-note">{escape(formula)}</p>'
        )


def answers() -> dict[str, int | Fraction]:
    """The exact answers of the lesson's exercises: the deck of ``dragon-stripes``
    after the discards :data:`EXERCISE_DISCARDS`.

    Returns
    -------
    dict
        ``"cards"`` cards left; ``"footprint"`` P(the next card is a footprint);
        ``"stop"`` P(it is a stop); ``"three"`` P(the next 3 cards are all footprints);
        ``"three_with"`` the same drawing with replacement; ``"ends"`` P(a stop or a
        danger among the next 3 cards).
    """
    deck = deck_after(Ruleset.preset("dragon-stripes"), EXERCISE_DISCARDS)
    return {
        "cards": deck.total,
        "footprint": footprint_chance(deck),
        "stop": stop_chance(deck),
        "three": all_footprints(deck, 3),
        "three_with": all_footprints(deck, 3, replacement=True),
        "ends": ender_within(deck, 3),
    }
