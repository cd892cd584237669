"""The bots (:mod:`dragonkit.bots`): the coach bot solves each turn once and plays as the solver."""

from __future__ import annotations

from dragonkit import Game, Ruleset
from dragonkit.analysis import TurnState, solve_turn
from dragonkit.bots import CoachBot
from dragonkit.game_state import Phase


def test_the_coach_solves_each_turn_once_and_plays_as_the_solver():
    game = Game(["a", "b"], Ruleset(), seed=11)
    coach = CoachBot(exact=True)
    solves, roots = 0, set()
    while not game.is_over:
        if game.phase in (Phase.MUST_REVEAL, Phase.CHOOSE):
            state = TurnState.from_game(game)
            before = coach._turn
            action = coach.choose(game)
            assert action.value == solve_turn(state, exact=True).best_action
            if coach._turn is not before:
                solves += 1
                roots.add((game.turn_number, game.active_player))
        else:
            action = coach.choose(game)
        game.apply(action)
    assert solves == len(roots)  # one solve per turn (and per takeover), never per decision
