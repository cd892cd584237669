"""Bots: policies that play whole games of Dragon Stripes.

A bot is asked for a move only when it is :attr:`Game.to_move`; it answers
with one of ``game.legal_actions()`` (reveals, holds, and takeover offers
alike).  Bots read the public state only, never the order of the deck.

A bot is also named by a short *spec*, as ``dragonkit tournament --bots`` and
:func:`dragonkit.simulate.round_robin` take it: its kind's value (``coach``), and
for a kind whose bot takes a number (its :attr:`Bot.spec_parameter`) a colon and
the number (``threshold:20``).  :func:`parse_spec` reads one for every kind of
:data:`BOTS`, so a new kind of bot plays in tournaments as soon as it is there.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, NamedTuple

from .analysis import SolvedTurn, TurnState, takeover_gain
from .analysis.win.late import LateGame
from .analysis.win.model import EQUAL, solver_for
from .engine import Game
from .game_state import Phase
from .rules import whole_number
from .turn import Action

__all__ = [
    "BOTS",
    "Bot",
    "BotKind",
    "CoachBot",
    "ParsedSpec",
    "RandomBot",
    "SpecParameter",
    "ThresholdBot",
    "WinBot",
    "bot_seed",
    "make_bot",
    "parse_spec",
    "spec_forms",
]


class BotKind(StrEnum):
    """Who plays a seat: a person or a kind of bot.

    The values are stable keys (saved, typed in ``dragonkit tournament --bots``, compared in tests); what a
    person reads is a translated label, written by the app's setup form (:data:`dragonkit.ui.setup.SEAT_KINDS`).
    """

    HUMAN = "human"  #: a person at the table (hot seat): no bot
    COACH = "coach"  #: :class:`CoachBot`
    WIN = "win"  #: :class:`WinBot`
    THRESHOLD = "threshold"  #: :class:`ThresholdBot`
    RANDOM = "random"  #: :class:`RandomBot`


@dataclass(frozen=True)
class SpecParameter:
    """The whole number a bot's spec gives after its kind and a colon (``threshold:20``).

    Attributes
    ----------
    name : str
        The keyword argument of the bot's constructor that it sets (``"threshold"``).
    default : int
        Its value where the spec gives none (``threshold`` alone).
    symbol : str
        How a usage line writes it (``"T"``: ``threshold:T``).
    meaning : str
        What it is, for a usage line (``"the pot in gems at which it holds"``).
    """

    name: str
    default: int
    symbol: str
    meaning: str


class Bot:
    """Base class.  Subclasses implement :meth:`choose`; a kind of bot is offered once it is in :data:`BOTS`."""

    #: The bot's kind: its key in :data:`BOTS`.
    kind: BotKind
    #: The number a spec of this kind gives after a colon (``threshold:20``); None for a kind that takes none.
    spec_parameter: ClassVar[SpecParameter | None] = None

    @classmethod
    def from_spec(cls, value: int | None, seed: int) -> Bot:
        """The bot a spec of this kind names, as a tournament plays it (:meth:`ParsedSpec.make`).

        Parameters
        ----------
        value : int or None
            The spec's number (:attr:`spec_parameter`; its default where the spec gives none), None for a
            kind that takes none.
        seed : int
            For a bot that draws at random (:func:`bot_seed`).

        By default the bot is built with the number as its :attr:`spec_parameter`'s keyword argument, if any.
        """
        parameter = cls.spec_parameter
        return cls() if parameter is None else cls(**{parameter.name: value})

    def choose(self, game: Game) -> Action:
        """The action to take in ``game``, where this bot is :attr:`Game.to_move`.

        Returns
        -------
        Action
            One of ``game.legal_actions()``.
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Plays a uniformly random legal action.

    Parameters
    ----------
    seed : int, optional
        Seeds the bot's own ``random.Random``.
    """

    kind = BotKind.RANDOM

    @classmethod
    def from_spec(cls, value: int | None, seed: int) -> Bot:
        """A random bot seeded with ``seed``."""
        return cls(seed=seed)

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self._rng.choice(game.legal_actions())

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed!r})"


class ThresholdBot(Bot):
    """Reveals until the pot reaches ``threshold`` gems, then holds.

    It takes over an offered turn when the pot is still below its threshold and
    the bounty is at most ``max_bounty`` gems (by default half the threshold):
    the turn is then worth pushing on by its own rule.

    Parameters
    ----------
    threshold : int
        Hold as soon as the pot is at least this many gems.
    max_bounty : int, optional
        The largest bounty it pays for a takeover (gems).
    """

    kind = BotKind.THRESHOLD
    spec_parameter = SpecParameter("threshold", 20, "T", "the pot in gems at which it holds")

    def __init__(self, threshold: int = spec_parameter.default, max_bounty: int | None = None):
        self.threshold = whole_number(threshold, "threshold", minimum=0)
        self.max_bounty = self.threshold // 2 if max_bounty is None else max_bounty

    def choose(self, game: Game) -> Action:
        if game.phase is Phase.OFFER:
            worth = game.pot < self.threshold and game.bounty <= self.max_bounty
            return Action.TAKE_OVER if worth else Action.DECLINE
        if game.phase is Phase.CHOOSE and game.pot >= self.threshold:
            return Action.HOLD
        return Action.REVEAL

    def __repr__(self) -> str:
        return f"ThresholdBot(threshold={self.threshold}, max_bounty={self.max_bounty})"


class CoachBot(Bot):
    """Plays the exact optimum of :func:`~dragonkit.analysis.solve_turn`, and takes
    over exactly when :func:`~dragonkit.analysis.takeover_gain` is positive.

    It solves a turn once, at its first decision (:class:`~dragonkit.analysis.SolvedTurn`),
    and looks the later decisions of the same turn up.

    Parameters
    ----------
    exact : bool
        Decide with ``Fraction`` arithmetic (no rounding in comparisons).
    """

    kind = BotKind.COACH

    @classmethod
    def from_spec(cls, value: int | None, seed: int) -> Bot:
        """The coach deciding in floats (``exact=False``): a tournament's many games, quickly."""
        return cls(exact=False)

    def __init__(self, exact: bool = True):
        self.exact = exact
        self._turn: SolvedTurn | None = None

    def choose(self, game: Game) -> Action:
        state = TurnState.from_game(game)
        if game.phase is Phase.OFFER and game.offer_to is not None:  # offer_to is None outside an offer
            gain = takeover_gain(state, game.gems[game.offer_to], game.bounty, exact=self.exact)
            return Action.TAKE_OVER if gain > 0 else Action.DECLINE
        solution = self._turn.solution(state) if self._turn is not None else None
        if solution is None:  # a new turn (or a takeover): solve it once
            self._turn = SolvedTurn(state, exact=self.exact)
            solution = self._turn.solution(state)
            assert solution is not None  # the state is its own graph's root
        return solution.best_action

    def __repr__(self) -> str:
        return f"CoachBot(exact={self.exact})"


