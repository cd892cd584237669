"""Tests of :mod:`dragonkit.analysis` against an independent oracle for RULES.md section 7.

The oracle below is written from the text of ``docs/RULES.md`` (sections 3, 5 and 7;
the same text as ``shared/RULES.md``) and reads only plain fields of the ruleset: ``stripe_values``, ``footprints``,
``stages`` (rate and multiplier), ``danger_cards`` and ``final_danger``.  It never
calls ``Ruleset.apply_card``, ``penalty``, ``stripe_gems``, the engine, or anything in
``dragonkit.analysis``, so an error in the shared rule arithmetic cannot cancel out.

Layout:

1. the oracle;
2. the worked example of RULES.md (``mini``, fresh deck: -11/8), derived by hand;
3. exact agreement of ``solve_turn`` with the oracle on fresh decks and on many
   random situations of every preset (hypothesis, derandomized);
4. the float path;
5. ``next_card_probabilities`` and ``fair_bounty``;
6. ``TurnState.from_game`` and ``TurnState`` validation;
7. Monte Carlo: the real engine (``dragonkit.Game``) played with the optimal policy.
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from fractions import Fraction
from functools import cache, lru_cache
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dragonkit import Action, Card, Game, Phase, Ruleset
from dragonkit.analysis import TurnSolution, TurnState, fair_bounty, next_card_probabilities, solve_turn, takeover_gain
from dragonkit.rules import FinalDanger

from ...situations import fresh_state
from .oracle import PRESET_NAMES

# ---------------------------------------------------------------------------------
# 1. The oracle (RULES.md section 7, written from the text)
# ---------------------------------------------------------------------------------


class Oracle(NamedTuple):
    value: Fraction
    push_value: Fraction
    hold_value: int
    best_action: str


@lru_cache(maxsize=256)
def _oracle_push(rules: Ruleset, steps: tuple, stops: int, dangers: int, stage: int, gems: int, bank: int):
    """The push value ``W(counts, position, pot)`` for one turn's invariants.

    During a turn the stage, the active player's gems, the stop and danger cards
    left (drawing one ends the turn) and ``bank = treasure + pot`` stay fixed;
    only the footprint counts, the knight's position and the pot change.
    """
    values = tuple(rules.stripe_values)
    n_stripes = len(values)
    rate = Fraction(rules.stages[stage].rate)
    multiplier = rules.stages[stage].multiplier

    # Section 5: a stop costs floor(rate * gems) at the stage in force.
    stop_reward = -math.floor(rate * gems)
    # Section 3/5: a danger first raises d; the danger that brings d to
    # danger_cards is the final one ("all_gems": lose everything; kali and
    # drago-rosso: only the pot, i.e. 0 own gems); any other is a stop at the
    # rate of the new stage.
    if stage + 1 >= rules.danger_cards:
        danger_reward = -gems if rules.final_danger is FinalDanger.ALL_GEMS else 0
    else:
        danger_reward = -math.floor(Fraction(rules.stages[stage + 1].rate) * gems)

    @cache
    def push(counts: tuple, position: int, pot: int) -> Fraction:
        total = sum(counts) + stops + dangers
        value = Fraction(stops * stop_reward + dangers * danger_reward, total)
        for i, step in enumerate(steps):
            count = counts[i]
            if count == 0:
                continue
            new = position + step
            if new > n_stripes:
                # Past the last stripe: the head; the player takes the pot and all
                # that is left in the treasure, i.e. the whole bank.
                outcome = Fraction(bank)
            elif total == 1:
                # The last card of the deck (custom rulesets only): the game ends and
                # the pot goes back to the treasure (section 4).
                outcome = Fraction(0)
            else:
                treasure = bank - pot
                placed = min(values[new - 1] * multiplier, treasure)  # capped by the treasure
                new_pot = pot + placed
                rest = counts[:i] + (count - 1,) + counts[i + 1 :]
                # After a footprint the player may hold (+pot) or push on.
                outcome = max(Fraction(new_pot), push(rest, new, new_pot))
            value += Fraction(count, total) * outcome
        return value

    return push


def oracle(state: TurnState, *, gems: int | None = None, must_reveal: bool | None = None) -> Oracle:
    """Turn value, push value, hold value and best action of ``state`` (section 7).

    Reads only the plain fields of the state and of its ruleset.  A tie between
    pushing and holding is resolved as "hold" (the documented choice of
    ``TurnSolution.best_action``; RULES.md does not say).
    """
    gems = state.gems if gems is None else gems
    must_reveal = state.must_reveal if must_reveal is None else must_reveal
    steps = tuple(sorted(s for s, _ in state.rules.footprints))
    counts = tuple(int(state.footprints.get(s, 0)) for s in steps)
    push = _oracle_push(
        state.rules, steps, state.stops, state.dangers, state.dangers_revealed, gems, state.treasure + state.pot
    )(counts, state.position, state.pot)
    hold = state.pot
    if must_reveal:
        return Oracle(push, push, hold, "reveal")
    return Oracle(max(push, Fraction(hold)), push, hold, "reveal" if push > hold else "hold")


def assert_matches_oracle(state: TurnState, sol: TurnSolution) -> None:
    expected = oracle(state)
    situation = repr(state)
    assert type(sol.value) is Fraction and type(sol.push_value) is Fraction, situation
    assert sol.push_value == expected.push_value, situation
    assert sol.value == expected.value, situation
    assert sol.hold_value == expected.hold_value == state.pot, situation
    assert sol.best_action == expected.best_action, situation
    assert sol.must_reveal is state.must_reveal, situation


# ---------------------------------------------------------------------------------
# 2. The worked example of RULES.md section 7
# ---------------------------------------------------------------------------------


def test_worked_example_mini_fresh_deck_is_minus_11_over_8():
    r"""``mini``, fresh deck, start of a turn, 12 gems, treasure 20: exactly -11/8.

    By hand.  The deck: F1 x3, F2 x2, S x2, D x1 (8 cards).  With 12 gems a stop costs
    floor(12/4) = 3, and the only danger is the final one: -12.  The first card:

    ======  =====  ================================
    card    prob   then
    ======  =====  ================================
    F1      3/8    stripe 1, pot 1; hold: +1
    F2      2/8    stripe 2, pot 2; hold: +2
    stop    2/8    -3
    danger  1/8    -12
    ======  =====  ================================

    Holding right after the first footprint is optimal (both bad cards, worth
    -2*3 - 12 = -18 between them, are still in a deck that only shrinks):

    * after F1 (7 cards: F1 x2, F2 x2, S x2, D x1) a push is worth, holding after it,
      (2*3 + 2*4 - 18)/7 = -4/7 < 1 (F1 -> stripe 2, pot 3; F2 -> stripe 3, pot 4);
    * after F2 (7 cards: F1 x3, F2 x1, S x2, D x1) a push is worth
      (3*5 + 1*6 - 18)/7 = 3/7 < 2 (F1 -> stripe 3, pot 5; F2 -> stripe 4, pot 6);

    and one level deeper a push is worse still (checked below against the oracle).
    Hence V = (3*1 + 2*2 - 2*3 - 12)/8 = (3 + 4 - 6 - 12)/8 = -11/8.
    """
    state = fresh_state("mini")
    assert (state.gems, state.treasure, state.position, state.pot, state.must_reveal) == (12, 20, 0, 0, True)

    # First-card probabilities, by hand.
    probs = next_card_probabilities(state)
    assert probs == {
        Card.footprint(1): Fraction(3, 8),
        Card.footprint(2): Fraction(2, 8),
        Card("stop"): Fraction(2, 8),
        Card("danger"): Fraction(1, 8),
    }

    hand = Fraction(3, 8) * 1 + Fraction(2, 8) * 2 + Fraction(2, 8) * -3 + Fraction(1, 8) * -12
    assert hand == Fraction(-11, 8)

    # The hand derivation's intermediate push values, level 1 ...
    after_f1 = TurnState(state.rules, {1: 2, 2: 2}, 2, 1, 0, 12, 19, position=1, pot=1, must_reveal=False)
    after_f2 = TurnState(state.rules, {1: 3, 2: 1}, 2, 1, 0, 12, 18, position=2, pot=2, must_reveal=False)
    assert (Fraction(2 * 3 + 2 * 4 - 18, 7), Fraction(3 * 5 + 1 * 6 - 18, 7)) == (Fraction(-4, 7), Fraction(3, 7))
    assert oracle(after_f1) == Oracle(Fraction(1), Fraction(-4, 7), 1, "hold")
    assert oracle(after_f2) == Oracle(Fraction(2), Fraction(3, 7), 2, "hold")
    # ... and level 2: holding is optimal there too, which the hand values above assume.
    for fp, position, pot in [({1: 1, 2: 2}, 2, 3), ({1: 2, 2: 1}, 3, 4), ({1: 2, 2: 1}, 3, 5), ({1: 3, 2: 0}, 4, 6)]:
        deeper = TurnState(state.rules, fp, 2, 1, 0, 12, 20 - pot, position=position, pot=pot, must_reveal=False)
        assert oracle(deeper).best_action == "hold", deeper
        assert oracle(deeper).push_value < pot

    assert oracle(state) == Oracle(Fraction(-11, 8), Fraction(-11, 8), 0, "reveal")
    sol = solve_turn(state, exact=True)
    assert sol.value == sol.push_value == Fraction(-11, 8)
    assert sol.best_action is Action.REVEAL and sol.hold_value == 0
    assert solve_turn(after_f1, exact=True).value == 1
    assert solve_turn(after_f2, exact=True).push_value == Fraction(3, 7)
    assert solve_turn(state).value == pytest.approx(-1.375, rel=1e-12)


# ---------------------------------------------------------------------------------
# 3. Exact agreement with the oracle
# ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_fresh_deck_start_of_turn_matches_oracle(name):
    state = fresh_state(name)
    sol = solve_turn(state, exact=True)
    assert_matches_oracle(state, sol)
    # Sanity of the oracle itself: the turn value lies between the worst case
    # (the final danger, or the stop) and the whole bank.
    assert -state.gems <= sol.value <= state.treasure + state.pot


@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.slow
def test_fresh_deck_other_stages_and_players_match_oracle(name):
    """A fresh deck composition at every stage, with an empty and a tiny treasure."""
    rules = Ruleset.preset(name)
    for stage in range(len(rules.stages)):
        for gems, treasure in [(rules.starting_gems, rules.treasure), (0, 3), (97, 0)]:
            state = fresh_state(
                name, dangers_revealed=stage, dangers=rules.danger_cards - stage, gems=gems, treasure=treasure
            )
            assert_matches_oracle(state, solve_turn(state, exact=True))


@st.composite
def situations(draw, names=PRESET_NAMES):
    """A random decision point of a preset: partly used deck, any stage, gems,
    treasure (often nearly empty, so the cap matters), position, pot, must_reveal.

    Big decks far from the head are expensive to solve exactly, so near the tail
    the deck is thinned; the fresh decks are covered by the tests above.
    """
    name = draw(st.sampled_from(names))
    rules = Ruleset.preset(name)
    n = rules.n_stripes
    position = draw(st.integers(0, n))
    # Cost grows with the distance to the head times the footprints left.
    room = n - position
    budget = 40 if room <= n // 2 else 12
    footprints = {}
    for steps, full in rules.footprints:
        footprints[steps] = draw(st.integers(0, min(full, budget // len(rules.footprints) + 1)))
    stage = draw(st.integers(0, len(rules.stages) - 1))
    # Consistent with a real game: the dangers not yet revealed are in the deck.
    dangers = rules.danger_cards - stage
    stops = draw(st.integers(0, rules.stop_cards))
    gems = draw(st.integers(0, 160))
    treasure = draw(st.one_of(st.integers(0, 25), st.integers(0, rules.treasure)))
    pot = draw(st.one_of(st.just(0), st.integers(0, 80)))
    must_reveal = draw(st.booleans())
    return TurnState(rules, footprints, stops, dangers, stage, gems, treasure, position, pot, must_reveal)


HYPOTHESIS = dict(
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=200, **HYPOTHESIS)
@given(data=st.data())
@pytest.mark.slow
def test_random_situations_match_oracle(name, data):
    state = data.draw(situations(names=(name,)))
    assert_matches_oracle(state, solve_turn(state, exact=True))


def test_seeded_random_situations_match_oracle_in_any_order():
    """A seeded sweep that solves situations of the same turn in a random order, so that
    the solver's memo (shared by situations with the same invariants) is filled from
    different starting points."""
    rng = random.Random(20240607)
    for _ in range(6):
        name = rng.choice(PRESET_NAMES)
        rules = Ruleset.preset(name)
        stage = rng.randrange(len(rules.stages))
        gems = rng.randint(0, 100)
        bank = rng.choice([rng.randint(0, 20), rng.randint(0, rules.treasure)])
        stops = rng.randint(0, rules.stop_cards)
        fp_full = {s: rng.randint(0, min(c, 4)) for s, c in rules.footprints}
        points = []
        for _ in range(25):
            fp = {s: rng.randint(0, c) for s, c in fp_full.items()}
            pot = rng.randint(0, bank)
            position = rng.randint(0, rules.n_stripes)
            points.append(
                TurnState(
                    rules,
                    fp,
                    stops,
                    rules.danger_cards - stage,
                    stage,
                    gems,
                    bank - pot,
                    position,
                    pot,
                    rng.random() < 0.3,
                )
            )
        for state in points:
            assert_matches_oracle(state, solve_turn(state, exact=True))


def test_treasure_cap_changes_the_value_and_is_respected():
    """Near the head with an almost empty treasure the cap decides the value."""
    rules = Ruleset.preset("dragon-stripes")
    base = TurnState(rules, {1: 2, 2: 2, 3: 1, 4: 0}, 3, 1, 2, 50, 400, position=12, pot=10, must_reveal=False)
    values = {}
    for treasure in (0, 1, 7, 30, 400):
        state = dataclasses.replace(base, treasure=treasure)
        assert_matches_oracle(state, solve_turn(state, exact=True))
        values[treasure] = oracle(state).push_value
    assert len(set(values.values())) == len(values)  # every cap gives a different push value
    # Empty treasure, stage 0 (x1), 1 step from stripe 16 -> 17: nothing is placed,
    # so after the footprint the pot is still the pot.
    state = TurnState(rules, {1: 1, 2: 0, 3: 0, 4: 0}, 1, 3, 0, 40, 0, position=16, pot=5, must_reveal=False)
    # cards: F1 (-> stripe 17, pot stays 5, 2 cards left), S (-10), D (-10 at stage 1)
    # after F1: stripe 17, deck S + 3 D; pushing loses, so hold: +5.
    expected = Fraction(1, 5) * 5 + Fraction(1, 5) * -10 + Fraction(3, 5) * -10
    assert oracle(state).push_value == expected
    assert solve_turn(state, exact=True).push_value == expected
    assert solve_turn(state, exact=True).value == 5


def test_custom_ruleset_without_danger_cards_deck_can_run_out():
    """Custom rulesets only: the last card ends the game and the pot goes back (section 4)."""
    rules = Ruleset(
        name="tiny",
        starting_gems=10,
        treasure=30,
        stripe_values=(2, 5, 9),
        footprints={1: 2, 2: 1},
        stop_cards=1,
        danger_cards=0,
        stages=[(Fraction(1, 2), 1)],
    )
    rng = random.Random(5)
    for _ in range(60):
        fp = {1: rng.randint(0, 2), 2: rng.randint(0, 1)}
        stops = rng.randint(0, 1)
        if sum(fp.values()) + stops == 0:
            continue
        pot = rng.randint(0, 12)
        state = TurnState(
            rules, fp, stops, 0, 0, rng.randint(0, 30), rng.randint(0, 30), rng.randint(0, 3), pot, rng.random() < 0.5
        )
        assert_matches_oracle(state, solve_turn(state, exact=True))
    # By hand: one card left, a footprint to stripe 2 with 5 gems: the deck runs out,
    # the pot goes back: a push is worth 0 (not +5), so holding the pot 3 is better.
    state = TurnState(rules, {1: 1, 2: 0}, 0, 0, 0, 10, 20, position=1, pot=3, must_reveal=False)
    assert oracle(state) == Oracle(Fraction(3), Fraction(0), 3, "hold")
    assert solve_turn(state, exact=True).push_value == 0


def test_empty_deck_cannot_be_solved():
    rules = Ruleset.preset("mini")
    state = TurnState(rules, {1: 0, 2: 0}, 0, 0, 0, 12, 20, position=2, pot=3, must_reveal=False)
    with pytest.raises(ValueError):
        solve_turn(state)
    with pytest.raises(ValueError):
        solve_turn(state, exact=True)


# ---------------------------------------------------------------------------------
# 4. The float path
# ---------------------------------------------------------------------------------


def assert_float_agrees(state: TurnState) -> None:
    exact = solve_turn(state, exact=True)
    approx = solve_turn(state)
    assert isinstance(approx.value, float) and isinstance(approx.push_value, float), state
    for a, e in [(approx.value, exact.value), (approx.push_value, exact.push_value)]:
        assert math.isclose(a, float(e), rel_tol=1e-9, abs_tol=1e-9), (state, a, e)
    assert approx.hold_value == exact.hold_value
    assert approx.must_reveal is exact.must_reveal
    if abs(exact.push_value - exact.hold_value) > 1e-6:  # away from a tie, same decision
        assert approx.best_action == exact.best_action, state


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_float_path_fresh_deck(name):
    assert_float_agrees(fresh_state(name))


@pytest.mark.parametrize("name", PRESET_NAMES)
@settings(max_examples=100, **HYPOTHESIS)
@given(data=st.data())
def test_float_path_agrees_with_exact(name, data):
    assert_float_agrees(data.draw(situations(names=(name,))))


# ---------------------------------------------------------------------------------
# 5. next_card_probabilities and fair_bounty
# ---------------------------------------------------------------------------------


@settings(max_examples=150, **HYPOTHESIS)
@given(state=situations())
def test_next_card_probabilities_exact(state):
    probs = next_card_probabilities(state)
    counts = {Card.footprint(s): c for s, c in state.footprints.items()}
    counts[Card("stop")] = state.stops
    counts[Card("danger")] = state.dangers
    total = sum(counts.values())
    if total == 0:
        assert probs == {}
        return
    assert all(type(p) is Fraction for p in probs.values())
    assert sum(probs.values()) == 1
    assert probs == {card: Fraction(c, total) for card, c in counts.items() if c > 0}


def test_next_card_probabilities_empty_deck_and_fresh_decks():
    rules = Ruleset.preset("kali")
    empty = TurnState(rules, {}, 0, 0, 1, 5, 5, position=3, pot=2, must_reveal=False)
    assert next_card_probabilities(empty) == {}
    for name in PRESET_NAMES:
        rules = Ruleset.preset(name)
        probs = next_card_probabilities(fresh_state(name))
        size = sum(c for _, c in rules.footprints) + rules.stop_cards + rules.danger_cards
        assert probs[Card("stop")] == Fraction(rules.stop_cards, size)
        assert probs[Card("danger")] == Fraction(rules.danger_cards, size)
        assert sum(probs.values()) == 1
    assert sum(c for _, c in Ruleset.preset("dragon-stripes").footprints) + 13 == 51
    assert sum(c for _, c in Ruleset.preset("kali").footprints) + 14 == 52
    assert sum(c for _, c in Ruleset.preset("drago-rosso").footprints) + 13 == 54


@settings(max_examples=60, **HYPOTHESIS)
@given(state=situations(), gems=st.integers(0, 200))
def test_fair_bounty_is_turn_value_with_compulsory_reveal(state, gems):
    bounty = fair_bounty(state, gems, exact=True)
    expected = oracle(state, gems=gems, must_reveal=True)
    assert bounty == expected.value == expected.push_value, (state, gems)
    assert math.isclose(fair_bounty(state, gems), float(bounty), rel_tol=1e-9, abs_tol=1e-9)


def test_fair_bounty_examples_and_errors():
    state = fresh_state("mini")
    assert fair_bounty(state, 12, exact=True) == Fraction(-11, 8)
    # Mid-turn, holding allowed for the holder: the taker must still reveal.
    mid = TurnState(state.rules, {1: 2, 2: 2}, 2, 1, 0, 12, 19, position=1, pot=1, must_reveal=False)
    assert solve_turn(mid, exact=True).value == 1
    assert fair_bounty(mid, 12, exact=True) == Fraction(-4, 7)
    # Another player's gems change the penalties: with 0 gems nothing can be lost.
    assert fair_bounty(mid, 0, exact=True) == oracle(mid, gems=0, must_reveal=True).value > 0
    with pytest.raises(ValueError):
        fair_bounty(state, -1)


@settings(max_examples=40, **HYPOTHESIS)
@given(state=situations(), gems=st.integers(0, 200), share=st.fractions(0, 1))
def test_takeover_gain_plays_the_turn_with_the_gems_left_after_paying(state, gems, share):
    bounty = int(gems * share)
    gain = takeover_gain(state, gems, bounty, exact=True)
    assert gain == oracle(state, gems=gems - bounty, must_reveal=True).value - bounty, (state, gems, bounty)
    assert math.isclose(takeover_gain(state, gems, bounty), float(gain), rel_tol=1e-9, abs_tol=1e-9)


def test_a_takeover_can_pay_where_the_fair_bounty_says_no():
    # mini, after a 1-step and a 2-step footprint: knight on stripe 3, pot 1 + 3 = 4 = the bounty
    held = TurnState(Ruleset.preset("mini"), {1: 2, 2: 1}, 2, 1, 0, 12, 16, position=3, pot=4, must_reveal=False)
    assert fair_bounty(held, 4, exact=True) == Fraction(19, 6) < 4  # penalties charged on 4 gems
    assert takeover_gain(held, 4, 4, exact=True) == Fraction(1, 6)  # but after paying, 0 gems are at risk
    for bad in (5, -1, 1.5, True):
        with pytest.raises(ValueError, match="bounty"):
            takeover_gain(held, 4, bad)


# ---------------------------------------------------------------------------------
# 6. TurnState.from_game and validation
# ---------------------------------------------------------------------------------


def _check_from_game(game: Game) -> TurnState:
    pub = game.public_state()
    state = TurnState.from_game(game)
    assert state.rules is game.rules
    remaining = pub["remaining"]
    assert dict(state.footprints) == {s: remaining[f"F{s}"] for s, _ in game.rules.footprints}
    assert state.stops == remaining["S"] and state.dangers == remaining["D"]
    assert state.dangers_revealed == pub["stage"]
    assert state.gems == pub["gems"][pub["active_player"]]
    assert state.treasure == pub["treasure"]
    assert state.position == pub["position"]
    assert state.pot == pub["pot"]
    assert state.must_reveal is (pub["phase"] == "must_reveal")
    assert state.composition == game.remaining
    assert sorted(next_card_probabilities(state).items()) == sorted(game.chance_outcomes())
    return state


@pytest.mark.parametrize(
    "name,seed", [("mini", 3), ("mini", 11), ("dragon-stripes", 7), ("kali", 2), ("drago-rosso", 5)]
)
def test_from_game_matches_public_state_through_a_game(name, seed):
    """Whole games (several for the short ``mini``) with random holds and takeovers."""
    rules = Ruleset.preset(name)
    rng = random.Random(seed)
    phases, checked, finished = set(), 0, 0
    for game_seed in range(seed, seed + 40):
        game = Game(["Ann", "Bob", "Cy"], rules, seed=game_seed)
        for _ in range(150):
            if game.is_over:
                break
            state = _check_from_game(game)
            phases.add(game.phase)
            checked += 1
            if name == "mini" and game.phase is not Phase.OFFER:
                assert_matches_oracle(state, solve_turn(state, exact=True))
            if game.phase is Phase.MUST_REVEAL:
                game.reveal()
            elif game.phase is Phase.CHOOSE:
                game.hold() if rng.random() < 0.4 else game.reveal()
            else:
                game.take_over() if rng.random() < 0.5 else game.decline()
        if game.is_over:
            finished += 1
            with pytest.raises(ValueError):
                TurnState.from_game(game)
        if phases == {Phase.MUST_REVEAL, Phase.CHOOSE, Phase.OFFER} and checked >= 30 and finished:
            break
    assert phases == {Phase.MUST_REVEAL, Phase.CHOOSE, Phase.OFFER} and checked >= 30 and finished


def test_from_game_after_hold_and_takeover():
    rules = Ruleset.preset("dragon-stripes")
    game, _ = _takeover_game(rules)
    # A takeover: the taker is the active player, must reveal, the pot is kept.
    state = _check_from_game(game)
    assert state.must_reveal and state.pot > 0 and game.active_player != game.turn_owner
    assert state.gems == game.gems[game.active_player]
    # During an offer, the state is the holder's, who may not reveal any more.
    g2 = Game.replay(game.players, rules, game.seed, game.actions[:-1])
    assert g2.phase is Phase.OFFER
    s2 = _check_from_game(g2)
    assert not s2.must_reveal and s2.gems == g2.gems[g2.active_player] and g2.offer_to != g2.active_player


def test_from_game_refuses_a_finished_game():
    game = Game(["Ann", "Bob"], Ruleset.preset("mini"), seed=1)
    while not game.is_over:
        game.reveal() if game.phase is not Phase.OFFER else game.decline()
    with pytest.raises(ValueError, match="over"):
        TurnState.from_game(game)


@pytest.mark.parametrize(
    "field,value",
    [
        ("footprints", {5: 1}),
        ("footprints", {1: 15}),
        ("footprints", {1: -1}),
        ("footprints", "abc"),
        ("stops", 11),
        ("stops", -1),
        ("dangers", 4),
        ("dangers", 1.0),
        ("dangers_revealed", 3),
        ("dangers_revealed", -1),
        ("gems", -1),
        ("gems", True),
        ("gems", 2.5),
        ("treasure", -5),
        ("treasure", None),
        ("position", 18),
        ("position", -1),
        ("pot", -1),
        ("pot", "3"),
        ("must_reveal", 1),
        ("must_reveal", "yes"),
        ("rules", "dragon-stripes"),
    ],
)
def test_invalid_turn_state_field_raises_naming_it(field, value):
    base = dict(
        rules=Ruleset.preset("dragon-stripes"),
        footprints={1: 3, 2: 2, 3: 1, 4: 0},
        stops=4,
        dangers=2,
        dangers_revealed=1,
        gems=30,
        treasure=200,
        position=5,
        pot=12,
        must_reveal=False,
    )
    TurnState(**base)  # the base itself is valid
    base[field] = value
    with pytest.raises(ValueError, match=rf"^{field}\b(?!_)"):
        TurnState(**base)


# ---------------------------------------------------------------------------------
# 7. Monte Carlo with the engine
# ---------------------------------------------------------------------------------

Z_999 = 3.2905  # two-sided 99.9% normal quantile


def _takeover_game(rules: Ruleset) -> tuple[Game, int]:
    """A real game played until the first takeover (a MUST_REVEAL with a pot)."""
    for seed in range(100):
        game = Game(["Ann", "Bob", "Cy"], rules, seed=seed)
        while not game.is_over and game.turn_number < 30:
            if game.phase is Phase.MUST_REVEAL:
                if game.pot > 0:
                    return game, seed
                game.reveal()
            elif game.phase is Phase.CHOOSE:
                game.hold() if game.pot >= 6 else game.reveal()
            else:
                game.take_over()
    raise AssertionError("no takeover found")  # pragma: no cover


def _mid_turn_game(rules: Ruleset) -> Game:
    """A real game played until, at stage >= 1, a choice where a reveal is optimal."""
    for seed in range(200):
        game = Game(["Ann", "Bob"], rules, seed=seed)
        while not game.is_over and game.turn_number < 40:
            if (
                game.phase is Phase.CHOOSE
                and game.stage >= 1
                and game.pot > 0
                and solve_turn(TurnState.from_game(game)).best_action is Action.REVEAL
            ):
                return game
            if game.phase is Phase.MUST_REVEAL:
                game.reveal()
            elif game.phase is Phase.CHOOSE:
                game.hold() if game.pot >= 8 else game.reveal()
            else:
                game.decline()
    raise AssertionError("no such situation found")  # pragma: no cover


def _play_turn_optimally(game: Game, rng: random.Random) -> int:
    """Shuffle the undealt cards with ``rng`` (the top card is the end of ``_deck``),
    play to the end of the turn revealing iff ``solve_turn`` says so, nobody taking
    over, and return the change in the active player's gems."""
    deck = game.remaining.cards()
    rng.shuffle(deck)
    game._deck = deck
    who, start, turn = game.active_player, game.gems[game.active_player], game.turn_number
    while not game.is_over and game.turn_number == turn:
        if game.phase is Phase.OFFER:
            game.decline()
        elif solve_turn(TurnState.from_game(game)).best_action is Action.REVEAL:
            game.reveal()
        else:
            game.hold()
    return game.gems[who] - start


