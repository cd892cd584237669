r"""Lesson 2, *The next card*: the deck's composition after the discards, the law
of the next card, and the chance that the next ``k`` cards are all footprints.

The deck is dealt without replacement, so with :math:`N` cards left of which
:math:`F` are footprints, the next ``k`` cards are all footprints with probability

.. math::

    P_{\text{without}}(k) = \frac{F}{N}\cdot\frac{F-1}{N-1}\cdots\frac{F-k+1}{N-k+1}
                          = \binom{F}{k} \Big/ \binom{N}{k},

the hypergeometric probability of ``k`` successes in ``k`` draws.  Were every card
put back and the deck shuffled again (drawing *with* replacement), it would be the
binomial :math:`P_{\text{with}}(k) = (F/N)^k`.  Both are exact ``Fraction``\ s here;
:class:`DeckExplorer` shows them next to the floats of ``scipy.stats.hypergeom``
and ``scipy.stats.binom``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from html import escape

import ipywidgets as widgets
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .. import palette
from ..i18n import tr
from ..plots import figure_png
from ..rules import Card, Composition, Ruleset
from ..style import CSS
from ..ui.numbers import decimal, format_fraction
from .base import LessonWidget

__all__ = [
    "EXERCISE_DISCARDS",
    "DeckExplorer",
    "all_footprints",
    "answers",
    "composition_figure",
    "deck_after",
    "explorer_figure",
    "footprints_left",
    "next_card_table",
    "run_table",
]

#: Bar colours by kind of card.

#: The discards of the lesson's exercises (a few turns into a game of the default edition).
EXERCISE_DISCARDS = {
    Card.footprint(1): 3,
    Card.footprint(2): 2,
    Card.footprint(3): 1,
    Card.footprint(4): 1,
    Card("stop"): 3,
    Card("danger"): 1,
}


def deck_after(rules: Ruleset, discards: Mapping[Card, int]) -> Composition:
    """The composition of the deck left once ``discards`` have been revealed.

    Parameters
    ----------
    rules : Ruleset
        The edition, whose full deck is the starting point.
    discards : mapping of Card to int
        How many cards of each kind have been revealed (cards).

    Returns
    -------
    Composition

    Raises
    ------
    TypeError
        If ``rules`` is not a Ruleset or a key is not a Card.
    ValueError
        For a negative or non-whole count, or more cards of a kind than the deck holds.
    """
    if not isinstance(rules, Ruleset):
        raise TypeError(f"rules must be a Ruleset, not {type(rules).__name__}")
    deck = rules.composition
    for card, count in dict(discards).items():
        if not isinstance(card, Card):
            raise TypeError(f"discards must be keyed by Card, not {type(card).__name__}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"the number of discarded {card.label} cards must be a whole number >= 0, not {count!r}")
        if count > rules.composition.count(card):
            raise ValueError(f"the deck holds only {rules.composition.count(card)} {card.label} cards, not {count}")
        for _ in range(count):
            deck = deck.without(card)
    return deck


def footprints_left(composition: Composition) -> int:
    """Footprint cards in ``composition``, whatever their steps (cards)."""
    return sum(count for _steps, count in composition.footprints)


def all_footprints(composition: Composition, k: int, replacement: bool = False) -> Fraction:
    """Exact probability that the next ``k`` cards are all footprints.

    Parameters
    ----------
    composition : Composition
        The deck left (``N`` cards, ``F`` footprints).
    k : int
        How many cards are drawn (cards), ``k >= 0``.
    replacement : bool
        False: the game's way, without replacement, the product
        ``F/N * (F-1)/(N-1) * ... * (F-k+1)/(N-k+1)`` (hypergeometric).
        True: each card put back before the next draw, ``(F/N)**k`` (binomial).

    Returns
    -------
    Fraction

    Raises
    ------
    ValueError
        For a negative ``k``, an empty deck, or (without replacement) ``k`` larger than ``N``.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k must be a whole number of cards >= 0, not {k!r}")
    total, footprints = composition.total, footprints_left(composition)
    if total == 0:
        raise ValueError("the deck is empty: no card can be drawn")
    if replacement:
        return Fraction(footprints, total) ** k
    if k > total:
        raise ValueError(f"only {total} cards are left: {k} cannot be drawn without replacement")
    probability = Fraction(1)
    for i in range(k):
        probability *= Fraction(footprints - i, total - i)
    return probability


