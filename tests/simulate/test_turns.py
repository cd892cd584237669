"""Monte Carlo of turns (dragonkit.simulate.turns) against the exact evaluation, for every preset."""

from __future__ import annotations

import numpy as np
import pytest

from dragonkit.analysis import HoldAfterReveals, HoldAtPot, evaluate_policy, optimal_policy
from dragonkit.rules import PRESETS
from dragonkit.simulate import simulate_turns
from dragonkit.simulate.turns import OUTCOMES

from ..situations import fresh_state

Z999 = 3.2905


SITUATIONS = [
    fresh_state("dragon-stripes"),
    fresh_state(
        "dragon-stripes",
        footprints={1: 9, 2: 7, 3: 6, 4: 2},
        stops=7,
        dangers=1,
        dangers_revealed=2,
        gems=90,
        treasure=120,
        position=6,
        pot=14,
        must_reveal=False,
    ),
    fresh_state("kali", stops=9, dangers=1, dangers_revealed=1, gems=25, treasure=300),
    fresh_state("drago-rosso", footprints={1: 10, 2: 9, 3: 5, 4: 3}, stops=8, position=3, pot=5, must_reveal=False),
    fresh_state("mini"),
]


@pytest.mark.parametrize("state", SITUATIONS, ids=lambda s: s.rules.name)
@pytest.mark.parametrize(
    "make_policy",
    [lambda s: optimal_policy(s), lambda s: HoldAtPot(12), lambda s: HoldAfterReveals(2)],
    ids=["optimal", "hold12", "after2"],
)
def test_simulated_turns_agree_with_the_exact_evaluation(state, make_policy):
    policy = make_policy(state)
    exact = evaluate_policy(state, policy)
    sim = simulate_turns(state, policy, 100_000, rng=np.random.default_rng(7))
    table = sim.summary(level=0.999)
    for row, value in [
        ("expected_gain", exact.expected_gain),
        ("expected_cards", exact.expected_cards),
        ("p_stopped", exact.p_stopped),
        ("p_danger", exact.p_danger),
        ("p_head", exact.p_head),
        ("p_loss", exact.p_loss),
    ]:
        low, high = table.loc[row, "ci_low"], table.loc[row, "ci_high"]
        assert low - 1e-12 <= value <= high + 1e-12, (row, value, low, high)
    mean, se = table.loc["expected_gain", "estimate"], table.loc["expected_gain", "std_error"]
    assert abs(mean - exact.expected_gain) <= Z999 * se + 1e-12


def test_simulation_is_seeded_and_validates():
    state = SITUATIONS[0]
    a = simulate_turns(state, HoldAtPot(20), 5000, rng=3)
    b = simulate_turns(state, HoldAtPot(20), 5000, rng=np.random.default_rng(3))
    assert np.array_equal(a.gain, b.gain) and np.array_equal(a.outcome, b.outcome)
    assert not np.array_equal(a.gain, simulate_turns(state, HoldAtPot(20), 5000, rng=4).gain)
    assert set(np.unique(a.outcome)) <= set(range(len(OUTCOMES)))
    assert (a.cards >= 1).all()  # a compulsory reveal
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="n must be"):
            simulate_turns(state, HoldAtPot(20), bad)
    with pytest.raises(ValueError, match="TurnState"):
        simulate_turns(None, HoldAtPot(20), 10)


def test_a_policy_that_holds_at_once_keeps_the_pot():
    state = SITUATIONS[1]
    sim = simulate_turns(state, HoldAtPot(5), 100, rng=1)
    assert (sim.gain == state.pot).all() and (sim.cards == 0).all()


def test_running_mean_converges_to_the_exact_value():
    state = SITUATIONS[2]
    exact = float(evaluate_policy(state, HoldAtPot(20)).expected_gain)
    sim = simulate_turns(state, HoldAtPot(20), 200_000, rng=11)
    path = sim.running_mean()
    assert len(path) == sim.n and path[-1] == pytest.approx(sim.gain.mean())
    assert abs(path[-1] - exact) < abs(path[99] - exact) + 1.0


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_simulates(name):
    state = fresh_state(name)
    sim = simulate_turns(state, HoldAtPot(10), 2000, rng=0)
    assert sim.summary().loc["expected_gain", "n"] == 2000
