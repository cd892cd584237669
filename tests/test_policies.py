"""Tests of the Markov-chain laboratory of :mod:`dragonkit.analysis`: policies, the
turn as an absorbing chain, policy evaluation, comparison and tables, and the plots.

What is checked against what (RULES.md sections 3, 5, 6 and 7):

1. helpers: situations, the stage table and rewards written from the text of RULES.md,
   an independent exact policy evaluator (a plain recursion over the deck), and an
   independent Monte Carlo simulator (a seeded shuffle of the remaining cards; the
   engine ``dragonkit.Game`` with its ``_deck`` replaced for fresh-deck starts);
2. backward induction, chain evaluation and ``solve_turn`` agree exactly (random
   situations of every preset, and each preset's fresh deck);
3. exact and float results agree to 1e-12;
4. the independent evaluator agrees exactly with ``evaluate_policy``;
5. Monte Carlo agrees within 99.9% confidence intervals;
6. policies: the built-in ones, callables, junk, thresholds, holding at once,
   the compulsory reveal;
7. ``turn_chain``: labels, start, absorbing states, rewards, triangular Q, the
   ``mini`` worked example by hand;
8. ``evaluate_policy`` invariants;
9. ``compare_policies``;
10. ``policy_table``, ``policy_map`` and ``policy_shift``;
11. the plots;
12. the decision graph uses the engine's rule arithmetic (``Ruleset.apply_card``).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
import re
import statistics
from collections import Counter
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure

from dragonkit import Action, Card, Game, Phase, Ruleset, Stage
from dragonkit.analysis import (
    FunctionPolicy,
    HoldAfterReveals,
    HoldAtPot,
    OptimalPolicy,
    Policy,
    Situation,
    TurnState,
    compare_policies,
    evaluate_policy,
    optimal_policy,
    policy_map,
    policy_shift,
    policy_table,
    solve_turn,
    turn_chain,
)
from dragonkit.analysis import graph as graph_module
from dragonkit.analysis import optimal as optimal_module
from dragonkit.analysis.graph import CONTINUES, DECK_EMPTY, HEAD, NO_CARD, DecisionGraph
from dragonkit.analysis.optimal import backward_induction
from dragonkit.plots import chain_graph, figure_png, outcome_bars, policy_heatmap, threshold_curve
from dragonkit.rules import FinalDanger

PRESET_NAMES = ("dragon-stripes", "kali", "drago-rosso", "mini")
Z_999 = 3.29  # two-sided 99.9% normal quantile (3.2905)
HYPOTHESIS = dict(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

# ---------------------------------------------------------------------------------
# 1. Helpers
# ---------------------------------------------------------------------------------

#: RULES.md sections 5 and 6, typed in from the text: stop-penalty rate and stripe
#: multiplier by stage, and whether the final danger costs all the revealer's gems.
RULES_TEXT = {
    "dragon-stripes": ((Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)), (1, 1, 2), True),
    "kali": ((Fraction(1, 4), Fraction(1, 2)), (1, 2), False),
    "drago-rosso": ((Fraction(1, 4), Fraction(1, 2)), (1, 2), False),
    "mini": ((Fraction(1, 4),), (1,), True),
}


def stage_table(rules: Ruleset):
    """(rates, multipliers, final danger costs all gems) — from RULES.md for presets."""
    if rules.name in RULES_TEXT:
        return RULES_TEXT[rules.name]
    return (
        tuple(s.rate for s in rules.stages),
        tuple(s.multiplier for s in rules.stages),
        rules.final_danger is FinalDanger.ALL_GEMS,
    )


def expected_reward(state: TurnState, label: str) -> int:
    """The gem change of an absorbing state, from RULES.md section 7."""
    rates, _, final_all = stage_table(state.rules)
    d, gems = state.dangers_revealed, state.gems
    if label.startswith("held "):
        return int(label[5:])
    if label == "stopped":
        return -math.floor(rates[d] * gems)
    if label == "danger":
        assert d + 1 < state.rules.danger_cards, "a non-final danger at the last stage"
        return -math.floor(rates[d + 1] * gems)
    if label == "final danger":
        assert d + 1 == state.rules.danger_cards, "the final danger before the last stage"
        return -gems if final_all else 0
    if label == "head":
        return state.pot + state.treasure
    if label == "deck empty":
        return 0
    raise AssertionError(f"unexpected absorbing label {label!r}")


def fresh_state(name: str, **changes) -> TurnState:
    """Start of the first turn of a preset: full deck, must reveal."""
    rules = Ruleset.preset(name)
    state = TurnState(
        rules, dict(rules.footprints), rules.stop_cards, rules.danger_cards, 0, rules.starting_gems, rules.treasure
    )
    return dataclasses.replace(state, **changes) if changes else state


def make_situation(pick, name: str, small: bool = True) -> TurnState:
    """A decision point of preset ``name``; ``pick(lo, hi)`` draws an int in lo..hi.

    The deck is thinned (a few footprints of each kind, fewer far from the head) so
    that exact evaluation of any policy stays cheap.  Consistent with a real game,
    the dangers not yet revealed are in the deck.
    """
    rules = Ruleset.preset(name)
    n = rules.n_stripes
    position = pick(0, n)
    near = n - position <= n // 2
    cap = (5 if near else 2) if small else (8 if near else 3)
    footprints = {steps: pick(0, min(full, cap)) for steps, full in rules.footprints}
    stage = pick(0, len(rules.stages) - 1)
    dangers = rules.danger_cards - stage
    stops = pick(0, min(3, rules.stop_cards)) if pick(0, 1) else pick(0, rules.stop_cards)
    gems = pick(0, rules.starting_gems) if pick(0, 1) else pick(0, 120)
    treasure = pick(0, 25) if pick(0, 1) else pick(0, rules.treasure)
    pot = pick(0, 4 * n) if pick(0, 2) else 0
    must_reveal = bool(pick(0, 1))
    return TurnState(rules, footprints, stops, dangers, stage, gems, treasure, position, pot, must_reveal)


@st.composite
def situations(draw, names=PRESET_NAMES, small=True):
    name = draw(st.sampled_from(names))
    return make_situation(lambda lo, hi: draw(st.integers(lo, hi)), name, small)


def seeded_situations(seed: int, name: str, count: int, small: bool = True) -> list[TurnState]:
    rng = random.Random(seed)
    return [make_situation(rng.randint, name, small) for _ in range(count)]


def interesting_situations(seed: int, name: str, count: int) -> list[TurnState]:
    """Seeded situations where the optimal policy reveals at three points or more and
    holds somewhere: the chain has depth, and both actions occur in it."""
    rng = random.Random(seed)
    found = []
    for _ in range(2000):
        state = make_situation(rng.randint, name)
        if sum(state.footprints.values()) < 2:
            continue
        if not state.must_reveal and solve_turn(state).best_action is Action.HOLD:
            continue
        chain = turn_chain(state, optimal_policy(state))
        if len(chain.transient) >= 3 and any(a.startswith("held") for a in chain.absorbing):
            found.append(state)
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} interesting {name} situations")  # pragma: no cover


def policies_for(state: TurnState, pick) -> list:
    """A few policies worth evaluating from ``state``."""
    mult = stage_table(state.rules)[1][state.dangers_revealed]
    return [
        optimal_policy(state),
        HoldAtPot(state.pot + mult * pick(1, 12)),
        HoldAtPot(pick(0, 3 * state.rules.n_stripes)),
        HoldAfterReveals(pick(1, 4)),
        lambda s: "reveal" if s.pot < 5 else "hold",
    ]


def is_fraction(x) -> bool:
    return isinstance(x, Fraction) or (isinstance(x, int) and not isinstance(x, bool))


def close(a, b, rel: float = 1e-12) -> bool:
    """Float ``a`` against exact ``b``: relative 1e-12 (absolute 1e-12 below 1)."""
    b = float(b)
    return abs(float(a) - b) <= rel * max(1.0, abs(b))


# -- an independent exact evaluator -------------------------------------------------


def oracle_evaluate(state: TurnState, policy) -> tuple[dict, dict, Fraction]:
    """Evaluate a policy by a plain recursion over the remaining deck (RULES.md
    sections 3, 5, 7), asking ``policy.decide`` (or the callable) at each point.

    Returns ``(probabilities by absorbing label, rewards by label, expected cards)``.
    Uses no code of :mod:`dragonkit.analysis` except the policy's own decisions.
    """
    decide = policy.decide if isinstance(policy, Policy) else (lambda s, k: policy(s))
    rules = state.rules
    rates, mults, final_all = stage_table(rules)
    d, gems, stops, dangers = state.dangers_revealed, state.gems, state.stops, state.dangers
    values, n = rules.stripe_values, rules.n_stripes
    bank = state.treasure + state.pot
    steps_kinds = tuple(state.footprints)
    danger_label = "final danger" if d + 1 >= rules.danger_cards else "danger"
    rewards = {
        "stopped": -math.floor(rates[d] * gems),
        "head": bank,
        "deck empty": 0,
        "danger": -math.floor(rates[min(d + 1, len(rates) - 1)] * gems),
        "final danger": -gems if final_all else 0,
    }
    memo: dict = {}

    def go(fp: tuple, pos: int, pot: int, must: bool, reveals: int):
        key = (fp, pos, pot, must)
        if key in memo:
            return memo[key]
        if not must:
            here = TurnState(rules, dict(zip(steps_kinds, fp)), stops, dangers, d, gems, bank - pot, pos, pot, False)
            if decide(here, reveals) == Action.HOLD:
                memo[key] = ({f"held {pot}": Fraction(1)}, Fraction(0))
                return memo[key]
        total = sum(fp) + stops + dangers
        out: dict = Counter()
        cards = Fraction(1)
        if stops:
            out["stopped"] += Fraction(stops, total)
        if dangers:
            out[danger_label] += Fraction(dangers, total)
        for i, (steps, c) in enumerate(zip(steps_kinds, fp)):
            if not c:
                continue
            p = Fraction(c, total)
            new = pos + steps
            if new > n:
                out["head"] += p
                continue
            if total == 1:
                out["deck empty"] += p
                continue
            pot2 = pot + min(values[new - 1] * mults[d], bank - pot)
            sub, sub_cards = go(fp[:i] + (c - 1,) + fp[i + 1 :], new, pot2, False, reveals + 1)
            for label, q in sub.items():
                out[label] += p * q
            cards += p * sub_cards
        memo[key] = (dict(out), cards)
        return memo[key]

    probs, cards = go(tuple(state.footprints.values()), state.position, state.pot, state.must_reveal, 0)
    used = {label: (int(label[5:]) if label.startswith("held ") else rewards[label]) for label in probs}
    return probs, used, cards


# -- an independent Monte Carlo simulator --------------------------------------------


class Decider:
    """``policy.decide(TurnState, reveals)`` with a memo (the decisions are deterministic)."""

    def __init__(self, policy):
        self.policy = policy if isinstance(policy, Policy) else FunctionPolicy(policy)
        self.memo: dict = {}

    def __call__(self, key, make_state, reveals: int) -> str:
        key = (key, reveals)
        if key not in self.memo:
            self.memo[key] = self.policy.decide(make_state(), reveals)
        return self.memo[key]


def simulate_turn(state: TurnState, decide: Decider, rng: random.Random) -> tuple[int, str, int]:
    """Play one turn from ``state``: shuffle the remaining cards with ``rng`` (the top is
    the end of the list), reveal or hold as the policy says, nobody takes over.

    Returns ``(gem change, outcome, cards revealed)``; written from RULES.md."""
    rules = state.rules
    rates, mults, final_all = stage_table(rules)
    d, gems = state.dangers_revealed, state.gems
    fp = dict(state.footprints)
    deck = state.composition.cards()
    rng.shuffle(deck)
    pos, pot, treasure, must, reveals = state.position, state.pot, state.treasure, state.must_reveal, 0
    while True:
        if not must:
            snapshot = (tuple(fp.values()), pos, pot)
            action = decide(
                snapshot,
                functools.partial(TurnState, rules, fp, state.stops, state.dangers, d, gems, treasure, pos, pot, False),
                reveals,
            )
            if action == "hold":
                return pot, "held", reveals
        card = deck.pop()
        reveals += 1
        must = False
        if card.kind == "stop":
            return -math.floor(rates[d] * gems), "stopped", reveals
        if card.kind == "danger":
            if d + 1 >= rules.danger_cards:
                return (-gems if final_all else 0), "danger", reveals
            return -math.floor(rates[d + 1] * gems), "danger", reveals
        pos += card.steps
        if pos > rules.n_stripes:
            return pot + treasure, "head", reveals
        placed = min(rules.stripe_values[pos - 1] * mults[d], treasure)
        pot, treasure = pot + placed, treasure - placed
        fp[card.steps] -= 1
        if not deck:
            return 0, "deck empty", reveals


def engine_turn(rules: Ruleset, decide: Decider, rng: random.Random) -> tuple[int, str, int]:
    """The first turn of a real game (``dragonkit.Game``) with the deck shuffled by
    ``rng`` (``_deck`` replaced; its end is the top card), the policy playing the
    active player and every takeover declined."""
    game = Game(["Ann", "Bob"], rules, seed=0)
    deck = rules.composition.cards()
    rng.shuffle(deck)
    game._deck = deck
    who, start, reveals, held = game.active_player, game.gems[game.active_player], 0, False
    while not game.is_over and game.turn_number == 1:
        if game.phase is Phase.MUST_REVEAL:
            game.reveal()
            reveals += 1
        elif game.phase is Phase.CHOOSE:
            remaining = game.remaining
            key = (remaining.footprints, game.position, game.pot)
            if decide(key, lambda: TurnState.from_game(game), reveals) == "reveal":
                game.reveal()
                reveals += 1
            else:
                game.hold()
                held = True
        else:
            game.decline()
    if held:
        outcome = "held"
    elif game.is_over:
        outcome = {"head": "head", "final_danger": "danger", "deck_empty": "deck empty"}[game.ending]
    else:
        outcome = {"stop": "stopped", "danger": "danger"}[game.last_card.kind]
    return game.gems[who] - start, outcome, reveals


def assert_mean_in_ci(samples, exact, label: str) -> None:
    n = len(samples)
    mean = statistics.fmean(samples)
    sd = statistics.stdev(samples)
    half = Z_999 * sd / math.sqrt(n)
    if sd == 0:
        assert mean == float(exact), f"{label}: every sample is {mean}, exact value {exact}"
    assert abs(mean - float(exact)) <= half, (
        f"{label}: sample mean {mean:.5f} outside {float(exact):.5f} +- {half:.5f} (n={n})"
    )


def assert_proportion_in_ci(hits: int, n: int, p, label: str) -> None:
    p = float(p)
    half = Z_999 * math.sqrt(p * (1 - p) / n)
    assert abs(hits / n - p) <= half + 1e-12, f"{label}: frequency {hits / n:.5f} vs exact {p:.5f} +- {half:.5f}"


def check_monte_carlo(state: TurnState, policy, evaluation, results: list, label: str) -> None:
    gains = [g for g, _, _ in results]
    outcomes = Counter(o for _, o, _ in results)
    cards = [c for _, _, c in results]
    n = len(results)
    assert_mean_in_ci(gains, evaluation.expected_gain, f"{label}: mean gem change")
    assert_mean_in_ci(cards, evaluation.expected_cards, f"{label}: cards revealed")
    assert_proportion_in_ci(outcomes["stopped"], n, evaluation.p_stopped, f"{label}: P(stopped)")
    assert_proportion_in_ci(outcomes["head"], n, evaluation.p_head, f"{label}: P(head)")
    assert_proportion_in_ci(outcomes["danger"], n, evaluation.p_danger, f"{label}: P(danger)")
    assert_proportion_in_ci(sum(g < 0 for g in gains), n, evaluation.p_loss, f"{label}: P(loss)")


# ---------------------------------------------------------------------------------
# 2. Backward induction, chain evaluation and solve_turn agree exactly
# ---------------------------------------------------------------------------------


def assert_three_ways_agree(state: TurnState):
    bi = optimal_policy(state, exact=True).value
    chain = evaluate_policy(state, optimal_policy(state), exact=True)
    sol = solve_turn(state, exact=True)
    assert isinstance(bi, Fraction) and isinstance(sol.value, Fraction) and is_fraction(chain.expected_gain), state
    assert bi == chain.expected_gain == sol.value, (state, bi, chain.expected_gain, sol.value)
    return sol, chain


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=12, **HYPOTHESIS)
@given(data=st.data())
def test_backward_induction_chain_and_solve_turn_agree_exactly(name, data):
    state = data.draw(situations(names=(name,)))
    assert_three_ways_agree(state)


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.slow
def test_fresh_deck_three_ways_agree_and_float_matches(name):
    """Each preset's fresh deck: the three exact values agree; the float path agrees
    to 1e-12 on every field of the evaluation."""
    state = fresh_state(name)
    sol, exact = assert_three_ways_agree(state)
    if name == "mini":
        assert sol.value == Fraction(-11, 8)  # RULES.md section 7, worked example
    flt = evaluate_policy(state, optimal_policy(state))
    assert_float_matches_exact(flt, exact, f"{name} fresh deck")
    assert close(solve_turn(state).value, sol.value) and close(optimal_policy(state).value, sol.value)


@pytest.mark.parametrize("limit", [1, 10**12])
def test_exact_backward_induction_in_python_integers_agrees(monkeypatch, limit):
    """Where the scaled integers could overflow int64 (forced here: from the start, or part way up
    the layers; on the presets' decks they never do), the exact path computes them in Python
    integers, with the same values; and mini's worked example stays exactly -11/8."""
    states = [fresh_state(name) for name in PRESET_NAMES] + [fresh_state("kali").replace(treasure=10**9)]
    expected = [solve_turn(state, exact=True).value for state in states]
    monkeypatch.setattr(optimal_module, "_INT64", limit)
    solve_turn.cache_clear()
    try:
        assert [solve_turn(state, exact=True).value for state in states] == expected
        graph = DecisionGraph.from_state(states[1])
        kinds = [values.push.dtype.kind for values in backward_induction(graph, exact=True)]
        assert kinds[0] == "O" and (kinds[-1] == "O") == (limit == 1)
    finally:
        solve_turn.cache_clear()
    assert expected[PRESET_NAMES.index("mini")] == Fraction(-11, 8)


def test_seeded_situations_three_ways_agree():
    """A seeded sweep: 15 thinned situations per preset, and 2 less thinned ones."""
    for k, name in enumerate(PRESET_NAMES):
        for state in seeded_situations(100 + k, name, 15) + seeded_situations(200 + k, name, 2, small=False):
            assert_three_ways_agree(state)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_situations_where_the_optimal_policy_both_reveals_and_holds(name):
    """Seeded situations whose optimal chain has depth and ends in holds too: the three
    exact values agree, the independent recursion agrees, float agrees with exact,
    and the chain is well formed."""
    rng = random.Random(400 + PRESET_NAMES.index(name))
    for state in interesting_situations(300 + PRESET_NAMES.index(name), name, 5):
        assert_three_ways_agree(state)
        for policy in policies_for(state, rng.randint):
            assert_matches_oracle(state, policy)
            exact = evaluate_policy(state, policy, exact=True)
            assert_float_matches_exact(evaluate_policy(state, policy), exact, f"{state} {policy}")
            check_evaluation_invariants(state, exact)
        check_chain_structure(state, turn_chain(state, optimal_policy(state), exact=True))


# ---------------------------------------------------------------------------------
# 3. Exact and float agree to 1e-12
# ---------------------------------------------------------------------------------

FIELDS = ("expected_gain", "p_stopped", "p_danger", "p_head", "p_loss", "expected_cards", "variance")


def assert_float_matches_exact(flt, exact, label: str) -> None:
    for f in FIELDS:
        a, b = getattr(flt, f), getattr(exact, f)
        assert isinstance(a, float), f"{label}: float {f} is {type(a).__name__}"
        assert is_fraction(b), f"{label}: exact {f} is {type(b).__name__}"
        assert close(a, b), f"{label}: {f} float {a!r} vs exact {b} ({float(b)!r})"
    assert list(flt.distribution.index) == list(exact.distribution.index), label
    for g in exact.distribution.index:
        assert close(flt.distribution[g], exact.distribution[g]), f"{label}: P(gain={g})"
    assert set(flt.outcomes.index) == set(exact.outcomes.index), label
    for o in exact.outcomes.index:
        assert close(flt.outcomes[o], exact.outcomes[o]), f"{label}: P({o})"
    assert flt.states == exact.states, label


@settings(max_examples=40, **HYPOTHESIS)
@given(state=situations(), data=st.data())
def test_float_and_exact_evaluations_agree(state, data):
    pick = lambda lo, hi: data.draw(st.integers(lo, hi))  # noqa: E731
    for policy in policies_for(state, pick):
        flt, exact = evaluate_policy(state, policy), evaluate_policy(state, policy, exact=True)
        assert_float_matches_exact(flt, exact, f"{state} {policy}")
    assert close(solve_turn(state).value, solve_turn(state, exact=True).value)


def test_float_and_exact_agree_fresh_decks_other_policies():
    for name in PRESET_NAMES:
        state = fresh_state(name)
        for policy in (HoldAtPot(12), HoldAfterReveals(3)):
            assert_float_matches_exact(
                evaluate_policy(state, policy), evaluate_policy(state, policy, exact=True), f"{name} {policy}"
            )


# ---------------------------------------------------------------------------------
# 4. An independent evaluator agrees exactly with evaluate_policy
# ---------------------------------------------------------------------------------


def assert_matches_oracle(state: TurnState, policy) -> None:
    probs, rewards, cards = oracle_evaluate(state, policy)
    e = evaluate_policy(state, policy, exact=True)
    got = {k: v for k, v in e.outcomes.items() if v}
    assert got == probs, (state, policy, got, probs)
    assert e.expected_cards == cards, (state, policy)
    gain = sum((p * rewards[k] for k, p in probs.items()), Fraction(0))
    assert e.expected_gain == gain, (state, policy)
    second = sum((p * rewards[k] ** 2 for k, p in probs.items()), Fraction(0))
    assert e.variance == second - gain * gain
    if e.states:  # the chain's rewards are RULES.md's
        chain = turn_chain(state, policy, exact=True)
        for label in chain.absorbing:
            assert chain.rewards[label] == expected_reward(state, label), (state, label)


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=10, **HYPOTHESIS)
@given(data=st.data())
def test_evaluate_policy_matches_independent_recursion(name, data):
    state = data.draw(situations(names=(name,)))
    for policy in policies_for(state, lambda lo, hi: data.draw(st.integers(lo, hi))):
        assert_matches_oracle(state, policy)