def run_table(composition: Composition, k_max: int) -> list[dict]:
    """``P(next k cards are all footprints)`` for ``k = 1..k_max``, exact and by scipy.

    Returns
    -------
    list of dict
        One per ``k`` with keys ``k``, ``without`` and ``with`` (exact Fractions:
        without and with replacement), ``hypergeom`` and ``binom`` (floats from
        ``scipy.stats.hypergeom(N, F, k).pmf(k)`` and ``scipy.stats.binom(k, F/N).pmf(k)``).

    Raises
    ------
    ValueError
        For ``k_max`` below 1 or above the cards left.
    """
    from scipy import stats  # loads only when a table is drawn

    total, footprints = composition.total, footprints_left(composition)
    if isinstance(k_max, bool) or not isinstance(k_max, int) or not 1 <= k_max <= total:
        raise ValueError(f"k_max must be a whole number from 1 to the {total} cards left, not {k_max!r}")
    rows = []
    for k in range(1, k_max + 1):
        rows.append(
            {
                "k": k,
                "without": all_footprints(composition, k),
                "with": all_footprints(composition, k, replacement=True),
                "hypergeom": float(stats.hypergeom(total, footprints, k).pmf(k)),
                "binom": float(stats.binom(k, footprints / total).pmf(k)),
            }
        )
    return rows


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
        f"<td>{format_fraction(p)}</td><td>{decimal(p, 4)}</td></tr>"
        for card, p in composition.outcomes()
    ]
    if total:
        footprints = footprints_left(composition)
        enders = composition.stops + composition.dangers
        for label, count in ((tr("any footprint"), footprints), (tr("stop or danger (the turn ends)"), enders)):
            p = Fraction(count, total)
            rows.append(
                f'<tr class="dk-sum"><td><b>{escape(label)}</b></td><td>{count}</td>'
                f"<td>{format_fraction(p)}</td><td>{decimal(p, 4)}</td></tr>"
            )
    return f'<table class="dk-table">{header}{"".join(rows)}</table>'


def _draw_composition(ax, composition: Composition, full: Composition) -> None:
    """Bars of the cards left by kind, the discarded ones stacked above in outline,
    each bar labelled ``count/total``: the chance that the next card is of its kind."""
    total = composition.total
    kinds = list(full.counts())
    x = range(len(kinds))
    left = [composition.count(card) for card, _ in kinds]
    gone = [count - composition.count(card) for card, count in kinds]
    colours = [palette.CARD[card.kind] for card, _ in kinds]
    ax.bar(x, left, color=colours, label=tr("left in the deck"))
    if any(gone):
        ax.bar(
            x, gone, bottom=left, color=palette.WHITE, edgecolor=colours, hatch="//", linewidth=1, label=tr("discarded")
        )
        ax.legend(fontsize="small", loc="upper right", frameon=False)
        ax.set_title(tr("The deck: {left} of {total} cards left", left=total, total=full.total))
    else:
        ax.set_title(tr("The deck: {total} cards", total=total))
    for i, (count, extra) in enumerate(zip(left, gone)):
        if total:
            ax.annotate(
                f"{count}/{total}",
                (i, count + extra),
                textcoords="offset points",
                xytext=(0, 3),
                ha="center",
                fontsize=9,
            )
    ax.set_xticks(list(x), [card.describe() for card, _ in kinds], fontsize=9)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(0, max(count for _, count in kinds) * 1.18)
    ax.set_ylabel(tr("cards"))
    ax.set_xlabel(tr("above each bar: P(the next card is of that kind)"), fontsize=9)


def composition_figure(composition: Composition, full: Composition | None = None) -> Figure:
    """The deck by kind of card (one bar each), with the exact chance of each kind
    as the next card written on its bar.

    Parameters
    ----------
    composition : Composition
        The cards left.
    full : Composition, optional
        The full deck (default ``composition`` itself): the difference is drawn as discards.

    Returns
    -------
    matplotlib.figure.Figure
        x: kind of card; y: cards.
    """
    fig = Figure(figsize=(6.0, 3.2), dpi=100, layout="constrained")
    _draw_composition(fig.subplots(), composition, full or composition)
    return fig


