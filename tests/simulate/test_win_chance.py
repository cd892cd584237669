"""The Monte Carlo estimate of the chances of winning (dragonkit.simulate.win_chance) that the coach shows
for three players or more: the same shuffles for every option, the public state only, the time budget, refusals."""

from __future__ import annotations

import numpy as np
import pytest

from dragonkit import Game
from dragonkit.game_state import GameState
from dragonkit.rules import Ruleset
from dragonkit.simulate import estimate_win_chances
from dragonkit.simulate.win_chance import public_seed

from ..situations import _three_players_at_a_choice


def test_the_estimate_uses_the_same_shuffles_for_every_option():
    """Common random numbers: each shuffle is played after every option, so the difference between the options is
    estimated far more precisely than from independent games."""
    game = _three_players_at_a_choice()
    found = estimate_win_chances(game, games=300, seconds=None)
    shares = found.shares
    assert shares.shape == (2, 300)
    paired = np.std(shares[0] - shares[1], ddof=1)
    independent = np.sqrt(np.var(shares[0], ddof=1) + np.var(shares[1], ddof=1))
    assert paired < 0.8 * independent
    diff, low, high = found.difference("reveal", "hold")
    assert diff == pytest.approx(shares[0].mean() - shares[1].mean()) and low < diff < high
    half = 1.959963984540054 * paired / np.sqrt(300)
    assert (high - low) / 2 == pytest.approx(half)


def test_the_estimate_depends_on_the_public_state_only():
    """The same table, two different hidden orders: the same shuffles, the same estimate, the same panel."""
    game = _three_players_at_a_choice("mini", seed=2)
    cards = game.remaining.cards()
    other = game.redealt(cards[::-1])
    assert GameState.from_game(other) == GameState.from_game(game)
    first = estimate_win_chances(game, games=100, seconds=None)
    second = estimate_win_chances(other, games=100, seconds=None)
    assert first.seed == second.seed == public_seed(GameState.from_game(game))
    assert np.array_equal(first.shares, second.shares)


def test_the_time_budget_stops_the_estimate_and_says_how_many_games():
    """The budget is a logic test here (the time itself is measured in benchmarks/bench_win_chance.py): with no
    time at all the estimate still plays two shuffles, and reports them; the first games are the same ones."""
    game = _three_players_at_a_choice("mini", seed=2)
    quick = estimate_win_chances(game, games=100, seconds=0.0)
    assert quick.games == 2 and quick.shares.shape == (2, 2)
    full = estimate_win_chances(game, games=100, seconds=None)
    assert np.array_equal(full.shares[:, :2], quick.shares)


def test_the_estimate_is_refused_where_there_is_nothing_to_estimate():
    game = Game(["Ann", "Bob", "Cy"], Ruleset.preset("mini"), seed=1)
    while not game.is_over:
        game.reveal()
    with pytest.raises(ValueError, match="over"):
        estimate_win_chances(game)
    with pytest.raises(ValueError, match="games"):
        estimate_win_chances(_three_players_at_a_choice(), games=0)