def test_custom_deck_that_runs_out_matches_recursion():
    """A custom ruleset without danger cards: the deck can run out ("deck empty", 0 gems)."""
    rules = Ruleset(
        name="tiny",
        starting_gems=10,
        treasure=9,
        stripe_values=(1, 2, 3, 4, 5, 6, 7),
        footprints={1: 3, 2: 1},
        stop_cards=1,
        danger_cards=0,
        stages=[(Fraction(1, 2), 1)],
    )
    state = TurnState(rules, {1: 3, 2: 1}, 0, 0, 0, 10, 9)  # the stop is gone: the deck can run out
    for policy in (HoldAfterReveals(4), HoldAtPot(4), HoldAtPot(100), optimal_policy(state)):
        assert_matches_oracle(state, policy)
    state = dataclasses.replace(state, stops=1)
    for policy in (HoldAfterReveals(4), HoldAtPot(4), HoldAtPot(100), optimal_policy(state)):
        assert_matches_oracle(state, policy)
    state = dataclasses.replace(state, stops=0)
    e = evaluate_policy(state, HoldAtPot(100), exact=True)
    assert e.outcomes.to_dict() == {"deck empty": 1} and e.distribution.to_dict() == {0: 1}
    e = evaluate_policy(state, HoldAtPot(2), exact=True)  # 1 step then 1 step: holds at 3, never runs out
    assert "deck empty" not in e.outcomes.index and e.expected_cards <= 2
    chain = turn_chain(state, HoldAtPot(100), exact=True)
    assert chain.rewards["deck empty"] == 0
    assert_three_ways_agree(state)