def _draw_runs(ax, rows: list[dict]) -> None:
    """Exact P(all k footprints) without and with replacement as bars, scipy's floats as dots."""
    ks = [row["k"] for row in rows]
    width = 0.38
    ax.bar(
        [k - width / 2 for k in ks],
        [float(r["without"]) for r in rows],
        width,
        color=palette.FOOTPRINT,
        label=tr("without replacement (exact)"),
    )
    ax.bar(
        [k + width / 2 for k in ks],
        [float(r["with"]) for r in rows],
        width,
        color=palette.FOOTPRINT_SHADES[1],
        label=tr("with replacement (exact)"),
    )
    ax.plot(
        [k - width / 2 for k in ks],
        [r["hypergeom"] for r in rows],
        "o",
        color=palette.INK,
        markersize=4,
        label="scipy.stats.hypergeom",
    )
    ax.plot(
        [k + width / 2 for k in ks],
        [r["binom"] for r in rows],
        "x",
        color=palette.INK,
        markersize=5,
        label="scipy.stats.binom",
    )
    ax.set_xticks(ks)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel(tr("k (cards)"))
    ax.set_ylabel(tr("probability"))
    ax.set_title(tr("P(the next k cards are all footprints)"))
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize="small", frameon=False)


def explorer_figure(composition: Composition, full: Composition, k_max: int) -> Figure:
    """:class:`DeckExplorer`'s picture: the deck left (left panel) and
    ``P(next k cards are all footprints)`` for ``k = 1..k_max`` (right panel).

    Raises
    ------
    ValueError
        For ``k_max`` outside 1..cards left.
    """
    fig = Figure(figsize=(10.0, 3.4), dpi=100, layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.15])
    _draw_composition(left, composition, full)
    _draw_runs(right, run_table(composition, k_max))
    return fig


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
        if isinstance(k_max, bool) or not isinstance(k_max, int) or not 1 <= k_max <= self.K_LIMIT:
            raise ValueError(f"k_max must be a whole number from 1 to {self.K_LIMIT}, not {k_max!r}")
        self._quiet = False
        self.sliders: dict[Card, widgets.IntSlider] = {
            card: widgets.IntSlider(
                value=discards.get(card, 0),
                min=0,
                max=self._most(card),
                continuous_update=False,
                style={"description_width": "150px"},
                layout=widgets.Layout(width="360px"),
            )
            for card, _count in self.rules.composition.counts()
        }
        self.k_slider = widgets.IntSlider(
            value=k_max,
            min=1,
            max=self.K_LIMIT,
            continuous_update=False,
            style={"description_width": "150px"},
            layout=widgets.Layout(width="360px"),
        )
        self.reset_button = widgets.Button(icon="undo", layout=widgets.Layout(width="260px"))
        self.reset_button.on_click(lambda _b: self.reset())
        self.summary, self.next_card, self.runs = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.picture = widgets.Image(format="png", layout=widgets.Layout(width="100%", max_width="1000px"))
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
        return min(self.k_slider.value, self.composition.total)

    def _most(self, card: Card) -> int:
        """How many cards of a kind can be discarded while the game goes on (the last danger ends it)."""
        count = self.rules.composition.count(card)
        return max(count - 1, 0) if card.kind == "danger" else count

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
        discarded = self.rules.deck_size - deck.total
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
        self.picture.value = figure_png(explorer_figure(deck, self.rules.composition, k_max))
        self.runs.value = self._runs_html(run_table(deck, k_max), footprints, deck.total)

    @staticmethod
    def _runs_html(rows: list[dict], footprints: int, total: int) -> str:
        head = (
            f"<tr><th>k</th><th colspan='2'>{escape(tr('without replacement (hypergeometric)'))}</th>"
            f"<th>scipy.stats.hypergeom</th><th colspan='2'>{escape(tr('with replacement (binomial)'))}</th>"
            f"<th>scipy.stats.binom</th></tr>"
        )
        body = "".join(
            f"<tr><td>{r['k']}</td><td>{format_fraction(r['without'])}</td><td>{decimal(r['without'], 4)}</td>"
            f"<td>{r['hypergeom']:.4f}</td><td>{format_fraction(r['with'])}</td><td>{decimal(r['with'], 4)}</td>"
            f"<td>{r['binom']:.4f}</td></tr>"
            for r in rows
        )
        formula = tr(
            "Without replacement: {f}/{n} · {f1}/{n1} · … ; with replacement: ({f}/{n})^k.",
            f=footprints,
            n=total,
            f1=max(footprints - 1, 0),
            n1=max(total - 1, 0),
        )
        return (
            f"<b>{escape(tr('P(the next k cards are all footprints)'))}</b>"
            f'<table class="dk-table">{head}{body}</table><p class="dk-note">{escape(formula)}</p>'
        )


def answers() -> dict[str, Fraction]:
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
        "footprint": Fraction(footprints_left(deck), deck.total),
        "stop": Fraction(deck.stops, deck.total),
        "three": all_footprints(deck, 3),
        "three_with": all_footprints(deck, 3, replacement=True),
        "ends": 1 - all_footprints(deck, 3),
    }
