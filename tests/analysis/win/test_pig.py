"""Pig solved for the probability of winning, by the generic stochastic-game solver (its own tests:
tests/test_stochastic_game.py).

Where the expected numbers come from:

* Pig to 2 with a die: any face but 1 wins at once, so the mover wins with 5/6 + 1/6 (1 - V), V = 6/7 whatever the
  scores; Piglet to 2 (a coin) solved by hand;
* Neller & Presser, "Optimal Play of the Dice Game Pig" (2004): the first player's chance, 0.5306, and points of
  the optimal policy; hold at 20's outcomes and expected score from the published table.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dragonkit.markov import AbsorbingChain
from dragonkit.topics.pig import HOLD, ROLL, PigSolution, hold_at_expected_score, hold_at_outcomes, pig_game, solve_pig


@pytest.fixture(scope="module")
def pig() -> PigSolution:
    """Pig to 100, solved once for the module (about 3 s)."""
    return solve_pig(100)


# --------------------------------------------------------------------------------------
# tiny Pig games solved by hand
# --------------------------------------------------------------------------------------


def test_pig_to_2_is_won_by_the_mover_with_6_7_whatever_the_scores():
    solution = solve_pig(2)
    assert solution.win[:, :, 0] == pytest.approx(np.full((2, 2), 6 / 7), abs=1e-11)
    assert solution.roll[:, :, 0].all()


def test_piglet_to_2_matches_the_hand_solution():
    win = solve_pig(4, sides=2, tol=1e-14).win  # Piglet's (i, j, k) is (2i, 2j, 2k) here
    expected = {
        (0, 0, 0): 4 / 7,
        (0, 0, 2): 5 / 7,
        (0, 2, 0): 2 / 5,
        (0, 2, 2): 3 / 5,
        (2, 0, 0): 4 / 5,
        (2, 2, 0): 2 / 3,
    }
    for state, p in expected.items():
        assert win[state] == pytest.approx(p, abs=1e-12), state


def test_pig_needs_a_goal_and_a_die():
    with pytest.raises(ValueError, match="goal"):
        pig_game(0)
    with pytest.raises(ValueError, match="sides"):
        hold_at_outcomes(20, sides=1)


# --------------------------------------------------------------------------------------
# Pig to 100: the published values
# --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_first_player_wins_pig_with_0_5306(pig):
    assert round(pig.first_player_wins, 4) == 0.5306
    assert pig.residual <= 1e-12


@pytest.mark.slow
def test_published_points_of_the_optimal_policy(pig):
    assert pig.hold_at(22, 0) == 19
    assert pig.win[22, 0, 0] == pytest.approx(0.6940985, abs=1e-6)  # published 0.69409848..., a looser tolerance
    # 41 against 49: hold at 22 to 26, but roll once more at 27
    assert pig.hold_at(41, 49) == 22
    assert pig.roll[41, 49, 22:29].tolist() == [False] * 5 + [True, False]


def test_at_the_start_of_the_game_the_optimal_player_holds_at_21(pig):
    assert pig.hold_at(0, 0) == 21
    assert pig.roll[0, 0, :21].all()
    assert pig.boundary()[0, 0] == 21
    assert pig.boundary().shape == (100, 100)


# --------------------------------------------------------------------------------------
# Pig to 100: properties of the solution
# --------------------------------------------------------------------------------------


def test_values_are_probabilities_and_reaching_the_goal_holds_and_wins(pig):
    assert ((pig.win >= 0) & (pig.win <= 1)).all()
    i, k = np.meshgrid(np.arange(100), np.arange(100), indexing="ij")
    reached = i + k >= 100  # shape (i, k), the same for every opponent's score
    assert (pig.win[:, :, :][np.broadcast_to(reached[:, None, :], pig.win.shape)] == 1).all()
    assert not pig.roll[np.broadcast_to(reached[:, None, :], pig.roll.shape)].any()


@pytest.mark.slow
def test_every_value_satisfies_the_bellman_equation(pig):
    win, roll = pig.win, pig.roll
    goal = 100
    i, j, k = (a.ravel() for a in np.meshgrid(np.arange(goal), np.arange(goal), np.arange(goal), indexing="ij"))
    live = i + k < goal
    i, j, k = i[live], j[live], k[live]
    hold = 1 - win[j, i + k, 0]
    padded = np.ones((goal, goal, goal + 6))  # turn totals past the goal win
    padded[:, :, :goal] = win
    rolled = (1 - win[j, i, 0] + sum(padded[i, j, k + r] for r in range(2, 7))) / 6
    assert win[i, j, k] == pytest.approx(np.maximum(hold, rolled), abs=1e-10)
    assert (roll[i, j, k] == (rolled > hold)).all()


def test_the_mover_has_the_edge_and_rolling_at_zero_beats_passing(pig):
    scores = np.arange(100)
    assert (pig.win[scores, scores, 0] > 0.5).all()
    # holding at a zero turn total passes the die: 1 - V(j, i, 0); rolling is strictly better
    start = pig.win[:, :, 0]
    assert (start + start.T > 1).all()
    assert pig.roll[:, :, 0].all()


def test_action_indices_name_the_actions():
    assert pig_game(3).actions[HOLD] == "hold"
    assert pig_game(3).actions[ROLL] == "roll"


# --------------------------------------------------------------------------------------
# hold at 20
# --------------------------------------------------------------------------------------


def test_hold_at_20_outcomes_match_the_published_table():
    published = {0: 0.624541, 20: 0.099713, 21: 0.094991, 22: 0.074189, 23: 0.054196, 24: 0.035198, 25: 0.017173}
    law = hold_at_outcomes(20)
    assert list(law) == list(published)
    assert sum(law.values()) == 1
    for points, p in published.items():
        assert float(law[points]) == pytest.approx(p, abs=5e-7)


def test_hold_at_20_scores_492303203_over_6_to_the_10_points_a_turn():
    expected = hold_at_expected_score(20)
    assert expected == Fraction(492303203, 6**10)
    assert round(float(expected), 2) == 8.14


def test_hold_at_20_expected_score_agrees_with_the_float_absorbing_chain():
    # transient turn totals 0..19, absorbing outcomes 0 ("pig") and 20..25 (banked)
    labels = [f"k={k}" for k in range(20)] + [0, *range(20, 26)]
    at = {label: n for n, label in enumerate(labels)}
    P = np.zeros((len(labels), len(labels)))
    for k in range(20):
        P[at[f"k={k}"], at[0]] += 1 / 6
        for r in range(2, 7):
            P[at[f"k={k}"], at[f"k={k + r}"] if k + r < 20 else at[k + r]] += 1 / 6
    for outcome in [0, *range(20, 26)]:
        P[at[outcome], at[outcome]] = 1
    chain = AbsorbingChain(P, labels)
    mean = chain.expected_reward({outcome: outcome for outcome in [0, *range(20, 26)]}, start="k=0")
    assert mean == pytest.approx(float(hold_at_expected_score(20)), rel=1e-12)


def test_a_player_who_rolls_to_the_goal_holds_at_the_winning_total(pig):
    """Far behind, the optimal player rolls on until the turn total wins: the boundary says goal - i, also at score
    0, where no turn total of the table reaches the goal (argmin over all-True rolls would say 0)."""
    assert pig.roll[0, 99, :].all() and pig.hold_at(0, 99) == 100 == pig.boundary()[0, 99]
    assert pig.hold_at(10, 99) == 90 == pig.boundary()[10, 99]
    i, j = np.meshgrid(np.arange(100), np.arange(100), indexing="ij")
    boundary = pig.boundary()
    assert ((boundary >= 1) & (boundary <= 100 - i)).all()
    assert all(boundary[a, b] == pig.hold_at(a, b) for a, b in [(0, 0), (22, 0), (41, 49), (0, 99), (50, 90)])
    assert pig.roll[i, j, np.minimum(boundary, 99)][boundary < 100 - i].sum() == 0
