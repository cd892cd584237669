"""Lesson 3, one more card?: one push against the engine and the Markov chain, the break-even pot, the
explorers' sliders, optimal play against the myopic rule, the notebook's exercises and teacher's notes."""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

import matplotlib
import numpy as np
import pytest

from dragonkit import Game, Phase, Ruleset, i18n
from dragonkit.analysis import HoldAfterReveals, TurnState, evaluate_policy, policy_map, solve_turn
from dragonkit.analysis.turn.walk import after_cards
from dragonkit.lessons import one_more_card
from dragonkit.lessons.one_more_card import MyopicVsOptimal, OnePushExplorer
from dragonkit.rules import Card
from dragonkit.topics.one_push import break_even_pot, compare_with_optimal, one_push, story_state, with_pot

from .helpers import _check, _prose, _run_notebook, _text

matplotlib.use("Agg")


DRAGON = Ruleset.preset("dragon-stripes")


MINI = Ruleset.preset("mini")


STOP, DANGER = Card("stop"), Card("danger")


def _situations():
    """Decision points of real games (where holding is allowed), at several stages, in two editions."""
    found = []
    for rules in (DRAGON, MINI):
        for seed in range(8):
            game = Game(["A", "B", "C"], rules=rules, seed=seed)
            steps = 0
            while not game.is_over and steps < 300:
                steps += 1
                if game.phase is Phase.CHOOSE and steps % 9 == 0:
                    found.append(Game.replay(game.players, game.rules, game.seed, game.actions))
                if game.phase is Phase.OFFER:
                    game.decline(by=game.offer_to)
                elif game.phase is Phase.CHOOSE and game.pot >= 4 + game.turn_number % 9:
                    game.hold()
                else:
                    game.reveal()
    return found


SITUATIONS = _situations()


def _engine_one_push(game: Game) -> Fraction:
    """E1 by the engine: each card left put on top of the deck in turn, revealed, then a hold that
    everybody declines; the mean change of the active player's gems."""
    me, start = game.active_player, game.gems[game.active_player]
    total = Fraction(0)
    for i in range(len(game._deck)):  # the test looks at the hidden deck, the lesson never does
        copy = Game.replay(game.players, game.rules, game.seed, game.actions)
        copy._deck[i], copy._deck[-1] = copy._deck[-1], copy._deck[i]
        copy.reveal()
        if not copy.is_over and copy.phase is Phase.CHOOSE:
            copy.hold()
            while copy.phase is Phase.OFFER:
                copy.decline(by=copy.offer_to)
        total += copy.gems[me] - start
    return total / len(game._deck)


def test_one_push_agrees_with_the_engine_and_with_the_markov_chain():
    stages = {TurnState.from_game(g).dangers_revealed for g in SITUATIONS}
    assert len(SITUATIONS) >= 20 and stages >= {0, 1}
    for game in SITUATIONS:
        state = TurnState.from_game(game)
        push = one_push(state)
        assert push.value == _engine_one_push(game)
        assert push.value == evaluate_policy(state, HoldAfterReveals(1), exact=True).expected_gain
        assert sum(o.probability for o in push.outcomes) == 1
        assert solve_turn(state, exact=True).push_value >= push.value  # playing on can always hold at once


def test_one_push_at_the_last_stage_loses_everything_on_the_final_danger():
    state = dataclasses.replace(story_state(), dangers_revealed=2, dangers=1)
    final = [o for o in one_push(state).outcomes if o.card == DANGER]
    assert final[0].gain == -40 and final[0].effect.outcome == "final_danger"


def test_the_story_by_the_lessons_formula():
    story = story_state()
    assert (story.position, story.pot, story.treasure, story.gems) == (8, 24, 400 - 24, 40)
    assert dict(story.footprints) == {1: 12, 2: 11, 3: 8, 4: 3} and (story.stops, story.dangers) == (10, 3)
    counts, enders = {1: 12, 2: 11, 3: 8, 4: 3}, 13
    stripe_sum = sum(c * (8 + n) for n, c in counts.items())  # stripe k pays k gems
    for gems in (0, 10, 40, 77, 100):
        penalty = gems // 4  # stops and the 1st danger at rate 1/4
        e1 = Fraction(sum(c * (24 + 8 + n) for n, c in counts.items()) - enders * penalty, 47)
        state = story_state(gems)
        assert one_push(state).value == e1
        expected = max(Fraction(stripe_sum - enders * penalty, enders), Fraction(0))
        assert break_even_pot(state) == expected
    assert one_more_card.answers() == {
        "value": Fraction(1028, 47),
        "advantage": Fraction(-100, 47),
        "break_even": Fraction(212, 13),
        "break_even_rich": Fraction(17, 13),
    }


