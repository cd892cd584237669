"""A turn solved once and its later decisions looked up (SolvedTurn)."""

from __future__ import annotations

import random

import pytest

from dragonkit import Game, Ruleset
from dragonkit.analysis import SolvedTurn, TurnState, solve_turn
from dragonkit.bots import RandomBot
from dragonkit.game_state import Phase
from dragonkit.rules import PRESETS, STOP_CARD, Card


@pytest.mark.parametrize("preset", PRESETS)
def test_every_later_decision_of_a_turn_is_looked_up_with_the_solvers_values(preset):
    rng = random.Random(5)
    for _ in range(3):
        game = Game(["a", "b"], Ruleset.preset(preset), seed=rng.randrange(2**63))
        bots = [RandomBot(rng.randrange(100)) for _ in range(2)]
        turn: SolvedTurn | None = None
        checked = 0
        while not game.is_over and checked < 40:
            if game.phase in (Phase.MUST_REVEAL, Phase.CHOOSE):
                state = TurnState.from_game(game)
                looked_up = turn.solution(state) if turn else None
                if looked_up is None:
                    turn = SolvedTurn(state, exact=True)
                    looked_up = turn.solution(state)
                fresh = solve_turn(state, exact=True)
                assert looked_up is not None
                assert (looked_up.value, looked_up.push_value, looked_up.best_action) == (
                    fresh.value,
                    fresh.push_value,
                    fresh.best_action,
                )
                checked += 1
            game.apply(bots[game.to_move].choose(game))


def test_a_state_of_another_turn_is_not_found():
    mini = Ruleset.preset("mini")
    start = TurnState.fresh(mini)
    turn = SolvedTurn(start, exact=False)
    later = start.child(Card.footprint(1))
    assert turn.locate(later) is not None
    assert turn.solution(later.replace(gems=5)) is None  # another player's turn
    assert turn.solution(start.child(STOP_CARD)) is None  # the turn has ended
    assert turn.solution(start.replace(pot=3, treasure=17)) is None  # a point no card leads to
    assert isinstance(turn.solution(later).value, float)
