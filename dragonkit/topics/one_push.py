r"""One more card, then hold: the expected value of a single push and its break-even pot.

Revealing exactly one more card and then holding is worth

.. math::

    E_1 = \sum_{c} P(c)\, g(c) \quad \text{gems},

summed over the kinds of card ``c`` left, with ``P(c)`` the exact probability of
:meth:`TurnState.chance_outcomes <dragonkit.turn.TurnState.chance_outcomes>` and ``g(c)``
the active player's gem change when the turn ends after that card (RULES.md section 7):
the :meth:`~dragonkit.turn.TurnState.returns` of ``state.child(c)`` if the card ends the
turn, else of holding right after it (the new pot).  One more card *pays* when
:math:`E_1` exceeds the pot (the hold value).

The advantage :math:`A(p) = E_1 - p` falls as the pot ``p`` grows (a stop or a danger
takes the pot with it), and a richer player's penalty ``floor(rate × gems)`` is larger,
so the pot at which one more card stops paying, the *break-even pot*
(:func:`break_even_pot`), is lower for a richer player.  :func:`compare_with_optimal`
sets the one-step rule "reveal while one more card pays" against optimal play on the
whole board.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from ..analysis.turn.state import check_state
from ..analysis.turn.walk import after_cards
from ..rules import Card, CardEffect, Ruleset, whole_number
from ..turn import TurnState

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "STORY_CARDS",
    "CardOutcome",
    "MyopicComparison",
    "OnePush",
    "advantage_curve",
    "break_even_pot",
    "compare_with_optimal",
    "one_push",
    "situation",
    "story_state",
    "with_pot",
]

#: The lesson's story: the first turn of a game of ``dragon-stripes`` whose first four cards were
#: footprints of 4, 1, 2 and 1 steps (the knight is on stripe 8 with 4 + 5 + 7 + 8 = 24 gems in the pot).
STORY_CARDS = (Card.footprint(4), Card.footprint(1), Card.footprint(2), Card.footprint(1))


@dataclass(frozen=True)
class CardOutcome:
    """One kind of next card and what it does if the player holds right after it.

    Attributes
    ----------
    card : Card
    probability : Fraction
        Chance that the next card is of this kind.
    effect : CardEffect
        What the card does (:meth:`TurnState.effect <dragonkit.turn.TurnState.effect>`).
    gain : int
        The active player's gem change to the end of the turn (gems): the new pot
        if the turn goes on (then hold), else the card's own gem change.
    """

    card: Card
    probability: Fraction
    effect: CardEffect
    gain: int

    @property
    def contribution(self) -> Fraction:
        """``probability × gain``: this card's share of :math:`E_1` (gems)."""
        return self.probability * self.gain


@dataclass(frozen=True)
class OnePush:
    """Reveal exactly one more card, then hold: its expected value against holding now.

    Attributes
    ----------
    state : TurnState
    outcomes : tuple of CardOutcome
        One per kind of card left, in the deck's order (footprints first).
    value : Fraction
        :math:`E_1`, the expected gem change of "one more card, then hold" (gems).
    hold : int
        The hold value: the pot (gems).
    """

    state: TurnState
    outcomes: tuple[CardOutcome, ...]
    value: Fraction
    hold: int

    @property
    def advantage(self) -> Fraction:
        """``value - hold``: what one more card adds on average compared with holding (gems)."""
        return self.value - self.hold

    @property
    def pays(self) -> bool:
        """Whether one more card is strictly better than holding (a tie holds)."""
        return self.advantage > 0


def one_push(state: TurnState) -> OnePush:
    """The expected value of revealing exactly one more card from ``state`` and then holding.

    Each card of :meth:`TurnState.chance_outcomes` is stepped with :meth:`TurnState.child`;
    where the turn goes on, the player holds (``child("hold")``).

    Parameters
    ----------
    state : TurnState
        The situation (its ``must_reveal`` is ignored: the card is revealed either way).

    Returns
    -------
    OnePush

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState, the turn has ended, or the deck is empty.
    """
    chances = check_state(state).chance_outcomes()
    if not chances:
        raise ValueError("no card can be revealed: the deck is empty or the turn has ended")
    outcomes = []
    for card, probability in chances:
        after = state.child(card)
        end = after if after.is_terminal() else after.child("hold")
        outcomes.append(CardOutcome(card, probability, state.effect(card), end.returns()))
    value = sum((o.contribution for o in outcomes), Fraction(0))
    return OnePush(state, tuple(outcomes), value, state.pot)


def story_state(gems: int | None = None) -> TurnState:
    """The lesson's situation: a fresh game of ``dragon-stripes`` after :data:`STORY_CARDS`
    (knight on stripe 8, pot 24), with ``gems`` gems (default: the starting 40)."""
    state = after_cards(TurnState.fresh(Ruleset.preset("dragon-stripes")), STORY_CARDS)
    return state if gems is None else state.replace(gems=gems)


