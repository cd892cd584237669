"""A decision point of a turn, as the active player sees it, and the next card's law."""

from __future__ import annotations

import numbers
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from ..engine import Game, Phase
from ..rules import LIMITS, Card, Composition, Ruleset

__all__ = ["TurnState", "check_state", "next_card_probabilities"]


@dataclass(frozen=True)
class TurnState:
    """A decision point of a turn, as the active player sees it.

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
        Knight position, 0 (tail) to ``rules.n_stripes``.
    pot : int
        Gems next to the knight (gems).
    must_reveal : bool
        True at the start of a turn and right after a takeover.

    Raises
    ------
    ValueError
        If a field is out of range for ``rules``; the message names it.
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
            if isinstance(count, bool) or not isinstance(count, numbers.Integral) or not 0 <= count <= full[steps]:
                raise ValueError(
                    f"footprints[{steps}] must be a whole number in 0..{full[steps]}, not {reprlib.repr(count)}"
                )
        object.__setattr__(
            self, "footprints", MappingProxyType({s: int(self.footprints.get(s, 0)) for s in sorted(full)})
        )
        most = LIMITS["gems"] * 4  # every gem of the game could be in one place
        checks = {
            "stops": (self.stops, 0, rules.stop_cards),
            "dangers_revealed": (self.dangers_revealed, 0, len(rules.stages) - 1),
            "dangers": (
                self.dangers,
                0,
                rules.danger_cards - getattr(self, "dangers_revealed", 0)
                if isinstance(self.dangers_revealed, int)
                else rules.danger_cards,
            ),
            "gems": (self.gems, 0, most),
            "treasure": (self.treasure, 0, most),
            "position": (self.position, 0, rules.n_stripes),
            "pot": (self.pot, 0, most),
        }
        for name, (value, lo, hi) in checks.items():
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not lo <= value <= hi:
                raise ValueError(f"{name} must be a whole number in {lo}..{hi}, not {reprlib.repr(value)}")
            object.__setattr__(self, name, int(value))
        if not isinstance(self.must_reveal, bool):
            raise ValueError(f"must_reveal must be True or False, not {self.must_reveal!r}")

    def __hash__(self) -> int:
        return hash(
            (
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
            )
        )

    @property
    def composition(self) -> Composition:
        """The remaining deck as a :class:`~dragonkit.rules.Composition`."""
        return Composition.of(self.footprints, self.stops, self.dangers)

    @classmethod
    def from_game(cls, game: Game) -> TurnState:
        """The active player's situation in ``game`` (during an offer: the holder's).

        Raises
        ------
        ValueError
            If ``game`` is not a Game, or it is over.
        """
        if not isinstance(game, Game):
            raise ValueError(f"expected a dragonkit Game, not {type(game).__name__}")
        if game.is_over:
            raise ValueError("the game is over: there is no turn to analyse")
        comp = game.remaining
        return cls(
            rules=game.rules,
            footprints=dict(comp.footprints),
            stops=comp.stops,
            dangers=comp.dangers,
            dangers_revealed=game.stage,
            gems=game.gems[game.active_player],
            treasure=game.treasure,
            position=game.position,
            pot=game.pot,
            must_reveal=game.phase is Phase.MUST_REVEAL,
        )


def next_card_probabilities(state: TurnState) -> dict[Card, Fraction]:
    """Exact distribution of the next card: ``{card: count / cards left}``.

    This is one draw of the multivariate hypergeometric law; cards with no copy
    left are omitted.  The values are ``Fraction``s summing to 1 (empty dict for
    an empty deck).

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState.
    """
    return dict(check_state(state).composition.outcomes())


def check_state(state) -> TurnState:
    """``state`` itself, or a ValueError saying that a TurnState was expected."""
    if not isinstance(state, TurnState):
        raise ValueError(f"expected a TurnState, not {type(state).__name__}")
    return state
