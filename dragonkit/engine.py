"""A game of Dragon Stripes: the public state, stepped, plus what the table hides and what it tells.

A :class:`Game` is one play.  What everyone at the table sees is one
:class:`~dragonkit.game_state.GameState` (:attr:`Game.state`): the gems, the
treasure, the composition of the deck, the stage, the turn's owner and active
player, the phase, the offer, the knight and the pot.  Beside it the game keeps
what the model has no place for: the hidden order of the deck, the players'
names, the seed, the actions, the event log, the gem history, the turn number,
the discards and the last card.

No rule is written twice: the engine never applies a rule itself.  Every action
is the state's own step.  A reveal takes the top card of the hidden deck and
steps ``state.child(card)``; a hold, a takeover and a decline step
``state.child(action)`` (:meth:`GameState.child
<dragonkit.game_state.GameState.child>`, which walks the turn's
:meth:`TurnState.child <dragonkit.turn.TurnState.child>`, hence the rules' one
:meth:`~dragonkit.rules.Ruleset.apply_card`).  The engine checks every action for
legality before touching anything (a refused action leaves the game unchanged),
then tells the :class:`Event`\\ s from the state before and after the step (and the
card revealed): the knight's move, the pot's growth, a penalty as the revealer's
gems before minus after, and so on.  A game can be saved to JSON and replayed from
its seed and its list of actions.

Hidden information: the order of the undealt cards lives in the private
``_deck`` list only.  Everything public (:attr:`Game.state`, :meth:`Game.public_state`,
:attr:`Game.remaining`, :meth:`Game.chance_outcomes`, the events) describes
what a person at the table could count.
"""

from __future__ import annotations

import json
import random
import reprlib
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import rules as R
from .game_state import GameState, Phase
from .i18n import N_, Gems, Phrase, ntr, tr
from .rules import Card, CardKind, Composition, Message, Outcome, Ruleset, whole_number
from .turn import Action

__all__ = ["Event", "Game", "GameOverError", "IllegalActionError", "NotYourTurnError", "SaveFormatError"]

SAVE_FORMAT = "dragonkit-game/1"
MAX_NAME = 40  # characters in a player's name
#: Each action as a verb, the msgid of its translation (in refusals and in the coach's advice).
VERBS: dict[Action, str] = {
    Action.REVEAL: N_("reveal"),
    Action.HOLD: N_("hold"),
    Action.TAKE_OVER: N_("take over"),
    Action.DECLINE: N_("decline"),
}


def _seat(by: object) -> int | None:
    """``by`` as a seat number (an int or a numpy integer), None if it is no whole number."""
    try:
        return whole_number(by, "by")
    except ValueError:
        return None


class IllegalActionError(ValueError):
    """An action that the rules do not allow now.  The game is left unchanged.

    Raised with a :class:`~dragonkit.rules.Message`: ``str(exc)`` is English,
    ``Message.of(exc).describe(lang)`` gives the reason in another language.
    """


class NotYourTurnError(IllegalActionError):
    """An action by a player who is not the one to move."""


class GameOverError(IllegalActionError):
    """An action after the game has ended."""


class SaveFormatError(ValueError):
    """A saved game that cannot be loaded: malformed, or inconsistent with its actions."""


@dataclass(frozen=True, init=False)
class Event:
    """One change of state, as shown in the event log.

    Attributes
    ----------
    kind : str
        ``turn_started``, ``card_revealed``, ``knight_moved``, ``gems_placed``,
        ``stopped``, ``danger``, ``held``, ``takeover_offered``, ``declined``,
        ``bounty_paid``, ``pot_collected``, ``game_over``.
    template : str
        The sentence in English with named fields: the msgid of :func:`dragonkit.i18n.tr`.
    player : int or None
        Seat of the player concerned.
    amount : int or None
        Gems involved (gems), where the event moves gems.
    fields : tuple of (str, object) pairs
        The values of the template's fields (names, cards, :class:`~dragonkit.i18n.Gems`).
    plural : str or None
        The template's plural, where the sentence agrees with ``count`` (the winners of a game over):
        :func:`dragonkit.i18n.ntr` chooses the form.
    count : int
        The number the sentence agrees with, where it has a ``plural``.
    """

    kind: str
    template: str
    player: int | None = None
    amount: int | None = None
    fields: tuple[tuple[str, object], ...] = ()
    plural: str | None = None
    count: int = 1

    def __init__(
        self,
        kind: str,
        template: str,
        player: int | None = None,
        amount: int | None = None,
        fields: tuple[tuple[str, object], ...] = (),
        plural: str | None = None,
        count: int = 1,
    ) -> None:
        # the dataclass's own __init__ would set each field through the frozen class's checked assignment;
        # a game records a few events at every action, so they are set at once, here, and never again
        self.__dict__.update(
            kind=kind, template=template, player=player, amount=amount, fields=fields, plural=plural, count=count
        )

    @property
    def text(self) -> str:
        """The event as an English sentence."""
        return self.describe("en")

    def describe(self, lang: str | None = None, **fields: object) -> str:
        """The event as a sentence in ``lang`` (default: the current language, see :mod:`dragonkit.i18n`),
        with ``fields`` written instead of the event's own (the status line writes the winners in bold)."""
        values = dict(self.fields) | fields
        if self.plural is None:
            return tr(self.template, lang, **values)
        return ntr(self.template, self.plural, self.count, lang, **values)