def _assert_within_ci(samples: list[int], exact: Fraction, label: str) -> None:
    mean = statistics.fmean(samples)
    sd = statistics.stdev(samples)
    half = Z_999 * sd / math.sqrt(len(samples))
    assert abs(mean - float(exact)) <= half, (
        f"{label}: sample mean {mean:.4f} outside {float(exact):.4f} +- {half:.4f} (n={len(samples)})"
    )


@pytest.mark.slow
def test_monte_carlo_mini_fresh_deck():
    rules = Ruleset.preset("mini")
    exact = oracle(fresh_state("mini")).value
    assert exact == Fraction(-11, 8)
    rng = random.Random(1001)
    samples = [_play_turn_optimally(Game(["Ann", "Bob"], rules, seed=0), rng) for _ in range(12000)]
    assert set(samples) == {-12, -3, 1, 2}  # hold after the first footprint (see above)
    _assert_within_ci(samples, exact, "mini fresh deck")
    # The distribution of the first card, as a frequency check: P(danger first) = 1/8.
    assert abs(samples.count(-12) / len(samples) - 1 / 8) < Z_999 * math.sqrt(1 / 8 * 7 / 8 / len(samples))


@pytest.mark.slow
def test_monte_carlo_poor_kali_fresh_deck():
    """A custom ``kali`` with a nearly empty treasure: the cap and the head matter."""
    rules = dataclasses.replace(Ruleset.preset("kali"), name="kali-poor", treasure=25)
    first = TurnState.from_game(Game(["Ann", "Bob"], rules, seed=0))
    exact = solve_turn(first, exact=True).value
    assert exact == oracle(first).value
    rng = random.Random(2002)
    samples = [_play_turn_optimally(Game(["Ann", "Bob"], rules, seed=0), rng) for _ in range(5000)]
    _assert_within_ci(samples, exact, "kali, treasure 25")