class WinBot(Bot):
    """Plays to win the game, not the turn: the action of the highest probability of winning in a two-player
    game, by the race model's table where the final danger costs all the revealer's gems
    (:class:`~dragonkit.analysis.win.race.WinTable`: ``dragon-stripes``, ``mini``), and where it costs only
    the pot (``kali``, ``drago-rosso``) exactly once :data:`~dragonkit.analysis.win.late.LATE_CARDS` cards are
    left (:class:`~dragonkit.analysis.win.late.LateGame`) and by the gems model before
    (:class:`~dragonkit.analysis.win.gems.GemsWinTable`).  Between actions of the same probability of winning
    (within :data:`~dragonkit.analysis.win.model.EQUAL`) it takes :class:`CoachBot`'s, the turn's expected gems.
    With more players it plays as :class:`CoachBot`.

    Parameters
    ----------
    exact : bool
        For the coach's moves (see :class:`CoachBot`).
    """

    kind = BotKind.WIN

    @classmethod
    def from_spec(cls, value: int | None, seed: int) -> Bot:
        """The win bot with the coach deciding in floats (``exact=False``), as :meth:`CoachBot.from_spec`."""
        return cls(exact=False)

    def __init__(self, exact: bool = True):
        self.exact = exact
        self._coach = CoachBot(exact=exact)
        self._late = LateGame()

    def choose(self, game: Game) -> Action:
        state = game.state
        found = solver_for(state, self._late)
        if found is None:
            return self._coach.choose(game)
        values = found[0].action_values(state)
        best = max(values.values())
        tied = [action for action, p in values.items() if p >= best - EQUAL]
        if len(tied) == 1:
            return tied[0]
        by_gems = self._coach.choose(game)
        return by_gems if by_gems in tied else tied[0]

    def __repr__(self) -> str:
        return f"WinBot(exact={self.exact})"


