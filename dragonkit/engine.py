"""A game of Dragon Stripes: players, deck, knight, pot, treasure, stage and turns.

The engine owns one play of the game.  It applies the rule arithmetic of
:mod:`dragonkit.rules` (never its own), checks every action for legality before
touching anything, records an :class:`Event` for every change of state, and
can be saved to JSON and replayed from its seed and its list of actions.

Hidden information: the order of the undealt cards lives in the private
``_deck`` list only.  Everything public (:meth:`Game.public_state`,
:attr:`Game.remaining`, :meth:`Game.chance_outcomes`, the events) describes
what a person at the table could count.
"""

from __future__ import annotations

import copy
import json
import random
import reprlib
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from . import rules as R
from .game_state import GameState, Phase, leaders, legal_in, next_turn_owner, offer_order, win_shares
from .i18n import N_, Gems, Phrase, ntr, tr
from .rules import Card, Composition, Message, Outcome, Ruleset
from .turn import Action

__all__ = ["Event", "Game", "GameOverError", "IllegalActionError", "NotYourTurnError", "SaveFormatError"]

SAVE_FORMAT = "dragonkit-game/1"
MAX_NAME = 40  # characters in a player's name
#: Each action as a verb, the msgid of its translation (in refusals and in the coach's advice).
VERBS = {"reveal": N_("reveal"), "hold": N_("hold"), "take_over": N_("take over"), "decline": N_("decline")}


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


@dataclass(frozen=True)
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


@dataclass
class _State:
    gems: list[int]
    treasure: int
    pot: int = 0
    position: int = 0
    dangers_revealed: int = 0
    turn_owner: int = 0
    active: int = 0
    phase: Phase = Phase.MUST_REVEAL
    offer_queue: list[int] = field(default_factory=list)
    turn_number: int = 1
    ending: Outcome | None = None
    last_card: Card | None = None