@pytest.mark.slow
def test_monte_carlo_dragon_stripes_after_takeover():
    rules = Ruleset.preset("dragon-stripes")
    game, seed = _takeover_game(rules)
    state = TurnState.from_game(game)
    assert state.must_reveal and state.pot > 0
    exact = solve_turn(state, exact=True).value
    assert exact == oracle(state).value
    rng = random.Random(3003)
    samples = []
    for _ in range(5000):
        g = Game.replay(game.players, rules, seed, game.actions)
        samples.append(_play_turn_optimally(g, rng))
    _assert_within_ci(samples, exact, f"dragon-stripes after takeover, {state}")


@pytest.mark.slow
def test_monte_carlo_drago_rosso_mid_turn_second_stage():
    rules = Ruleset.preset("drago-rosso")
    game = _mid_turn_game(rules)
    state = TurnState.from_game(game)
    assert not state.must_reveal and state.dangers_revealed >= 1
    sol = solve_turn(state, exact=True)
    assert sol.best_action is Action.REVEAL and sol.value == oracle(state).value > state.pot
    rng = random.Random(4004)
    samples = []
    for _ in range(5000):
        g = Game.replay(game.players, rules, game.seed, game.actions)
        samples.append(_play_turn_optimally(g, rng))
    _assert_within_ci(samples, sol.value, f"drago-rosso mid-turn, {state}")
