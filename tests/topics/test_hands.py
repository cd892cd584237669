"""Practice hands (dragonkit.topics.hands): real decision points of seeded bot games, exact verdicts checked
by an independent solver, the engine's next card, and the session's score."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from functools import cache

import pytest

from dragonkit import Action, Game, Phase, Ruleset
from dragonkit.analysis import HoldAfterReveals, TurnState, evaluate_policy, optimal_policy, solve_turn
from dragonkit.analysis.turn.one_card import one_card_value
from dragonkit.analysis.turn.state import check_state
from dragonkit.rules import STOP_CARD
from dragonkit.topics.hands import LEVELS, Hand, Score, deal_hand


def _snapshot(game: Game):
    return game.public_state(), game.actions, game.events


# -- an independent solver: plain recursion over the cards, using only the rules' card arithmetic --


def brute_force_push(state: TurnState) -> Fraction:
    """Expected gem change of revealing now and then playing optimally (rules §7), by enumerating
    every sequence of cards with the rules' ``apply_card`` (no code of dragonkit.analysis)."""
    rules = state.rules

    @cache
    def push(comp, position, pot, treasure):
        total, value = comp.total, Fraction(0)
        for card, p in comp.outcomes():
            effect = rules.apply_card(
                card,
                position=position,
                pot=pot,
                gems=state.gems,
                treasure=treasure,
                dangers_revealed=state.dangers_revealed,
                cards_left=total - 1,
            )
            if effect.outcome is None:
                rest = comp.without(card)
                later = push(rest, effect.position, effect.pot, effect.treasure) if rest.total else None
                value += p * (effect.pot if later is None else max(effect.pot, later))
            else:
                value += p * effect.gems_change
        return value

    return push(state.composition, state.position, state.pot, state.treasure)


@pytest.mark.parametrize(
    "level, preset",
    [
        ("mini", None),
        ("easy", None),
        ("medium", None),
        ("late-game", None),
        ("medium", "kali"),
        ("late-game", "drago-rosso"),
    ],
)
def test_dealt_situations_are_reachable_decisions_of_the_level(level, preset):
    rng = random.Random(5)
    for _ in range(3):
        hand = deal_hand(level, preset, rng)
        game, rules = hand.game, hand.game.rules
        assert rules.name == (preset or LEVELS[level].presets[0]) and hand.level == level
        # reachable: the same seed and actions replay to the same state, through legal moves only
        assert Game.from_json(game.to_json()).public_state() == game.public_state()
        assert game.phase is Phase.CHOOSE and not game.is_over  # the knight mid-turn: a real choice
        state = check_state(hand.state)
        assert state == TurnState.from_game(game) and not state.must_reveal and state.pot > 0
        revealed = rules.deck_size - state.composition.total
        assert revealed == len(game.discards)
        if level == "mini":
            assert state.dangers_revealed == 0 and 1 <= revealed <= 7
        elif level == "easy":
            assert state.dangers_revealed == 0 and revealed <= rules.deck_size / 4
        elif level == "medium":
            assert state.dangers_revealed == 1 and rules.deck_size / 5 <= revealed <= rules.deck_size * 3 / 5
        else:
            assert 1 <= state.dangers_revealed <= len(rules.stages) - 1
            assert revealed >= rules.deck_size * 11 / 20 and state.gems >= rules.starting_gems * 5 / 4


def test_the_levels_in_cards_for_dragon_stripes():
    rules = Ruleset.preset("dragon-stripes")
    ranges = {
        name: (
            list(level.stage_range(rules)),
            [n for n in range(52) if level.revealed[0] * 51 <= n <= level.revealed[1] * 51],
        )
        for name, level in LEVELS.items()
        if name != "mini"
    }
    assert ranges["easy"] == ([0], list(range(0, 13)))
    assert ranges["medium"] == ([1], list(range(11, 31)))
    assert ranges["late-game"] == ([1, 2], list(range(29, 52)))
    assert LEVELS["late-game"].min_gems * rules.starting_gems == 50
    assert list(LEVELS["mini"].stage_range(Ruleset.preset("mini"))) == [0]


def test_the_search_bound_is_the_value_of_revealing_one_card_then_holding():
    for level, seed in (("mini", 3), ("late-game", 1), ("medium", 2)):
        state = deal_hand(level, None, seed).state
        bound = one_card_value(state)
        assert bound == evaluate_policy(state, HoldAfterReveals(1), exact=True).expected_gain
        assert bound <= solve_turn(state, exact=True).push_value