class Game:
    """One game of Dragon Stripes.

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
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ValueError(
                Message("seed must be a whole number from 0 to 2**63 - 1, not {seed}", seed=reprlib.repr(seed))
            )
        self._players = tuple(n.strip() for n in names)
        self._rules = rules
        self._seed = seed
        self._deck = rules.composition.cards()
        random.Random(seed).shuffle(self._deck)  # the top of the deck is the end of the list
        self._discards: list[Card] = []
        self._s = _State(gems=[rules.starting_gems] * len(names), treasure=rules.treasure)
        self._events: list[Event] = []
        self._actions: list[Action] = []
        self._gem_history: list[tuple[int, ...]] = [tuple(self._s.gems)]
        self._emit("turn_started", "Turn 1: {name} begins.", 0, name=self._players[0])

    # -- public state --------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The public state of the game."""
        return GameState(
            rules=self.rules,
            gems=self.gems,
            treasure=self.treasure,
            deck=self.remaining,
            stage=self.stage,
            owner=self.turn_owner,
            active=self.active_player,
            phase=self.phase,
            offer_queue=self.offer_queue,
            position=self.position,
            pot=self.pot,
            ending=self.ending,
        )

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
        return tuple(self._s.gems)

    @property
    def treasure(self) -> int:
        """Gems in the dragon's treasure (gems)."""
        return self._s.treasure

    @property
    def pot(self) -> int:
        """Gems next to the knight (gems)."""
        return self._s.pot

    @property
    def position(self) -> int:
        """Knight position: 0 is the tail, 1..n the stripes, ``rules.head`` the head."""
        return self._s.position

    @property
    def stage(self) -> int:
        """Number of danger cards revealed so far."""
        return self._s.dangers_revealed

    @property
    def turn_owner(self) -> int:
        """Seat of the player whose turn it is."""
        return self._s.turn_owner

    @property
    def active_player(self) -> int:
        """Seat of the player revealing cards (the owner, or who took the turn over)."""
        return self._s.active

    @property
    def offer_to(self) -> int | None:
        """Seat of the player being offered the turn, during the ``OFFER`` phase."""
        return self._s.offer_queue[0] if self._s.phase is Phase.OFFER else None

    @property
    def offer_queue(self) -> tuple[int, ...]:
        """Seats still to be offered the held turn, in order (:attr:`offer_to` first); () outside an offer."""
        return tuple(self._s.offer_queue) if self._s.phase is Phase.OFFER else ()

    @property
    def to_move(self) -> int | None:
        """Seat of the player who must act now (None once the game is over)."""
        if self._s.phase is Phase.OVER:
            return None
        return self.offer_to if self._s.phase is Phase.OFFER else self._s.active

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def is_over(self) -> bool:
        return self._s.phase is Phase.OVER

    @property
    def ending(self) -> Outcome | None:
        """How the game ended, once it is over: ``Outcome.HEAD``, ``FINAL_DANGER`` or ``DECK_EMPTY``
        (each equal to its string value, e.g. ``"head"``); ``None`` before."""
        return self._s.ending

    @property
    def turn_number(self) -> int:
        return self._s.turn_number

    @property
    def bounty(self) -> int:
        """The bounty a takeover would cost now (gems)."""
        return self._rules.bounty(self._s.pot)

    @property
    def discards(self) -> tuple[Card, ...]:
        """Cards revealed so far, in order."""
        return tuple(self._discards)

    @property
    def last_card(self) -> Card | None:
        return self._s.last_card

    @property
    def remaining(self) -> Composition:
        """Composition of the undealt cards (their order stays hidden)."""
        comp = self._rules.composition
        for card in self._discards:
            comp = comp.without(card)
        return comp

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
        return leaders(self._s.gems) if self.is_over else ()

    def chance_outcomes(self) -> list[tuple[Card, Fraction]]:
        """The next card's possible values with exact probabilities from the remaining
        composition (count / cards left); ``[]`` when the deck is empty."""
        return self.remaining.outcomes()

    def public_state(self) -> dict[str, Any]:
        """Everything a person at the table can see, as a JSON-ready dict."""
        return {
            "players": list(self._players),
            "gems": list(self._s.gems),
            "treasure": self._s.treasure,
            "pot": self._s.pot,
            "position": self._s.position,
            "stage": self._s.dangers_revealed,
            "turn_number": self._s.turn_number,
            "turn_owner": self._s.turn_owner,
            "active_player": self._s.active,
            "offer_to": self.offer_to,
            "phase": self._s.phase.value,
            "bounty": self.bounty,
            "last_card": self._s.last_card.to_json() if self._s.last_card else None,
            "discards": [c.to_json() for c in self._discards],
            "remaining": {c.to_json(): n for c, n in self.remaining.counts()},
            "legal_actions": [a.value for a in self.legal_actions()],
            "ending": None if self._s.ending is None else self._s.ending.value,
            "winners": list(self.winners),
        }

    # -- actions -------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The actions :attr:`to_move` may take now."""
        return legal_in(self._s.phase)

    def is_terminal(self) -> bool:
        """Whether the game is over (the stepping interface's name for :attr:`is_over`)."""
        return self.is_over

    def returns(self) -> tuple[Fraction, ...]:
        """Each seat's share of the win: ``1/k`` for each of the ``k`` players with the most gems once
        the game is over (a shared win is split), 0 for the others; all 0 while it goes on."""
        return win_shares(self._s.gems) if self.is_over else (Fraction(0),) * len(self._players)

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
        game = copy.deepcopy(self)
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
        game = object.__new__(Game)
        game.__dict__.update(self.__dict__)  # the immutable parts: names, rules, seed
        game._deck = deck
        game._quiet = self._quiet or not events
        game._discards = list(self._discards)
        game._s = replace(self._s, gems=list(self._s.gems), offer_queue=list(self._s.offer_queue))
        game._events = list(self._events)  # events are frozen: the lists are copied, not their items
        game._actions = list(self._actions)
        game._gem_history = list(self._gem_history)
        return game

    def reveal(self, by: int | None = None) -> Card:
        """The active player reveals the top card; returns it."""
        self._check(Action.REVEAL, by)
        self._actions.append(Action.REVEAL)
        return self._reveal()

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
        try:
            return Action(action)
        except (TypeError, ValueError):
            allowed = ", ".join(a.value for a in Action)
            raise IllegalActionError(
                Message("unknown action {action}; actions are {allowed}", action=reprlib.repr(action), allowed=allowed)
            ) from None

    def _check(self, action: Action, by: int | None) -> None:
        s = self._s
        if s.phase is Phase.OVER:
            raise GameOverError(Message("the game is over; no {action} is possible", action=Phrase(action.value)))
        mover = self.to_move
        assert mover is not None  # the game is not over
        if by is not None and (isinstance(by, bool) or not isinstance(by, int) or by != mover):
            who = self._players[by] if isinstance(by, int) and 0 <= by < len(self._players) else reprlib.repr(by)
            raise NotYourTurnError(Message("it is {mover}'s move, not {who}'s", mover=self._players[mover], who=who))
        if action not in self.legal_actions():
            reason = {
                Phase.MUST_REVEAL: N_("{name} must reveal a card first"),
                Phase.CHOOSE: N_("{name} may only reveal or hold"),
                Phase.OFFER: N_("{name} may only take over or decline the offered turn"),
            }[s.phase]
            raise IllegalActionError(
                Message(
                    "cannot {action} now: {reason}",
                    action=Phrase(VERBS[action.value]),
                    reason=Message(reason, name=self._players[mover]),
                )
            )

    # -- applying ------------------------------------------------------------------

    def _emit(
        self, kind: str, template: str, player: int | None = None, amount: int | None = None, **fields: object
    ) -> None:
        if not self._quiet:
            self._events.append(Event(kind, template, player, amount, tuple(fields.items())))

    def _apply(self, action: Action) -> Card | None:
        self._actions.append(action)
        if action is Action.REVEAL:
            return self._reveal()
        if action is Action.HOLD:
            self._hold()
        elif action is Action.TAKE_OVER:
            self._take_over()
        else:
            self._decline()
        return None

    def _reveal(self) -> Card:
        s, rules, name = self._s, self._rules, self._players[self._s.active]
        card = self._deck.pop()
        self._discards.append(card)
        s.last_card = card
        self._emit("card_revealed", "{name} reveals {card}.", s.active, name=name, card=card)
        effect = rules.apply_card(
            card,
            position=s.position,
            pot=s.pot,
            gems=s.gems[s.active],
            treasure=s.treasure,
            dangers_revealed=s.dangers_revealed,
            cards_left=len(self._deck),
        )
        before, pot_before = s.position, s.pot
        s.position, s.pot, s.treasure = effect.position, effect.pot, effect.treasure
        s.gems[s.active] += effect.gems_change
        s.dangers_revealed = effect.dangers_revealed
        if card.kind == R.FOOTPRINT:
            if effect.outcome is Outcome.HEAD:
                self._emit(
                    "knight_moved", "The knight moves from {start} to the head.", s.active, card.steps, start=before
                )
            else:
                self._emit(
                    "knight_moved",
                    "The knight moves from {start} to stripe {end}.",
                    s.active,
                    card.steps,
                    start=before,
                    end=effect.position,
                )
        if effect.outcome is None:
            self._emit(
                "gems_placed",
                "The pot grows by {placed} from the treasure, to {pot}.",
                s.active,
                effect.gems_placed,
                placed=Gems(effect.gems_placed),
                pot=s.pot,
            )
            s.phase = Phase.CHOOSE
        elif effect.outcome is Outcome.HEAD:
            self._emit(
                "pot_collected",
                "{name} reaches the head and takes the pot and the treasure: {gain}.",
                s.active,
                effect.gems_change,
                name=name,
                gain=Gems(effect.gems_change),
            )
            self._end(Outcome.HEAD)
        elif effect.outcome is Outcome.STOPPED:
            self._emit(
                "stopped",
                "Stop! {name} pays a penalty of {penalty}; the pot returns to the treasure.",
                s.active,
                -effect.gems_change,
                name=name,
                penalty=Gems(-effect.gems_change),
            )
            self._end_turn()
        elif effect.outcome is Outcome.DANGER:
            stage = rules.stage(s.dangers_revealed)
            self._emit(
                "danger",
                "Danger {number}! {name} pays a penalty of {penalty}. "
                "From now on: penalty {rate}, multiplier x{multiplier}.",
                s.active,
                -effect.gems_change,
                number=s.dangers_revealed,
                name=name,
                penalty=Gems(-effect.gems_change),
                rate=str(stage.rate),
                multiplier=stage.multiplier,
            )
            self._end_turn()
        elif effect.outcome is Outcome.FINAL_DANGER:
            lost = -effect.gems_change
            if lost:
                self._emit(
                    "danger",
                    "Final danger! {name} loses {lost} and the pot.",
                    s.active,
                    lost,
                    name=name,
                    lost=Gems(lost),
                )
            elif pot_before:  # kali, drago-rosso: the final danger costs the pot only
                self._emit("danger", "Final danger! {name} loses the pot.", s.active, 0, name=name)
            else:  # ... and the pot was empty: it costs nothing
                self._emit("danger", "Final danger! {name} reveals it and the game ends.", s.active, 0, name=name)
            self._end(Outcome.FINAL_DANGER)
        else:  # DECK_EMPTY: the pot has gone back to the treasure
            self._end(Outcome.DECK_EMPTY)
        return card

    def _hold(self) -> None:
        s = self._s
        bounty = self.bounty
        self._emit(
            "held",
            "{name} holds with {pot} in the pot; the bounty is {bounty}.",
            s.active,
            s.pot,
            name=self._players[s.active],
            pot=Gems(s.pot),
            bounty=bounty,
        )
        s.offer_queue = list(offer_order(self._rules, s.gems, s.active, s.pot))
        self._offer_next()

    def _offer_next(self) -> None:
        s = self._s
        if s.offer_queue:
            s.phase = Phase.OFFER
            p = s.offer_queue[0]
            self._emit(
                "takeover_offered",
                "{name} may take over for {bounty}.",
                p,
                self.bounty,
                name=self._players[p],
                bounty=Gems(self.bounty),
            )
            return
        s.gems[s.active] += s.pot
        self._emit(
            "pot_collected",
            "Nobody takes over: {name} collects {pot}.",
            s.active,
            s.pot,
            name=self._players[s.active],
            pot=Gems(s.pot),
        )
        s.pot = 0
        self._end_turn()

    def _take_over(self) -> None:
        s = self._s
        taker, holder, bounty = s.offer_queue[0], s.active, self.bounty
        s.gems[taker] -= bounty
        s.gems[holder] += bounty
        self._emit(
            "bounty_paid",
            "{taker} pays {bounty} to {holder} and takes over.",
            taker,
            bounty,
            taker=self._players[taker],
            bounty=Gems(bounty),
            holder=self._players[holder],
        )
        s.active, s.offer_queue, s.phase = taker, [], Phase.MUST_REVEAL

    def _decline(self) -> None:
        s = self._s
        p = s.offer_queue.pop(0)
        self._emit("declined", "{name} declines.", p, name=self._players[p])
        self._offer_next()

    def _end_turn(self) -> None:
        s = self._s
        owner = next_turn_owner(s.turn_owner, len(self._players), len(self._deck))
        if owner is None:  # custom decks without danger cards can run out
            self._end(Outcome.DECK_EMPTY)
            return
        self._gem_history.append(tuple(s.gems))
        s.turn_owner = owner
        s.active, s.position, s.pot, s.phase = s.turn_owner, 0, 0, Phase.MUST_REVEAL
        s.turn_number += 1
        self._emit(
            "turn_started",
            "Turn {number}: {name}'s turn.",
            s.turn_owner,
            number=s.turn_number,
            name=self._players[s.turn_owner],
        )

    def _end(self, ending: Outcome) -> None:
        s = self._s
        if s.pot:  # only the deck running out leaves a pot: it returns to the treasure
            s.treasure += s.pot
            s.pot = 0
        s.ending, s.phase, s.offer_queue = ending, Phase.OVER, []
        self._gem_history.append(tuple(s.gems))
        fields = dict(
            ending=Phrase(ending.ending),
            names=tuple(self._players[i] for i in self.winners),
            best=Gems(max(s.gems)),
        )
        if self._quiet:
            return
        self._events.append(
            Event(
                "game_over",
                "Game over ({ending}): {names} wins with {best}.",
                None,
                max(s.gems),
                tuple(fields.items()),
                "Game over ({ending}): {names} win with {best}.",
                len(self.winners),
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
