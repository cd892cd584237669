r"""Exact analysis of a turn: push versus hold, by optimal stopping.

A turn is a finite-horizon optimal stopping problem.  Its situation (a
:class:`TurnState`) is the remaining deck, the knight's position and the pot;
the stage, the active player's gems and the sum ``treasure + pot`` do not change
until the turn ends.  Because the deck only shrinks, the decision graph is
acyclic and backward induction (Bellman's equation) solves it exactly:

.. math::

    V(s) = \max\bigl(\text{pot}(s),\ W(s)\bigr), \qquad
    W(s) = \sum_{c} \frac{n_c}{n}\, \bigl[r(s, c) \text{ or } V(s')\bigr],

where :math:`W` is the *push value* (reveal one card, then play on
optimally), :math:`n_c/n` the hypergeometric probability of drawing a card of
kind :math:`c`, :math:`r` the reward of a card that ends the turn, and the
*hold value* is the pot.  Where a reveal is compulsory :math:`V = W`.
Rewards are changes in the active player's own gems (RULES.md section 7):
hold ``+pot``; stop or non-final danger ``-penalty``; final danger ``-gems``
(or 0 where ``final_danger == "pot_only"``); the head ``+pot + treasure``.

Every chance outcome is produced by :meth:`dragonkit.rules.Ruleset.apply_card`,
the function the engine plays with.  With ``exact=True`` all arithmetic is in
:class:`fractions.Fraction`; the float path performs the same operations.

Reference: the same recursion solves the dice game Pig, see T. Neller and
C. Presser, "Optimal Play of the Dice Game Pig", *The UMAP Journal* 25(1), 2004.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping, Union

from .engine import Game, Phase
from .rules import Card, Composition, Ruleset

__all__ = ["TurnState", "TurnSolution", "solve_turn", "next_card_probabilities", "fair_bounty"]

Number = Union[float, Fraction]


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
        try:
            fp = {int(s): int(c) for s, c in dict(self.footprints).items()}
        except (TypeError, ValueError):
            raise ValueError(f"footprints must map steps to counts, not {self.footprints!r}") from None
        full = dict(rules.footprints)
        for steps, count in fp.items():
            if steps not in full:
                raise ValueError(f"footprints: this ruleset has no {steps}-step cards (it has {sorted(full)})")
            if not 0 <= count <= full[steps]:
                raise ValueError(f"footprints[{steps}] must lie in 0..{full[steps]}, not {count}")
        object.__setattr__(self, "footprints", MappingProxyType({s: fp.get(s, 0) for s in sorted(full)}))
        checks = {
            "stops": (self.stops, 0, rules.stop_cards),
            "dangers": (self.dangers, 0, rules.danger_cards),
            "dangers_revealed": (self.dangers_revealed, 0, len(rules.stages) - 1),
            "gems": (self.gems, 0, None),
            "treasure": (self.treasure, 0, None),
            "position": (self.position, 0, rules.n_stripes),
            "pot": (self.pot, 0, None),
        }
        for name, (value, lo, hi) in checks.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
                allowed = f"{lo}..{hi}" if hi is not None else f">= {lo}"
                raise ValueError(f"{name} must be a whole number in {allowed}, not {value!r}")
        if not isinstance(self.must_reveal, bool):
            raise ValueError(f"must_reveal must be True or False, not {self.must_reveal!r}")

    def __hash__(self) -> int:
        return hash((self.rules, tuple(self.footprints.items()), self.stops, self.dangers, self.dangers_revealed,
                     self.gems, self.treasure, self.position, self.pot, self.must_reveal))

    @property
    def composition(self) -> Composition:
        """The remaining deck as a :class:`~dragonkit.rules.Composition`."""
        return Composition.of(self.footprints, self.stops, self.dangers)

    @classmethod
    def from_game(cls, game: Game) -> "TurnState":
        """The active player's situation in ``game`` (during an offer: the holder's).

        Raises
        ------
        ValueError
            If the game is over.
        """
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


@dataclass(frozen=True)
class TurnSolution:
    """The optimal-stopping solution at one decision point.

    Attributes
    ----------
    value : float or Fraction
        The turn value: expected change of the active player's gems to the end of
        the turn under optimal play (gems).
    push_value : float or Fraction
        Expected gem change when revealing one card now, then playing optimally.
    hold_value : int
        Gem change when holding now: the pot (gems).
    best_action : {"reveal", "hold"}
        ``"reveal"`` when the reveal is compulsory or strictly better; a tie holds.
    must_reveal : bool
        Whether holding is allowed at all.
    states : int
        Decision points (deck, position, pot) in the value table of this turn so far.
    """

    value: Number
    push_value: Number
    hold_value: int
    best_action: str
    must_reveal: bool
    states: int = 0


class _Solver:
    """Backward induction over the situations that share one turn's invariants.

    The memo maps ``(footprint counts, position, pot)`` to the push value; the
    stage, the gems, the stop and danger counts and ``treasure + pot`` are fixed.
    """

    def __init__(self, rules: Ruleset, steps: tuple[int, ...], stops: int, dangers: int,
                 dangers_revealed: int, gems: int, bank: int, exact: bool):
        self.rules, self.steps, self.gems, self.bank = rules, steps, gems, bank
        self.stops, self.dangers, self.dangers_revealed = stops, dangers, dangers_revealed
        self.ratio = Fraction if exact else (lambda a, b: a / b)
        self.zero = Fraction(0) if exact else 0.0
        # A stop or danger ends the turn with a reward that depends on nothing but the gems.
        self.card_rewards = [
            (count, self._effect(card, 0, 0, 0).gems_change)
            for card, count in ((Card("stop"), stops), (Card("danger"), dangers)) if count
        ]
        self.memo: dict[tuple, Number] = {}

    def _effect(self, card: Card, counts_left: int, position: int, pot: int):
        return self.rules.apply_card(card, position=position, pot=pot, gems=self.gems, treasure=self.bank - pot,
                                     dangers_revealed=self.dangers_revealed, cards_left=counts_left)

    def push(self, counts: tuple[int, ...], position: int, pot: int) -> Number:
        key = (counts, position, pot)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        total = sum(counts) + self.stops + self.dangers
        acc = self.zero
        for count, reward in self.card_rewards:
            acc += self.ratio(count, total) * reward
        for i, steps in enumerate(self.steps):
            count = counts[i]
            if not count:
                continue
            effect = self._effect(Card.footprint(steps), total - 1, position, pot)
            if effect.ends_turn:
                outcome = effect.gems_change
            else:
                rest = counts[:i] + (count - 1,) + counts[i + 1:]
                outcome = max(effect.pot, self.push(rest, effect.position, effect.pot))
            acc += self.ratio(count, total) * outcome
        self.memo[key] = acc
        return acc


@lru_cache(maxsize=64)
def _solver(rules: Ruleset, steps: tuple, stops: int, dangers: int, dangers_revealed: int, gems: int, bank: int,
            exact: bool) -> _Solver:
    return _Solver(rules, steps, stops, dangers, dangers_revealed, gems, bank, exact)


def solve_turn(state: TurnState, exact: bool = False) -> TurnSolution:
    """Solve the turn from ``state`` by backward induction (RULES.md section 7).

    Parameters
    ----------
    state : TurnState
    exact : bool
        Return ``Fraction`` values (exact rational arithmetic) instead of floats.

    Returns
    -------
    TurnSolution
        ``value = push_value`` if ``state.must_reveal``, else ``max(pot, push_value)``.

    Raises
    ------
    ValueError
        If the deck is empty (nothing can be revealed).

    Notes
    -----
    Solvers are cached per turn invariants, so later decisions of the same turn
    reuse the values already computed.
    """
    if state.composition.total == 0:
        raise ValueError("the deck is empty: there is no card to reveal")
    solver = _solver(state.rules, tuple(state.footprints), state.stops, state.dangers, state.dangers_revealed,
                     state.gems, state.treasure + state.pot, bool(exact))
    push = solver.push(tuple(state.footprints.values()), state.position, state.pot)
    hold = state.pot
    if state.must_reveal or push > hold:
        best = "reveal"
    else:
        best = "hold"
    value = push if state.must_reveal else max(push, solver.zero + hold)
    return TurnSolution(value=value, push_value=push, hold_value=hold, best_action=best,
                        must_reveal=state.must_reveal, states=len(solver.memo))


def next_card_probabilities(state: TurnState) -> dict[Card, Fraction]:
    """Exact distribution of the next card: ``{card: count / cards left}``.

    This is one draw of the multivariate hypergeometric law; cards with no copy
    left are omitted.  The values are ``Fraction``s summing to 1 (empty dict for
    an empty deck).
    """
    return dict(state.composition.outcomes())


def fair_bounty(state: TurnState, gems: int, exact: bool = False) -> Number:
    """The fair bounty for a player with ``gems`` gems thinking of taking over.

    It is that player's turn value of the same situation with a compulsory
    reveal (RULES.md section 7): taking over for a bounty ``b`` gains
    ``fair_bounty - b`` gems in expectation.  Negative when even a free takeover
    loses gems on average.

    Raises
    ------
    ValueError
        If ``gems`` is negative or the deck is empty.
    """
    return solve_turn(dataclasses.replace(state, gems=gems, must_reveal=True), exact=exact).value
