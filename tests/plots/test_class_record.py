"""The dashboard's figures: the class's decisions over the policy map (shape and filling say what colour says) and
the class's win rate against each bot, each with its text alternative from the same data."""

from __future__ import annotations

import matplotlib.colors as mcolors
import numpy as np
import pandas as pd
import pytest

from dragonkit import i18n, palette
from dragonkit.plots.class_record import (
    MARKERS,
    class_map_figure,
    class_map_text,
    class_win_rates,
    class_win_rates_text,
)
from dragonkit.plots.render import figure_png
from dragonkit.topics import class_summary as cs
from dragonkit.topics.our_class import stopping_choices

from .texts import _checked, _italian


def _rows():
    """Four decisions at stage 0 of the mini deck: two pushes past, a stop short, and a hold as the optimum."""
    cells = [
        (3, 3, "reveal", "5/2", "3"),
        (3, 3, "reveal", "5/2", "3"),
        (1, 1, "hold", "2", "1"),
        (2, 2, "hold", "1", "2"),
    ]
    return pd.DataFrame(
        [
            {
                "id": i,
                "nickname": "Ada",
                "edition": "mini",
                "stage": 0,
                "phase": "choose",
                "position": position,
                "pot": pot,
                "action": action,
                "gems": {"reveal": reveal, "hold": hold},
            }
            for i, (position, pot, action, reveal, hold) in enumerate(cells, 1)
        ]
    )


@pytest.fixture
def found() -> cs.ClassMap:
    return cs.class_map(stopping_choices(_rows()), "mini", 0)


def _marks(fig):
    """The scatter marks of the map: (shape's vertices, face colour, edge colour, points)."""
    ax = fig.axes[0]
    return [
        (
            tuple(map(tuple, c.get_paths()[0].vertices.round(2))),
            mcolors.to_hex(c.get_facecolor()[0]),
            mcolors.to_hex(c.get_edgecolor()[0]),
            c.get_offsets().tolist(),
        )
        for c in ax.collections
        if len(c.get_offsets()) and c.get_paths()
    ]


def test_a_reveal_and_a_hold_differ_by_shape_and_a_decision_against_the_optimum_is_filled(found):
    fig = class_map_figure(found)
    marks = _marks(fig)
    assert len(marks) == 3  # reveal pushed past, hold stopped short, hold agreeing
    by_point = {tuple(points[0]): (shape, face, edge) for shape, face, edge, points in marks}
    pushed, short, agrees = by_point[(3.0, 3.0)], by_point[(1.0, 1.0)], by_point[(2.0, 2.0)]
    assert pushed[0] != short[0] and short[0] == agrees[0]  # a triangle, and two squares
    assert pushed[1:] == (mcolors.to_hex(MARKERS["reveal"][1]), mcolors.to_hex(palette.INK))  # filled
    assert short[1:] == (mcolors.to_hex(MARKERS["hold"][1]), mcolors.to_hex(palette.INK))
    assert agrees[1:] == (mcolors.to_hex(palette.WHITE), mcolors.to_hex(MARKERS["hold"][1]))  # hollow
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert len(labels) == 4 and "pushed past" in labels[2] and "stopped short" in labels[3]
    assert fig.axes[0].get_legend() is not None  # the map's own legend stays
    assert figure_png(fig)[:4] == b"\x89PNG"


def test_the_maps_text_counts_the_decisions_by_judgement_and_by_knight_position(found):
    text = _checked(class_map_text(found))
    assert "mini (classroom deck), stage 0" in text.alt
    assert (
        "4 decisions between revealing and holding: agreeing with the optimum 1, pushed past the boundary 2, "
        "stopped short of it 1." in text.alt
    )
    rows = {row[0]: row[1:] for row in text.rows}
    assert list(rows) == [str(p) for p in found.advantage.columns]
    assert rows["3"][1:] == ("0", "2", "0") and rows["1"][1:] == ("0", "0", "1") and rows["2"][1:] == ("1", "0", "0")
    i18n.set_language("it")
    italian = _checked(class_map_text(found))
    _italian(italian)
    assert "mini (mazzo per la classe), fase 0" in italian.alt


def test_a_map_without_decisions_says_so():
    empty = cs.class_map(stopping_choices(_rows()), "dragon-stripes", 1)
    assert "no decision of the class yet" in class_map_text(empty).alt
    assert _marks(class_map_figure(empty)) == []


RATES = cs.win_rates(
    pd.DataFrame(
        [{"seats": ["human", "coach"], "winners": [0] if i < 3 else [1]} for i in range(10)]
        + [{"seats": ["human", "random", "random"], "winners": [0, 1] if i < 2 else [0]} for i in range(4)]
    )
)
LABELS = {"coach": "coach bot", "random": "random bot"}


def test_the_win_rates_figure_has_a_bar_an_interval_and_an_equal_share_per_bot():
    fig = class_win_rates(RATES, LABELS)
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert heights == pytest.approx([0.3, 0.75])
    segments = ax.collections[-1].get_segments()  # the equal shares, one dashed line per bar
    assert [s[0][1] for s in segments] == pytest.approx([0.5, 1 / 3])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["coach bot\n10 games", "random bot\n4 games"]


def test_the_win_rates_text_gives_each_bots_rate_interval_and_games():
    text = _checked(class_win_rates_text(RATES, LABELS))
    assert text.alt.startswith("The class against each bot: win rate with 95% Wilson intervals: coach bot 30% [")
    assert "10 games; random bot 75% [" in text.alt and "An equal player's share: 33% to 50%." in text.alt
    assert text.rows[0][:4] == ("coach bot", "10", "3", "30.0%") and text.rows[1][2] == "3"
    assert text.rows[1][5] == "33.3%"
    halves = cs.win_rates(pd.DataFrame([{"seats": ["human", "win"], "winners": [0, 1]}]))
    assert class_win_rates_text(halves, {"win": "win bot"}).rows[0][2] == "0.5"
    i18n.set_language("it")
    italian = class_win_rates_text(RATES, {"coach": "bot allenatore", "random": "bot casuale"})
    _italian(italian)
    assert "Quota di un giocatore alla pari: tra 33% e 50%." in italian.alt
    assert np.all([len(r) == 6 for r in italian.rows])


def test_no_game_against_bots_yet():
    assert "no game against bots yet" in class_win_rates_text(RATES.iloc[:0], LABELS).alt
