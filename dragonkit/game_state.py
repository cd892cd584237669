"""The game as a public state you can step: what a person at the table can count.

A :class:`GameState` is a moment of a whole game as every player sees it: each
player's gems, the treasure, the composition of the deck (never its order), the
stage, whose turn it is and who reveals, the phase, the players still to be
offered a held turn, the knight and the pot.  It offers the interface of
OpenSpiel's states, like :class:`~dragonkit.turn.TurnState` does for one turn:

* :meth:`~GameState.current_player` and :meth:`~GameState.legal_actions`;
* :meth:`~GameState.chance_outcomes` — where a reveal is legal, the law of the
  card it shows: ``(card, probability)`` pairs with exact ``Fraction``\\ s;
* :meth:`~GameState.child` — the state after a revealed card (the outcome of a
  reveal) or after a hold, a takeover or a decline;
* :meth:`~GameState.is_terminal` and :meth:`~GameState.returns` — whether the game
  is over, and each seat's share of the win.

This is the game's one model.  The engine's :class:`~dragonkit.engine.Game` holds a
GameState (:attr:`Game.state <dragonkit.engine.Game.state>`) and steps it with
:meth:`~GameState.child` at every action, the revealed card being the top of its hidden
deck; the solvers, the bots and the coach step the same states.

No rule is written twice: the engine never applies a rule itself, and a step here is
the turn's own wherever the turn has one.  A revealed card is the turn's step
:func:`~dragonkit.turn.card_step` (the one call of the rules'
:meth:`~dragonkit.rules.Ruleset.apply_card`, the step :meth:`TurnState.child
<dragonkit.turn.TurnState.child>` takes too); a hold that nobody takes is the turn's
hold, :func:`~dragonkit.turn.hold_step`; a takeover's payment is the turn's
:func:`~dragonkit.turn.takeover_step` of the bounty (:attr:`~GameState.bounty`, the
rules' :meth:`~dragonkit.rules.Ruleset.bounty`).  What only a game has is written here,
once: the legal actions of a :class:`Phase` (:func:`legal_in`), the order a held turn is
offered in (:func:`offer_order`), the next turn's owner (:func:`next_turn_owner`), the
winners (:func:`leaders`) and their shares (:func:`win_shares`).  A step from a state
made by a step is not checked again (a solver takes millions); a state made by hand is
checked when it is made.
"""

from __future__ import annotations

import functools
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from .rules import MAX_PLAYERS, MIN_PLAYERS, Card, Composition, Outcome, Ruleset, whole_number
from .turn import Action, TurnState, card_step, checked_action, hold_step, takeover_step

__all__ = ["GameState", "Phase", "leaders", "legal_in", "next_turn_owner", "offer_order", "win_shares"]


class Phase(str, Enum):
    """Where the game stands.

    * ``MUST_REVEAL`` — the active player must reveal (start of a turn, or just after a takeover);
    * ``CHOOSE`` — the active player may reveal or hold;
    * ``OFFER`` — the turn is offered to :attr:`GameState.offer_to`, who may take over or decline;
    * ``OVER`` — the game has ended.
    """

    MUST_REVEAL = "must_reveal"
    CHOOSE = "choose"
    OFFER = "offer"
    OVER = "over"


_LEGAL = {
    Phase.MUST_REVEAL: (Action.REVEAL,),
    Phase.CHOOSE: (Action.REVEAL, Action.HOLD),
    Phase.OFFER: (Action.TAKE_OVER, Action.DECLINE),
    Phase.OVER: (),
}


def legal_in(phase: Phase) -> list[Action]:
    """The actions the player to move may take in ``phase``: ``[REVEAL]`` (must reveal), ``[REVEAL, HOLD]``
    (choose), ``[TAKE_OVER, DECLINE]`` (offer), ``[]`` (over)."""
    return list(_LEGAL[phase])


