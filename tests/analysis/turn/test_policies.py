"""The policies (:mod:`dragonkit.analysis.turn.policies`): the built-in ones, plain callables, junk refused,
thresholds, a policy that holds at once, the compulsory reveal."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dragonkit.analysis import (
    FunctionPolicy,
    HoldAfterReveals,
    HoldAtPot,
    OptimalPolicy,
    Situation,
    TurnState,
    evaluate_policy,
    optimal_policy,
    solve_turn,
    turn_chain,
)

from ...situations import fresh_state
from .oracle import FIELDS, PLAIN, PRESET_NAMES, close, is_fraction, seeded_situations


def some_states() -> list[TurnState]:
    states = [
        fresh_state("mini"),
        fresh_state("mini", must_reveal=False, pot=3, position=2, treasure=17),
        fresh_state("mini", must_reveal=False, pot=7, position=3, treasure=13),
    ]
    for k, name in enumerate(PRESET_NAMES):
        states += seeded_situations(900 + k, name, 3)
    return states


def assert_same_evaluation(a, b, label="") -> None:
    for f in FIELDS + ("states",):
        assert getattr(a, f) == getattr(b, f), f"{label}: {f} {getattr(a, f)} != {getattr(b, f)}"
    assert a.distribution.to_dict() == b.distribution.to_dict(), label
    assert a.outcomes.to_dict() == b.outcomes.to_dict(), label


def test_plain_callable_equals_hold_at_5():
    for state in some_states():
        assert_same_evaluation(
            evaluate_policy(state, PLAIN, exact=True), evaluate_policy(state, HoldAtPot(5), exact=True), str(state)
        )
        a, b = evaluate_policy(state, PLAIN), evaluate_policy(state, HoldAtPot(5))
        assert a.expected_gain == pytest.approx(b.expected_gain, rel=1e-12, abs=1e-12)
        if not state.must_reveal and state.pot >= 5:
            with pytest.raises(ValueError):
                turn_chain(state, PLAIN)
            continue
        ca, cb = turn_chain(state, PLAIN, exact=True), turn_chain(state, HoldAtPot(5), exact=True)
        assert ca.labels == cb.labels and ca.rewards == cb.rewards
        assert ca.canonical_form().equals(cb.canonical_form())


def test_policy_decisions():
    state = fresh_state("mini", must_reveal=False, pot=3, position=2, treasure=17)
    assert HoldAtPot(3).decide(state) == "hold" and HoldAtPot(4).decide(state) == "reveal"
    assert HoldAtPot(0).decide(fresh_state("mini", must_reveal=False)) == "hold"
    assert HoldAfterReveals(2).decide(state, 1) == "reveal" and HoldAfterReveals(2).decide(state, 2) == "hold"
    assert OptimalPolicy().decide(state) == solve_turn(state).best_action
    assert FunctionPolicy(PLAIN).decide(state) == "reveal"
    assert optimal_policy(state).value == solve_turn(state).value
    for p in (HoldAtPot(np.int64(4)), HoldAfterReveals(np.int64(2))):
        assert isinstance(p.decide(state), str)
    assert HoldAtPot(7).name != HoldAtPot(8).name and isinstance(repr(HoldAfterReveals(2)), str)


@pytest.mark.parametrize("junk", ["maybe", None, "HOLD", True, 1, ("reveal",)])
def test_callable_returning_junk_raises(junk):
    for state in (
        fresh_state("mini"),
        fresh_state("mini", must_reveal=False, pot=1, position=1, treasure=19),
        seeded_situations(11, "kali", 1)[0],
    ):
        with pytest.raises(ValueError):
            evaluate_policy(state, lambda s: junk)
        with pytest.raises(ValueError):
            evaluate_policy(state, lambda s: junk, exact=True)
        with pytest.raises(ValueError):
            turn_chain(state, lambda s: junk)


def test_junk_that_appears_only_later_raises():
    state = fresh_state("mini")  # compulsory reveal first: the callable is asked later
    with pytest.raises(ValueError):
        evaluate_policy(state, lambda s: "hold" if s.pot < 2 else "sure")


@pytest.mark.parametrize("not_a_policy", [42, "hold", None, 3.5])
def test_non_policies_raise(not_a_policy):
    with pytest.raises(ValueError):
        evaluate_policy(fresh_state("mini"), not_a_policy)
    with pytest.raises(ValueError):
        turn_chain(fresh_state("mini"), not_a_policy)


@pytest.mark.parametrize("t", [-1, 2.5, 3.0, "3", None, True, False, Fraction(5, 2)])
def test_invalid_hold_at_pot_threshold_raises(t):
    with pytest.raises(ValueError):
        HoldAtPot(t)


@pytest.mark.parametrize("k", [0, -2, 1.0, 1.5, "2", None, True])
def test_invalid_hold_after_reveals_count_raises(k):
    with pytest.raises(ValueError):
        HoldAfterReveals(k)


def test_policy_that_holds_at_once_is_degenerate():
    states = [
        fresh_state("mini", must_reveal=False, pot=4, position=2, treasure=16),
        fresh_state("kali", must_reveal=False, pot=30, position=7, treasure=100),
        fresh_state("dragon-stripes", must_reveal=False),
    ]
    for state in states:
        for policy in (HoldAtPot(0), HoldAtPot(state.pot), lambda s: "hold"):
            for exact in (True, False):
                e = evaluate_policy(state, policy, exact=exact)
                assert e.expected_gain == state.pot and e.expected_cards == 0 and e.states == 0
                assert e.variance == 0 and e.p_stopped == e.p_danger == e.p_head == e.p_loss == 0
                assert e.distribution.to_dict() == {state.pot: 1}
                assert e.outcomes.to_dict() == {f"held {state.pot}": 1}
                if exact:
                    assert is_fraction(e.expected_gain) and is_fraction(e.variance)
            with pytest.raises(ValueError):
                turn_chain(state, policy)
            with pytest.raises(ValueError):
                turn_chain(state, policy, exact=True)


@pytest.mark.slow
def test_compulsory_reveal_is_enforced():
    for state in [fresh_state(n) for n in PRESET_NAMES] + [s for s in some_states() if s.must_reveal]:
        for exact in (True, False):
            e = evaluate_policy(state, lambda s: "hold", exact=exact)
            once = evaluate_policy(state, HoldAfterReveals(1), exact=exact)
            assert e.expected_cards == 1 and e.states == 1
            if exact:
                assert_same_evaluation(e, once, str(state))
            # Holding at once (pot threshold 0) also reveals one card first.
            assert close(evaluate_policy(state, HoldAtPot(0), exact=exact).expected_gain, once.expected_gain)
            assert close(e.expected_gain, once.expected_gain)
        chain = turn_chain(state, lambda s: "hold", exact=True)
        assert chain.transient == [chain.start] and chain.start == Situation(state.position, state.pot, "")
