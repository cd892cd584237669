"""The rules of Dragon Stripes: the ruleset, the deck and the rule arithmetic.

This module is the single source of truth for what a card does.  The engine
applies :func:`Ruleset.apply_card` to a live game, the analysis applies the very
same function to every chance outcome it enumerates, and the app asks the
engine.  Nothing here knows about randomness, game state or the user interface.

The rules are those of ``shared/RULES.md``.  In short, with ``d`` the number of
danger cards revealed so far (the *stage*):

* a footprint card of ``n`` steps moves the knight ``n`` positions; past the
  last stripe it reaches the head, otherwise the stripe's value times the
  stage multiplier moves from the treasure into the pot (capped by what the
  treasure holds);
* a stop card costs the active player ``floor(rate(d) * gems)``; the pot goes
  back to the treasure;
* a danger card first raises ``d``; a non-final danger is a stop at the new
  stage's rate, the final one costs what ``final_danger`` says and ends the game.
"""

from __future__ import annotations

import dataclasses
import decimal
import numbers
import re
import reprlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from fractions import Fraction
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeAlias, TypeVar, overload

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    IntArray: TypeAlias = NDArray[np.int64]

from .i18n import N_, Gems, ntr, tr

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PRESETS",
    "Card",
    "CardEffect",
    "CardKind",
    "Composition",
    "FinalDanger",
    "FootprintEffect",
    "Message",
    "Outcome",
    "Ruleset",
    "Stage",
    "WholeNumberError",
    "whole_number",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 6


class Message(str):
    """A message readable in every language of :mod:`dragonkit.i18n`; the string itself is English.

    Errors a learner can meet (an invalid ruleset, an illegal move, a wrong entry
    in the app's form) are raised with a ``Message`` as their only argument:
    ``str(exc)`` is the English text, so a message reads and matches as a plain
    one, and :meth:`describe` writes it in another language.  The msgid is the
    English template, as for :func:`dragonkit.i18n.tr`; the other languages'
    texts are in the gettext catalogs ``dragonkit/i18n/locales/`` (``pybabel
    extract`` finds every ``Message("...")`` written with a literal msgid).

    Parameters
    ----------
    msgid : str
        The English text with named fields, e.g. ``"seat {seat} needs a name"``.
    **fields
        The fields' values: anything :func:`~dragonkit.i18n.tr` accepts (numbers,
        names, :class:`~dragonkit.i18n.Gems`, :class:`~dragonkit.i18n.Phrase` ...)
        or another ``Message``, which is translated too.

    Examples
    --------
    >>> error = ValueError(Message("footprints lists {steps} steps twice", steps=2))
    >>> str(error), Message.of(error).describe("it")
    ('footprints lists 2 steps twice', 'footprints elenca due volte le impronte da 2')
    """

    msgid: str
    fields: dict[str, object]

    def __new__(cls, msgid: str, /, **fields: object) -> Message:
        message = super().__new__(cls, tr(msgid, "en", **fields))
        message.msgid, message.fields = msgid, fields
        return message

    def __getnewargs_ex__(
        self,
    ) -> tuple[tuple[str], dict[str, object]]:  # copies and pickles (errors sent between processes) keep the msgid
        return (self.msgid,), self.fields

    def describe(self, lang: str | None = None) -> str:
        """The message in ``lang`` (default: the current language).

        Raises
        ------
        ValueError
            For a language the kit does not speak.
        """
        return tr(self.msgid, lang, **self.fields)  # a Message field is Describable: written in lang too

    @staticmethod
    def of(exc: BaseException) -> Message | str:
        """What an exception says: the ``Message`` it was raised with, else its plain text (not translatable)."""
        first = exc.args[0] if len(exc.args) == 1 else None
        return first if isinstance(first, Message) else str(exc)


class Outcome(str, Enum):
    """How a turn ends: the one list of endings, for the engine's events, the analysis,
    the simulator, the lessons and the app alike.

    A card that moves the knight without reaching the head ends nothing: its
    :attr:`CardEffect.outcome` is ``None``.  Three outcomes also end the game:
    :attr:`HEAD`, :attr:`FINAL_DANGER` and :attr:`DECK_EMPTY` (see :attr:`ends_game`).
    """

    HELD = "held"
    STOPPED = "stopped"
    DANGER = "danger"
    FINAL_DANGER = "final_danger"
    HEAD = "head"
    DECK_EMPTY = "deck_empty"

    @property
    def label(self) -> str:
        """A short English name (a msgid of :func:`dragonkit.i18n.tr`): ``"held"``, ``"stopped"``,
        ``"danger"``, ``"final danger"``, ``"head"``, ``"deck empty"``."""
        return _LABELS[self]

    @property
    def ends_game(self) -> bool:
        """Whether the game ends with the turn: the head, the final danger, the deck running out."""
        return self in (Outcome.HEAD, Outcome.FINAL_DANGER, Outcome.DECK_EMPTY)

    @property
    def ending(self) -> str:
        """How a game that ends this way ended, as an English phrase (a msgid), e.g.
        ``"the knight reached the head"``.

        Raises
        ------
        ValueError
            For an outcome that does not end the game.
        """
        if not self.ends_game:
            raise ValueError(f"a turn that ends {self.label!r} does not end the game")
        return _ENDINGS[self]