def offer_order(rules: Ruleset, gems: Sequence[int], holder: int, pot: int) -> tuple[int, ...]:
    """The players a held turn is offered to, in the order they are asked (RULES.md section 3.4).

    Parameters
    ----------
    rules : Ruleset
    gems : sequence of int, length n_players
        Each player's gems, in seating order (gems).
    holder : int
        Seat of the player who holds.
    pot : int
        Gems in the pot (gems).

    Returns
    -------
    tuple of int
        The other seats in seating order starting after the holder, keeping those who
        may take over (:meth:`Ruleset.may_take_over <dragonkit.rules.Ruleset.may_take_over>`).
    """
    n = len(gems)
    others = ((holder + k) % n for k in range(1, n))
    return tuple(p for p in others if rules.may_take_over(gems[p], pot))


def next_turn_owner(owner: int, n_players: int, cards_left: int) -> int | None:
    """The seat owning the next turn when a turn ends (RULES.md section 3.5), or ``None`` when the
    empty deck ends the game instead (section 4, custom rulesets only).

    The next turn belongs to the player seated after the turn owner: a takeover skips nobody.

    Parameters
    ----------
    owner : int
        Seat of the owner of the turn that ends.
    n_players : int
    cards_left : int
        Cards left in the deck (cards).

    Returns
    -------
    int or None
    """
    return None if cards_left == 0 else (owner + 1) % n_players


def leaders(gems: Sequence[int]) -> tuple[int, ...]:
    """The seats with the most gems (several on a tie): the winners of a game over (section 4).

    Parameters
    ----------
    gems : sequence of int, length n_players
        Each player's gems, in seating order (gems).
    """
    best = max(gems)
    return tuple(i for i, g in enumerate(gems) if g == best)


def win_shares(gems: Sequence[int]) -> tuple[Fraction, ...]:
    """Each seat's share of the win of a game over: ``1/k`` for each of the ``k`` :func:`leaders`, 0 for the others.

    Parameters
    ----------
    gems : sequence of int, length n_players
        Each player's gems, in seating order (gems).

    Returns
    -------
    tuple of Fraction, length n_players
        Summing exactly to 1.
    """
    winners = leaders(gems)
    return tuple(Fraction(1, len(winners)) if i in winners else Fraction(0) for i in range(len(gems)))