# ---------------------------------------------------------------------------------
# 5. Monte Carlo
# ---------------------------------------------------------------------------------

MC_TURNS = 2500


def mc_policies(state: TurnState, rng: random.Random) -> list:
    mult = stage_table(state.rules)[1][state.dangers_revealed]
    return [
        optimal_policy(state),
        HoldAtPot(state.pot + mult * rng.randint(5, 25)),
        HoldAfterReveals(rng.randint(2, 4)),
    ]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_monte_carlo_random_situations(name):
    """Seeded random situations: optimal, hold-at-t and hold-after-k.  Few stop cards,
    and only situations where the optimal policy reveals at three points or more, so
    that turns last a few cards (a player with at most the starting gems)."""
    seed = 5000 + PRESET_NAMES.index(name)
    rng = random.Random(seed)
    done = 0
    for state in seeded_situations(seed, name, 80):
        state = dataclasses.replace(
            state, stops=rng.randint(0, min(3, state.rules.stop_cards)), gems=rng.randint(0, state.rules.starting_gems)
        )
        if sum(state.footprints.values()) < 3 or evaluate_policy(state, optimal_policy(state)).states < 3:
            continue
        for policy in mc_policies(state, rng):
            evaluation = evaluate_policy(state, policy, exact=True)
            decide = Decider(policy)
            results = [simulate_turn(state, decide, rng) for _ in range(MC_TURNS)]
            check_monte_carlo(state, policy, evaluation, results, f"{name} {policy} from {state}")
        done += 1
        if done == 2:
            break
    assert done == 2


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_monte_carlo_fresh_deck_with_the_engine(name):
    """The real engine from the first card of a game (``_deck`` replaced)."""
    rules = Ruleset.preset(name)
    state = TurnState.from_game(Game(["Ann", "Bob"], rules, seed=0))
    assert state == fresh_state(name)
    rng = random.Random(6000 + PRESET_NAMES.index(name))
    policies = [HoldAtPot(6), HoldAfterReveals(2)]
    if name == "mini":  # cheap to decide optimally everywhere
        policies.insert(0, optimal_policy(state))
    for policy in policies:
        evaluation = evaluate_policy(state, policy, exact=True)
        decide = Decider(policy)
        results = [engine_turn(rules, decide, rng) for _ in range(MC_TURNS)]
        check_monte_carlo(state, policy, evaluation, results, f"{name} fresh deck, {policy}, engine")


