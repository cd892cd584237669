"""Exact win probabilities of the 2-player ``mini`` game against independent methods.

* Fixed policies: the recursion's probability must equal exactly the average over every
  distinct order of the ``mini`` deck (8!/(3!·2!·2!·1!) = 1,680 orders, equally likely), each
  dealt into a real engine game played by the same policies.
* Optimal play: the value is at least what any fixed policy of the mover gets against the
  opponent's best reply, and at most the mover's best reply to a fixed opponent; the
  optimal policy itself, played in the 1,680 engine games, achieves it; end games with one
  or two cards left are checked by hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import permutations

import pytest

from dragonkit.analysis.win.solver import WinSolver
from dragonkit.bots import ThresholdBot
from dragonkit.engine import Game
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import Card, Composition, Ruleset
from dragonkit.turn import Action

MINI = Ruleset.preset("mini")
FRESH = GameState.fresh(MINI)
ORDERS = sorted(set(permutations(MINI.composition.cards())))  # every distinct order, top card first
DANGER, STOP = Card("danger"), Card("stop")

GamePolicy = Callable[[Game], Action]


def dealt(order: Sequence[Card]) -> Game:
    """A 2-player ``mini`` game whose deck is ``order`` (top card first): the test reaches into the
    engine's private deck, the one place a test may choose the order of the cards."""
    game = Game(["first", "second"], MINI, seed=0)
    game._deck = list(reversed(order))  # the engine draws from the end of the list
    return game


def brute_force(policies: Sequence[GamePolicy]) -> Fraction:
    """Seat 0's win share averaged over every distinct order of the deck, each played out in the engine."""
    total = Fraction(0)
    for order in ORDERS:
        game = dealt(order)
        while not game.is_over:
            mover = game.to_move
            assert mover is not None
            game.apply(policies[mover](game))
        total += game.returns()[0]
    return total / len(ORDERS)


def playing(solver: WinSolver) -> GamePolicy:
    """The solver's optimal policy, read from an engine game's public state."""
    return lambda game: solver.best_action(GameState.from_game(game))


@pytest.fixture(scope="module")
def optimal() -> WinSolver:
    solver = WinSolver(exact=True)
    solver.win_probabilities(FRESH)
    return solver


PAIRS = [
    (ThresholdBot(2), ThresholdBot(4)),  # the second takes over a pot of 2 or 3
    (ThresholdBot(5, max_bounty=4), ThresholdBot(3)),
    (ThresholdBot(0), ThresholdBot(100)),  # holds at once; never holds
]


def test_the_orders_of_the_mini_deck() -> None:
    deck = Counter(MINI.composition.cards())
    assert len(ORDERS) == 1680 and all(Counter(order) == deck for order in ORDERS)


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=repr)
def test_fixed_policies_match_every_order_of_the_deck(first: ThresholdBot, second: ThresholdBot) -> None:
    # a threshold bot reads the phase, the pot and the bounty: the same on a GameState as on a Game
    solver = WinSolver(exact=True, policies={0: first.choose, 1: second.choose})
    wins = solver.win_probabilities(FRESH)
    assert wins[0] == brute_force([first.choose, second.choose])
    assert wins[0] + wins[1] == 1


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.slow
def test_a_best_reply_matches_every_order_of_the_deck(seat: int) -> None:
    fixed = ThresholdBot(3)
    solver = WinSolver(exact=True, policies={1 - seat: fixed.choose})
    policies = [playing(solver), fixed.choose] if seat == 0 else [fixed.choose, playing(solver)]
    assert solver.win_probabilities(FRESH)[0] == brute_force(policies)


@pytest.mark.slow
def test_optimal_play_matches_every_order_of_the_deck(optimal: WinSolver) -> None:
    assert optimal.win_probabilities(FRESH) == (Fraction(1, 2), Fraction(1, 2))
    assert brute_force([playing(optimal), playing(optimal)]) == Fraction(1, 2)


