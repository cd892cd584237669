"""A turn as a state you can step: the one model of a turn that every part walks.

A :class:`TurnState` is a moment of one turn as the active player sees it: the
composition of the deck (never its order), the stage, the player's gems, the
treasure, the knight and the pot.  It offers the interface of OpenSpiel's states:

* :meth:`~TurnState.legal_actions` — ``[REVEAL]`` where the reveal is compulsory,
  ``[REVEAL, HOLD]`` otherwise, ``[]`` once the turn has ended;
* :meth:`~TurnState.chance_outcomes` — the law of the card a reveal shows:
  ``(card, probability)`` pairs with exact ``Fraction`` probabilities (count / cards
  left, one draw of the multivariate hypergeometric law) summing exactly to 1;
* :meth:`~TurnState.child` — the state after a revealed card or a hold;
* :meth:`~TurnState.is_terminal` and :meth:`~TurnState.returns` — whether the turn
  has ended, and the active player's change of gems over it.

A reveal is a chance event: its children are ``state.child(card)`` for each card of
``state.chance_outcomes()``.  What a card does is :meth:`Ruleset.apply_card
<dragonkit.rules.Ruleset.apply_card>` — the rules' one implementation — called in
:func:`card_step` and nowhere else: the one step of a revealed card, which
:meth:`TurnState.child` and the game's :meth:`GameState.child
<dragonkit.game_state.GameState.child>` both take (so the engine, which steps the
game's state, plays with it too); :func:`footprint_children` is the same step for
whole arrays of situations at once (the analysis builds its decision graph with it).

Backward induction, the absorbing chains, the trainer, the lessons and the engine all
step this model, so a rule of the turn is written once.  Nobody takes a held turn over
within this model (RULES.md section 7): a hold ends the turn with the pot
(:func:`hold_step`).  The turn of a player who takes a held turn over starts at
:meth:`~TurnState.taken_over`, once they paid the bounty (:func:`takeover_step`, the
game's payment too).
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from .i18n import N_
from .rules import LIMITS, Card, CardEffect, Composition, Outcome, Ruleset, whole_number

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "Action",
    "FootprintStep",
    "TurnState",
    "card_step",
    "checked_action",
    "footprint_children",
    "hold_step",
    "pot_bound",
    "takeover_step",
]

#: A number of gems: an int for one situation, an ndarray of int for many at once (the win models' grids).
_Gems = TypeVar("_Gems", int, "NDArray[np.int64]")


class Action(str, Enum):
    """The four moves of the game, the turn's two (reveal, hold) and the offer's two (take over, decline).

    Each value is also a msgid: a refusal names the action.  Defined here, the lowest module of the model,
    so that the turn (:class:`TurnState`), the game (:class:`~dragonkit.game_state.GameState`) and the engine
    name their moves alike.
    """

    REVEAL = N_("reveal")
    HOLD = N_("hold")
    TAKE_OVER = N_("take_over")
    DECLINE = N_("decline")


@dataclass(frozen=True)
class TurnState:
    """A moment of a turn, as the active player sees it.

    Parameters
    ----------
    rules : Ruleset
    footprints : mapping of int to int
        Footprint cards left in the deck, by number of steps (cards).
    stops, dangers : int
        Stop and danger cards left in the deck (cards).
    dangers_revealed : int
        The stage: danger cards revealed so far in the game.
    gems : int
        The active player's own gems (gems).
    treasure : int
        Gems left in the dragon's treasure (gems).
    position : int
        Knight position, 0 (tail) to ``rules.n_stripes`` (``rules.head`` once the turn
        has ended there).
    pot : int
        Gems next to the knight (gems).
    must_reveal : bool
        True at the start of a turn and right after a takeover.
    outcome : Outcome or None
        How the turn ended; ``None`` while it goes on.  Made by :meth:`child`.
    gain : int
        The active player's change of gems when the turn ended (gems); 0 while it goes on.

    Raises
    ------
    ValueError
        If a field is out of range for ``rules``; the message names it.

    Examples
    --------
    >>> from dragonkit.rules import Ruleset
    >>> state = TurnState.fresh(Ruleset.preset("mini"))
    >>> [(card.label, p) for card, p in state.chance_outcomes()][:2]
    [('1 step', Fraction(3, 8)), ('2 steps', Fraction(1, 4))]
    >>> state.child(Card.footprint(2)).pot
    2
    """

    rules: Ruleset
    footprints: Mapping[int, int]
    stops: int
    dangers: int
    dangers_revealed: int
    gems: int
    treasure: int
    position: int = 0
    pot: int = 0
    must_reveal: bool = True
    outcome: Outcome | None = None
    gain: int = 0

    def __post_init__(self) -> None:
        rules = self.rules
        if not isinstance(rules, Ruleset):
            raise ValueError(f"rules must be a Ruleset, not {type(rules).__name__}")
        if not isinstance(self.footprints, Mapping):
            raise ValueError(f"footprints must map steps to counts, not {reprlib.repr(self.footprints)}")
        full = dict(rules.footprints)
        for steps, count in self.footprints.items():
            if steps not in full:
                raise ValueError(
                    f"footprints: this ruleset has no {reprlib.repr(steps)}-step cards (it has {sorted(full)})"
                )
            whole_number(count, f"footprints[{steps}]", minimum=0, maximum=full[steps])
        object.__setattr__(
            self,
            "footprints",
            MappingProxyType({s: whole_number(self.footprints.get(s, 0), f"footprints[{s}]") for s in sorted(full)}),
        )
        if self.outcome is not None and not isinstance(self.outcome, Outcome):
            raise ValueError(f"outcome must be an Outcome or None, not {reprlib.repr(self.outcome)}")
        ended = self.outcome is not None
        most = LIMITS["gems"] * 4  # every gem of the game could be in one place
        last_stage = rules.last_stage + (1 if ended else 0)  # the final danger ends the turn past the last stage
        revealed = whole_number(self.dangers_revealed, "dangers_revealed", minimum=0, maximum=last_stage)
        checks = {
            "stops": (self.stops, 0, rules.stop_cards),
            "dangers_revealed": (revealed, 0, last_stage),
            "dangers": (self.dangers, 0, max(0, rules.danger_cards - revealed)),
            "gems": (self.gems, 0, most),
            "treasure": (self.treasure, 0, most),
            "position": (self.position, 0, rules.head if ended else rules.n_stripes),
            "pot": (self.pot, 0, most),
            "gain": (self.gain, -most, most),
        }
        for name, (value, lo, hi) in checks.items():
            object.__setattr__(self, name, whole_number(value, name, minimum=lo, maximum=hi))
        if not isinstance(self.must_reveal, bool):
            raise ValueError(f"must_reveal must be True or False, not {self.must_reveal!r}")
        if not ended and self.gain:
            raise ValueError(f"gain must be 0 while the turn goes on, not {self.gain}")

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def key(self) -> tuple[Any, ...]:
        """A hashable key of the state (the rules' fields included)."""
        return (
            self.rules,
            tuple(self.footprints.items()),
            self.stops,
            self.dangers,
            self.dangers_revealed,
            self.gems,
            self.treasure,
            self.position,
            self.pot,
            self.must_reveal,
            self.outcome,
            self.gain,
        )

    # -- making states -----------------------------------------------------------------

    @classmethod
    def fresh(cls, rules: Ruleset, gems: int | None = None, treasure: int | None = None) -> TurnState:
        """The first turn of a game: the full deck, stage 0, a compulsory reveal.

        Parameters
        ----------
        rules : Ruleset
        gems, treasure : int, optional
            The active player's gems and the treasure (default: the ruleset's starting values).
        """
        return cls(
            rules=rules,
            footprints=dict(rules.footprints),
            stops=rules.stop_cards,
            dangers=rules.danger_cards,
            dangers_revealed=0,
            gems=rules.starting_gems if gems is None else gems,
            treasure=rules.treasure if treasure is None else treasure,
        )

    @classmethod
    def from_game(cls, game: Any) -> TurnState:
        """The active player's situation in ``game`` (during an offer: the holder's): the turn of its
        public state, ``game.state.turn()`` (:meth:`GameState.turn <dragonkit.game_state.GameState.turn>`).

        Parameters
        ----------
        game : Game
            An engine game (:class:`~dragonkit.engine.Game`), or anything whose ``state`` is a game state.

        Raises
        ------
        ValueError
            If ``game`` is not a Game, or it is over.
        """
        turn = getattr(getattr(game, "state", None), "turn", None)
        if not callable(turn):
            raise ValueError(f"expected a dragonkit Game, not {type(game).__name__}")
        if game.state.is_terminal():
            raise ValueError("the game is over: there is no turn to analyse")
        state: TurnState = turn()
        return state

    def replace(self, **changes: Any) -> TurnState:
        """A copy with some fields changed (validated like a new state), e.g. another player's gems."""
        return dataclasses.replace(self, **changes)

    def taken_over(self, gems: int, bounty: int) -> TurnState:
        """The held turn as the player who takes it over plays it: they pay ``bounty`` out of their ``gems``
        (:func:`takeover_step`) and must reveal (RULES.md section 3, step 4); the deck, the stage, the treasure,
        the knight and the pot stay.

        Parameters
        ----------
        gems : int
            The taker's gems before paying (gems).
        bounty : int
            What the taker pays the holder (gems), 0..gems: the rules' bounty, or the price of a takeover auction.

        Returns
        -------
        TurnState
            The taker's turn, with ``gems - bounty`` gems and a compulsory reveal.

        Raises
        ------
        ValueError
            If ``gems`` is no whole number >= 0, or ``bounty`` no whole number from 0 to ``gems``.
        """
        gems = whole_number(gems, "gems", minimum=0)
        bounty = whole_number(bounty, "bounty", minimum=0, maximum=gems)  # at most the taker's gems
        taker, _ = takeover_step(gems, self.gems, bounty)
        return self.replace(gems=taker, must_reveal=True)

    # -- what the table can count ----------------------------------------------------------

    @property
    def composition(self) -> Composition:
        """The remaining deck as a :class:`~dragonkit.rules.Composition`."""
        return Composition(tuple(self.footprints.items()), self.stops, self.dangers)  # sorted by steps, ints

    @property
    def cards_left(self) -> int:
        """Cards left in the deck (cards)."""
        return sum(self.footprints.values()) + self.stops + self.dangers

    @property
    def bank(self) -> int:
        """``treasure + pot``: constant while the turn goes on (gems)."""
        return self.treasure + self.pot

    # -- the stepping interface --------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether the turn has ended."""
        return self.outcome is not None

    def legal_actions(self) -> list[Action]:
        """``[REVEAL]`` where the reveal is compulsory (or holding is all that is left to
        decide on an empty deck: ``[HOLD]``), ``[REVEAL, HOLD]`` otherwise, ``[]`` once the turn has ended."""
        if self.is_terminal():
            return []
        if self.must_reveal:
            return [Action.REVEAL]
        return [Action.REVEAL, Action.HOLD] if self.cards_left else [Action.HOLD]

    def chance_outcomes(self) -> list[tuple[Card, Fraction]]:
        """The law of the card a reveal shows now: ``(card, count / cards left)`` pairs, cards
        with no copy left omitted, probabilities ``Fraction``s summing exactly to 1;
        ``[]`` once the turn has ended or on an empty deck."""
        if self.is_terminal():
            return []
        return self.composition.outcomes()

    def effect(self, card: Card) -> CardEffect:
        """What revealing ``card`` now does: :meth:`Ruleset.apply_card
        <dragonkit.rules.Ruleset.apply_card>` with this state's numbers (:func:`card_step`).

        Raises
        ------
        ValueError
            If the turn has ended, or no such card is left in the deck.
        """
        return self._card_step(card)[0]

    def child(self, move: Card | Action | str) -> TurnState:
        """The state after a move: a revealed ``card``, or ``"hold"``.

        Parameters
        ----------
        move : Card, or Action.HOLD / "hold"
            A card is the outcome of a reveal (one of :meth:`chance_outcomes`); a hold
            ends the turn and the active player takes the pot.

        Returns
        -------
        TurnState
            The turn goes on (``must_reveal`` False) or has ended (:attr:`outcome`, :attr:`gain`).

        Raises
        ------
        ValueError
            If the turn has ended, the card is not in the deck, the hold is not allowed
            (a compulsory reveal), or ``move`` is ``"reveal"`` (its outcome is a card: pass it).
        """
        if isinstance(move, Card):
            effect, deck = self._card_step(move)
            return self._replace(
                footprints=MappingProxyType(dict(deck.footprints)),
                stops=deck.stops,
                dangers=deck.dangers,
                dangers_revealed=effect.dangers_revealed,
                gems=self.gems + effect.gems_change,
                treasure=effect.treasure,
                position=effect.position,
                pot=effect.pot,
                must_reveal=False,
                outcome=effect.outcome,
                gain=effect.gems_change,
            )
        self._check_going_on()
        checked_action(move, self.legal_actions(), "a Card or 'hold'")
        gems, pot = hold_step(self.gems, self.pot)
        return self._replace(gems=gems, pot=pot, outcome=Outcome.HELD, gain=gems - self.gems)

    def returns(self) -> int:
        """The active player's change of gems over the turn (gems): :attr:`gain` once it has
        ended (the pot for a hold, ``-penalty`` for a stop, ...), 0 while it goes on."""
        return self.gain

    def _card_step(self, card: Card) -> tuple[CardEffect, Composition]:
        """:func:`card_step` with this state's numbers: what ``card`` does, and the deck after it."""
        self._check_going_on()
        if not isinstance(card, Card):
            raise ValueError(f"expected a Card, not {reprlib.repr(card)}")
        return card_step(
            self.rules,
            self.composition,
            card,
            dangers_revealed=self.dangers_revealed,
            gems=self.gems,
            treasure=self.treasure,
            position=self.position,
            pot=self.pot,
        )

    def _replace(self, **changes: Any) -> TurnState:
        """A copy with ``changes``, made by a legal step (:meth:`child`) from a valid state: valid without
        checking again (the checks would cost a solver over the whole game most of its time)."""
        state = object.__new__(TurnState)
        state.__dict__.update(self.__dict__, **changes)
        return state

    @classmethod
    def _of_valid(cls, rules: Ruleset, deck: Composition, **fields: Any) -> TurnState:
        """A turn going on, from the fields of a game state already checked as a turn (``GameState.turn``): not
        checked again, for the same reason as :meth:`_replace`."""
        state = object.__new__(cls)
        state.__dict__.update(
            rules=rules,
            footprints=MappingProxyType(dict(deck.footprints)),
            stops=deck.stops,
            dangers=deck.dangers,
            outcome=None,
            gain=0,
            **fields,
        )
        return state

    def _check_going_on(self) -> None:
        if self.is_terminal():
            assert self.outcome is not None
            raise ValueError(f"the turn has ended ({self.outcome.label}): no move is possible")


def card_step(
    rules: Ruleset,
    deck: Composition,
    card: Card,
    *,
    dangers_revealed: int,
    gems: int,
    treasure: int,
    position: int,
    pot: int,
) -> tuple[CardEffect, Composition]:
    """What revealing ``card`` does to a turn, and the deck after it: the one step of a revealed card, taken by
    :meth:`TurnState.child` and :meth:`GameState.child <dragonkit.game_state.GameState.child>` alike.

    The card's effect is :meth:`Ruleset.apply_card <dragonkit.rules.Ruleset.apply_card>`, called here and
    nowhere else; the numbers are not checked again (the caller's state was checked when it was made).

    Parameters
    ----------
    rules : Ruleset
    deck : Composition
        The cards not yet revealed, ``card`` among them (cards).
    card : Card
        The card revealed.
    dangers_revealed : int
        The stage before the card.
    gems : int
        The active player's own gems (gems).
    treasure : int
        Gems in the treasure (gems).
    position : int
        Knight position before the card.
    pot : int
        Gems next to the knight (gems).

    Returns
    -------
    effect : CardEffect
        What the card does (its :attr:`~dragonkit.rules.CardEffect.outcome`, the numbers afterwards).
    deck : Composition
        ``deck`` without ``card`` (cards).

    Raises
    ------
    ValueError
        If no such card is left in ``deck``.
    """
    after = deck.without(card)  # refuses a card that is not left
    effect = rules.apply_card(
        card,
        position=position,
        pot=pot,
        gems=gems,
        treasure=treasure,
        dangers_revealed=dangers_revealed,
        cards_left=after.total,
    )
    return effect, after


def hold_step(gems: _Gems, pot: _Gems) -> tuple[_Gems, int]:
    """What a hold that ends the turn does: the active player takes the pot (RULES.md section 3, step 4, when
    nobody takes the turn over).  The one step of such a hold, taken by :meth:`TurnState.child`, by
    :meth:`GameState.child <dragonkit.game_state.GameState.child>` and by the win models alike.

    Parameters
    ----------
    gems : int or ndarray of int
        The active player's own gems (gems).
    pot : int or ndarray of int
        Gems next to the knight (gems); an array broadcasts against ``gems`` (many situations at once).

    Returns
    -------
    gems : int or ndarray of int
        The active player's gems afterwards (gems).
    pot : int
        The pot afterwards: 0 (gems).
    """
    return gems + pot, 0


def takeover_step(taker: _Gems, holder: _Gems, bounty: int | _Gems) -> tuple[_Gems, _Gems]:
    """What a takeover does to the gems: the taker pays the bounty to the holder (RULES.md section 3, step 4).
    The one payment of a takeover, made by :meth:`GameState.child <dragonkit.game_state.GameState.child>`, by
    :meth:`TurnState.taken_over` (the taker's turn) and by the win models alike.

    Parameters
    ----------
    taker, holder : int or ndarray of int
        The gems of the player who takes the turn over and of the player who held it, before paying (gems).
    bounty : int or ndarray of int
        What the taker pays: the rules' :meth:`~dragonkit.rules.Ruleset.bounty` of the pot in a game, or the
        price a takeover auction settled on (gems).  Arrays broadcast (many situations at once).

    Returns
    -------
    taker, holder : int or ndarray of int
        Their gems afterwards (gems).
    """
    return taker - bounty, holder + bounty


def checked_action(move: object, legal: list[Action], moves: str) -> Action:
    """The action ``move`` names, if a player may choose it now: the one check of a chosen
    (non-chance) move, for the turn and the game alike.

    Parameters
    ----------
    move : object
        What the caller passed to ``child``.
    legal : list of Action
        The state's legal actions.
    moves : str
        What a move may be, for the message (e.g. ``"a Card or 'hold'"``).

    Raises
    ------
    ValueError
        If ``move`` is no action, is a reveal (its outcome is a card: step with the card),
        or is not legal now.
    """
    try:
        action = move if type(move) is Action else Action(move)  # an Action needs no lookup by value
    except ValueError:
        raise ValueError(f"a move is {moves}, not {reprlib.repr(move)}") from None
    if action is Action.REVEAL:
        raise ValueError("a reveal shows a card by chance: step with child(card) for each card of chance_outcomes()")
    if action not in legal:
        raise ValueError(f"cannot {action.value} now: the legal actions are {[a.value for a in legal]}")
    return action


@dataclass(frozen=True)
class FootprintStep:
    """What one footprint kind does to many situations at once (see :func:`footprint_children`).

    Attributes
    ----------
    position, pot : ndarray of int, shape (m,) or (k, m)
        Knight position and pot afterwards (gems); the pot is 0 where the turn ended.
    gain : ndarray of int, shape (m,) or (k, m)
        The active player's change of gems where the card ends the turn (gems), else 0.
    at_head, deck_empty : ndarray of int, shape (m,) or (k, m)
        1 where the card ends the turn with ``Outcome.HEAD`` (resp. ``Outcome.DECK_EMPTY``), else 0.
    """

    position: NDArray[np.int64]
    pot: NDArray[np.int64]
    gain: NDArray[np.int64]
    at_head: NDArray[np.int64]
    deck_empty: NDArray[np.int64]

    @property
    def goes_on(self) -> NDArray[np.bool_]:
        """Where the turn goes on after the card, shaped like the other arrays."""
        goes_on: NDArray[np.bool_] = (self.at_head == 0) & (self.deck_empty == 0)
        return goes_on


def footprint_children(
    rules: Ruleset,
    steps: int | Sequence[int],
    position: NDArray[np.int64],
    pot: NDArray[np.int64],
    bank: int,
    dangers_revealed: int,
    cards_left: int,
) -> FootprintStep:
    """:meth:`TurnState.child` of a footprint card of ``steps`` steps, for many situations at once.

    The situations share the rules, the stage and the bank (``treasure + pot``, constant
    through a turn); each has its own knight position and pot.  The arithmetic is the
    rules' own :meth:`Ruleset.footprint_effect <dragonkit.rules.Ruleset.footprint_effect>`,
    written with 0/1 masks so that it runs elementwise; a test checks it against
    :meth:`TurnState.child` on random situations.

    Parameters
    ----------
    rules : Ruleset
    steps : int or sequence of int
        The footprint kind (cards of ``steps`` steps), or ``k`` kinds stepped at once.
    position, pot : ndarray of int, shape (m,)
        Knight positions and pots before the card (gems).
    bank : int
        ``treasure + pot`` (gems).
    dangers_revealed : int
        The stage.
    cards_left : int
        Cards in the deck before the card is drawn (cards).

    Returns
    -------
    FootprintStep
        Arrays of shape (m,) for one kind; of shape (k, m) for ``k`` kinds, row ``i``
        being what a card of ``steps[i]`` steps does.
    """
    if isinstance(steps, int):
        kinds: int | NDArray[np.int64] = steps
    else:
        kinds = np.asarray(steps, dtype=np.int64)[:, None]
        position, pot = position[None, :], pot[None, :]
    step = rules.footprint_effect(kinds, position, pot, bank - pot, dangers_revealed, cards_left - 1)
    return FootprintStep(step.position, step.pot, step.gems_change, step.at_head, step.deck_empty)


def pot_bound(rules: Ruleset, dangers_revealed: int, bank: int, pot: int) -> NDArray[np.int64]:
    """The largest pot a turn can reach at each knight position, from a pot of ``pot`` gems.

    The knight only moves toward the head, so each stripe pays into the pot at most
    once in a turn, and before the knight stands on stripe ``p`` only stripes ``1..p``
    have paid; the pot never holds more than the bank (``treasure + pot``).

    Parameters
    ----------
    rules : Ruleset
    dangers_revealed : int
        The stage.
    bank : int
        ``treasure + pot`` (gems).
    pot : int
        The pot now, at any position (gems).

    Returns
    -------
    ndarray of int, shape (rules.n_stripes + 1,)
        Entry ``p``: the bound at position ``p`` (gems), at most ``bank``.
    """
    stripes = rules.stripe_value(np.arange(rules.head, dtype=np.int64), dangers_revealed)  # 0 at the tail
    bound: NDArray[np.int64] = np.minimum(bank, pot + np.cumsum(stripes))
    return bound