def test_the_break_even_pot_is_where_the_advantage_changes_sign():
    for game in SITUATIONS[::3]:
        state = TurnState.from_game(game)
        point = break_even_pot(state)
        top = min(60, state.treasure + state.pot)
        advantage = [one_push(with_pot(state, p)).advantage for p in range(0, top + 1)]
        for p, a in enumerate(advantage):
            assert (a > 0) == (p < point)
        low = math.floor(point)
        if 0 < point < top:  # affine in between: the root interpolates exactly
            slope = advantage[low + 1] - advantage[low]
            assert advantage[low] + slope * (point - low) == 0
    only_footprints = dataclasses.replace(story_state(), stops=0, dangers=0)
    assert break_even_pot(only_footprints) == 400  # pays until every gem of the dragon is in the pot


def test_the_break_even_pot_falls_as_the_player_gets_richer():
    points = [break_even_pot(story_state(g)) for g in range(0, 201)]
    assert all(a >= b for a, b in itertools.pairwise(points))
    assert points[0] > points[200] == 0


def test_bad_situations_are_refused():
    story = story_state()
    with pytest.raises(ValueError):
        with_pot(story, -1)
    with pytest.raises(ValueError):
        with_pot(story, story.treasure + story.pot + 1)
    with pytest.raises(ValueError):
        after_cards(story, [STOP])  # a stop ends the turn
    with pytest.raises(ValueError):
        after_cards(story, [Card.footprint(4)] * 4)  # only 3 left
    with pytest.raises(ValueError):
        one_push(dataclasses.replace(story, footprints={1: 0, 2: 0, 3: 0, 4: 0}, stops=0, dangers=0))
    with pytest.raises(ValueError):
        OnePushExplorer(story_state(500))


@pytest.mark.slow
def test_the_one_push_explorer_follows_its_sliders():
    explorer = OnePushExplorer()
    verdict = _text(explorer.verdict.value)
    assert "E1 = 21.872" in verdict and "212/13" in verdict and "HOLD" in verdict and "disagree" in verdict
    assert "1028/47" in _text(explorer.table.value)
    picture = explorer.picture.value
    explorer.sliders["gems"].value = 100
    assert explorer.break_even == Fraction(17, 13) and "17/13" in _text(explorer.verdict.value)
    assert explorer.picture.value != picture
    explorer.sliders["pot"].value = 0
    assert explorer.push.pays and "REVEAL (advantage" in _text(explorer.verdict.value)
    explorer.sliders["stage"].value = 2
    assert "final danger" in _text(explorer.table.value)
    explorer.sliders["position"].value = 17
    assert explorer.break_even > 80
    assert "reaches the head" in _text(explorer.table.value)


def test_optimal_play_never_holds_where_one_more_card_pays():
    for gems in (0, 40, 200):
        base = dataclasses.replace(story_state(gems), position=0, pot=0, treasure=400)
        grid = policy_map(base)
        for position in grid.columns:
            point = break_even_pot(dataclasses.replace(base, position=int(position)))
            column = grid[position].dropna()
            pays = np.array([pot < point for pot in column.index], dtype=bool)
            assert (column[pays] > 0).all()
    widget = MyopicVsOptimal()
    assert widget.disagree > 0 and f"differ at {widget.disagree} of the" in _text(widget.summary.value)
    assert f"at {widget.disagree} of them optimal play reveals" in _text(widget.summary.value)  # all one way


@pytest.mark.slow
def test_lesson_3_notebook_exercises_and_notes():
    exercises, notes = _run_notebook("03-one-more-card")
    a = one_more_card.answers()
    _check(exercises, [a["value"], a["advantage"], a["break_even"], a["break_even_rich"], 1, 0], notes)
    assert f"{break_even_pot(story_state(10))}" in notes
    rich = min(g for g in range(201) if break_even_pot(story_state(g)) == 0)
    assert f"from {rich} gems on" in notes
    assert f"{solve_turn(story_state(), exact=True).push_value}" in notes
    widget = MyopicVsOptimal()
    counts = []
    for gems in (40, 100, 200):
        widget.gems.value = gems
        counts.append(widget.disagree)
    pairs = int(policy_map(dataclasses.replace(story_state(), position=0, pot=0, treasure=400)).notna().sum().sum())
    flat = " ".join(notes.split())
    assert f"differ at {counts[0]} of its {pairs} cells" in flat
    assert f"at {counts[1]} with 100 gems and at {counts[2]} with 200 gems" in flat