def test_monte_carlo_simulator_on_the_mini_worked_example():
    state = fresh_state("mini")
    rng = random.Random(7)
    decide = Decider(optimal_policy(state))
    sim = [simulate_turn(state, decide, rng) for _ in range(4000)]
    assert {g for g, _, _ in sim} == {-12, -3, 1, 2}
    assert_mean_in_ci([g for g, _, _ in sim], Fraction(-11, 8), "mini worked example, simulator")


# ---------------------------------------------------------------------------------
# 6. Policies
# ---------------------------------------------------------------------------------

PLAIN = lambda s: "reveal" if s.pot < 5 else "hold"  # noqa: E731


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
    assert HoldAtPot(3).decide(state) is Action.HOLD and HoldAtPot(4).decide(state) is Action.REVEAL
    assert HoldAtPot(0).decide(fresh_state("mini", must_reveal=False)) is Action.HOLD
    assert HoldAfterReveals(2).decide(state, 1) is Action.REVEAL and HoldAfterReveals(2).decide(state, 2) is Action.HOLD
    assert OptimalPolicy().decide(state) is solve_turn(state).best_action
    assert all(isinstance(solve_turn(state, exact=exact).best_action, Action) for exact in (False, True))
    assert FunctionPolicy(PLAIN).decide(state) is Action.REVEAL
    assert optimal_policy(state).value == solve_turn(state).value
    for p in (HoldAtPot(np.int64(4)), HoldAfterReveals(np.int64(2))):
        assert isinstance(p.decide(state), Action)
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


# ---------------------------------------------------------------------------------
# 7. turn_chain
# ---------------------------------------------------------------------------------

ABSORBING = re.compile(r"held \d+|stopped|danger|final danger|head|deck empty")


def drawn_steps(situation: Situation) -> Counter:
    return Counter(int(s) for s in situation.drawn.split("+")) if situation.drawn else Counter()


