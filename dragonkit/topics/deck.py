r"""The deck a player can count: its composition after the discards, the law of the next
card, and the chance that the next ``k`` cards are all footprints (lesson 2).

The deck is dealt without replacement, so with :math:`N` cards left of which
:math:`F` are footprints, the next ``k`` cards are all footprints with probability

.. math::

    P_{\text{without}}(k) = \frac{F}{N}\cdot\frac{F-1}{N-1}\cdots\frac{F-k+1}{N-k+1}
                          = \binom{F}{k} \Big/ \binom{N}{k},

the hypergeometric probability of ``k`` successes in ``k`` draws.  Were every card
put back and the deck shuffled again (drawing *with* replacement), it would be the
binomial :math:`P_{\text{with}}(k) = (F/N)^k`.  Both are exact ``Fraction``\ s here;
:func:`run_table` sets them next to the floats of ``scipy.stats.hypergeom`` and
``scipy.stats.binom``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..rules import DANGER_CARD, STOP_CARD, Card, CardKind, Composition, Ruleset, whole_number

__all__ = [
    "all_footprints",
    "cards_discarded",
    "deck_after",
    "ender_chance",
    "ender_within",
    "enders_left",
    "footprint_chance",
    "footprints_left",
    "longest_draw",
    "most_discards",
    "most_likely_card",
    "run_factors",
    "run_table",
    "shares_left",
    "stop_chance",
]


def deck_after(rules: Ruleset, discards: Mapping[Card, int]) -> Composition:
    """The composition of the deck left once ``discards`` have been revealed: the full deck of
    ``rules`` minus the discards, kind by kind.

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
    full = rules.composition
    gone = {card: 0 for card, _count in full.counts()}
    for card, count in dict(discards).items():
        if not isinstance(card, Card):
            raise TypeError(f"discards must be keyed by Card, not {type(card).__name__}")
        count = whole_number(count, f"the number of discarded {card.label} cards", minimum=0)
        if count > full.count(card):
            raise ValueError(f"the deck holds only {full.count(card)} {card.label} cards, not {count}")
        gone[card] = count
    return Composition.of(
        {steps: left - gone[Card.footprint(steps)] for steps, left in full.footprints},
        full.stops - gone[STOP_CARD],
        full.dangers - gone[DANGER_CARD],
    )


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
    k = whole_number(k, "k", minimum=0)
    total, footprints = composition.total, footprints_left(composition)
    if total == 0:
        raise ValueError("the deck is empty: no card can be drawn")
    if replacement:
        return Fraction(footprints, total) ** k
    if k > total:
        raise ValueError(f"only {total} cards are left: {k} cannot be drawn without replacement")
    probability = Fraction(1)
    for favourable, left in run_factors(composition, k):
        probability *= Fraction(favourable, left)
    return probability


def run_table(composition: Composition, k_max: int) -> list[dict[str, Any]]:
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
    k_max = whole_number(k_max, "k_max", minimum=1, maximum=total)  # at most the cards left
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


def footprints_left(composition: Composition) -> int:
    """Footprint cards in ``composition``, whatever their steps (cards)."""
    return sum(count for _steps, count in composition.footprints)


def enders_left(composition: Composition) -> int:
    """Cards in ``composition`` that end the turn when revealed: stops and dangers (cards)."""
    return composition.stops + composition.dangers


def footprint_chance(composition: Composition) -> Fraction:
    """P(the next card is a footprint, whatever its steps) = F / N.

    Raises
    ------
    ValueError
        For an empty deck.
    """
    return Fraction(footprints_left(composition), _cards(composition))


def stop_chance(composition: Composition) -> Fraction:
    """P(the next card is a stop) = S / N.

    Raises
    ------
    ValueError
        For an empty deck.
    """
    return Fraction(composition.stops, _cards(composition))


def ender_chance(composition: Composition) -> Fraction:
    """P(the next card ends the turn: a stop or a danger) = (S + D) / N.

    Raises
    ------
    ValueError
        For an empty deck.
    """
    return Fraction(enders_left(composition), _cards(composition))


def ender_within(composition: Composition, k: int) -> Fraction:
    """P(a stop or a danger among the next ``k`` cards): the complement of :func:`all_footprints`.

    Raises
    ------
    ValueError
        As :func:`all_footprints`.
    """
    return 1 - all_footprints(composition, k)


def cards_discarded(rules: Ruleset, composition: Composition) -> int:
    """How many cards of the full deck of ``rules`` are missing from ``composition`` (cards)."""
    return rules.deck_size - composition.total


def most_discards(rules: Ruleset, card: Card) -> int:
    """How many cards of ``card``'s kind can be discarded while the game goes on: all of them,
    but one danger fewer than the deck holds (the last danger ends the game; cards)."""
    count = rules.composition.count(card)
    return max(count - 1, 0) if card.kind is CardKind.DANGER else count


def most_likely_card(composition: Composition) -> Card:
    """The kind of card most likely to come next: the largest count, the first in the deck's
    order (:meth:`Composition.counts`) on a tie.

    Raises
    ------
    ValueError
        For an empty deck.
    """
    _cards(composition)
    return max(composition.counts(), key=lambda pair: pair[1])[0]


def run_factors(composition: Composition, k: int) -> list[tuple[int, int]]:
    """The factors of ``P(the next k cards are all footprints)`` without replacement:
    ``[(F, N), (F - 1, N - 1), ..., (F - k + 1, N - k + 1)]``, each count floored at 0 (cards)."""
    footprints, total = footprints_left(composition), composition.total
    return [(max(footprints - i, 0), max(total - i, 0)) for i in range(k)]


def _cards(composition: Composition) -> int:
    if composition.total == 0:
        raise ValueError("the deck is empty: no card can be drawn")
    return composition.total


def shares_left(remaining: Composition, full: Composition) -> dict[Card, Fraction]:
    """For each kind of card of the full deck, the share of its copies still in the deck.

    Parameters
    ----------
    remaining : Composition
        The cards left (e.g. :attr:`Game.remaining <dragonkit.engine.Game.remaining>`).
    full : Composition
        The full deck (e.g. :attr:`Ruleset.composition <dragonkit.rules.Ruleset.composition>`).

    Returns
    -------
    dict of Card to Fraction
        ``count left / count in the full deck`` for every kind of :meth:`Composition.counts
        <dragonkit.rules.Composition.counts>` of ``full``, in its order (footprints first);
        0 for a kind the full deck has no copy of.

    Raises
    ------
    ValueError
        If ``remaining`` holds more copies of a kind than ``full``.

    Examples
    --------
    >>> from dragonkit.rules import Ruleset, STOP_CARD
    >>> rules = Ruleset.preset("mini")
    >>> shares_left(rules.composition.without(STOP_CARD), rules.composition)[STOP_CARD]
    Fraction(1, 2)
    """
    shares = {}
    for card, total in full.counts():
        left = remaining.count(card)
        if left > total:
            raise ValueError(f"{left} {card.label} cards left of a deck that has {total}")
        shares[card] = Fraction(left, total) if total else Fraction(0)
    return shares


def longest_draw(composition: Composition, k: int) -> int:
    """The most cards that can be drawn in a row, ``k`` at most: ``min(k, cards left)``.

    Examples
    --------
    >>> longest_draw(Composition.of({1: 2}, stops=1, dangers=0), 6)
    3
    """
    return min(k, composition.total)
