"""What is left of the deck, kind by kind: the share of each kind's copies not yet revealed."""

from __future__ import annotations

from fractions import Fraction

from ..rules import Card, Composition

__all__ = ["shares_left"]


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