_LABELS = {
    Outcome.HELD: N_("held"),
    Outcome.STOPPED: N_("stopped"),
    Outcome.DANGER: N_("danger"),
    Outcome.FINAL_DANGER: N_("final danger"),
    Outcome.HEAD: N_("head"),
    Outcome.DECK_EMPTY: N_("deck empty"),
}

_ENDINGS = {
    Outcome.HEAD: N_("the knight reached the head"),
    Outcome.FINAL_DANGER: N_("the final danger"),
    Outcome.DECK_EMPTY: N_("the deck ran out"),
}


class FinalDanger(StrEnum):
    """What the final danger card costs its revealer (:attr:`Ruleset.final_danger`); either way the game ends.

    A ``str``: a member equals its value (``FinalDanger.ALL_GEMS == "all_gems"``), which is what a ruleset's
    dict and JSON hold.
    """

    ALL_GEMS = "all_gems"  #: all the revealer's gems (``dragon-stripes``, ``mini``)
    POT_ONLY = "pot_only"  #: only the pot, which goes back to the treasure; no penalty (``kali``, ``drago-rosso``)


#: Allowed values of :attr:`Ruleset.final_danger`, as a ruleset's dict writes them.
FINAL_DANGER_COSTS = tuple(cost.value for cost in FinalDanger)


class CardKind(StrEnum):
    """The three kinds of card: a footprint moves the knight, a stop ends the turn, a danger raises the stage.

    A ``str``: a member equals its value (``CardKind.STOP == "stop"``), which is also the msgid of the kind's
    name (:meth:`Card.describe` writes a stop and a danger by it), what a saved game's and the record's cards
    are named from, and what the palette's colours are keyed by.
    """

    FOOTPRINT = N_("footprint")
    STOP = N_("stop")
    DANGER = N_("danger")


@dataclass(frozen=True, order=True, init=False)
class Card:
    """One card of the deck.

    Parameters
    ----------
    kind : CardKind or str
        The kind, or its value (``"footprint"``, ``"stop"``, ``"danger"``): it is kept as a :class:`CardKind`.
    steps : int
        Number of positions a footprint card moves the knight (cards); 0 for
        stop and danger cards.

    Raises
    ------
    ValueError
        For another kind, a footprint of fewer than 1 step (or not a whole number), or steps on a stop or a danger.
    """

    kind: CardKind
    steps: int = 0

    def __init__(self, kind: CardKind | str, steps: int = 0) -> None:
        if type(kind) is not CardKind:  # a CardKind needs no lookup by value
            try:
                kind = CardKind(kind)
            except ValueError:
                kinds = ", ".join(repr(k.value) for k in CardKind)
                raise ValueError(f"card kind must be one of {kinds}, not {reprlib.repr(kind)}") from None
        if kind is CardKind.FOOTPRINT:
            steps = whole_number(steps, "a footprint card's steps", minimum=1)
        elif steps != 0:
            raise ValueError(f"a {kind} card has no steps")
        # set at once, not through the frozen class's checked assignment (as Composition)
        self.__dict__.update(kind=kind, steps=steps)

    @classmethod
    def footprint(cls, steps: int) -> Card:
        """A footprint card of ``steps`` steps."""
        return cls(CardKind.FOOTPRINT, steps)

    @property
    def label(self) -> str:
        """A short readable name, e.g. ``"2 steps"``, ``"stop"``, ``"danger"``."""
        if self.kind is CardKind.FOOTPRINT:
            return f"{self.steps} step" + ("s" if self.steps != 1 else "")
        return self.kind.value

    def describe(self, lang: str | None = None) -> str:
        """The card's name in ``lang`` (default: the current language), as :func:`~dragonkit.i18n.tr` writes it.

        ``"2 steps"`` / ``"2 passi"``, ``"stop"``, ``"danger"`` / ``"pericolo"``.

        Raises
        ------
        ValueError
            For a language the kit does not speak.
        """
        if self.kind is CardKind.FOOTPRINT:  # the kind names of the other cards are their msgids
            return ntr("{n} step", "{n} steps", self.steps, lang, n=self.steps)
        return tr(self.kind, lang)

    def to_json(self) -> str:
        """The card as a short string: ``"F2"``, ``"S"`` or ``"D"``."""
        return f"F{self.steps}" if self.kind is CardKind.FOOTPRINT else self.kind.value[0].upper()

    @classmethod
    def from_json(cls, text: str) -> Card:
        """Inverse of :meth:`to_json`; raises ``ValueError`` on anything else."""
        if text == "S":
            return STOP_CARD
        if text == "D":
            return DANGER_CARD
        if isinstance(text, str) and text[:1] == "F" and text[1:].isdigit():
            return cls.footprint(int(text[1:]))
        raise ValueError(f"not a card: {text!r}")

    def __str__(self) -> str:
        return self.label


STOP_CARD = Card(CardKind.STOP)
DANGER_CARD = Card(CardKind.DANGER)
_second = itemgetter(1)  # the count of a (steps, count) pair