#: Bot factories by :attr:`Bot.kind`, as offered in the app.
BOTS: dict[BotKind, type[Bot]] = {cls.kind: cls for cls in (CoachBot, WinBot, ThresholdBot, RandomBot)}


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot sitting at ``seat`` (0-based) in a game seeded ``game_seed``:
    ``game_seed + seat``, so that a seeded game is played again move for move, bots' choices included,
    and two random bots of one game do not choose alike."""
    return game_seed + seat


def make_bot(kind: BotKind | str, **options: object) -> Bot:
    """A bot by kind (:class:`BotKind`, or its value: ``"coach"``, ``"threshold"``, ``"random"``).

    Raises
    ------
    ValueError
        For an unknown kind; the message lists the kinds.
    """
    try:
        factory = BOTS[BotKind(kind)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"unknown bot {str(kind)!r}; choose one of {', '.join(BOTS)}") from None
    return factory(**options)


class ParsedSpec(NamedTuple):
    """A bot spec read by :func:`parse_spec`: the kind, and its number where the kind takes one."""

    kind: BotKind
    #: The spec's number (its :class:`SpecParameter`'s default where the spec gives none); None for a kind without.
    value: int | None = None

    def make(self, seed: int) -> Bot:
        """The bot the spec names (:meth:`Bot.from_spec`), ``seed`` for a bot that draws at random."""
        return BOTS[self.kind].from_spec(self.value, seed)


_NUMBER = re.compile(r"[0-9]{1,4}")  # a spec's number: a whole number of at most four digits
_TWIN = re.compile(r"[0-9]+")  # after "#": what tells two bots of the same spec apart ("random#2")


def spec_forms() -> str:
    """How a spec of each kind of :data:`BOTS` is written, with what its number means, for a usage line:
    ``"coach, win, threshold[:T], random (T: the pot in gems at which it holds, 20 if left out)"``."""
    forms, meanings = [], []
    for kind, bot in BOTS.items():
        parameter = bot.spec_parameter
        if parameter is None:
            forms.append(kind.value)
        else:
            forms.append(f"{kind.value}[:{parameter.symbol}]")
            meanings.append(f"{parameter.symbol}: {parameter.meaning}, {parameter.default} if left out")
    return ", ".join(forms) + (f" ({'; '.join(meanings)})" if meanings else "")


def parse_spec(spec: str) -> ParsedSpec:
    """Read a bot spec: a kind of :data:`BOTS` (``"coach"``), and for a kind that takes a number
    (:attr:`Bot.spec_parameter`) optionally a colon and the number (``"threshold:20"``); the one reader of a
    spec, for ``dragonkit tournament --bots``, :mod:`dragonkit.simulate` and the lessons.

    Parameters
    ----------
    spec : str
        Surrounding spaces are ignored, and so is a ``#`` and a number at the end, which a tournament appends to
        tell two bots of the same spec apart (``"random#2"``).

    Returns
    -------
    ParsedSpec

    Raises
    ------
    ValueError
        For a spec of no kind of bot (``"human"`` included), a number given to a kind that takes none, or a
        number that is not a whole number of at most four digits; the message says how specs are written.
    """
    text = str(spec).strip()
    named, mark, twin = text.partition("#")
    name, colon, number = named.partition(":")
    kind = next((k for k in BOTS if k.value == name), None)
    parameter = None if kind is None else BOTS[kind].spec_parameter
    wrong_number = colon and (parameter is None or _NUMBER.fullmatch(number) is None)
    if kind is None or wrong_number or (mark and _TWIN.fullmatch(twin) is None):
        raise ValueError(f"unknown bot {text!r}; use {spec_forms()}")
    if parameter is None:
        return ParsedSpec(kind)
    return ParsedSpec(kind, int(number) if colon else parameter.default)