def check_chain_structure(state: TurnState, chain) -> None:
    label = str(state)
    assert all(isinstance(s, Situation) for s in chain.transient), label
    assert chain.start == chain.transient[0] == Situation(state.position, state.pot, ""), label
    assert chain.labels[: len(chain.transient)] == chain.transient, label
    assert all(isinstance(a, str) and ABSORBING.fullmatch(a) for a in chain.absorbing), chain.absorbing
    assert not ({"danger", "final danger"} <= set(chain.absorbing)), label
    assert set(chain.rewards) == set(chain.absorbing), label
    for a in chain.absorbing:
        assert chain.rewards[a] == expected_reward(state, a), (label, a, chain.rewards[a])
    for s in chain.transient:  # the knight moved by the footprints drawn; they came from the deck
        steps = drawn_steps(s)
        assert s.position == state.position + sum(k * c for k, c in steps.items()), (label, s)
        assert all(c <= state.footprints[k] for k, c in steps.items()), (label, s)
        assert s.pot >= state.pot and s.pot + 0 <= state.pot + state.treasure
    assert len(set(chain.transient)) == len(chain.transient)
    Q = chain.Q
    t = len(chain.transient)
    assert Q.shape == (t, t)
    if hasattr(Q, "tocoo"):  # sparse (float chains): never densify a big chain
        coo = Q.tocoo()
        rows, cols = coo.row[coo.data != 0], coo.col[coo.data != 0]
    else:
        rows, cols = np.nonzero(np.asarray(Q) != 0)
    assert (cols > rows).all(), f"{label}: Q is not strictly upper triangular"
    edges = list(zip(rows.tolist(), cols.tolist()))
    for i, j in random.Random(t).sample(edges, min(len(edges), 400)):  # one edge = one footprint card
        a, b = drawn_steps(chain.transient[i]), drawn_steps(chain.transient[j])
        diff = b - a
        assert sum(diff.values()) == 1 and not (a - b), (label, chain.transient[i], chain.transient[j])
        if chain.exact:
            cards_left = state.composition.total - sum(a.values())
            k = next(iter(diff))
            assert Q[i, j] == Fraction(state.footprints[k] - a[k], cards_left)


@settings(max_examples=30, **HYPOTHESIS)
@given(state=situations(), data=st.data())
def test_turn_chain_structure(state, data):
    for policy in policies_for(state, lambda lo, hi: data.draw(st.integers(lo, hi))):
        decided = policy.decide(state) if isinstance(policy, Policy) else policy(state)
        if not state.must_reveal and decided == Action.HOLD:
            with pytest.raises(ValueError):
                turn_chain(state, policy)
            continue
        for exact in (True, False):
            chain = turn_chain(state, policy, exact=exact)
            assert chain.exact is exact
            check_chain_structure(state, chain)


def test_turn_chain_fresh_decks():
    for name in PRESET_NAMES:
        state = fresh_state(name)
        for policy in (optimal_policy(state), HoldAtPot(10)):
            check_chain_structure(state, turn_chain(state, policy))


def test_turn_chain_mini_worked_example_by_hand():
    """RULES.md section 7: mini, fresh deck (8 cards: 1-step x3, 2-step x2, stop x2,
    danger x1), 12 gems, treasure 20.  First card: a stop (2/8) costs floor(12/4) = 3;
    the only danger (1/8) is final and costs all 12 gems; a 1-step (3/8) puts 1 gem in
    the pot, a 2-step (2/8) 2 gems, and then holding is optimal.
    Value: (2(-3) + 1(-12) + 3(1) + 2(2)) / 8 = -11/8."""
    state = fresh_state("mini")
    chain = turn_chain(state, optimal_policy(state), exact=True)
    assert chain.transient == [Situation(0, 0, "")]
    assert set(chain.absorbing) == {"stopped", "final danger", "held 1", "held 2"}
    assert chain.rewards == {"stopped": -3, "final danger": -12, "held 1": 1, "held 2": 2}
    frame = chain.canonical_form()
    row = frame.loc[[Situation(0, 0, "")]].iloc[0]
    assert row.to_dict() == {
        Situation(0, 0, ""): 0,
        "stopped": Fraction(1, 4),
        "final danger": Fraction(1, 8),
        "held 1": Fraction(3, 8),
        "held 2": Fraction(1, 4),
    }
    assert chain.expected_reward(chain.rewards, start=chain.start) == Fraction(-11, 8)
    assert chain.expected_steps(start=chain.start) == 1
    e = evaluate_policy(state, optimal_policy(state), exact=True)
    assert e.expected_gain == Fraction(-11, 8)
    assert e.distribution.to_dict() == {-12: Fraction(1, 8), -3: Fraction(1, 4), 1: Fraction(3, 8), 2: Fraction(1, 4)}
    assert e.p_loss == Fraction(3, 8) and e.p_stopped == Fraction(1, 4) and e.p_danger == Fraction(1, 8)
    assert e.p_head == 0 and e.expected_cards == 1
    mean_sq = Fraction(144, 8) + Fraction(9, 4) + Fraction(3, 8) + Fraction(4, 4)
    assert e.variance == mean_sq - Fraction(121, 64)


def test_turn_chain_mini_hold_at_3_by_hand():
    """mini, fresh deck, hold once the pot reaches 3.  After a 1-step (3/8; 7 cards
    left: 1-step x2, 2-step x2, stop x2, danger): 1-step -> pot 3, 2-step -> pot 4.
    After a 2-step (2/8; 1-step x3, 2-step x1, stop x2, danger): 1-step -> pot 5,
    2-step -> pot 6."""
    state = fresh_state("mini")
    chain = turn_chain(state, HoldAtPot(3), exact=True)
    assert chain.start == chain.transient[0] == Situation(0, 0, "")
    assert set(chain.transient) == {Situation(0, 0, ""), Situation(1, 1, "1"), Situation(2, 2, "2")}
    probs = chain.absorption_probabilities(start=chain.start).to_dict()
    assert probs == {
        "stopped": Fraction(3, 7),
        "final danger": Fraction(3, 14),
        "held 3": Fraction(3, 28),
        "held 4": Fraction(3, 28),
        "held 5": Fraction(3, 28),
        "held 6": Fraction(1, 28),
    }
    assert chain.expected_reward(chain.rewards, start=chain.start) == Fraction(-33, 14)
    assert chain.expected_steps(start=chain.start) == Fraction(13, 8)
    Q = pd.DataFrame(chain.Q, index=chain.transient, columns=chain.transient)
    assert Q.loc[[chain.start]].iloc[0].to_dict() == {
        Situation(0, 0, ""): 0,
        Situation(1, 1, "1"): Fraction(3, 8),
        Situation(2, 2, "2"): Fraction(1, 4),
    }
    assert (Q.iloc[1:] == 0).all().all()
    e = evaluate_policy(state, HoldAtPot(3), exact=True)
    assert e.expected_gain == Fraction(-33, 14) and e.expected_cards == Fraction(13, 8)
    assert e.p_loss == Fraction(3, 7) + Fraction(3, 14)


def test_turn_chain_empty_deck_raises():
    rules = Ruleset.preset("mini")
    empty = TurnState(rules, {1: 0, 2: 0}, 0, 0, 0, 12, 20, must_reveal=False)
    for policy in (HoldAfterReveals(1), OptimalPolicy(), PLAIN):
        with pytest.raises(ValueError):
            turn_chain(empty, policy)
    with pytest.raises(ValueError):
        solve_turn(dataclasses.replace(empty, must_reveal=True))