def test_the_first_reveal_by_hand(optimal: WinSolver) -> None:
    # unless the first card is the danger, the first player's chance is then 4/7: 7/8 * 4/7 = 1/2
    after = {card.label: FRESH.child(card) for card, _ in FRESH.chance_outcomes()}
    assert optimal.win_probabilities(after["danger"]) == (0, 1)
    for label in ("1 step", "2 steps", "stop"):
        assert optimal.win_probabilities(after[label])[0] == Fraction(4, 7)
    assert optimal.action_values(after["1 step"]) == {Action.REVEAL: Fraction(3, 7), Action.HOLD: Fraction(4, 7)}
    assert optimal.best_action(after["1 step"]) is Action.HOLD
    assert optimal.states_visited == 28440


@pytest.mark.parametrize("threshold", [1, 3, 6])
@pytest.mark.parametrize("state", [FRESH, FRESH.child(Card.footprint(1)), FRESH.child(STOP)], ids=["fresh", "F1", "S"])
@pytest.mark.slow
def test_optimal_play_beats_fixed_policies(optimal: WinSolver, state: GameState, threshold: int) -> None:
    mover = state.current_player()
    assert mover is not None
    value = optimal.win_probability(state)
    fixed = ThresholdBot(threshold).choose
    against_best_reply = WinSolver(exact=True, policies={mover: fixed})
    best_reply_to_it = WinSolver(exact=True, policies={1 - mover: fixed})
    assert against_best_reply.win_probability(state) <= value <= best_reply_to_it.win_probability(state)


@pytest.mark.slow
def test_the_float_path_agrees(optimal: WinSolver) -> None:
    fast = WinSolver()
    state = FRESH.child(Card.footprint(2))
    assert fast.win_probability(FRESH) == pytest.approx(0.5, abs=1e-12)
    for action, value in fast.action_values(state).items():
        assert isinstance(value, float) and value == pytest.approx(float(optimal.action_values(state)[action]), 1e-12)


def end_game(gems: tuple[int, int], deck: Composition, **fields: object) -> GameState:
    return GameState(MINI, gems, 5, deck, **fields)


ONLY_DANGER = Composition.of({1: 0, 2: 0}, 0, 1)


def test_one_card_left_the_danger() -> None:
    solver = WinSolver(exact=True)
    # revealing it loses everything; holding hands it on: a takeover or the next turn must reveal it
    last = end_game((10, 14), ONLY_DANGER, phase=Phase.CHOOSE, position=2, pot=3)
    assert solver.action_values(last) == {Action.REVEAL: 0, Action.HOLD: 1}
    assert solver.action_values(last.child("hold")) == {Action.TAKE_OVER: 0, Action.DECLINE: 0}
    # 12 gems lost to the danger leave 0 against 0: a shared win
    assert solver.win_probabilities(end_game((12, 0), ONLY_DANGER)) == (Fraction(1, 2), Fraction(1, 2))


def test_one_card_left_that_reaches_the_head() -> None:
    solver = WinSolver(exact=True)
    # 10 + pot 4 + treasure 5 = 19 beats 14; holding lets the opponent take the turn and do the same
    last = end_game((10, 14), Composition.of({1: 0, 2: 1}, 0, 0), phase=Phase.CHOOSE, position=4, pot=4)
    assert solver.action_values(last) == {Action.REVEAL: 1, Action.HOLD: 0}
    assert solver.best_action(last.child("hold")) is Action.TAKE_OVER


def test_two_cards_left_a_stop_and_the_danger() -> None:
    # one half: the danger now, or the stop now and the danger for the opponent's compulsory reveal
    state = end_game((12, 12), Composition.of({1: 0, 2: 0}, 1, 1))
    assert WinSolver(exact=True).win_probabilities(state) == (Fraction(1, 2), Fraction(1, 2))


def test_refusals() -> None:
    solver = WinSolver(exact=True, policies={0: lambda state: Action.HOLD})
    with pytest.raises(ValueError, match="chose"):
        solver.win_probabilities(FRESH)
    with pytest.raises(ValueError, match="two-player"):
        WinSolver().win_probabilities(GameState.fresh(MINI, 3))
    with pytest.raises(ValueError, match="over"):
        WinSolver().win_probability(FRESH.child(DANGER))
    with pytest.raises(ValueError, match="seat"):
        WinSolver(policies={2: lambda state: Action.REVEAL})
