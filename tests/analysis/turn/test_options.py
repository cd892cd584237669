"""Each option of the player to move in expected gems (TurnOptions): the solver's values, one solve a turn."""

from __future__ import annotations

import random
from fractions import Fraction

from dragonkit import Game, Ruleset
from dragonkit.analysis import TurnOptions, TurnState, solve_turn, takeover_gain
from dragonkit.bots import RandomBot
from dragonkit.game_state import GameState, Phase
from dragonkit.turn import Action


def test_a_games_first_decision_is_the_worked_example_of_the_rules():
    assert TurnOptions().values(GameState.fresh(Ruleset.preset("mini"))) == {Action.REVEAL: Fraction(-11, 8)}


def test_every_option_of_a_random_game_is_valued_as_the_solver_and_the_market_value_it():
    rng = random.Random(3)
    options = TurnOptions()
    for _ in range(3):
        game = Game(["a", "b", "c"], Ruleset.preset("dragon-stripes"), seed=rng.randrange(2**63))
        bots = [RandomBot(rng.randrange(100)) for _ in range(3)]
        while not game.is_over:
            values = options.values(game.state)
            assert list(values) == game.legal_actions()
            turn = TurnState.from_game(game)
            if game.phase is Phase.OFFER:
                taker = game.offer_to
                assert values[Action.TAKE_OVER] == takeover_gain(turn, game.gems[taker], game.bounty, exact=True)
                assert values[Action.DECLINE] == 0
            else:
                assert values[Action.REVEAL] == solve_turn(turn, exact=True).push_value
                if Action.HOLD in values:
                    assert values[Action.HOLD] == game.pot
            game.apply(bots[game.to_move].choose(game))