def test_italian_says_the_two_rules_disagree_not_i_disagree():
    text = i18n.tr("They disagree: optimal play looks further ahead than one card.", "it")
    assert text.startswith("Non concordano:") and "d'accordo" not in text


@pytest.mark.slow
def test_all_blue_heatmap_says_why_and_red_cells_appear_with_more_gems():
    """At 40 gems optimal play never holds (checked on the policy map itself): the widget says so;
    with 160 gems some reachable points hold and the note is gone."""
    from dragonkit.analysis import policy_map

    explorer = MyopicVsOptimal()
    state = dataclasses.replace(explorer.base, position=0, pot=0, treasure=explorer.base.treasure + explorer.base.pot)
    advantage = policy_map(state).to_numpy(dtype=float)
    assert explorer.hold_points == int((advantage <= 0).sum()) == 0
    assert "No cell is red (hold): with 40 gems at stake" in explorer.summary.value
    i18n.set_language("it")
    assert "Nessuna casella è rossa" in explorer.summary.value
    i18n.set_language("en")
    explorer.gems.value = 160
    richer = policy_map(dataclasses.replace(state, gems=160)).to_numpy(dtype=float)
    assert explorer.hold_points == int((richer <= 0).sum()) > 0 and "No cell is red" not in explorer.summary.value
    explorer.close()


@pytest.mark.parametrize("stage", [0, 1, 2])
@pytest.mark.parametrize("gems", [10, 40, 100])
def test_the_lessons_break_even_formula_at_every_stage(stage, gems):
    """p* = (Σ F_n m v_{x+n} − S ℓ_S − D ℓ_D)/(S + D), the lesson's closed form, is the break-even pot the explorer
    finds by bisection, with the stage's multiplier and each card's own penalty (a danger charges the next stage's)."""
    state = one_more_card.situation(story_state(), 8, 24, gems, stage)
    rules = state.rules
    stops, dangers = state.stops, state.dangers
    m = rules.stage(stage).multiplier
    footprints = sum(count * m * rules.stripe_values[8 + steps - 1] for steps, count in state.footprints.items())
    stop_cost = rules.penalty(gems, stage)
    danger_cost = gems if stage + 1 == rules.danger_cards else rules.penalty(gems, stage + 1)
    numerator = footprints - stops * stop_cost - dangers * danger_cost
    assert break_even_pot(state) == max(Fraction(numerator, stops + dangers), Fraction(0))
    assert -state.child(STOP).returns() == stop_cost and -state.child(DANGER).returns() == danger_cost
    if stage == 1 and gems >= 4:
        assert danger_cost != stop_cost  # the old "(S + D) × penalty" would be wrong here


def test_holding_starts_with_a_rich_player_at_the_lowest_stripes_of_the_map():
    """Review 1-5, items 5 and 16: the notes' hold cells and the map's cells (not all of them can occur)."""

    def stripes_held(gems: int) -> list[int]:
        advantage = compare_with_optimal(story_state(gems)).advantage
        return [int(x) for x in advantage.columns if (advantage[x].dropna() <= 0).any()]

    assert stripes_held(40) == [] and stripes_held(71) == []
    assert stripes_held(72) == stripes_held(83) == [0]  # the tail's cell, pot 0: the turn is worth less than 0
    assert stripes_held(84) == [0, 1] and stripes_held(100) == [0, 1, 2] and stripes_held(200) == list(range(9))
    comparison = compare_with_optimal(story_state(40))
    assert (comparison.reachable, comparison.disagree) == (987, 291)
    steps = dict(story_state(40).footprints)
    seen: set[tuple[int, int]] = set()

    def walk(position: int, pot: int, left: tuple[int, ...]) -> None:
        seen.add((position, pot))
        for kind, (n, count) in enumerate(zip(steps, left)):
            if count and position + n <= 17:
                walk(position + n, pot + position + n, left[:kind] + (count - 1,) + left[kind + 1 :])

    walk(0, 0, tuple(steps.values()))
    assert len(seen) == 664  # the (position, pot) pairs a turn can bring, all of them cells of the map
    assert all(pot in comparison.advantage[position].dropna().index for position, pot in seen)
    english, italian_ = _prose("03-one-more-card"), _prose("03-one-more-card", "it")
    assert "from about 84 gems at stripe 1; stripes 1–2 with 100 gems, 1–8 with 200. (From 72 gems" in english
    assert "291 of its 987 cells (position, pot; 664 of them can occur in a turn)" in english
    assert "da circa 84 gemme sulla striscia 1; strisce 1–2 con 100 gemme, 1–8 con 200. (Da 72 gemme" in italian_
