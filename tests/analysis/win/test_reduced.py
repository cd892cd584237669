"""The reduced win solver against the full-state one, brute force over whole small decks, and Monte Carlo.

* ``mini`` and small custom decks (both final-danger rules): the same exact values and
  actions as :class:`WinSolver`, and the solver's own optimal play, dealt every distinct
  order of the deck in the engine, wins exactly the probability it claims.
* The real presets, from late situations of seeded games: the optimal play of both seats,
  dealt 400 seeded shuffles of the remaining cards in the engine, wins within a 99.9 % Wilson
  interval of the solved probability.
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from itertools import permutations

import pytest

from dragonkit.analysis.win.reduced import ReducedWinSolver
from dragonkit.analysis.win.solver import WinSolver
from dragonkit.bots import ThresholdBot
from dragonkit.engine import Game
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import Card, Ruleset, Stage
from dragonkit.simulate.stats import proportion_estimate
from dragonkit.turn import Action

MINI = Ruleset.preset("mini")
SMALL = Ruleset(
    name="small",
    starting_gems=6,
    treasure=9,
    stripe_values=(1, 2, 3),
    footprints=((1, 2), (2, 1)),
    stop_cards=1,
    danger_cards=1,
    stages=(Stage(Fraction(1, 4), 1),),
)
SMALL_POT_ONLY = Ruleset(
    name="small-pot-only",
    starting_gems=5,
    treasure=8,
    stripe_values=(1, 2, 3),
    footprints=((1, 2), (2, 1)),
    stop_cards=1,
    danger_cards=2,
    stages=(Stage(Fraction(1, 4), 1), Stage(Fraction(1, 2), 2)),
    final_danger="pot_only",
)


@pytest.mark.slow
def test_mini_equals_the_full_state_solver() -> None:
    fresh = GameState.fresh(MINI)
    full, reduced = WinSolver(exact=True), ReducedWinSolver(MINI, exact=True)
    assert reduced.win_probabilities(fresh) == full.win_probabilities(fresh) == (Fraction(1, 2), Fraction(1, 2))
    assert reduced.states_visited == 19390 < full.states_visited == 28440
    for card, _ in fresh.chance_outcomes():
        state = fresh.child(card)
        if not state.is_terminal():
            assert reduced.action_values(state) == full.action_values(state)
            assert reduced.best_action(state) is full.best_action(state)


def brute_force(rules: Ruleset, solver: ReducedWinSolver) -> Fraction:
    """Seat 0's win share under the solver's optimal play, averaged over every distinct order of the deck,
    each dealt into an engine game (the test reaches into the engine's private deck)."""
    orders = set(permutations(rules.composition.cards()))
    total = Fraction(0)
    for order in orders:
        game = Game(["first", "second"], rules, seed=0)
        game._deck = list(reversed(order))  # the engine draws from the end of the list
        while not game.is_over:
            game.apply(solver.best_action(GameState.from_game(game)))
        total += game.returns()[0]
    return total / len(orders)


@pytest.mark.parametrize("rules", [SMALL, SMALL_POT_ONLY], ids=lambda r: r.name)
def test_small_decks_against_the_full_solver_and_every_order(rules: Ruleset) -> None:
    fresh = GameState.fresh(rules)
    reduced = ReducedWinSolver(rules, exact=True)
    wins = reduced.win_probabilities(fresh)
    assert wins == WinSolver(exact=True).win_probabilities(fresh)
    assert wins[0] == brute_force(rules, reduced)


def late(preset: str, cards_left: int, seed: int) -> Game:
    """A seeded 2-player engine game played by threshold bots until at most ``cards_left`` cards are left at the
    start of a turn."""
    rules, bot = Ruleset.preset(preset), ThresholdBot(20)
    while True:
        game = Game(["a", "b"], rules, seed=seed)
        while not game.is_over and not (game.remaining.total <= cards_left and game.phase is Phase.MUST_REVEAL):
            game.apply(bot.choose(game))
        if not game.is_over:
            return game
        seed += 1000


@pytest.mark.parametrize(
    ("preset", "cards_left", "seed"), [("dragon-stripes", 6, 3), ("kali", 6, 1), ("drago-rosso", 6, 2)]
)
@pytest.mark.slow
def test_real_presets_late_against_monte_carlo(preset: str, cards_left: int, seed: int) -> None:
    game = late(preset, cards_left, seed)
    situation = GameState.from_game(game)
    solver = ReducedWinSolver(situation.rules)
    expected = solver.win_probabilities(situation)[0]
    rng, n, won = random.Random(seed), 400, Fraction(0)
    for _ in range(n):
        play = copy.deepcopy(game)
        rng.shuffle(play._deck)  # a seeded order of the remaining cards, hidden from the players
        while not play.is_over:
            play.apply(solver.best_action(GameState.from_game(play)))
        won += play.returns()[0]
    estimate = proportion_estimate(float(won), n, level=0.999)
    assert 0.05 < expected < 0.95  # a situation still open
    assert estimate["ci_low"] <= expected <= estimate["ci_high"]


def test_the_float_path_agrees() -> None:
    state = GameState.fresh(SMALL_POT_ONLY).child(Card.footprint(2))
    exact, fast = ReducedWinSolver(SMALL_POT_ONLY, exact=True), ReducedWinSolver(SMALL_POT_ONLY)
    for action, value in fast.action_values(state).items():
        assert isinstance(value, float) and value == pytest.approx(float(exact.action_values(state)[action]), 1e-12)


def test_refusals() -> None:
    solver = ReducedWinSolver(MINI)
    with pytest.raises(ValueError, match="two-player"):
        solver.win_probabilities(GameState.fresh(MINI, 3))
    with pytest.raises(ValueError, match="two-player"):
        solver.win_probabilities(GameState.fresh(SMALL))
    with pytest.raises(ValueError, match="over"):
        solver.win_probability(GameState.fresh(MINI).child(Card("danger")))
    with pytest.raises(ValueError, match="Ruleset"):
        ReducedWinSolver("mini")  # type: ignore[arg-type]
    assert ReducedWinSolver(SMALL).best_action(GameState.fresh(SMALL)) is Action.REVEAL
