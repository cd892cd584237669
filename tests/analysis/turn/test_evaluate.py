"""Policy evaluation (:mod:`dragonkit.analysis.turn.evaluate`): the turn as an absorbing chain, evaluated and
compared, against independent methods.

What is checked against what (RULES.md sections 3, 5, 6 and 7; the situations and the stage table in oracle.py):

1. an independent exact policy evaluator (a plain recursion over the deck), and an independent Monte Carlo
   simulator (a seeded shuffle of the remaining cards; the engine ``dragonkit.Game`` with its ``_deck`` replaced
   for fresh-deck starts);
2. backward induction, chain evaluation and ``solve_turn`` agree exactly (random situations of every preset, and
   each preset's fresh deck);
3. exact and float results agree to 1e-12;
4. the independent evaluator agrees exactly with ``evaluate_policy``;
5. Monte Carlo agrees within 99.9% confidence intervals;
6. ``turn_chain``: labels, start, absorbing states, rewards, triangular Q, the ``mini`` worked example by hand;
7. ``evaluate_policy`` invariants;
8. ``compare_policies``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import re
import statistics
from collections import Counter
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dragonkit import Game, Phase, Ruleset
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
    solve_turn,
    turn_chain,
)
from dragonkit.analysis.turn import optimal as optimal_module
from dragonkit.analysis.turn.graph import DecisionGraph
from dragonkit.analysis.turn.optimal import backward_induction
from dragonkit.rules import CardKind
from dragonkit.turn import Action

from ...situations import fresh_state
from .oracle import (
    FIELDS,
    HYPOTHESIS,
    PLAIN,
    PRESET_NAMES,
    TINY,
    close,
    expected_reward,
    is_fraction,
    make_situation,
    seeded_situations,
    situations,
    stage_table,
)

Z_999 = 3.29  # two-sided 99.9% normal quantile (3.2905)


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
        if card.kind is CardKind.STOP:
            return -math.floor(rates[d] * gems), "stopped", reveals
        if card.kind is CardKind.DANGER:
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
        outcome = {CardKind.STOP: "stopped", CardKind.DANGER: "danger"}[game.last_card.kind]
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
    state = TurnState(TINY, {1: 3, 2: 1}, 0, 0, 0, 10, 9)  # the stop is gone: the deck can run out
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
    """Seeded random situations: optimal, hold-at-h and hold-after-k.  Few stop cards,
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