# ---------------------------------------------------------------------------------
# 8. evaluate_policy invariants
# ---------------------------------------------------------------------------------


def check_evaluation_invariants(state: TurnState, e) -> None:
    dist, outcomes = e.distribution, e.outcomes
    assert sum(dist.values, Fraction(0)) == 1 and sum(outcomes.values, Fraction(0)) == 1, state
    assert list(dist.index) == sorted(dist.index)
    mean = sum((g * p for g, p in dist.items()), Fraction(0))
    assert mean == e.expected_gain
    assert e.variance == sum((g * g * p for g, p in dist.items()), Fraction(0)) - mean * mean
    assert e.variance >= 0 and math.isclose(e.std, math.sqrt(float(e.variance)))
    assert e.p_loss == sum((p for g, p in dist.items() if g < 0), Fraction(0))
    for f in ("p_stopped", "p_danger", "p_head", "p_loss"):
        assert 0 <= getattr(e, f) <= 1, f
    assert all(0 <= p <= 1 for p in dist.values) and all(0 <= p <= 1 for p in outcomes.values)
    assert e.p_stopped == outcomes.get("stopped", 0)
    assert e.p_danger == outcomes.get("danger", 0) + outcomes.get("final danger", 0)
    assert e.p_head == outcomes.get("head", 0)
    assert (e.expected_cards >= 1) if (state.must_reveal or e.states) else (e.expected_cards == 0)
    assert e.expected_cards <= state.composition.total
    assert isinstance(e.policy, str) and e.policy


@settings(max_examples=30, **HYPOTHESIS)
@given(state=situations(), data=st.data())
def test_evaluate_policy_invariants(state, data):
    for policy in policies_for(state, lambda lo, hi: data.draw(st.integers(lo, hi))):
        e = evaluate_policy(state, policy, exact=True)
        check_evaluation_invariants(state, e)
        f = evaluate_policy(state, policy)
        assert abs(float(f.distribution.sum()) - 1) < 1e-12 and abs(float(f.outcomes.sum()) - 1) < 1e-12
        assert all(-1e-15 <= float(getattr(f, k)) <= 1 + 1e-15 for k in ("p_stopped", "p_danger", "p_head", "p_loss"))


def test_evaluate_policy_invariants_fresh_decks():
    for name in PRESET_NAMES:
        state = fresh_state(name)
        check_evaluation_invariants(state, evaluate_policy(state, HoldAtPot(8), exact=True))


# ---------------------------------------------------------------------------------
# 9. compare_policies
# ---------------------------------------------------------------------------------


def check_comparison(state: TurnState, table: pd.DataFrame, thresholds, exact: bool) -> None:
    assert "optimal" in table.index
    assert set(table.columns) >= {
        "threshold",
        "expected_gain",
        "p_stopped",
        "p_danger",
        "p_head",
        "p_loss",
        "expected_cards",
        "std",
    }
    best = table.loc["optimal", "expected_gain"]
    if exact:
        assert best == solve_turn(state, exact=True).value
    else:
        assert close(best, solve_turn(state, exact=True).value)
    rows = table[table.index != "optimal"]
    assert len(rows) == len(set(thresholds))
    for name in rows.index:
        assert rows.loc[name, "expected_gain"] <= best + (0 if exact else 1e-9 * max(1, abs(best))), (state, name)
    for t in random.Random(len(thresholds)).sample(sorted(set(thresholds)), min(6, len(set(thresholds)))):
        name = HoldAtPot(t).name
        assert name in table.index
        assert table.loc[name, "threshold"] == t
        e = evaluate_policy(state, HoldAtPot(t), exact=exact)
        for f in ("expected_gain", "p_stopped", "p_danger", "p_head", "p_loss", "expected_cards"):
            assert table.loc[name, f] == getattr(e, f), (state, t, f)
        assert table.loc[name, "std"] == pytest.approx(e.std)


@settings(max_examples=15, **HYPOTHESIS)
@given(state=situations(), data=st.data())
def test_compare_policies_exact(state, data):
    thresholds = sorted({data.draw(st.integers(0, 60)) for _ in range(4)} | {state.pot + 1})
    check_comparison(state, compare_policies(state, thresholds, exact=True), thresholds, exact=True)


@pytest.mark.slow
def test_compare_policies_default_thresholds_fresh_decks():
    for name in PRESET_NAMES:
        state = fresh_state(name)
        table = compare_policies(state)
        thresholds = [int(t) for t in table["threshold"].dropna()]
        assert len(thresholds) >= 5 and min(thresholds) >= 1
        check_comparison(state, table, thresholds, exact=False)


# ---------------------------------------------------------------------------------
# 10. policy_table, policy_map, policy_shift
# ---------------------------------------------------------------------------------


def reachable(state: TurnState) -> dict:
    """Every decision point reachable from ``state`` by footprints that do not end the
    turn, written from RULES.md: {(cards drawn, position, pot): {footprints left}}."""
    rules = state.rules
    mults = stage_table(rules)[1]
    m = mults[state.dangers_revealed]
    bank, n = state.treasure + state.pot, rules.n_stripes
    kinds = tuple(state.footprints)
    others = state.stops + state.dangers
    out: dict = {}
    layer = {(tuple(state.footprints.values()), state.position, state.pot)}
    depth = 0
    while layer:
        nxt = set()
        for fp, pos, pot in layer:
            out.setdefault((depth, pos, pot), set()).add(fp)
            left = sum(fp) + others
            for i, (steps, c) in enumerate(zip(kinds, fp)):
                new = pos + steps
                if c and new <= n and left > 1:
                    nxt.add(
                        (fp[:i] + (c - 1,) + fp[i + 1 :], new, pot + min(rules.stripe_values[new - 1] * m, bank - pot))
                    )
        layer, depth = nxt, depth + 1
    return out


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_policy_table_matches_solve_turn(name):
    rng = random.Random(8000 + PRESET_NAMES.index(name))
    states = seeded_situations(8000 + PRESET_NAMES.index(name), name, 3) + [fresh_state(name)]
    for state in states:
        table = policy_table(state)
        sit = table.situations
        assert list(sit.columns) == [
            "cards_drawn",
            "drawn",
            "position",
            "pot",
            "cards_left",
            "push_value",
            "hold_value",
            "advantage",
            "action",
        ]
        assert (sit.drawn.str.count(r"\d") == sit.cards_drawn).all()
        sol = solve_turn(state)
        first = sit.iloc[0]
        assert (first.cards_drawn, first.position, first.pot, first.cards_left) == (
            0,
            state.position,
            state.pot,
            state.composition.total,
        )
        assert first.push_value == pytest.approx(float(solve_turn(state, exact=True).push_value), rel=1e-12, abs=1e-12)
        assert first.push_value == pytest.approx(sol.push_value, rel=1e-12, abs=1e-12)
        assert first.action == sol.best_action
        assert (sit.hold_value == sit.pot).all()
        assert np.allclose(sit.advantage, sit.push_value - sit.pot)
        assert (sit.cards_left == state.composition.total - sit.cards_drawn).all()
        assert set(sit.action) <= {"reveal", "hold"}
        # Every row is a reachable decision point, and each one appears once.
        points = reachable(state)
        keys = Counter(zip(sit.cards_drawn.tolist(), sit.position.tolist(), sit.pot.tolist()))
        assert keys == Counter({k: len(v) for k, v in points.items()}), state
        # A sample of rows against solve_turn, rebuilt as TurnStates (rows sharing
        # (cards drawn, position, pot) differ only in the deck: compare as multisets).
        sample = rng.sample(sorted(points), min(25, len(points)))
        for depth, pos, pot in sample:
            rows = sit[(sit.cards_drawn == depth) & (sit.position == pos) & (sit.pot == pot)]
            expected = []
            for fp in points[depth, pos, pot]:
                rebuilt = dataclasses.replace(
                    state,
                    footprints=dict(zip(state.footprints, fp)),
                    position=pos,
                    pot=pot,
                    treasure=state.treasure + state.pot - pot,
                    must_reveal=state.must_reveal and depth == 0,
                )
                s = solve_turn(rebuilt)
                expected.append((s.best_action, s.push_value))
            got = sorted(zip(rows.action, rows.push_value), key=lambda x: (x[1], x[0]))
            expected.sort(key=lambda x: (x[1], x[0]))
            assert [a for a, _ in got] == [a for a, _ in expected], (state, depth, pos, pot)
            assert np.allclose([v for _, v in got], [v for _, v in expected], rtol=1e-12, atol=1e-12)
        # The summary grid at the state's own (pot, position), holding allowed.
        free = dataclasses.replace(state, must_reveal=False)
        assert table.summary.loc[state.pot, state.position] == solve_turn(free).best_action, state
        assert table.advantage.loc[state.pot, state.position] == pytest.approx(
            solve_turn(free).push_value - state.pot, rel=1e-12, abs=1e-12
        )


