"""What the coach said of a decision, as a row of the class's record."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dragonkit import Action
from dragonkit.coach.rows import decision_row
from dragonkit.coach.views import Coach
from dragonkit.record.rows import situation_fields

from ..situations import _mini_disagreement, _three_players_at_a_choice


def test_a_decision_carries_both_views_exact():
    game = _mini_disagreement()
    views = Coach().views(game)
    row = decision_row(views, game.state, Action.REVEAL, app="play", seconds=2.5, game_id="g" * 32)
    assert row.gems == {"reveal": "71/30", "hold": "1"}  # exact, as the coach has them
    assert row.gems_given_up == 0 and row.best_gems == ["reveal"]
    assert row.win == pytest.approx({"reveal": 0.4, "hold": 0.6}) and row.win_source == "table"
    assert row.best_win == ["hold"] and row.verdict == "disagree"
    assert row.situation == situation_fields(game.state) and row.phase == "choose" and row.pot == 1
    assert (row.app, row.game_id, row.seconds, row.card) == ("play", "g" * 32, 2.5, None)
    held = decision_row(views, game.state, "hold", app="trainer", seconds=0)
    assert held.gems_given_up == float(Fraction(71, 30) - 1) and held.action == "hold" and held.game_id is None


def test_without_chances_of_winning_the_row_has_the_gems_alone():
    game = _three_players_at_a_choice()
    views = Coach().views(game, estimate=False)  # no estimate made
    row = decision_row(views, game.state, Action.HOLD, app="play", seconds=1)
    assert row.win is None and row.win_source is None and row.best_win == [] and row.verdict == "none"
    assert set(row.gems) == {"reveal", "hold"}


def test_a_row_refuses_an_action_or_a_state_the_views_are_not_of():
    game = _mini_disagreement()
    views = Coach().views(game)
    with pytest.raises(ValueError, match="'decline' is not an option of this decision"):
        decision_row(views, game.state, Action.DECLINE, app="play", seconds=1)
    with pytest.raises(ValueError, match="seconds must be >= 0"):
        decision_row(views, game.state, Action.HOLD, app="play", seconds=-1)
    game.hold()  # Bob is asked now
    with pytest.raises(ValueError, match="the views are seat 0's, the decision seat 1's"):
        decision_row(views, game.state, Action.DECLINE, app="play", seconds=1)