@dataclass(frozen=True, init=False)
class Composition:
    """The multiset of cards left in a deck: what a person at the table can count.

    Parameters
    ----------
    footprints : tuple of (steps, count) pairs
        Footprint cards by number of steps, sorted by steps; counts >= 0.
    stops, dangers : int
        Stop and danger cards left.
    """

    footprints: tuple[tuple[int, int], ...]
    stops: int
    dangers: int

    def __init__(self, footprints: tuple[tuple[int, int], ...], stops: int, dangers: int) -> None:
        # set at once, not through the frozen class's checked assignment: a game makes one at every card
        self.__dict__.update(footprints=footprints, stops=stops, dangers=dangers)

    @classmethod
    def of(cls, footprints: Mapping[int, int], stops: int, dangers: int) -> Composition:
        """Build from a mapping ``steps -> count`` (zero counts are kept)."""
        return cls(tuple(sorted((int(s), int(c)) for s, c in dict(footprints).items())), int(stops), int(dangers))

    @property
    def total(self) -> int:
        """Number of cards left (cards)."""
        footprints: int = sum(map(_second, self.footprints))  # map: no generator to resume
        return footprints + self.stops + self.dangers

    def count(self, card: Card) -> int:
        """How many copies of ``card`` are left."""
        if card.kind is CardKind.STOP:
            return self.stops
        if card.kind is CardKind.DANGER:
            return self.dangers
        return dict(self.footprints).get(card.steps, 0)

    def counts(self) -> Iterator[tuple[Card, int]]:
        """Every kind of card with its count, footprints first (zero counts included)."""
        for steps, c in self.footprints:
            yield Card.footprint(steps), c
        yield STOP_CARD, self.stops
        yield DANGER_CARD, self.dangers

    def outcomes(self) -> list[tuple[Card, Fraction]]:
        """The next card's distribution: ``(card, probability)`` pairs with exact
        ``Fraction`` probabilities ``count / total`` (the hypergeometric law of one
        draw).  Cards with no copy left are omitted; an empty deck gives ``[]``."""
        total = self.total
        return [(card, Fraction(c, total)) for card, c in self.counts() if c > 0]

    def without(self, card: Card) -> Composition:
        """The composition after one ``card`` is drawn.

        Raises
        ------
        ValueError
            If no such card is left.
        """
        kind = card.kind
        if kind is CardKind.FOOTPRINT:  # a game steps through here at every card: one pass over the few kinds
            fp = list(self.footprints)
            for i, (steps, c) in enumerate(fp):
                if steps == card.steps and c > 0:
                    fp[i] = (steps, c - 1)
                    return Composition(tuple(fp), self.stops, self.dangers)
        elif kind is CardKind.STOP and self.stops > 0:
            return Composition(self.footprints, self.stops - 1, self.dangers)
        elif kind is CardKind.DANGER and self.dangers > 0:
            return Composition(self.footprints, self.stops, self.dangers - 1)
        raise ValueError(f"no {card.label} card left in the deck")

    def cards(self) -> list[Card]:
        """Every card as a list, in a canonical (sorted) order."""
        return [card for card, c in self.counts() for _ in range(c)]


@dataclass(frozen=True)
class Stage:
    """What the stage ``d`` (dangers revealed so far) costs and pays.

    Parameters
    ----------
    rate : Fraction
        Stop penalty as a fraction of the active player's gems (rounded down).
    multiplier : int
        Factor applied to the stripe's gems when the knight lands on it.
    """

    rate: Fraction
    multiplier: int


#: The number type of a :class:`FootprintEffect`: ``int``, or an ndarray of int (many situations at once).
_N = TypeVar("_N")


class FootprintEffect(NamedTuple, Generic[_N]):
    """What a footprint card does (:meth:`Ruleset.footprint_effect`): ints for one situation, or numpy integer
    arrays (broadcast from the inputs) for many at once."""

    position: _N  #: the knight's position after the card (``Ruleset.head`` at the head)
    placed: _N  #: gems moved from the treasure into the pot (0 at the head)
    pot: _N  #: the pot after the card (gems; 0 once the turn has ended)
    gems_change: _N  #: the active player's gems won: the pot and the treasure at the head, else 0
    treasure: _N  #: the treasure after the card (gems)
    at_head: _N  #: 1 where the knight reached the head, else 0
    deck_empty: _N  #: 1 where the card was the deck's last and the knight did not reach the head, else 0