def test_both_answers_come_up():
    rng = random.Random(2)
    best = {deal_hand("late-game", None, rng).state for _ in range(8)}
    assert {solve_turn(s).best_action for s in best} == {Action.REVEAL, Action.HOLD}


@pytest.mark.parametrize("level, seed", [("mini", 1), ("mini", 4), ("late-game", 3), ("medium", 8)])
def test_the_values_and_the_regret_are_exact_and_agree_with_an_independent_solver(level, seed):
    hand = deal_hand(level, None, seed)
    state = hand.state
    push = brute_force_push(state)
    for action in ("reveal", "hold"):
        verdict = hand.judge(action)
        assert verdict.solution.push_value == push and verdict.solution.hold_value == state.pot
        assert isinstance(verdict.given_up, Fraction)
        chosen = push if action == "reveal" else Fraction(state.pot)
        assert verdict.given_up == max(push, Fraction(state.pot)) - chosen >= 0
        assert verdict.optimal == (verdict.given_up == 0)
    # a third method: the optimal policy's absorbing chain from the same situation, reveal forced
    if level != "medium":
        forced = dataclasses.replace(state, must_reveal=True)
        assert evaluate_policy(forced, optimal_policy(forced, exact=True), exact=True).expected_gain == push


def test_the_card_shown_is_the_engines_next_card_and_the_hand_is_unchanged():
    for seed in range(6):
        hand = deal_hand("medium", None, seed)
        game = hand.game
        top = game._deck[-1]  # the test may look at the hidden order; the trainer does not
        before = _snapshot(game)
        verdict = hand.judge("hold" if seed % 2 else "reveal")
        assert verdict.next_card == top == verdict.after.last_card
        assert _snapshot(game) == before
        # the effect shown is what the engine did with that card
        me = game.active_player
        assert verdict.after.gems[me] - game.gems[me] == verdict.effect.gems_change
        assert verdict.after.pot == verdict.effect.pot and verdict.after.stage == verdict.effect.dangers_revealed
        assert (verdict.after.phase is Phase.CHOOSE) == (verdict.effect.outcome is None)


def test_a_verdict_is_the_judged_actions_shortfall_from_the_turn_value():
    hand = deal_hand("mini", None, 4)
    for action in ("reveal", "hold"):
        verdict = hand.judge(action)
        solution = verdict.solution
        chosen = solution.push_value if action == "reveal" else solution.hold_value
        assert verdict.chosen_value == chosen and verdict.given_up == solution.value - chosen
    with pytest.raises(ValueError, match="'reveal' or 'hold'"):
        hand.judge("take_over")


def test_a_hand_is_a_decision_point():
    game = Game(["Ann", "Bea"], Ruleset.preset("mini"), seed=1)  # a compulsory reveal: no decision
    with pytest.raises(ValueError, match="may reveal or hold"):
        Hand(game, "mini")


def test_the_stop_penalty_is_what_a_stop_would_cost_now():
    for seed in range(4):
        hand = deal_hand("late-game", None, seed)
        state = hand.state
        if state.stops:
            assert hand.stop_penalty == -state.effect(STOP_CARD).gems_change
        assert hand.stop_penalty == hand.game.rules.penalty(state.gems, state.dangers_revealed)


def test_the_score_sums_the_verdicts_exactly():
    score = Score()
    assert (score.decisions, score.optimal, score.total) == (0, 0, 0)
    assert score.optimal_share is None and score.average is None and score.recent(5) == []
    verdicts = [deal_hand("mini", None, seed).judge(action) for seed, action in enumerate(["reveal", "hold"] * 3)]
    for number, verdict in enumerate(verdicts, start=1):
        score.record(number, verdict)
    given_up = [v.given_up for v in verdicts]
    optimal = sum(1 for g in given_up if g == 0)
    assert score.decisions == 6 and score.optimal == optimal and score.total == sum(given_up)
    assert score.optimal_share == Fraction(optimal, 6) and score.average == sum(given_up) / 6
    assert score.recent(2) == [(6, "hold", given_up[5]), (5, "reveal", given_up[4])]
    score.reset()
    assert score.decisions == 0 and score.total == 0
