"""Lesson 3's figures (dragonkit.plots.one_push) in words: each curve's break-even pot, the curves told apart
by their dashes, the map's cells, holding hatched, in the page's language."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.patches import Rectangle

from dragonkit.plots.one_push import (
    HOLD_HATCH,
    myopic_figure,
    myopic_figure_text,
    one_push_figure,
    one_push_figure_text,
)
from dragonkit.topics.one_push import break_even_pot, compare_with_optimal, one_push, story_state, with_pot

from .texts import _checked, _italian, _number, minus


@pytest.fixture(scope="module")
def rich_map():
    """Lesson 3's map with enough gems at stake that optimal play holds somewhere."""
    return compare_with_optimal(story_state(150))


def test_the_one_push_text_gives_each_curves_break_even_pot():
    state = story_state()
    push, point = one_push(state), break_even_pot(state)
    text = _checked(one_push_figure_text(push, point, 80, 200, "en"))
    assert text.columns == ("player's gems", "break-even pot (gems)", "E1 − pot at a pot of 24 gems")
    rows = {row[0]: row[1:] for row in text.rows}
    assert set(rows) == {"10 gems", "40 gems (you)", "100 gems", "200 gems"}
    for name, (shown, advantage) in rows.items():
        gems = int(name.split()[0])
        rich = state.replace(gems=gems)
        assert _number(shown) == pytest.approx(float(break_even_pot(rich)), abs=0.005)
        assert _number(advantage) == pytest.approx(float(one_push(with_pot(rich, 24)).value - 24), abs=0.005)
    never = min(g for g in range(0, 201, 2) if break_even_pot(state.replace(gems=g)) == 0)
    assert f"0 from {never} gems on" in text.alt
    assert minus(f"E1 − pot = {float(push.advantage):.2f} gems") in text.alt
    assert "break-even pot is " + minus(f"{float(point):.2f} gems") in text.alt


def test_the_one_push_curves_differ_by_their_dashes_too():
    state = story_state()
    curves = one_push_figure(one_push(state), break_even_pot(state), 80, 200).axes[0]
    levels = [line for line in curves.lines if "gems" in line.get_label()]
    assert len(levels) == 4 and len({str(line.get_linestyle()) for line in levels}) == 4


def test_the_map_text_counts_the_cells(rich_map):
    text = _checked(myopic_figure_text(rich_map, "en"))
    counts = np.array([[_number(cell) if cell != "—" else -1 for cell in row] for row in text.rows])
    advantage = rich_map.advantage
    assert counts[:, 2].sum() == rich_map.reachable == advantage.notna().to_numpy().sum()
    assert counts[:, 3].sum() == rich_map.hold_points == (advantage.to_numpy(dtype=float) <= 0).sum() > 0
    assert counts[:, 5].sum() == rich_map.disagree
    for row in counts:
        position = int(row[0])
        assert row[1] == pytest.approx(float(rich_map.break_even[position]), abs=0.005)
        column = advantage[position].dropna()
        holds = column[column <= 0].index
        assert row[4] == (min(holds) if len(holds) else -1)
    assert f"holds at {rich_map.hold_points}." in text.alt and f"differs from it at {rich_map.disagree};" in text.alt


def test_the_map_hatches_every_cell_where_optimal_play_holds(rich_map):
    ax = myopic_figure(rich_map).axes[0]
    hatched = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_hatch() == HOLD_HATCH]
    assert sum(p.get_width() * p.get_height() for p in hatched) == rich_map.hold_points
    advantage = rich_map.advantage
    for patch in hatched:
        x, y = patch.get_xy()
        cells = advantage[int(x + 0.5)].sort_index().loc[int(y + 0.5) : int(y + patch.get_height() - 0.5)]
        assert len(cells) == patch.get_height() and (cells <= 0).all()
    assert [t.get_text() for t in ax.get_legend().get_texts()][1:] == [
        "optimal play reveals",
        "optimal play holds (hatched)",
    ]


def test_the_lesson_3_texts_speak_italian(rich_map):
    state = story_state()
    _italian(_checked(one_push_figure_text(one_push(state), break_even_pot(state), 80, 200, "it")))
    _italian(_checked(myopic_figure_text(rich_map, "it")))