@dataclass(frozen=True, init=False)
class CardEffect:
    """What one revealed card does to the turn.  Produced by :meth:`Ruleset.apply_card`.

    Attributes
    ----------
    outcome : Outcome or None
        ``None`` when the knight moved and the turn goes on; else how the turn
        ends: ``HEAD``, ``STOPPED``, ``DANGER`` (a non-final danger, treated as a
        stop), ``FINAL_DANGER`` or ``DECK_EMPTY`` (custom rulesets: the last card was drawn).
    position : int
        Knight position afterwards (0..len(stripe_values); ``len + 1`` is the head).
    gems_placed : int
        Gems moved from the treasure into the pot by this card (gems).
    pot : int
        Gems next to the knight afterwards (0 once the turn has ended).
    gems_change : int
        Change of the active player's own gems (gems): ``-penalty`` for a stop or
        danger, ``-gems`` or 0 for the final danger, ``pot + treasure`` at the head.
    treasure : int
        Gems in the treasure afterwards.
    dangers_revealed : int
        The stage afterwards.
    """

    outcome: Outcome | None
    position: int
    gems_placed: int
    pot: int
    gems_change: int
    treasure: int
    dangers_revealed: int

    def __init__(
        self,
        outcome: Outcome | None,
        position: int,
        gems_placed: int,
        pot: int,
        gems_change: int,
        treasure: int,
        dangers_revealed: int,
    ) -> None:
        # set at once, not through the frozen class's checked assignment: every revealed card makes one
        self.__dict__.update(
            outcome=outcome,
            position=position,
            gems_placed=gems_placed,
            pot=pot,
            gems_change=gems_change,
            treasure=treasure,
            dangers_revealed=dangers_revealed,
        )

    @property
    def ends_turn(self) -> bool:
        """True unless the knight moved and the turn goes on (``outcome is None``)."""
        return self.outcome is not None

    @property
    def ends_game(self) -> bool:
        """True for the head, the final danger and an exhausted deck."""
        return self.outcome is not None and self.outcome.ends_game

    def describe(self, lang: str | None = None, *, hypothetical: bool = False) -> str:
        """What the card does to the active player, as a short clause in ``lang`` (default: the
        current language): the one wording of a card's effect, e.g. ``"stop: you pay a penalty of
        3 gems and the pot goes back to the treasure"``; with ``hypothetical``, what it would have
        done to a player who held instead (``"stop: you would have paid a penalty of 3 gems and
        lost the pot"``).

        A final danger that costs only the pot (``final_danger="pot_only"``) is worded apart.
        """
        outcome, loss, past = self.outcome, Gems(-self.gems_change), hypothetical
        if outcome is None:
            return tr(
                N_("the knight would have moved to stripe {position} and the pot grown to {pot}")
                if past
                else N_("the knight moves to stripe {position} and the pot grows to {pot}"),
                lang,
                position=self.position,
                pot=Gems(self.pot),
            )
        if outcome is Outcome.HEAD:
            return tr(
                N_("the knight would have reached the head: you would have taken the pot and the treasure, {gain}")
                if past
                else N_("the knight reaches the head: you take the pot and the treasure, {gain}"),
                lang,
                gain=Gems(self.gems_change),
            )
        if outcome is Outcome.STOPPED:
            return tr(
                N_("stop: you would have paid a penalty of {penalty} and lost the pot")
                if past
                else N_("stop: you pay a penalty of {penalty} and the pot goes back to the treasure"),
                lang,
                penalty=loss,
            )
        if outcome is Outcome.DANGER:
            return tr(
                N_(
                    "danger: you would have paid a penalty of {penalty} and lost the pot, and the stage would have "
                    "risen to {stage}"
                )
                if past
                else N_(
                    "danger: you pay a penalty of {penalty}, the pot goes back to the treasure and the stage "
                    "rises to {stage}"
                ),
                lang,
                penalty=loss,
                stage=self.dangers_revealed,
            )
        if outcome is Outcome.FINAL_DANGER:
            if self.gems_change:
                return tr(
                    N_("the final danger: you would have lost {lost} and the pot, and the game would have ended")
                    if past
                    else N_("the final danger: you lose {lost} and the pot, and the game ends"),
                    lang,
                    lost=loss,
                )
            return tr(
                N_("the final danger: you would have lost the pot, and the game would have ended")
                if past
                else N_("the final danger: you lose the pot, and the game ends"),
                lang,
            )
        return tr(
            N_("the deck would have run out: the pot would have gone back to the treasure and the game ended")
            if past
            else N_("the deck runs out: the pot goes back to the treasure and the game ends"),
            lang,
        )


#: Bounds that keep every ruleset playable and every computation small (a saved
#: game is untrusted input: a billion-card deck must be refused, not built).
LIMITS = {
    "gems": 10**9,
    "stripe": 10**6,
    "stripes": 200,
    "steps": 100,
    "cards": 500,
    "deck": 1000,
    "multiplier": 1000,
    "denominator": 10**6,
}


_SIMPLE_NUMBER = re.compile(r"\s*-?[0-9]{1,10}(\.[0-9]{1,10}|/[0-9]{1,10})?\s*")


def _show(value: Any) -> str:
    return reprlib.repr(value)


def _fraction(value: Any, name: str) -> Fraction:
    def problem() -> ValueError:
        return ValueError(Message("{name} must be a number such as 1/4, not {value}", name=name, value=shown))

    shown = _show(value)
    if isinstance(value, (float, decimal.Decimal, str)):
        value = str(value)  # plain decimals and fractions only: no exponents, no infinities
        if not _SIMPLE_NUMBER.fullmatch(value):
            raise problem()
    elif isinstance(value, bool) or not isinstance(value, numbers.Rational):
        raise problem()
    try:
        fraction = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise problem() from None
    if abs(fraction.numerator) > LIMITS["denominator"] or fraction.denominator > LIMITS["denominator"]:
        raise ValueError(
            Message(
                "{name} must be a simple fraction (terms up to {limit}), not {value}",
                name=name,
                limit=LIMITS["denominator"],
                value=str(fraction),
            )
        )
    return fraction


