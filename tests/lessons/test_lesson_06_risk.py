"""Lesson 6, risk: the distribution against the enumeration, the outcome explorer, mean against risk, expected
gems against the chance to win, the catch-up, the lesson's answers."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest

from dragonkit import i18n
from dragonkit.analysis import HoldAtPot, evaluate_policy, optimal_policy
from dragonkit.analysis.turn.thresholds import best_thresholds, largest_pot
from dragonkit.lessons import base
from dragonkit.lessons import risk as L6
from dragonkit.rules import Ruleset
from dragonkit.simulate import simulate_turns
from dragonkit.topics.risk import catch_up, evaluation, moments_table, probability_at_least
from dragonkit.turn import Action
from dragonkit.ui.numbers import number_html

from .helpers import _enumerated, _prose

MINI = Ruleset.preset("mini")


@pytest.mark.parametrize("threshold", [1, 2, 4, 5, 9])
def test_the_distribution_is_the_enumerated_one_and_its_moments_add_up(threshold):
    explorer = L6.OutcomeExplorer(threshold=threshold)
    e = explorer.evaluation
    law = _enumerated(threshold)
    assert dict(e.distribution) == law["dist"]
    assert sum(e.distribution) == 1
    table = moments_table(e.distribution)
    mean, second = table.xp.sum(), table.x2p.sum()
    assert mean == e.expected_gain == sum(g * p for g, p in law["dist"].items())
    assert second - mean**2 == e.variance
    assert e.p_loss == sum(p for g, p in law["dist"].items() if g < 0)
    assert str(e.variance) in explorer.stats.value and str(e.p_loss) in explorer.stats.value
    assert f"E[X] = {number_html(mean)}" in explorer.table.value


@pytest.mark.slow
def test_the_outcome_explorer_switches_policies():
    explorer = L6.OutcomeExplorer(threshold=4)
    picture = explorer.picture.value
    explorer.kind.value = "greedy"
    assert explorer.threshold.layout.display == "none" and explorer.picture.value != picture
    greedy = explorer.evaluation
    never = evaluate_policy(explorer.state, HoldAtPot(MINI.treasure + 1), exact=True)
    assert dict(greedy.distribution) == dict(never.distribution)
    explorer.kind.value = "optimal"
    assert explorer.evaluation.expected_gain == Fraction(-11, 8)
    explorer.kind.value = "cautious"
    assert dict(explorer.evaluation.distribution) == _enumerated(1)["dist"]
    numbers = re.compile(r"-?\d+(?:[.,/]\d+)*")
    english = numbers.findall(explorer.stats.value)
    i18n.set_language("it")
    assert explorer.kind.options[0][0] == "fermati a h (cursore)"
    assert "varianza" in explorer.stats.value
    italian = [n.replace(".", ",") for n in english]  # the same numbers, with a decimal comma in Italian
    assert numbers.findall(explorer.stats.value) == italian and "." in "".join(english)
    with pytest.raises(ValueError, match="policy must be one of"):
        L6.OutcomeExplorer(policy="bold")


@pytest.mark.slow
def test_mean_against_risk():
    explorer = L6.RiskReturnExplorer(treasure=400, thresholds=(1, 5, 10, 20, 40, 80, 120))
    named = explorer.named("en")
    optimal, greedy = named["optimal (the largest expected gain)"], named["greedy: never hold"]
    assert np.isclose(optimal.expected_gain, greedy.expected_gain) and optimal.p_loss > 0.9
    assert named["cautious: hold after 1 card"].p_loss == pytest.approx(13 / 51)  # the first card: 10 stops, 3 dangers
    points = explorer.points()
    assert list(points["threshold"]) == [1, 5, 10, 20, 40, 80, 120]
    picture = explorer.picture.value
    explorer.treasure.value = 100
    named = explorer.named("en")
    assert named["optimal (the largest expected gain)"].expected_gain > named["greedy: never hold"].expected_gain
    assert explorer.picture.value != picture


@pytest.mark.slow
def test_expected_gems_are_not_the_chance_to_win_on_the_classroom_deck():
    explorer = L6.CatchUpExplorer(needed=5)
    table = explorer.table()
    for t in range(1, 17):
        law = _enumerated(t)
        assert table.loc[t, "p_catch_up"] == sum(p for g, p in law["dist"].items() if g >= 5)
    assert explorer.optimum() == (0, Fraction(-11, 8))
    assert "h = 5, with probability" in explorer.verdict.value
    explorer.needed.value = 9
    assert best_thresholds(explorer.table()["p_catch_up"]) != best_thresholds(explorer.table()["expected_gain"])


@pytest.mark.slow
def test_expected_gems_are_not_the_chance_to_win_on_the_full_deck_by_monte_carlo():
    state = base.fresh_turn("dragon-stripes")
    table = catch_up(state, 20, [*range(1, 61), 80, 100])
    assert best_thresholds(table["p_catch_up"]) == [20]
    assert best_thresholds(table["expected_gain"]) == [100]  # the head's jackpot: the larger t, the more gems
    optimum = probability_at_least(evaluation(state, "optimal"), 20, False)
    n = 200_000
    for policy, exact in ((HoldAtPot(20), table.loc[20, "p_catch_up"]), (optimal_policy(state), optimum)):
        sim = simulate_turns(state, policy, n, rng=7)
        estimate = np.mean(sim.gain >= 20)
        assert abs(estimate - exact) < 4.5 * np.sqrt(exact * (1 - exact) / n)
    assert table.loc[20, "p_catch_up"] > 4 * optimum  # about 0.26 against 0.057
    explorer = L6.CatchUpExplorer(needed=20, deck="full deck (dragon-stripes)")
    assert explorer.needed.max == 60 and explorer.exact is False
    assert "h = 20, with probability 0.259" in explorer.verdict.value
    # every hold-at-h policy is drawn, so the best one for gems is the true one (lessons 1 and 6: t = 151)
    gains = {t: evaluate_policy(state, HoldAtPot(t), exact=False).expected_gain for t in (60, 150, 151, 200)}
    assert gains[151] > gains[60] + 10 and abs(gains[151] - 13.45) < 0.005 and gains[151] >= gains[150]
    assert abs(gains[200] - gains[151]) < 1e-9  # holding at t > the largest pot is never holding
    assert explorer.thresholds() == range(1, largest_pot(state) + 2)
    assert "(h = 1..154): h = 151, E[X] = 13.450" in explorer.verdict.value
    assert best_thresholds(explorer.table()["expected_gain"])[0] == 151
    explorer.deck.value = "classroom deck (mini), exact"
    assert explorer.needed.value == 16 and explorer.needed.max == 16
    with pytest.raises(ValueError, match="needed"):
        catch_up(state, 2.5, [1])


def test_lesson_6_answers():
    answer = L6.answers()
    law1, law2, law5 = _enumerated(1), _enumerated(2), _enumerated(5)
    mean = sum(g * p for g, p in law1["dist"].items())
    assert answer["variance_1"] == sum(g * g * p for g, p in law1["dist"].items()) - mean**2 == Fraction(1263, 64)
    assert answer["loss_2"] == sum(p for g, p in law2["dist"].items() if g < 0) == Fraction(15, 28)
    assert answer["catch_up_5"] == sum(p for g, p in law5["dist"].items() if g >= 5) == Fraction(1, 4)
    assert answer["catch_up_ev"] == 0 and answer["best_t_5"] == 5


@pytest.mark.slow
def test_catch_up_full_deck_keeps_d_on_a_language_switch():
    """The teacher's case: full deck, d = 20, Italiano: d stayed 16 (the menu's relabel went
    through the classroom deck's range)."""
    catch = L6.CatchUpExplorer(needed=5)
    catch.deck.value = "full deck (dragon-stripes)"
    catch.needed.value = 20
    verdict = catch.verdict.value
    i18n.set_language("it")
    assert catch.needed.value == 20 and catch.deck.value == "full deck (dragon-stripes)"
    i18n.set_language("en")
    assert catch.needed.value == 20 and catch.verdict.value == verdict