def with_pot(state: TurnState, pot: int) -> TurnState:
    """``state`` with ``pot`` gems in the pot and the treasure changed so that the bank
    (``treasure + pot``, the gems the dragon can still pay) stays the same, holding allowed.

    Raises
    ------
    ValueError
        For a pot that is negative or larger than the bank.
    """
    bank = state.bank
    pot = whole_number(pot, "pot", minimum=0, maximum=bank)
    return state.replace(pot=pot, treasure=bank - pot, must_reveal=False)


def situation(base: TurnState, position: int, pot: int, gems: int, stage: int) -> TurnState:
    """``base``'s deck with the knight on ``position``, ``pot`` in the pot (same bank, :func:`with_pot`),
    ``gems`` gems and ``stage`` dangers revealed, holding allowed.

    The deck stays ``base``'s, except that at a later stage the dangers already revealed leave it.

    Raises
    ------
    ValueError
        For values out of range (as :class:`TurnState` and :func:`with_pot`).
    """
    dangers = min(base.dangers, base.rules.danger_cards - stage)
    moved = base.replace(position=position, dangers_revealed=stage, dangers=dangers, gems=gems, must_reveal=False)
    return with_pot(moved, pot)


def break_even_pot(state: TurnState) -> Fraction:
    r"""The pot at which one more card stops paying, at the knight's position of ``state``.

    The advantage :math:`A(p) = E_1 - p` of one more card is computed at whole pots
    ``p`` (:func:`with_pot`: same deck, gems, stage and bank).  It falls as the pot
    grows, and between two whole pots it is affine (a footprint adds the same gems to
    any pot, a stop or danger costs the same penalty), so its root is found exactly by
    bisection for the first whole pot where :math:`A \le 0`, then linear interpolation
    with the one before.

    Returns
    -------
    Fraction
        ``p*`` with ``A(p*) = 0``: one more card pays while the pot is below ``p*``;
        ``0`` when it pays at no pot.  Never above the bank: with all those gems in the
        pot the treasure is empty, a footprint adds nothing and the head pays only the pot back.

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or the deck is empty.
    """

    def advantage(pot: int) -> Fraction:
        return one_push(with_pot(state, pot)).advantage

    if advantage(0) <= 0:
        return Fraction(0)
    low, high = (
        0,
        check_state(state).bank,
    )  # advantage(low) > 0 >= advantage(high): at pot = bank nothing is left to pay
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if advantage(middle) > 0 else (low, middle)
    above, below = advantage(low), advantage(high)
    return low + above / (above - below)


def advantage_curve(state: TurnState, pots: Iterable[int]) -> list[Fraction]:
    """:math:`A(p) = E_1 - p` of ``state`` at each pot ``p`` of ``pots`` (:func:`with_pot`; gems)."""
    return [one_push(with_pot(state, int(pot))).advantage for pot in pots]


@dataclass(frozen=True)
class MyopicComparison:
    """The one-step rule against optimal play over the decision points of a turn.

    Attributes
    ----------
    state : TurnState
        The start of the turn (knight on the tail, empty pot).
    advantage : pandas.DataFrame
        :func:`~dragonkit.analysis.policy_map`: push minus hold by pot (rows) and knight position
        (columns), NaN where unreachable (gems).
    break_even : dict of int to Fraction
        The one-step break-even pot by knight position (:func:`break_even_pot`; gems).
    disagree : int
        Reachable (position, pot) points where the one-step rule and optimal play differ.
    bolder : int
        Those where optimal play reveals and the one-step rule holds.
    reachable : int
        The cells of the map: (position, pot) with a pot no larger than the stripes up to the position can
        pay. Not all of them can occur in a turn (987 cells, 664 of them reachable, in the lesson's situation).
    hold_points : int
        Reachable points where optimal play holds.
    """

    state: TurnState
    advantage: pd.DataFrame
    break_even: dict[int, Fraction]
    disagree: int
    bolder: int
    reachable: int
    hold_points: int


def compare_with_optimal(state: TurnState) -> MyopicComparison:
    """Where the one-step rule "reveal while the pot is below the break-even pot" and optimal
    play (:func:`~dragonkit.analysis.policy_map`) differ, from the start of a turn with
    ``state``'s deck, gems, stage and bank.

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or the deck is empty.
    """
    from ..analysis.turn.table import policy_map

    start = check_state(state).replace(position=0, pot=0, treasure=state.bank)
    advantage = policy_map(start)
    break_even = {int(x): break_even_pot(start.replace(position=int(x))) for x in advantage.columns}
    pots = advantage.index.to_numpy()
    myopic = np.column_stack([pots < break_even[int(x)] for x in advantage.columns])
    optimal = advantage.to_numpy(dtype=float) > 0
    reachable = advantage.notna().to_numpy()
    return MyopicComparison(
        state=start,
        advantage=advantage,
        break_even=break_even,
        disagree=int(((optimal != myopic) & reachable).sum()),
        bolder=int((optimal & ~myopic & reachable).sum()),
        reachable=int(reachable.sum()),
        hold_points=int((~optimal & reachable).sum()),
    )
