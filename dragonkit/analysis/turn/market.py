r"""The takeover market: what a held turn is worth to whoever takes it over.

When a player holds, the others may take the turn over by paying the bounty
(RULES.md section 4); who may is :meth:`Ruleset.may_take_over
<dragonkit.rules.Ruleset.may_take_over>`.  For a player with :math:`g` gems the **fair
bounty** is :math:`F(g)`, that player's turn value of the situation with a compulsory
reveal (:func:`~dragonkit.analysis.fair_bounty`).  The taker pays the bounty :math:`b`
*before* revealing, so plays the turn with :math:`g - b` gems; taking over is worth, in
expectation, :func:`~dragonkit.analysis.takeover_gain`

.. math::

    G(g) = F(g - b) - b \quad \text{gems},

and it pays exactly when :math:`G(g) > 0`.  Penalties are fractions of the active
player's own gems, so :math:`F` never increases with :math:`g`: the same turn is worth
more to a poorer player.

* :func:`held_turn` — the situation after the footprints drawn in a turn (stepping the turn model);
* :func:`takeover` and :func:`fair_bounty_curve` — :math:`F` and :math:`G` for one taker, or many;
* :func:`break_even_bid` and :func:`run_auction` — a sealed-bid auction of a held turn, valued exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ...rules import Card, Message, Ruleset, whole_number
from ...turn import TurnState
from .optimal import fair_bounty, solve_turn, takeover_gain
from .walk import after_cards

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "PRICE_RULES",
    "AuctionResult",
    "Takeover",
    "break_even_bid",
    "fair_bounty_curve",
    "gaining_takers",
    "held_turn",
    "run_auction",
    "takeover",
]

#: The pricing rules of a sealed-bid auction: pay one's own bid, or the second-highest bid (Vickrey).
PRICE_RULES = ("first", "second")


# -- the situation ----------------------------------------------------------------------------------------------


def held_turn(
    rules: Ruleset, drawn: Sequence[int], stage: int = 0, gems: int | None = None, treasure: int | None = None
) -> TurnState:
    """The situation of a player who revealed the footprint cards ``drawn`` and holds.

    The turn starts from the full deck of ``rules`` without the ``stage`` danger cards
    revealed in earlier turns, and steps :meth:`TurnState.child <dragonkit.turn.TurnState.child>`
    once per card of ``drawn``.

    Parameters
    ----------
    rules : Ruleset
    drawn : sequence of int
        Steps of the footprint cards revealed this turn, in order (at least one).
    stage : int
        Danger cards revealed in earlier turns (0 .. ``len(rules.stages) - 1``).
    gems : int, optional
        The holder's gems (default: the starting gems).
    treasure : int, optional
        The treasure at the start of the turn (default: the ruleset's, gems).

    Returns
    -------
    TurnState
        With ``must_reveal=False`` (a hold is allowed).

    Raises
    ------
    ValueError
        (translated, a :class:`~dragonkit.rules.Message`) For no card, a step the deck has no
        card left for, a turn that reaches the head or empties the deck (the game would be
        over), or a stage out of range.
    """
    drawn = tuple(drawn)
    if not drawn:
        raise ValueError(Message("Type the footprint cards of the turn, such as 1+2+2."))
    try:
        stage = whole_number(stage, "stage", minimum=0, maximum=len(rules.stages) - 1)
    except ValueError:  # the learner's words, not the argument's
        raise ValueError(
            Message("The stage must be a whole number from 0 to {top}.", top=len(rules.stages) - 1)
        ) from None
    fresh = TurnState.fresh(rules, gems=gems, treasure=treasure)
    state = fresh.replace(dangers_revealed=stage, dangers=rules.danger_cards - stage)
    for steps in drawn:
        try:
            card: Card | None = Card.footprint(whole_number(steps, "steps", minimum=1))
        except ValueError:  # no footprint card has such steps: said below, in the learner's words
            card = None
        if card is None or state.composition.count(card) == 0:
            raise ValueError(Message("The deck has no {steps}-step footprint card left.", steps=steps))
        try:
            state = after_cards(state, [card])
        except ValueError:
            raise ValueError(
                Message(
                    "These cards take the knight to the head (or empty the deck): the game would be "
                    "over, with no turn left to hold."
                )
            ) from None
    return state


# -- the value of taking over -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Takeover:
    """What taking over a held turn is worth to one player.

    Attributes
    ----------
    gems : int
        The taker's gems before paying (gems).
    bounty : int
        The rules' bounty for the pot (gems).
    affordable : bool
        Whether the taker may accept (:meth:`Ruleset.may_take_over`: owns at least the bounty).
    fair_bounty : Fraction
        :math:`F(g)`: the turn's value to a player with ``gems`` gems, reveal compulsory (gems).
    value_after_paying : Fraction or None
        :math:`F(g - b)`: the same with the gems left after paying the bounty (gems); None if not affordable.
    net_gain : Fraction or None
        :math:`F(g - b) - b` (:func:`~dragonkit.analysis.takeover_gain`): the expected change of the
        taker's gems from accepting to the end of the turn (gems); None if not affordable.
    """

    gems: int
    bounty: int
    affordable: bool
    fair_bounty: Fraction
    value_after_paying: Fraction | None
    net_gain: Fraction | None

    @property
    def pays(self) -> bool:
        """Whether taking over gains gems on average (a tie declines)."""
        return self.net_gain is not None and self.net_gain > 0


def takeover(state: TurnState, gems: int) -> Takeover:
    """The exact value of taking over ``state`` for a player with ``gems`` gems.

    Parameters
    ----------
    state : TurnState
        The held turn (its own ``gems`` are the holder's and play no part here).
    gems : int
        The taker's gems before paying the bounty.

    Raises
    ------
    ValueError
        For gems that are no whole number >= 0, or an empty deck (from :func:`~dragonkit.analysis.fair_bounty`).
    """
    gems = whole_number(gems, "gems", minimum=0)  # kept in the Takeover: a Python int, whatever integer was given
    rules = state.rules
    bounty = rules.bounty(state.pot)
    value = Fraction(fair_bounty(state, gems, exact=True))
    if not rules.may_take_over(gems, state.pot):
        return Takeover(gems, bounty, False, value, None, None)
    net = Fraction(takeover_gain(state, gems, bounty, exact=True))
    after = Fraction(solve_turn(state.taken_over(gems, bounty), exact=True).value)
    return Takeover(gems, bounty, True, value, after, net)


def fair_bounty_curve(state: TurnState, max_gems: int) -> pd.DataFrame:
    r""":math:`F(g)`, :math:`F(g - b)` and :math:`G(g)` for every taker's gems ``g`` in 0..max_gems.

    Returns
    -------
    pandas.DataFrame
        Index ``gems`` (0..max_gems); columns ``fair_bounty``, ``value_after_paying``
        and ``net_gain`` (exact ``Fraction``\ s in gems; None where the taker may not accept).

    Raises
    ------
    ValueError
        For ``max_gems`` that is not a whole number >= 0, or an empty deck.
    """
    import pandas as pd

    max_gems = whole_number(max_gems, "max_gems", minimum=0)
    offers = [takeover(state, g) for g in range(max_gems + 1)]
    frame = pd.DataFrame(
        {
            "fair_bounty": [o.fair_bounty for o in offers],
            "value_after_paying": [o.value_after_paying for o in offers],
            "net_gain": [o.net_gain for o in offers],
        },
        dtype=object,
    )
    frame.index.name = "gems"
    return frame


def gaining_takers(curve: pd.DataFrame) -> list[int]:
    """The taker's gems, among the curve's (:func:`fair_bounty_curve`), for which taking over
    gains gems on average (:math:`G(g) > 0`), in increasing order."""
    return [
        int(g) for g, net in zip(curve.index.tolist(), curve["net_gain"], strict=True) if net is not None and net > 0
    ]


# -- the sealed-bid auction ---------------------------------------------------------------------------------------


def break_even_bid(state: TurnState, gems: int) -> int | None:
    r"""The largest bid that does not lose gems on average, for bidders holding ``gems`` gems.

    Parameters
    ----------
    state : TurnState
        The held turn.
    gems : int
        Gems each bidder holds before paying.

    Returns
    -------
    int or None
        The largest whole ``b`` in 0..gems with :func:`~dragonkit.analysis.takeover_gain`
        :math:`F(g - b) - b \ge 0`; None when even a free takeover loses gems on average.
    """
    good = [b for b in range(gems + 1) if takeover_gain(state, gems, b, exact=True) >= 0]
    return max(good) if good else None


@dataclass(frozen=True)
class AuctionResult:
    r"""A sealed-bid auction of a held turn, with the exact values revealed.

    Attributes
    ----------
    bids : pandas.DataFrame
        One row per bidder (index ``bidder``), highest bid first: ``bid`` and ``expected_profit``,
        :math:`F(g - \text{bid}) - \text{bid}`, what winning at one's own bid is worth (gems).
    winner : str
        The highest bidder (a tie goes to the one listed first).
    price : int
        What the winner pays: the own bid (first price) or the second-highest bid
        (second price; 0 with a single bidder).
    expected_profit : Fraction
        :math:`F(g - \text{price}) - \text{price}` (gems).
    break_even : int or None
        :func:`break_even_bid`.
    fair_bounty : Fraction
        :math:`F(g)`, the turn's value to a bidder before paying anything (gems).
    gems : int
    price_rule : {"first", "second"}
    """

    bids: pd.DataFrame
    winner: str
    price: int
    expected_profit: Fraction
    break_even: int | None
    fair_bounty: Fraction
    gems: int
    price_rule: str

    @property
    def cursed(self) -> bool:
        """The winner's curse: the winner expects to lose gems at the price paid."""
        return self.expected_profit < 0

    @property
    def mean_bid(self) -> float:
        """The mean of the bids (gems)."""
        return float(self.bids["bid"].mean())

    @property
    def losing_bids(self) -> int:
        """How many bids would lose gems on average if they won at their own price."""
        return int((self.bids["expected_profit"] < 0).sum())


def run_auction(
    state: TurnState, gems: int, bids: Sequence[tuple[str, int]], price_rule: str = "first"
) -> AuctionResult:
    """Award the held turn ``state`` to the highest of ``bids`` and value everything exactly.

    Parameters
    ----------
    state : TurnState
        The held turn.
    gems : int
        Gems each bidder holds before paying.
    bids : sequence of (name, bid)
        Bids in whole gems from 0 to ``gems``, in the order they were handed in.
    price_rule : {"first", "second"}
        Pay one's own bid, or the second-highest bid (Vickrey).

    Raises
    ------
    ValueError
        For an unknown price rule, no bids, or a bid outside 0..gems.
    """
    import pandas as pd

    if price_rule not in PRICE_RULES:
        raise ValueError(f"price_rule must be one of {PRICE_RULES}, not {price_rule!r}")
    bids = list(bids)
    if not bids:
        raise ValueError("an auction needs at least one bid")
    order = sorted(range(len(bids)), key=lambda i: (-bids[i][1], i))
    ranked = [bids[i] for i in order]
    table = pd.DataFrame(
        {
            "bid": [b for _, b in ranked],
            "expected_profit": [Fraction(takeover_gain(state, gems, b, exact=True)) for _, b in ranked],
        },
        index=pd.Index([n for n, _ in ranked], name="bidder"),
    )
    winner, top = ranked[0]
    price = top if price_rule == "first" else (ranked[1][1] if len(ranked) > 1 else 0)
    return AuctionResult(
        bids=table,
        winner=winner,
        price=price,
        expected_profit=Fraction(takeover_gain(state, gems, price, exact=True)),
        break_even=break_even_bid(state, gems),
        fair_bounty=Fraction(fair_bounty(state, gems, exact=True)),
        gems=gems,
        price_rule=price_rule,
    )