@pytest.mark.slow
def test_term_by_term_table_header_in_italian():
    explorer = L6.OutcomeExplorer()
    assert "<th>x (gems)</th>" in explorer.table.value
    i18n.set_language("it")
    assert "<th>x (gemme)</th>" in explorer.table.value and "gems" not in explorer.table.value


def test_on_the_last_turn_hold_at_delta_is_the_best_of_all_policies():
    """Review 6-10, item 4: the most likely way to gain at least δ gems, over every policy (a backward induction
    with reward 1 when X >= δ), is hold at δ."""
    state = base.fresh_turn("mini")

    def best(s, delta: int) -> Fraction:
        if s.is_terminal():
            return Fraction(int(s.returns() >= delta))
        reveal = sum(p * best(s.child(card), delta) for card, p in s.chance_outcomes())
        return max(reveal, best(s.child(Action.HOLD), delta)) if Action.HOLD in s.legal_actions() else reveal

    for delta in range(1, 17):
        hold_at = evaluate_policy(state, HoldAtPot(delta), exact=True)
        assert best(state, delta) == probability_at_least(hold_at, delta, exact=True), delta
    english, italian_ = _prose("06-risk"), _prose("06-risk", "it")
    assert "hold at $\\delta$ is the best of **all** policies" in english and "$d$" not in english
    assert "«fermati a $\\delta$» è la migliore fra **tutte** le politiche" in italian_