class Game:
    """One game of Dragon Stripes: its public :class:`~dragonkit.game_state.GameState`, stepped by every
    action, plus the hidden order of the deck and the events it tells.

    Parameters
    ----------
    players : sequence of str
        2 to 6 distinct, non-empty player names, in seating order.
    rules : Ruleset, optional
        Defaults to the ``dragon-stripes`` preset.
    seed : int, optional
        Seeds the single shuffle of the deck; drawn at random when omitted.
        The same seed and the same actions give the same game.

    Raises
    ------
    ValueError
        For a wrong number of players, or empty or repeated names.
    """

    #: Whether the game records no events (:meth:`redealt` with ``events=False``: a game played out in a simulation).
    _quiet = False

    def __init__(self, players: Sequence[str], rules: Ruleset | None = None, seed: int | None = None):
        if isinstance(players, str) or not hasattr(players, "__len__"):
            raise ValueError(Message("players must be a list of names"))
        names = tuple(players)
        if not R.MIN_PLAYERS <= len(names) <= R.MAX_PLAYERS:
            raise ValueError(
                Message(
                    "a game needs {min} to {max} players, not {n}", min=R.MIN_PLAYERS, max=R.MAX_PLAYERS, n=len(names)
                )
            )
        for name in names:
            if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
                raise ValueError(
                    Message(
                        "player names must have 1 to {max} characters, not {name}",
                        max=MAX_NAME,
                        name=reprlib.repr(name),
                    )
                )
        if len({n.strip().casefold() for n in names}) != len(names):
            raise ValueError(Message("player names must be distinct: {names}", names=reprlib.repr(list(names))))
        rules = Ruleset() if rules is None else rules
        if not isinstance(rules, Ruleset):
            raise ValueError(Message("rules must be a Ruleset, not {type}", type=type(rules).__name__))
        if seed is None:
            seed = secrets.randbits(63)
        try:
            seed = whole_number(seed, "seed", minimum=0, maximum=2**63 - 1)
        except ValueError as error:  # a WholeNumberError (not a whole number) or a ValueError (out of range)
            raise type(error)(
                Message("seed must be a whole number from 0 to 2**63 - 1, not {seed}", seed=reprlib.repr(seed))
            ) from None
        self._players = tuple(n.strip() for n in names)
        self._rules = rules
        self._seed = seed
        self._deck = rules.composition.cards()
        random.Random(seed).shuffle(self._deck)  # the top of the deck is the end of the list
        self._state = GameState.fresh(rules, len(names))
        self._discards: list[Card] = []
        self._last_card: Card | None = None
        self._turn_number = 1
        self._events: list[Event] = []
        self._actions: list[Action] = []
        self._gem_history: list[tuple[int, ...]] = [self._state.gems]
        owner = self._state.owner
        self._emit("turn_started", "Turn 1: {name} begins.", owner, name=self._players[owner])

    # -- public state --------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The public state of the game, the one the engine steps (immutable: a later action makes a new one)."""
        return self._state

    @property
    def rules(self) -> Ruleset:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in seating order."""
        return self._players

    @property
    def gems(self) -> tuple[int, ...]:
        """Each player's gems, in seating order (gems)."""
        return self._state.gems

    @property
    def treasure(self) -> int:
        """Gems in the dragon's treasure (gems)."""
        return self._state.treasure

    @property
    def pot(self) -> int:
        """Gems next to the knight (gems)."""
        return self._state.pot

    @property
    def position(self) -> int:
        """Knight position: 0 is the tail, 1..n the stripes, ``rules.head`` the head."""
        return self._state.position

    @property
    def stage(self) -> int:
        """Number of danger cards revealed so far."""
        return self._state.stage

    @property
    def turn_owner(self) -> int:
        """Seat of the player whose turn it is."""
        return self._state.owner

    @property
    def active_player(self) -> int:
        """Seat of the player revealing cards (the owner, or who took the turn over)."""
        return self._state.active

    @property
    def offer_to(self) -> int | None:
        """Seat of the player being offered the turn, during the ``OFFER`` phase."""
        return self._state.offer_to

    @property
    def offer_queue(self) -> tuple[int, ...]:
        """Seats still to be offered the held turn, in order (:attr:`offer_to` first); () outside an offer."""
        return self._state.offer_queue

    @property
    def to_move(self) -> int | None:
        """Seat of the player who must act now (None once the game is over)."""
        return self._state.current_player()

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def is_over(self) -> bool:
        return self._state.phase is Phase.OVER

    @property
    def ending(self) -> Outcome | None:
        """How the game ended, once it is over: ``Outcome.HEAD``, ``FINAL_DANGER`` or ``DECK_EMPTY``
        (each equal to its string value, e.g. ``"head"``); ``None`` before."""
        return self._state.ending

    @property
    def turn_number(self) -> int:
        """The turn being played, from 1 (the last one once the game is over)."""
        return self._turn_number

    @property
    def bounty(self) -> int:
        """The bounty a takeover would cost now (gems)."""
        return self._state.bounty

    @property
    def discards(self) -> tuple[Card, ...]:
        """Cards revealed so far, in order."""
        return tuple(self._discards)

    @property
    def last_card(self) -> Card | None:
        return self._last_card

    @property
    def remaining(self) -> Composition:
        """Composition of the undealt cards (their order stays hidden)."""
        return self._state.deck

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied so far, in order (with the seed, enough to replay)."""
        return tuple(self._actions)

    @property
    def gem_history(self) -> tuple[tuple[int, ...], ...]:
        """Each player's gems at the start of the game and after every turn."""
        return tuple(self._gem_history)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the most gems once the game is over (several on a tie); () before."""
        return self._state.winners

    def chance_outcomes(self) -> list[tuple[Card, Fraction]]:
        """The next card's possible values with exact probabilities from the remaining
        composition (count / cards left); ``[]`` when the deck is empty."""
        return self._state.deck.outcomes()

    def public_state(self) -> dict[str, Any]:
        """Everything a person at the table can see, as a JSON-ready dict."""
        state = self._state
        return {
            "players": list(self._players),
            "gems": list(state.gems),
            "treasure": state.treasure,
            "pot": state.pot,
            "position": state.position,
            "stage": state.stage,
            "turn_number": self._turn_number,
            "turn_owner": state.owner,
            "active_player": state.active,
            "offer_to": state.offer_to,
            "phase": state.phase.value,
            "bounty": state.bounty,
            "last_card": self._last_card.to_json() if self._last_card else None,
            "discards": [c.to_json() for c in self._discards],
            "remaining": {c.to_json(): n for c, n in state.deck.counts()},
            "legal_actions": [a.value for a in state.legal_actions()],
            "ending": None if state.ending is None else state.ending.value,
            "winners": list(state.winners),
        }

    # -- actions -------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The actions :attr:`to_move` may take now."""
        return self._state.legal_actions()

    def is_terminal(self) -> bool:
        """Whether the game is over (the stepping interface's name for :attr:`is_over`)."""
        return self.is_over

    def returns(self) -> tuple[Fraction, ...]:
        """Each seat's share of the win: ``1/k`` for each of the ``k`` players with the most gems once
        the game is over (a shared win is split), 0 for the others; all 0 while it goes on."""
        return self._state.returns()

    def child(self, action: Action | str) -> Game:
        """A new game: this one with ``action`` applied by the player to move (this one is unchanged).

        The next card of a reveal is the deck's own (fixed by the seed); a player
        who reasons about the next card uses :meth:`chance_outcomes` instead.

        Raises
        ------
        IllegalActionError
            If ``action`` is not legal now.
        """
        action = self._parse(action)
        self._check(action, None)
        game = self._copy(list(self._deck), self._quiet)
        game._apply(action)
        return game

    def redealt(self, cards: Sequence[Card], events: bool = True) -> Game:
        """A copy of this game whose undealt cards lie in the order ``cards`` (the top card last).

        This is how a player imagines the rest of the game from what the table shows (OpenSpiel's
        ``resample_from_infostate``): the copy's public state is this game's, and its hidden order is
        any order of :attr:`remaining` the caller chose, a fresh shuffle of it, say.  Nothing of this
        game's own order is read or copied.  This game is unchanged; the copy's events and actions go on
        from this game's, but its seed no longer replays it (its deck is not the seed's).

        Parameters
        ----------
        cards : sequence of Card
            The cards not yet revealed, exactly :attr:`remaining` as a multiset, top card last.
        events : bool
            Whether the copy records its events; a game played out only for its result (a Monte Carlo
            simulation) records none, which makes it about a quarter faster.  Its :attr:`events` are then
            this game's only.

        Returns
        -------
        Game

        Raises
        ------
        ValueError
            If ``cards`` are not the cards left in the deck.
        """
        deck = list(cards)
        if Counter(deck) != Counter(self.remaining.cards()):
            raise ValueError(Message("the cards given are not the {n} cards left in the deck", n=len(self._deck)))
        return self._copy(deck, self._quiet or not events)

    def _copy(self, deck: list[Card], quiet: bool) -> Game:
        """This game with the undealt cards ``deck``: its own lists, the immutable parts (names, rules, seed, the
        state, the events themselves) shared."""
        game = object.__new__(type(self))
        game.__dict__.update(self.__dict__)
        game._deck = deck
        game._quiet = quiet
        game._discards = list(self._discards)
        game._events = list(self._events)
        game._actions = list(self._actions)
        game._gem_history = list(self._gem_history)
        return game

    def reveal(self, by: int | None = None) -> Card:
        """The active player reveals the top card; returns it."""
        self._check(Action.REVEAL, by)
        card = self._apply(Action.REVEAL)
        assert card is not None  # a reveal shows a card
        return card

    def hold(self, by: int | None = None) -> None:
        """The active player holds; the turn is offered to the others."""
        self._check(Action.HOLD, by)
        self._apply(Action.HOLD)

    def take_over(self, by: int | None = None) -> None:
        """The player offered the turn pays the bounty and becomes the active player."""
        self._check(Action.TAKE_OVER, by)
        self._apply(Action.TAKE_OVER)

    def decline(self, by: int | None = None) -> None:
        """The player offered the turn declines; the offer passes on."""
        self._check(Action.DECLINE, by)
        self._apply(Action.DECLINE)

    def apply(self, action: Action | str, by: int | None = None) -> Card | None:
        """Apply ``action`` (an :class:`Action` or its string value).

        Parameters
        ----------
        action : Action or str
        by : int, optional
            Seat of the player claiming to act; checked against :attr:`to_move`.

        Raises
        ------
        IllegalActionError
            (or its subclasses ``NotYourTurnError``, ``GameOverError``) when the
            action is not allowed now; the game is left unchanged.
        """
        action = self._parse(action)
        self._check(action, by)
        return self._apply(action)

    # -- checking ------------------------------------------------------------------

    @staticmethod
    def _parse(action: Any) -> Action:
        if type(action) is Action:  # what bots and the app pass: no lookup by value
            return action
        try:
            return Action(action)
        except (TypeError, ValueError):
            allowed = ", ".join(a.value for a in Action)
            raise IllegalActionError(
                Message("unknown action {action}; actions are {allowed}", action=reprlib.repr(action), allowed=allowed)
            ) from None

    def _check(self, action: Action, by: int | None) -> None:
        state = self._state
        phase = state.phase
        if phase is Phase.OVER:
            raise GameOverError(Message("the game is over; no {action} is possible", action=Phrase(action.value)))
        mover = state.current_player()
        assert mover is not None  # the game is not over
        seat = None if by is None else _seat(by)
        if by is not None and seat != mover:
            who = self._players[seat] if seat is not None and 0 <= seat < len(self._players) else reprlib.repr(by)
            raise NotYourTurnError(Message("it is {mover}'s move, not {who}'s", mover=self._players[mover], who=who))
        if action not in state.legal_actions():
            reason = {
                Phase.MUST_REVEAL: N_("{name} must reveal a card first"),
                Phase.CHOOSE: N_("{name} may only reveal or hold"),
                Phase.OFFER: N_("{name} may only take over or decline the offered turn"),
            }[phase]
            raise IllegalActionError(
                Message(
                    "cannot {action} now: {reason}",
                    action=Phrase(VERBS[action]),
                    reason=Message(reason, name=self._players[mover]),
                )
            )

    # -- stepping ------------------------------------------------------------------

    def _apply(self, action: Action) -> Card | None:
        """Step the state with ``action``, legal now (:meth:`_check` said so), and tell the events.

        A reveal steps the state with the top card of the deck; the other actions step it with
        themselves.  Nothing of the game changes before the state's step has succeeded.
        """
        before = self._state
        card = self._deck[-1] if action is Action.REVEAL else None  # the top of the deck is the end of the list
        after = before.child(action if card is None else card)
        self._state = after
        self._actions.append(action)
        if card is not None:
            self._deck.pop()
            self._discards.append(card)
            self._last_card = card
        turn_ended = after.owner != before.owner  # a new turn belongs to another seat: the states tell it
        if turn_ended:
            self._turn_number += 1
        if turn_ended or after.phase is Phase.OVER:
            self._gem_history.append(after.gems)
        if self._quiet:
            return card
        if card is None:
            self._tell_action(action, before, after)
        else:
            self._tell_reveal(card, before, after)
        if turn_ended:
            self._emit(
                "turn_started",
                "Turn {number}: {name}'s turn.",
                after.owner,
                number=self._turn_number,
                name=self._players[after.owner],
            )
        elif after.phase is Phase.OVER:
            self._tell_game_over(after)
        return card

    # -- telling: the events, read from the states before and after a step ---------

    def _emit(
        self, kind: str, template: str, player: int | None = None, amount: int | None = None, **fields: object
    ) -> None:
        self._events.append(Event(kind, template, player, amount, tuple(fields.items())))

    def _tell_action(self, action: Action, before: GameState, after: GameState) -> None:
        """The events of a hold, a takeover or a decline, the step from ``before`` to ``after``."""
        if action is Action.HOLD:
            holder = before.active
            self._emit(
                "held",
                "{name} holds with {pot} in the pot; the bounty is {bounty}.",
                holder,
                before.pot,
                name=self._players[holder],
                pot=Gems(before.pot),
                bounty=before.bounty,
            )
            self._tell_offer(before, after)
        elif action is Action.TAKE_OVER:
            taker, holder = before.offer_to, before.active
            assert taker is not None  # a takeover answers an offer
            paid = before.gems[taker] - after.gems[taker]
            self._emit(
                "bounty_paid",
                "{taker} pays {bounty} to {holder} and takes over.",
                taker,
                paid,
                taker=self._players[taker],
                bounty=Gems(paid),
                holder=self._players[holder],
            )
        else:
            asked = before.offer_to
            assert asked is not None  # a decline answers an offer
            self._emit("declined", "{name} declines.", asked, name=self._players[asked])
            self._tell_offer(before, after)

    def _tell_reveal(self, card: Card, before: GameState, after: GameState) -> None:
        """The events of a revealed ``card``: what it was, then what it did, told by its kind and ``after``."""
        seat = before.active
        name = self._players[seat]
        change = after.gems[seat] - before.gems[seat]  # the revealer's: a penalty, a loss, or the head's gain
        self._emit("card_revealed", "{name} reveals {card}.", seat, name=name, card=card)
        if card.kind is CardKind.FOOTPRINT:
            if after.ending is Outcome.HEAD:
                self._emit(
                    "knight_moved",
                    "The knight moves from {start} to the head.",
                    seat,
                    card.steps,
                    start=before.position,
                )
                self._emit(
                    "pot_collected",
                    "{name} reaches the head and takes the pot and the treasure: {gain}.",
                    seat,
                    change,
                    name=name,
                    gain=Gems(change),
                )
                return
            self._emit(
                "knight_moved",
                "The knight moves from {start} to stripe {end}.",
                seat,
                card.steps,
                start=before.position,
                end=after.position,
            )
            if after.phase is Phase.CHOOSE:  # the turn goes on (else the deck ran out: the game over tells it)
                placed = after.pot - before.pot
                self._emit(
                    "gems_placed",
                    "The pot grows by {placed} from the treasure, to {pot}.",
                    seat,
                    placed,
                    placed=Gems(placed),
                    pot=after.pot,
                )
        elif card.kind is CardKind.STOP:
            self._emit(
                "stopped",
                "Stop! {name} pays a penalty of {penalty}; the pot returns to the treasure.",
                seat,
                -change,
                name=name,
                penalty=Gems(-change),
            )
        elif after.ending is Outcome.FINAL_DANGER:
            if change:
                self._emit(
                    "danger",
                    "Final danger! {name} loses {lost} and the pot.",
                    seat,
                    -change,
                    name=name,
                    lost=Gems(-change),
                )
            elif before.pot:  # kali, drago-rosso: the final danger costs the pot only
                self._emit("danger", "Final danger! {name} loses the pot.", seat, 0, name=name)
            else:  # ... and the pot was empty: it costs nothing
                self._emit("danger", "Final danger! {name} reveals it and the game ends.", seat, 0, name=name)
        else:  # a danger that does not end the game: the stage rose
            stage = self._rules.stage(after.stage)
            self._emit(
                "danger",
                "Danger {number}! {name} pays a penalty of {penalty}. "
                "From now on: penalty {rate}, multiplier x{multiplier}.",
                seat,
                -change,
                number=after.stage,
                name=name,
                penalty=Gems(-change),
                rate=str(stage.rate),
                multiplier=stage.multiplier,
            )

    def _tell_offer(self, before: GameState, after: GameState) -> None:
        """After a hold or a decline: the offer to the next player asked, or the pot the holder collected."""
        asked = after.offer_to
        if asked is not None:
            self._emit(
                "takeover_offered",
                "{name} may take over for {bounty}.",
                asked,
                after.bounty,
                name=self._players[asked],
                bounty=Gems(after.bounty),
            )
            return
        holder = before.active
        collected = after.gems[holder] - before.gems[holder]
        self._emit(
            "pot_collected",
            "Nobody takes over: {name} collects {pot}.",
            holder,
            collected,
            name=self._players[holder],
            pot=Gems(collected),
        )

    def _tell_game_over(self, after: GameState) -> None:
        assert after.ending is not None  # the game is over
        winners = after.winners
        best = after.gems[winners[0]]
        fields = dict(
            ending=Phrase(after.ending.ending), names=tuple(self._players[i] for i in winners), best=Gems(best)
        )
        self._events.append(
            Event(
                "game_over",
                "Game over ({ending}): {names} wins with {best}.",
                None,
                best,
                tuple(fields.items()),
                "Game over ({ending}): {names} win with {best}.",
                len(winners),
            )
        )

    # -- saving and replay ---------------------------------------------------------

    def to_json(self) -> str:
        """The game as JSON: players, rules, seed, actions, and the public state
        (checked again when loading)."""
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "players": list(self._players),
                "rules": self._rules.to_dict(),
                "seed": self._seed,
                "actions": [a.value for a in self._actions],
                "state": self.public_state(),
            }
        )

    @classmethod
    def replay(cls, players: Sequence[str], rules: Ruleset | None, seed: int, actions: Sequence[Action | str]) -> Game:
        """A new game with the same seed, played through ``actions``.

        Raises
        ------
        IllegalActionError
            If an action is not legal where it falls.
        """
        game = cls(players, rules, seed)
        for action in actions:
            game.apply(action)
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Load a game saved by :meth:`to_json`.

        Raises
        ------
        SaveFormatError
            If the text is not a saved game, an action is illegal, or the saved
            state disagrees with the replayed one (a tampered or corrupt save).
        """
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as exc:
            raise SaveFormatError(f"not valid JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFormatError(f"not a saved dragonkit game (expected format {SAVE_FORMAT!r})")
        missing = {"players", "rules", "seed", "actions"} - set(data)
        if missing:
            raise SaveFormatError(f"saved game lacks {sorted(missing)}")
        if not isinstance(data["actions"], list):
            raise SaveFormatError("saved game's actions must be a list")
        try:
            game = cls.replay(data["players"], Ruleset.from_dict(data["rules"]), data["seed"], data["actions"])
        except (ValueError, TypeError) as exc:  # untrusted input: any malformed value is a bad save
            raise SaveFormatError(f"cannot replay the saved game: {exc}") from None
        if "state" in data and data["state"] != game.public_state():
            raise SaveFormatError("the saved state does not match its actions (corrupt or edited save)")
        return game