def test_policy_map_grid_matches_solve_turn():
    for name in PRESET_NAMES:
        state = seeded_situations(8100 + PRESET_NAMES.index(name), name, 1)[0]
        grid = policy_map(state)
        table = policy_table(state)
        assert grid.equals(table.advantage)
        assert list(grid.columns) == list(range(state.rules.n_stripes + 1))
        assert list(grid.index) == sorted(grid.index, reverse=True)
        cells = [(pot, pos) for pos in grid.columns for pot in grid.index if pd.notna(grid.loc[pot, pos])]
        rng = random.Random(len(cells))
        for pot, pos in rng.sample(cells, min(12, len(cells))):
            here = dataclasses.replace(
                state,
                position=int(pos),
                pot=int(pot),
                treasure=state.treasure + state.pot - int(pot),
                must_reveal=False,
            )
            sol = solve_turn(here)
            assert grid.loc[pot, pos] == pytest.approx(sol.push_value - pot, rel=1e-12, abs=1e-12)
            assert table.summary.loc[pot, pos] == sol.best_action


def _threshold(x) -> float:
    return math.inf if pd.isna(x) else float(x)


def shift_states() -> list[TurnState]:
    return [
        fresh_state("mini"),
        fresh_state("mini", position=1, pot=1, treasure=19, must_reveal=False, footprints={1: 2, 2: 2}),
        fresh_state("kali"),
        seeded_situations(8200, "dragon-stripes", 1, small=False)[0],
        seeded_situations(8201, "drago-rosso", 1, small=False)[0],
    ]


def test_policy_shift_rows_and_values():
    for state in shift_states():
        gems = [0, 7, 40, 90]
        stages = list(range(len(state.rules.stages)))
        shift = policy_shift(state, gems=gems, stages=stages)
        assert list(shift.index) == ["as is"] + [f"gems={g}" for g in gems] + [f"stage={d}" for d in stages]
        assert list(shift.columns) == list(range(state.rules.n_stripes + 1))
        for g in (0, 40):
            grid = policy_map(dataclasses.replace(state, gems=g))
            for pos in grid.columns:
                col = grid[pos].dropna()
                holds = col.index[col <= 0]
                want = holds.min() if len(holds) else math.nan
                got = shift.loc[f"gems={g}", pos]
                assert (pd.isna(want) and pd.isna(got)) or want == got, (state, g, pos)
    with pytest.raises(ValueError):
        policy_shift(fresh_state("mini"), stages=[1])
    with pytest.raises(ValueError):
        policy_shift(fresh_state("mini"), gems=[-1])


def test_richer_players_hold_no_later():
    """RULES.md: penalties grow with the player's gems, nothing else depends on them,
    so the push value cannot rise with the gems and a richer player holds from a pot
    no larger than a poorer one's, at every position."""
    gems = [0, 5, 12, 30, 60, 120]
    for state in shift_states():
        shift = policy_shift(state, gems=gems)
        for poorer, richer in itertools.pairwise(gems):
            for pos in shift.columns:
                a, b = _threshold(shift.loc[f"gems={poorer}", pos]), _threshold(shift.loc[f"gems={richer}", pos])
                assert b <= a, f"{state}: at position {pos} gems={richer} holds from {b}, gems={poorer} from {a}"
        # The stronger form: cell by cell, the advantage of revealing does not grow with the gems.
        grids = [policy_map(dataclasses.replace(state, gems=g)) for g in gems]
        for poorer, richer in itertools.pairwise(grids):
            p, r = poorer.to_numpy(dtype=float), richer.to_numpy(dtype=float)
            assert (np.isnan(p) == np.isnan(r)).all()
            defined = ~np.isnan(p)
            assert (r[defined] <= p[defined] + 1e-9).all(), state


# ---------------------------------------------------------------------------------
# 11. Plots
# ---------------------------------------------------------------------------------