def test_a_takeover_breaks_the_last_turns_claim_as_the_notes_say():
    """Issue 37, item 1: the claim holds where nobody may take over; played by the game's own steps on the classroom
    deck, 8 gems behind (8 against 16), a takeover turns a hold below δ into a win and a hold above it into a loss,
    as the notes' example says in both languages."""
    import dataclasses

    from dragonkit.game_state import GameState, Phase

    start = dataclasses.replace(GameState.fresh(Ruleset.preset("mini")), gems=(8, 16))

    def reveal(state, kind: str, steps: int = 0):
        return state.child(next(c for c, _ in state.chance_outcomes() if c.kind == kind and c.steps == steps))

    def held_after(*steps: int):
        state = start
        for step in steps:
            state = reveal(state, "footprint", step)
        assert state.phase is Phase.CHOOSE
        return state.pot, state.child(Action.HOLD)

    pot, held = held_after(2, 1)  # a pot of 5, below δ = 8
    assert pot == 5 and held.phase is Phase.OFFER
    assert held.child(Action.DECLINE).gems == (13, 16)  # nobody takes over: 3 behind, a loss on a last turn
    taken = held.child(Action.TAKE_OVER)
    assert taken.gems == (13, 11)
    ended = reveal(taken, "danger")
    assert ended.is_terminal() and ended.gems == (13, 0) and ended.returns() == (1, 0)  # yet a win

    pot, held = held_after(2, 2, 1)  # a pot of 11, above δ
    assert pot == 11 and held.child(Action.DECLINE).gems == (19, 16)  # a win on a last turn
    taken = held.child(Action.TAKE_OVER)
    assert taken.gems == (19, 5)
    ended = reveal(taken, "footprint", 1)  # the head
    assert ended.is_terminal() and ended.gems == (19, 25) and ended.returns() == (0, 1)  # yet a loss

    english, italian_ = _prose("06-risk"), _prose("06-risk", "it")
    for figures in ("8 against 16", "13 against 11", "19 against 16", "19 against 5", "19 against 25"):
        assert figures in english
        assert figures.replace("against", "contro") in italian_
    assert "on a last turn that nobody may take over, hold at $\\delta$ is the best of **all** policies" in english
    assert "(a takeover changes nothing" not in english and "prendere il posto non cambia nulla" not in italian_


def test_the_gap_is_delta_on_the_slider_as_in_the_text():
    """Review 6-10, item 13: d is the stage elsewhere; lesson 6 calls the gems behind δ."""
    explorer = L6.CatchUpExplorer(needed=5)
    assert explorer.needed.description == "Gems needed to draw level, δ ="
    i18n.set_language("it")
    try:
        assert explorer.needed.description == "Gemme per pareggiare, δ ="
    finally:
        i18n.set_language("en")
