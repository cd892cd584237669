"""The generic stochastic-game solver (:mod:`dragonkit.stochastic_game`) on games solved by hand:
a race "first to roll a six wins" (V = 1/6 + 5/6 (1 - V), so V = 6/11), the better action preferred, illegal
actions and invalid games refused."""

from __future__ import annotations

import numpy as np
import pytest

from dragonkit.stochastic_game import StochasticGame, solve_game
from dragonkit.topics.pig import pig_game

# --------------------------------------------------------------------------------------
# the generic solver on games with a closed form
# --------------------------------------------------------------------------------------


def test_a_race_to_the_first_six_is_won_by_the_first_roller_with_6_11():
    game = StochasticGame.build(["roll"], [[[0.0]]], [[[5 / 6]]], [[1 / 6]])
    solution = solve_game(game, tol=1e-14)
    assert solution.values[0] == pytest.approx(6 / 11, abs=1e-13)
    assert solution.residual <= 1e-14
    assert solution.iterations > 1


def test_the_solver_prefers_the_better_action_and_respects_legality():
    # "safe" wins 1/2 at once and loses otherwise; "race" is the 6/11 race above; only "safe" is legal in state 1
    stay = [np.zeros((2, 2)), np.zeros((2, 2))]
    swap = [np.zeros((2, 2)), np.array([[5 / 6, 0], [0, 5 / 6]])]
    win = [[1 / 2, 1 / 2], [1 / 6, 1 / 6]]
    legal = [[True, True], [True, False]]
    solution = solve_game(StochasticGame.build(["safe", "race"], stay, swap, win, legal))
    assert solution.values == pytest.approx([6 / 11, 1 / 2])
    assert solution.policy.tolist() == [1, 0]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(win=[[0.5, 0.5]], swap=[[[0.0, 0.8], [0.0, 0.0]]]), "more than 1"),
        (dict(win=[[0.0, 0.0]], legal=[[True, False]]), "without a legal action"),
        (dict(win=[[0.0, 0.0]], swap=[[[0.0, 0.0], [1.0, 0.0]]], layer=[0, 1]), "lower layer"),
        (dict(win=[[-0.1, 0.0]]), "negative"),
        (dict(win=[[0.0, 0.0, 0.0]]), "shape"),
    ],
)
def test_an_invalid_game_is_refused_with_the_reason(kwargs, message):
    args = dict(actions=["a"], stay=[np.zeros((2, 2))], swap=[np.zeros((2, 2))], win=[[0.0, 0.0]]) | kwargs
    with pytest.raises(ValueError, match=message):
        StochasticGame.build(**args)


def test_a_tolerance_must_be_positive():
    with pytest.raises(ValueError, match="tolerance"):
        solve_game(pig_game(2), tol=0)
