"""One more card (dragonkit.topics.one_push), the domain behind lesson 3, against the engine's rule
arithmetic: the sliders' situation, the advantage curve and its comparison with optimal play, a push's table."""

from __future__ import annotations

from dragonkit.topics.one_push import (
    advantage_curve,
    break_even_pot,
    compare_with_optimal,
    one_push,
    situation,
    story_state,
    with_pot,
)


def test_the_sliders_situation_keeps_the_bank_and_drops_revealed_dangers():
    base = story_state()
    moved = situation(base, position=3, pot=10, gems=70, stage=2)
    assert (moved.position, moved.pot, moved.gems, moved.dangers_revealed) == (3, 10, 70, 2)
    assert moved.bank == base.bank and moved.dangers == 1 and not moved.must_reveal
    assert moved.composition.stops == base.composition.stops


def test_the_advantage_curve_and_the_comparison_with_optimal_play():
    story = story_state()
    curve = advantage_curve(story, range(0, 30))
    assert curve == [one_push(with_pot(story, p)).advantage for p in range(0, 30)]
    point = break_even_pot(story)
    assert all((a > 0) == (p < point) for p, a in enumerate(curve))
    comparison = compare_with_optimal(story)
    assert comparison.state.position == 0 and comparison.state.pot == 0 and comparison.state.bank == story.bank
    assert comparison.reachable == int(comparison.advantage.notna().sum().sum())
    assert 0 < comparison.bolder <= comparison.disagree <= comparison.reachable
    assert comparison.hold_points == 0  # with 40 gems optimal play never holds on this board
    assert set(comparison.break_even) == {int(x) for x in comparison.advantage.columns}


def test_a_push_table_sums_its_contributions():
    push = one_push(story_state())
    assert sum(o.contribution for o in push.outcomes) == push.value
    assert [o.effect for o in push.outcomes] == [push.state.effect(o.card) for o in push.outcomes]
