"""Lesson 1's figure (dragonkit.plots.first_guess) in words: its text alternative and table give the
curves' points, in the page's language."""

from __future__ import annotations

import pytest

from dragonkit.analysis import HoldAtPot, evaluate_policy
from dragonkit.lessons.base import fresh_turn
from dragonkit.plots.first_guess import guess_figure, guess_figure_text

from .texts import _checked, _italian, _number, minus


def test_the_guess_text_gives_the_curves_points(guess):
    text = _checked(guess_figure_text(guess, "en"))
    state = fresh_turn("mini")
    exact = evaluate_policy(state, HoldAtPot(3), exact=True)
    rows = {row[0]: row[1:] for row in text.rows}
    assert rows["your guess: hold at 3"] == (minus(f"{float(exact.expected_gain):.3f}"), f"{float(exact.p_loss):.3f}")
    assert minus(f"h = 3: {float(exact.expected_gain):.3f} gems") in text.alt
    assert minus(f"Optimal play: {float(guess.optimal):.3f} gems") in text.alt
    scan = guess.scan[guess.scan["threshold"].notna()]
    lowest = scan.loc[scan["expected_gain"].astype(float).idxmin()]
    lowest_row = rows[f"the curve's lowest point: hold at {int(lowest['threshold'])}"]
    assert lowest_row[0] == minus(f"{lowest['expected_gain']:.3f}")
    best = f"best hold-at-h: hold at {guess.best_threshold}"
    assert _number(rows[best][0]) == pytest.approx(scan["expected_gain"].astype(float).max(), abs=5e-4)
    # the figure draws the same points: the guess's marker and the best one
    gain_ax = guess_figure(guess).axes[0]
    marks = {line.get_label(): (line.get_xdata()[0], line.get_ydata()[0]) for line in gain_ax.lines}
    assert marks["your guess: h = 3"] == (3, pytest.approx(float(exact.expected_gain)))
    assert marks[f"best hold-at-h: h = {guess.best_threshold}"][1] == pytest.approx(_number(rows[best][0]), abs=5e-4)


def test_the_guess_text_speaks_italian(guess):
    text = _checked(guess_figure_text(guess, "it"))
    _italian(text)
    assert text.alt.startswith("Politiche «fermati a h»") and text.columns[0] == "politica"