class WholeNumberError(TypeError, ValueError):
    """A value that is not a whole number at all (a bool, a float, even ``3.0``, a string, None ...).

    A :class:`TypeError`, and a :class:`ValueError` too, as the kit has always raised for such values: code that
    catches either keeps working.  Raised by :func:`whole_number`.
    """


def whole_number(value: object, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as a Python ``int``, checked: the kit's one test of a whole-number argument.

    Accepts Python ints and numpy integers (``np.int64``, ``np.int32`` ...); refuses ``bool`` (``True`` is no
    count of gems) and every float, even a whole one like ``3.0``.

    Parameters
    ----------
    value : object
        What was given.
    name : str
        The argument's name, for the message (e.g. ``"starting_gems"``, ``"gems[1]"``).
    minimum, maximum : int, optional
        The bounds, both included.

    Returns
    -------
    int

    Raises
    ------
    WholeNumberError
        (a ``TypeError`` and a ``ValueError``) if ``value`` is not a whole number.
    ValueError
        If it lies outside the bounds.  Either message (a :class:`Message`, for any language) names the argument,
        the whole numbers allowed and what was given.
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise WholeNumberError(_whole_number_message(value, name, minimum, maximum))
    number = int(value)
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise ValueError(_whole_number_message(value, name, minimum, maximum))
    return number


def _whole_number_message(value: object, name: str, minimum: int | None, maximum: int | None) -> Message:
    """What :func:`whole_number` says of ``value`` (written only when it refuses one: states check many)."""
    if minimum is None and maximum is None:
        return Message("{name} must be a whole number, not {value}", name=name, value=_show(value))
    if maximum is None:
        return Message(
            "{name} must be a whole number >= {minimum}, not {value}", name=name, minimum=minimum, value=_show(value)
        )
    if minimum is None:
        return Message(
            "{name} must be a whole number <= {maximum}, not {value}", name=name, maximum=maximum, value=_show(value)
        )
    return Message(
        "{name} must be a whole number from {minimum} to {maximum}, not {value}",
        name=name,
        minimum=minimum,
        maximum=maximum,
        value=_show(value),
    )


def _stage(value: Any, index: int) -> Stage:
    name = f"stages[{index}]"
    if isinstance(value, Stage):
        rate, mult = value.rate, value.multiplier
    elif isinstance(value, Mapping) and set(value) == {"rate", "multiplier"}:
        rate, mult = value["rate"], value["multiplier"]
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        rate, mult = value
    else:
        raise ValueError(
            Message(
                "{name} must be a Stage, a (rate, multiplier) pair or a dict with those keys, not {value}",
                name=name,
                value=repr(value),
            )
        )
    rate = _fraction(rate, f"{name}.rate")
    if not 0 <= rate <= 1:
        raise ValueError(Message("{name}.rate must lie between 0 and 1, not {rate}", name=name, rate=str(rate)))
    return Stage(rate, whole_number(mult, f"{name}.multiplier", minimum=1, maximum=LIMITS["multiplier"]))


@dataclass(frozen=True)
class Ruleset:
    """A complete, validated set of rules for one edition of the game.

    The default instance is the ``dragon-stripes`` preset.  Make another with
    :meth:`preset`, with keyword fields, or with :func:`dataclasses.replace`;
    every path validates, so an invalid ruleset cannot exist.

    Parameters
    ----------
    name : str
        A label shown in the app.
    starting_gems : int
        Gems each player starts with (gems).
    treasure : int
        The dragon's treasure at the start (gems).
    stripe_values : tuple of int
        Gems shown on stripes 1..n, tail to head.
    footprints : mapping or tuple of pairs
        Footprint cards, ``{steps: count}``; stored as sorted ``(steps, count)`` pairs.
    stop_cards, danger_cards : int
        Number of stop and danger cards (cards).
    stages : tuple of Stage
        ``stages[d]`` is the stop penalty rate and the stripe multiplier once
        ``d`` dangers are revealed; one per stage ``0..danger_cards-1`` (one
        stage when there is no danger card).  Pairs and dicts are accepted.
    final_danger : FinalDanger or {"all_gems", "pot_only"}
        What the last danger card costs its revealer: all their gems, or only
        the pot (no penalty).  Either way the game ends.  Stored as a
        :class:`FinalDanger`.
    bounty_rate : Fraction
        The takeover bounty is ``floor(bounty_rate * pot)`` (gems).

    Raises
    ------
    ValueError
        If any field is invalid; the message names the field and what is allowed.
    """

    name: str = "dragon-stripes"
    starting_gems: int = 40
    treasure: int = 400
    stripe_values: tuple[int, ...] = tuple(range(1, 18))
    # Each field is typed as it is stored: a mapping of footprints, (rate, multiplier) pairs
    # and a string bounty rate are accepted too, checked and stored in these types.
    footprints: tuple[tuple[int, int], ...] = ((1, 14), (2, 12), (3, 8), (4, 4))
    stop_cards: int = 10
    danger_cards: int = 3
    stages: tuple[Stage, ...] = (Stage(Fraction(1, 4), 1), Stage(Fraction(1, 4), 1), Stage(Fraction(1, 2), 2))
    final_danger: FinalDanger = FinalDanger.ALL_GEMS
    bounty_rate: Fraction = Fraction(1)
    _composition: Composition = field(init=False, repr=False, compare=False)
    _stripe_table: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _stripe_array: NDArray[np.int64] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(Message("name must be a non-empty string, not {value}", value=repr(self.name)))
        set_(
            self, "starting_gems", whole_number(self.starting_gems, "starting_gems", minimum=0, maximum=LIMITS["gems"])
        )
        set_(self, "treasure", whole_number(self.treasure, "treasure", minimum=0, maximum=LIMITS["gems"]))
        if isinstance(self.stripe_values, (str, bytes)) or not hasattr(self.stripe_values, "__iter__"):
            raise ValueError(
                Message(
                    "stripe_values must be a sequence of whole numbers >= 0, not {value}",
                    value=repr(self.stripe_values),
                )
            )
        values = tuple(self.stripe_values)
        if not 1 <= len(values) <= LIMITS["stripes"]:
            raise ValueError(
                Message("stripe_values must name 1 to {limit} stripes, not {n}", limit=LIMITS["stripes"], n=len(values))
            )
        values = tuple(
            whole_number(v, f"stripe_values[{i}]", minimum=0, maximum=LIMITS["stripe"]) for i, v in enumerate(values)
        )
        set_(self, "stripe_values", values)
        fp = self.footprints
        if isinstance(fp, Mapping):
            fp = tuple(fp.items())
        try:
            pairs = [(s, c) for s, c in fp]
        except (TypeError, ValueError):
            raise ValueError(
                Message(
                    "footprints must map steps to counts, e.g. {{1: 14, 2: 12}}, not {value}",
                    value=repr(self.footprints),
                )
            ) from None
        checked = {}
        for s, c in pairs:
            steps = whole_number(s, "footprints steps", minimum=1, maximum=LIMITS["steps"])
            if steps in checked:
                raise ValueError(Message("footprints lists {steps} steps twice", steps=steps))
            checked[steps] = whole_number(c, f"footprints[{steps}]", minimum=0, maximum=LIMITS["cards"])
        if sum(checked.values()) < 1:
            raise ValueError(Message("footprints must hold at least one card"))
        set_(self, "footprints", tuple(sorted(checked.items())))
        set_(self, "stop_cards", whole_number(self.stop_cards, "stop_cards", minimum=0, maximum=LIMITS["cards"]))
        set_(self, "danger_cards", whole_number(self.danger_cards, "danger_cards", minimum=0, maximum=LIMITS["cards"]))
        deck = sum(checked.values()) + self.stop_cards + self.danger_cards
        if deck > LIMITS["deck"]:
            raise ValueError(Message("the deck may hold at most {limit} cards, not {n}", limit=LIMITS["deck"], n=deck))
        if isinstance(self.stages, (str, bytes, Mapping)) or not hasattr(self.stages, "__iter__"):
            raise ValueError(
                Message("stages must be a sequence of (rate, multiplier) pairs, not {value}", value=repr(self.stages))
            )
        stages = tuple(_stage(s, i) for i, s in enumerate(self.stages))
        wanted = max(1, self.danger_cards)
        if len(stages) != wanted:
            raise ValueError(
                Message(
                    "stages must list one stage per number of dangers revealed, from 0 to {last} ({wanted} in all, "
                    "for danger_cards={dangers}), not {n}",
                    wanted=wanted,
                    last=wanted - 1,
                    dangers=self.danger_cards,
                    n=len(stages),
                )
            )
        set_(self, "stages", stages)
        try:
            final_danger = FinalDanger(self.final_danger)
        except (TypeError, ValueError):
            raise ValueError(
                Message(
                    "final_danger must be one of {allowed}, not {value}",
                    allowed=str(FINAL_DANGER_COSTS),
                    value=repr(self.final_danger),
                )
            ) from None
        set_(self, "final_danger", final_danger)
        rate = _fraction(self.bounty_rate, "bounty_rate")
        if rate < 0:
            raise ValueError(Message("bounty_rate must be >= 0, not {rate}", rate=str(rate)))
        set_(self, "bounty_rate", rate)
        set_(self, "_composition", Composition(self.footprints, self.stop_cards, self.danger_cards))
        set_(self, "_stripe_table", (0, *values, 0))  # by position: tail, stripes 1..n, head
        set_(self, "_stripe_array", np.array(self._stripe_table, dtype=np.int64))

    # -- presets -----------------------------------------------------------------

    @classmethod
    def preset(cls, name: str = "dragon-stripes") -> Ruleset:
        """One of the named editions: ``"dragon-stripes"`` (default), ``"kali"``,
        ``"drago-rosso"``, ``"mini"`` (see RULES.md section 6).

        Raises
        ------
        ValueError
            For an unknown name; the message lists the presets.
        """
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise ValueError(
                Message("unknown preset {name}; choose one of {presets}", name=repr(name), presets=", ".join(PRESETS))
            ) from None

    # -- serialization -----------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` inverts it."""
        return {
            "name": self.name,
            "starting_gems": self.starting_gems,
            "treasure": self.treasure,
            "stripe_values": list(self.stripe_values),
            "footprints": {str(s): c for s, c in self.footprints},
            "stop_cards": self.stop_cards,
            "danger_cards": self.danger_cards,
            "stages": [{"rate": str(s.rate), "multiplier": s.multiplier} for s in self.stages],
            "final_danger": self.final_danger.value,
            "bounty_rate": str(self.bounty_rate),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Build from :meth:`to_dict` output.

        Raises
        ------
        ValueError
            If ``data`` is not a dict, has unknown fields, or any field is invalid.
        """
        if not isinstance(data, Mapping):
            raise ValueError(Message("a ruleset must be a JSON object, not {type}", type=type(data).__name__))
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        unknown = set(data) - known
        if unknown:
            raise ValueError(
                Message(
                    "unknown ruleset field(s) {unknown}; allowed: {known}",
                    unknown=str(sorted(unknown)),
                    known=str(sorted(known)),
                )
            )
        kwargs = dict(data)
        if isinstance(kwargs.get("footprints"), Mapping):  # JSON keys are strings: "1", "2", ...
            steps = list(kwargs["footprints"])
            if not all(
                isinstance(k, int) or (isinstance(k, str) and re.fullmatch(r"[1-9][0-9]{0,2}", k)) for k in steps
            ):
                raise ValueError(
                    Message('footprints steps must be whole numbers such as "1", not {value}', value=_show(steps))
                )
            kwargs["footprints"] = [(int(k), c) for k, c in kwargs["footprints"].items()]
        return cls(**kwargs)

    # -- the deck ----------------------------------------------------------------

    @property
    def n_stripes(self) -> int:
        """Number of stripes; position ``n_stripes + 1`` is the head."""
        return len(self.stripe_values)

    @property
    def head(self) -> int:
        """The head's position, ``n_stripes + 1``."""
        return len(self.stripe_values) + 1

    @property
    def last_stage(self) -> int:
        """The last stage that is not game over (dangers revealed): ``stages[last_stage]`` is in force
        once every danger but the final one is revealed; 0 without danger cards."""
        return len(self.stages) - 1

    @property
    def composition(self) -> Composition:
        """The full deck's composition."""
        return self._composition

    @property
    def deck_size(self) -> int:
        """Number of cards in the full deck (cards)."""
        return self._composition.total

    # -- the rule arithmetic -----------------------------------------------------

    def stage(self, dangers_revealed: int) -> Stage:
        """The :class:`Stage` in force after ``dangers_revealed`` dangers.

        Raises
        ------
        ValueError
            If ``dangers_revealed`` is not a non-final stage.
        """
        if not 0 <= dangers_revealed < len(self.stages):
            raise ValueError(f"stage must lie in 0..{len(self.stages) - 1}, not {dangers_revealed}")
        stage: Stage = self.stages[dangers_revealed]
        return stage

    def penalty(self, gems: int, dangers_revealed: int) -> int:
        """Stop penalty at stage ``dangers_revealed``: ``floor(rate * gems)`` (gems)."""
        rate = self.stage(dangers_revealed).rate
        return gems * rate.numerator // rate.denominator  # floor, in integers

    @overload
    def stripe_value(self, position: int, dangers_revealed: int) -> int: ...
    @overload
    def stripe_value(self, position: IntArray, dangers_revealed: int) -> IntArray: ...
    def stripe_value(self, position: int | IntArray, dangers_revealed: int) -> int | IntArray:
        """What stripe ``position`` (1-based) pays at this stage before the treasure's
        limit: its value times the stage multiplier (gems).  Elementwise on numpy
        integer arrays too; 0 at the tail and at the head."""
        multiplier = self.stage(dangers_revealed).multiplier
        if isinstance(position, np.ndarray):
            return self._stripe_array[position] * multiplier
        return self._stripe_table[position] * multiplier

    @overload
    def stripe_gems(self, position: int, dangers_revealed: int, treasure: int) -> int: ...
    @overload
    def stripe_gems(self, position: IntArray, dangers_revealed: int, treasure: int | IntArray) -> IntArray: ...
    def stripe_gems(self, position: int | IntArray, dangers_revealed: int, treasure: int | IntArray) -> int | IntArray:
        """Gems placed when the knight lands on stripe ``position`` (1-based):
        :meth:`stripe_value`, at most what the treasure holds (gems).
        Elementwise on numpy integer arrays too; 0 at the head."""
        value = self.stripe_value(position, dangers_revealed)
        return value - (value - treasure) * (value > treasure)  # min(value, treasure), elementwise

    @overload
    def footprint_effect(
        self, steps: int, position: int, pot: int, treasure: int, dangers_revealed: int, cards_left: int
    ) -> FootprintEffect[int]: ...
    @overload
    def footprint_effect(
        self,
        steps: int | IntArray,
        position: IntArray,
        pot: IntArray,
        treasure: int | IntArray,
        dangers_revealed: int,
        cards_left: int,
    ) -> FootprintEffect[IntArray]: ...
    def footprint_effect(
        self, steps: Any, position: Any, pot: Any, treasure: Any, dangers_revealed: int, cards_left: int
    ) -> FootprintEffect[Any]:
        """What a footprint card of ``steps`` steps does (rules section 3).

        Written with 0/1 masks and arithmetic only, so that the same lines run on
        Python ints (the engine, one card) and elementwise on numpy integer arrays
        (the analysis, many situations at once).

        Parameters
        ----------
        steps : int or ndarray of int
            The footprint kind; an array broadcasts against ``position`` (several kinds at once).
        position, pot, treasure : int or ndarray of int
            Knight position, gems in the pot and in the treasure before the card.
        dangers_revealed : int
        cards_left : int
            Cards left in the deck after this one.

        Returns
        -------
        FootprintEffect
            ``(position, placed, pot, gems_change, treasure, at_head, deck_empty)``,
            the last two as 0/1; ints or arrays like the input.
        """
        new = position + steps
        at_head = (new >= self.head) * 1
        new = new - at_head * (new - self.head)  # the head is position n + 1
        placed = self.stripe_gems(new, dangers_revealed, treasure)  # 0 at the head
        deck_empty = (cards_left == 0) * (1 - at_head)  # only without danger cards: the final danger comes first
        return FootprintEffect(
            position=new,
            placed=placed,
            pot=(pot + placed) * (1 - at_head) * (1 - deck_empty),
            gems_change=at_head * (pot + treasure),
            treasure=(treasure - placed) * (1 - at_head) + deck_empty * (pot + placed),
            at_head=at_head,
            deck_empty=deck_empty,
        )

    def bounty(self, pot: int) -> int:
        """The takeover bounty for a pot: ``floor(bounty_rate * pot)`` (gems)."""
        return int(pot * self.bounty_rate.numerator // self.bounty_rate.denominator)  # floor, in integers

    def may_take_over(self, gems: int, pot: int) -> bool:
        """Whether a player owning ``gems`` gems may accept a held turn with ``pot`` in the
        pot: only a player owning at least the bounty may (rules section 3, step 4)."""
        return gems >= self.bounty(pot)

    def is_final_danger(self, dangers_revealed: int) -> bool:
        """Whether the danger that brings the count to ``dangers_revealed`` ends the game."""
        return dangers_revealed >= self.danger_cards

    def apply_card(
        self,
        card: Card,
        *,
        position: int,
        pot: int,
        gems: int,
        treasure: int,
        dangers_revealed: int,
        cards_left: int,
    ) -> CardEffect:
        """What revealing ``card`` does: the one implementation of section 3 of the rules.

        Parameters
        ----------
        card : Card
            The revealed card.
        position : int
            Knight position before the card (0 = tail, 1..n stripes).
        pot, gems, treasure : int
            Gems next to the knight, the active player's gems, the treasure (gems).
        dangers_revealed : int
            The stage before the card.
        cards_left : int
            Cards still in the deck after this one (cards).

        Returns
        -------
        CardEffect
        """
        if card.kind is CardKind.FOOTPRINT:
            step = self.footprint_effect(card.steps, position, pot, treasure, dangers_revealed, cards_left)
            outcome = Outcome.HEAD if step.at_head else Outcome.DECK_EMPTY if step.deck_empty else None
            return CardEffect(
                outcome, step.position, step.placed, step.pot, step.gems_change, step.treasure, dangers_revealed
            )
        if card.kind is CardKind.STOP:
            fine = self.penalty(gems, dangers_revealed)
            return CardEffect(Outcome.STOPPED, position, 0, 0, -fine, treasure + pot + fine, dangers_revealed)
        stage = dangers_revealed + 1
        if self.is_final_danger(stage):
            lost = gems if self.final_danger is FinalDanger.ALL_GEMS else 0
            return CardEffect(Outcome.FINAL_DANGER, position, 0, 0, -lost, treasure + pot + lost, stage)
        fine = self.penalty(gems, stage)
        return CardEffect(Outcome.DANGER, position, 0, 0, -fine, treasure + pot + fine, stage)


_QUARTER, _HALF = Fraction(1, 4), Fraction(1, 2)
_TWO_DANGER_STAGES = (Stage(_QUARTER, 1), Stage(_HALF, 2))

PRESETS: dict[str, Ruleset] = {}
PRESETS["dragon-stripes"] = Ruleset()
PRESETS["kali"] = Ruleset(
    name="kali",
    stripe_values=tuple(range(1, 19)),
    footprints=((1, 14), (2, 12), (3, 8), (4, 4)),
    stop_cards=12,
    danger_cards=2,
    stages=_TWO_DANGER_STAGES,
    final_danger=FinalDanger.POT_ONLY,
)
PRESETS["drago-rosso"] = Ruleset(
    name="drago-rosso",
    stripe_values=tuple(range(1, 17)),
    footprints=((1, 15), (2, 13), (3, 9), (4, 4)),
    stop_cards=11,
    danger_cards=2,
    stages=_TWO_DANGER_STAGES,
    final_danger=FinalDanger.POT_ONLY,
)
PRESETS["mini"] = Ruleset(
    name="mini",
    starting_gems=12,
    treasure=20,
    stripe_values=(1, 2, 3, 4, 5),
    footprints=((1, 3), (2, 2)),
    stop_cards=2,
    danger_cards=1,
    stages=(Stage(_QUARTER, 1),),
)