@dataclass(frozen=True)
class GameState:
    """A moment of a game, as everyone at the table sees it.

    Parameters
    ----------
    rules : Ruleset
    gems : tuple of int, length n_players
        Each player's gems, in seating order (gems).
    treasure : int
        Gems in the dragon's treasure (gems).
    deck : Composition
        The cards not yet revealed, by kind (cards); their order is hidden.
    stage : int
        Danger cards revealed so far.
    owner : int
        Seat of the turn owner.
    active : int
        Seat of the player revealing cards (the owner, or who took the turn over).
    phase : Phase
        ``MUST_REVEAL``, ``CHOOSE``, ``OFFER`` or ``OVER``.
    offer_queue : tuple of int
        During an offer, the seats still to be asked, the one asked now first; () otherwise.
    position : int
        Knight position: 0 (tail) to ``rules.head``.
    pot : int
        Gems next to the knight (gems).
    ending : Outcome or None
        How the game ended (``HEAD``, ``FINAL_DANGER``, ``DECK_EMPTY``) once it is over; ``None`` before.

    Raises
    ------
    ValueError
        If a field is out of range or the fields disagree (e.g. an offer with nobody to ask);
        the message names the field.

    Examples
    --------
    >>> from dragonkit.rules import Ruleset
    >>> state = GameState.fresh(Ruleset.preset("mini"))
    >>> state.current_player(), [a.value for a in state.legal_actions()]
    (0, ['reveal'])
    >>> state.child(Card.footprint(2)).child("hold").phase.value
    'offer'
    """

    rules: Ruleset
    gems: tuple[int, ...]
    treasure: int
    deck: Composition
    stage: int = 0
    owner: int = 0
    active: int = 0
    phase: Phase = Phase.MUST_REVEAL
    offer_queue: tuple[int, ...] = ()
    position: int = 0
    pot: int = 0
    ending: Outcome | None = None

    def __post_init__(self) -> None:
        rules = self.rules
        if not isinstance(rules, Ruleset):
            raise ValueError(f"rules must be a Ruleset, not {type(self.rules).__name__}")
        gems = tuple(self.gems)
        if not MIN_PLAYERS <= len(gems) <= MAX_PLAYERS:
            raise ValueError(f"gems must list {MIN_PLAYERS} to {MAX_PLAYERS} players' gems, not {reprlib.repr(gems)}")
        gems = tuple(whole_number(g, f"gems[{seat}]", minimum=0) for seat, g in enumerate(gems))
        object.__setattr__(self, "gems", gems)
        n, last = len(gems), rules.danger_cards if self.ending else rules.last_stage
        for name, lo, hi in (
            ("treasure", 0, None),
            ("pot", 0, None),
            ("position", 0, rules.head),
            ("stage", 0, last),
            ("owner", 0, n - 1),
            ("active", 0, n - 1),
        ):
            object.__setattr__(self, name, whole_number(getattr(self, name), name, minimum=lo, maximum=hi))
        full = rules.composition
        if not isinstance(self.deck, Composition) or [s for s, _ in self.deck.footprints] != [
            s for s, _ in full.footprints
        ]:
            raise ValueError(f"deck must be a Composition of this ruleset's cards, not {reprlib.repr(self.deck)}")
        for (card, left), (_, dealt) in zip(self.deck.counts(), full.counts()):
            whole_number(left, f"deck's {card.label} cards", minimum=0, maximum=dealt)
        if not isinstance(self.phase, Phase):
            raise ValueError(f"phase must be a Phase, not {reprlib.repr(self.phase)}")
        queue = tuple(whole_number(seat, "offer_queue's seats", minimum=0, maximum=n - 1) for seat in self.offer_queue)
        if bool(queue) != (self.phase is Phase.OFFER) or self.active in queue:
            raise ValueError(f"offer_queue {queue} does not fit phase {self.phase.value} with player {self.active}")
        object.__setattr__(self, "offer_queue", queue)
        if self.ending is not None and not (isinstance(self.ending, Outcome) and self.ending.ends_game):
            raise ValueError(f"ending must be an Outcome that ends the game, or None, not {reprlib.repr(self.ending)}")
        if (self.phase is Phase.OVER) != (self.ending is not None):
            raise ValueError(f"ending {reprlib.repr(self.ending)} does not fit phase {self.phase.value}")
        if self.phase is not Phase.OVER:  # a game going on must be a valid turn too: checked once, here
            TurnState(rules, dict(self.deck.footprints), self.deck.stops, self.deck.dangers, **self._turn_fields())

    # -- making states -----------------------------------------------------------------

    @classmethod
    def fresh(cls, rules: Ruleset, players: int = 2) -> GameState:
        """The start of a game: everyone's starting gems, the full deck, player 0 must reveal.

        Parameters
        ----------
        rules : Ruleset
        players : int
            The number of players, 2 to 6.

        Raises
        ------
        ValueError
            For a number of players outside 2..6.
        """
        if type(players) is not int or not isinstance(rules, Ruleset):  # refused when the state is made, as ever
            return cls(rules, (rules.starting_gems,) * players, rules.treasure, rules.composition)
        return _fresh(rules, players)

    @classmethod
    def from_game(cls, game: Any) -> GameState:
        """The public state of ``game`` (an engine game, over or not): its own :attr:`Game.state
        <dragonkit.engine.Game.state>`, the state it steps, not a copy.

        Raises
        ------
        ValueError
            If ``game`` is not a :class:`~dragonkit.engine.Game` (it has no ``state`` that is a GameState).
        """
        state = getattr(game, "state", None)
        if not isinstance(state, GameState):
            raise ValueError(f"expected a dragonkit Game, not {type(game).__name__}")
        return state

    # -- what the table can count ------------------------------------------------------------

    @property
    def key(self) -> tuple[Any, ...]:
        """A hashable key of the state (the rules' fields included)."""
        return (
            self.rules,
            self.gems,
            self.treasure,
            self.deck,
            self.stage,
            self.owner,
            self.active,
            self.phase,
            self.offer_queue,
            self.position,
            self.pot,
            self.ending,
        )

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def n_players(self) -> int:
        """The number of players."""
        return len(self.gems)

    @property
    def offer_to(self) -> int | None:
        """Seat of the player asked to take the held turn over, during an offer; else ``None``."""
        return self.offer_queue[0] if self.offer_queue else None

    @property
    def bounty(self) -> int:
        """What a takeover would cost now: :meth:`Ruleset.bounty <dragonkit.rules.Ruleset.bounty>` of the pot (gems)."""
        return self.rules.bounty(self.pot)

    @property
    def last_danger_in_deck(self) -> bool:
        """Whether the next danger card revealed would end the game (:meth:`Ruleset.is_final_danger
        <dragonkit.rules.Ruleset.is_final_danger>`) and one is still in the deck."""
        return self.deck.dangers > 0 and self.rules.is_final_danger(self.stage + 1)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats sharing the win once the game is over (the :func:`leaders`, each with a share of
        :meth:`returns`); () before."""
        return leaders(self.gems) if self.phase is Phase.OVER else ()

    def turn(self) -> TurnState:
        """The turn as the active player sees it (during an offer: the holder's), the state the
        turn's analysis steps.

        Raises
        ------
        ValueError
            If the game is over.
        """
        self._check_going_on()
        return TurnState._of_valid(self.rules, self.deck, **self._turn_fields())  # checked as a turn when made

    def _turn_fields(self) -> dict[str, Any]:
        """The fields of :meth:`turn` beside the rules and the deck."""
        return dict(
            dangers_revealed=self.stage,
            gems=self.gems[self.active],
            treasure=self.treasure,
            position=self.position,
            pot=self.pot,
            must_reveal=self.phase is Phase.MUST_REVEAL,
        )

    # -- the stepping interface --------------------------------------------------------------

    def current_player(self) -> int | None:
        """Seat of the player to move: the active player, or during an offer the one asked; ``None`` once over."""
        if self.phase is Phase.OVER:
            return None
        return self.offer_queue[0] if self.phase is Phase.OFFER else self.active

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase is Phase.OVER

    def legal_actions(self) -> list[Action]:
        """The actions :meth:`current_player` may take: :func:`legal_in` of the phase (what
        :meth:`Game.legal_actions <dragonkit.engine.Game.legal_actions>` answers too)."""
        return legal_in(self.phase)

    def chance_outcomes(self) -> list[tuple[Card, Fraction]]:
        """The law of the card a reveal shows now: ``(card, count / cards left)`` pairs summing
        exactly to 1; ``[]`` where no reveal is legal (an offer, the game over)."""
        return self.deck.outcomes() if Action.REVEAL in self.legal_actions() else []

    def returns(self) -> tuple[Fraction, ...]:
        """Each seat's share of the win: ``1/k`` for each of the ``k`` players with the most gems once the
        game is over, 0 for the others; all 0 while it goes on."""
        return win_shares(self.gems) if self.is_terminal() else (Fraction(0),) * self.n_players

    def child(self, move: Card | Action | str) -> GameState:
        """The state after a move: a revealed ``card``, or ``"hold"``, ``"take_over"``, ``"decline"``.

        Parameters
        ----------
        move : Card, Action or str
            A card is the outcome of a reveal (one of :meth:`chance_outcomes`); an action is
            taken by :meth:`current_player`.

        Returns
        -------
        GameState

        Raises
        ------
        ValueError
            If the move is not legal now, the card is not in the deck, or ``move`` is
            ``"reveal"`` (its outcome is a card: pass it).
        """
        if isinstance(move, Card):
            if Action.REVEAL in _LEGAL[self.phase]:  # legal_actions() without its copy: a game steps here at every card
                return self._revealed(move)
            self._check_going_on()
            raise ValueError(f"no card is revealed during the {self.phase.value} phase")
        self._check_going_on()
        action = checked_action(move, self.legal_actions(), "a Card or an action")
        if action is Action.HOLD:
            queue = offer_order(self.rules, self.gems, self.active, self.pot)
            return self._replace(phase=Phase.OFFER, offer_queue=queue) if queue else self._collected()
        if action is Action.TAKE_OVER:
            taker, holder = self.offer_queue[0], self.active
            gems = list(self.gems)
            gems[taker], gems[holder] = takeover_step(gems[taker], gems[holder], self.bounty)
            return self._replace(gems=tuple(gems), active=taker, phase=Phase.MUST_REVEAL, offer_queue=())
        rest = self.offer_queue[1:]  # a decline
        return self._replace(offer_queue=rest) if rest else self._collected()

    # -- the steps -----------------------------------------------------------------------------

    def _revealed(self, card: Card) -> GameState:
        """The state after ``card`` is revealed: the turn's own step (:func:`~dragonkit.turn.card_step`, the one
        :meth:`TurnState.child <dragonkit.turn.TurnState.child>` takes), then the turn's or the game's end."""
        seat = self.active
        effect, deck = card_step(
            self.rules,
            self.deck,
            card,
            dangers_revealed=self.stage,
            gems=self.gems[seat],
            treasure=self.treasure,
            position=self.position,
            pot=self.pot,
        )
        after = self.__dict__.copy()  # the new state's fields, changed in place: a game steps here at every card
        if effect.gems_change:
            after["gems"] = self._with_active(self.gems[seat] + effect.gems_change)
        after["treasure"] = effect.treasure
        after["deck"] = deck
        after["stage"] = effect.dangers_revealed
        after["position"] = effect.position
        after["pot"] = effect.pot
        outcome = effect.outcome
        if outcome is None:
            after["phase"] = Phase.CHOOSE
        elif outcome.ends_game:
            after["phase"], after["ending"] = Phase.OVER, outcome
        else:
            return self._turn_ended(after)
        return _of_fields(after)

    def _collected(self) -> GameState:
        """Nobody takes the held turn over: the holder takes the pot (the turn's own hold,
        :func:`~dragonkit.turn.hold_step`), and the turn ends."""
        gems, pot = hold_step(self.gems[self.active], self.pot)
        after = self.__dict__.copy()
        after.update(gems=self._with_active(gems), pot=pot, offer_queue=())
        return self._turn_ended(after)

    def _turn_ended(self, after: dict[str, Any]) -> GameState:
        """The state of the fields ``after`` (this state's, changed by the step that ended the turn), once the
        next turn has begun, or once the game has ended when the deck is empty (:func:`next_turn_owner`)."""
        owner = next_turn_owner(self.owner, len(self.gems), after["deck"].total)
        if owner is None:
            after["phase"], after["ending"] = Phase.OVER, Outcome.DECK_EMPTY
        else:
            after.update(owner=owner, active=owner, position=0, pot=0, phase=Phase.MUST_REVEAL)
        return _of_fields(after)

    def _with_active(self, gems: int) -> tuple[int, ...]:
        """Everyone's gems, the active player's being ``gems``."""
        seat, before = self.active, self.gems
        return (*before[:seat], gems, *before[seat + 1 :])

    def _replace(self, **changes: Any) -> GameState:
        """A copy with ``changes``, made by a legal step from a valid state: valid without checking again
        (the checks would cost a solver over the whole game most of its time)."""
        fields = self.__dict__.copy()
        fields.update(changes)
        return _of_fields(fields)

    def _check_going_on(self) -> None:
        if self.phase is Phase.OVER:
            raise ValueError(f"the game is over ({self.ending}): no move is possible")


def _of_fields(fields: dict[str, Any]) -> GameState:
    """A state whose ``__dict__`` is ``fields`` (every field, made by a legal step: not checked again, see
    :meth:`GameState._replace`)."""
    state = object.__new__(GameState)
    object.__setattr__(state, "__dict__", fields)  # a frozen dataclass: its own __setattr__ refuses
    return state


@functools.lru_cache(maxsize=32)
def _fresh(rules: Ruleset, players: int) -> GameState:
    """:meth:`GameState.fresh`, checked once per ruleset and number of players (a state is immutable: a simulation
    that starts thousands of games shares one)."""
    return GameState(rules, (rules.starting_gems,) * players, rules.treasure, rules.composition)