def check_figure(fig) -> None:
    assert isinstance(fig, Figure)
    assert fig.axes, "the figure has no axes"
    png = figure_png(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_plots_return_figures_and_leave_none_registered():
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    mini = fresh_state("mini")
    kali = seeded_situations(9000, "kali", 1)[0]
    check_figure(policy_heatmap(policy_map(mini)))
    check_figure(policy_heatmap(policy_map(kali)))
    for exact in (True, False):
        e = evaluate_policy(mini, HoldAtPot(3), exact=exact)
        fig = outcome_bars(e)
        check_figure(fig)
        assert len(fig.axes[0].patches) == len(e.distribution)
    check_figure(outcome_bars(evaluate_policy(kali, optimal_policy(kali))))
    check_figure(threshold_curve(compare_policies(mini)))
    check_figure(threshold_curve(compare_policies(kali, [1, 5, 9], exact=True)))
    for policy in (optimal_policy(mini), HoldAtPot(3), HoldAfterReveals(2)):
        check_figure(chain_graph(turn_chain(mini, policy, exact=True)))
    check_figure(chain_graph(turn_chain(mini, HoldAtPot(3))))
    assert plt.get_fignums() == before == []


def test_chain_graph_refuses_large_chains():
    import matplotlib.pyplot as plt

    mini = fresh_state("mini")
    chain = turn_chain(mini, HoldAtPot(3), exact=True)
    size = len(chain.transient) + len(chain.absorbing)
    with pytest.raises(ValueError):
        chain_graph(chain, max_states=size - 1)
    check_figure(chain_graph(chain, max_states=size))
    big = turn_chain(fresh_state("dragon-stripes"), HoldAtPot(30))
    assert len(big.transient) + len(big.absorbing) > 60
    with pytest.raises(ValueError):
        chain_graph(big)
    assert plt.get_fignums() == []


# ---------------------------------------------------------------------------------
# 12. The decision graph uses the engine's rule arithmetic
# ---------------------------------------------------------------------------------


def check_graph_against_apply_card(state: TurnState, rng: random.Random) -> None:
    rules = state.rules
    graph = DecisionGraph.from_state(state)
    bank = state.treasure + state.pot
    common = dict(gems=state.gems, dangers_revealed=state.dangers_revealed)
    stop = rules.apply_card(
        Card("stop"),
        position=state.position,
        pot=state.pot,
        treasure=state.treasure,
        cards_left=state.composition.total - 1,
        **common,
    )
    danger = rules.apply_card(
        Card("danger"),
        position=state.position,
        pot=state.pot,
        treasure=state.treasure,
        cards_left=state.composition.total - 1,
        **common,
    )
    if state.stops:
        assert graph.stop_reward == stop.gems_change == expected_reward(state, "stopped")
    if state.dangers:
        assert graph.danger_reward == danger.gems_change
        assert graph.danger_outcome == danger.outcome
    root = graph.layers[0]
    assert (len(root), root.position[0], root.pot[0]) == (1, state.position, state.pot)
    assert root.counts[0].tolist() == list(state.footprints.values())
    assert graph.steps == tuple(state.footprints)
    for depth, layer in enumerate(graph.layers):
        assert layer.cards_left == state.composition.total - depth
        assert (layer.counts.sum(axis=1) + state.stops + state.dangers == layer.cards_left).all()
        if depth + 1 < len(graph.layers):  # no orphan: every point of the next layer is someone's child
            kids = layer.child[layer.child >= 0]
            assert set(kids.tolist()) == set(range(len(graph.layers[depth + 1])))
        for i in rng.sample(range(len(layer)), min(20, len(layer))):
            pos, pot = int(layer.position[i]), int(layer.pot[i])
            for k, steps in enumerate(graph.steps):
                if layer.counts[i, k] == 0:
                    assert layer.ends[i, k] == NO_CARD and layer.child[i, k] == -1
                    continue
                effect = rules.apply_card(
                    Card.footprint(steps),
                    position=pos,
                    pot=pot,
                    treasure=bank - pot,
                    cards_left=layer.cards_left - 1,
                    **common,
                )
                if effect.outcome is None:
                    assert layer.ends[i, k] == CONTINUES, (state, depth, i, steps)
                    nxt, c = graph.layers[depth + 1], int(layer.child[i, k])
                    assert c >= 0
                    assert (int(nxt.position[c]), int(nxt.pot[c]), bank - int(nxt.pot[c])) == (
                        effect.position,
                        effect.pot,
                        effect.treasure,
                    ), (state, depth, i, steps)
                    expected_counts = layer.counts[i].copy()
                    expected_counts[k] -= 1
                    assert nxt.counts[c].tolist() == expected_counts.tolist()
                else:
                    code = {"head": HEAD, "deck_empty": DECK_EMPTY}[effect.outcome]
                    assert layer.ends[i, k] == code and layer.child[i, k] == -1, (state, depth, i, steps)
                    assert layer.end_reward[i, k] == effect.gems_change, (state, depth, i, steps)


@settings(max_examples=40, **HYPOTHESIS)
@given(state=situations(small=False), seed=st.integers(0, 2**32))
def test_decision_graph_children_follow_apply_card(state, seed):
    check_graph_against_apply_card(state, random.Random(seed))


def test_decision_graph_fresh_decks_follow_apply_card():
    rng = random.Random(10)
    for name in PRESET_NAMES:
        check_graph_against_apply_card(fresh_state(name), rng)
        check_graph_against_apply_card(fresh_state(name, treasure=15, gems=77), rng)  # the cap bites
    rules = Ruleset(
        name="tiny",
        starting_gems=10,
        treasure=9,
        stripe_values=(1, 2, 3, 4, 5, 6, 7),
        footprints={1: 3, 2: 1},
        stop_cards=1,
        danger_cards=0,
        stages=[Stage(Fraction(1, 2), 1)],
    )
    for stops in (0, 1):
        check_graph_against_apply_card(TurnState(rules, {1: 3, 2: 1}, stops, 0, 0, 10, 9), rng)


def test_decision_graph_steps_each_layer_where_the_pairs_are_too_many_for_a_table():
    """Stripes worth tens of thousands of gems make too many (position, pot) pairs to step them
    all at once: each layer is then stepped, and the graph still follows apply_card and the recursion."""
    rules = Ruleset(
        name="rich",
        starting_gems=40,
        treasure=10**6,
        stripe_values=(1000, 20000, 30000, 40000, 50000, 60000),
        footprints={1: 3, 2: 2, 3: 1},
        stop_cards=2,
        danger_cards=0,
        stages=[Stage(Fraction(1, 4), 1)],
    )
    state = TurnState.fresh(rules)
    graph = DecisionGraph.from_state(state)
    assert graph._tables is None
    check_graph_against_apply_card(state, random.Random(5))
    check_graph_against_apply_card(state.replace(treasure=45_000), random.Random(6))  # the cap bites

    @functools.cache
    def value(s: TurnState) -> Fraction:
        if s.is_terminal():
            return Fraction(s.returns())
        push = sum(p * value(s.child(card)) for card, p in s.chance_outcomes())
        return push if s.must_reveal else max(push, Fraction(s.pot))

    assert solve_turn(state, exact=True).value == value(state)


@pytest.mark.parametrize("wide", [2**62, 1])
def test_decision_graph_draws_too_many_for_a_box_or_int64_codes_agree(monkeypatch, wide):
    """Twelve footprint kinds: where the draws are too many to code all at once, they are coded
    kind by kind (forced here), in int64 or, where even that overflows (forced too: it takes
    dozens of kinds), in Python integers; the graph still follows apply_card, finds the same
    points and matches the textbook recursion."""
    rules = Ruleset(
        name="wide",
        starting_gems=40,
        treasure=10**6,
        stripe_values=(1, 2, 3, 4, 5),
        footprints=dict.fromkeys(range(1, 13), 30),
        stop_cards=5,
        danger_cards=0,
        stages=[Stage(Fraction(1, 4), 1)],
    )
    state = TurnState.fresh(rules)
    narrow = DecisionGraph.from_state(state)
    monkeypatch.setattr(graph_module, "_BOX", 0)
    monkeypatch.setattr(graph_module, "_WIDE", wide)
    graph = DecisionGraph.from_state(state)
    for a, b in zip(graph.layers, narrow.layers, strict=True):
        for name in ("counts", "position", "pot", "ends", "child", "end_reward"):
            assert (getattr(a, name) == getattr(b, name)).all()
    check_graph_against_apply_card(state, random.Random(4))

    @functools.cache
    def value(s: TurnState) -> Fraction:  # the textbook recursion, one state at a time
        if s.is_terminal():
            return Fraction(s.returns())
        push = sum(p * value(s.child(card)) for card, p in s.chance_outcomes())
        return push if s.must_reveal else max(push, Fraction(s.pot))

    assert solve_turn(state, exact=True).value == value(state)
    assert abs(solve_turn(state).value - float(value(state))) < 1e-9
