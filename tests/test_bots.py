"""The bots (:mod:`dragonkit.bots`): the coach bot solves each turn once and plays as the solver; a bot spec is read
for every kind of bot by one parser."""

from __future__ import annotations

import pytest

from dragonkit import Game, Ruleset
from dragonkit.analysis import TurnState, solve_turn
from dragonkit.bots import BOTS, BotKind, CoachBot, ParsedSpec, parse_spec, spec_forms
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


def test_a_spec_names_every_kind_of_bot_and_builds_it():
    assert set(BOTS) == set(BotKind) - {BotKind.HUMAN}  # every kind but a person has a bot
    for kind, bot in BOTS.items():
        parsed = parse_spec(f" {kind.value} ")
        assert parsed.kind is kind and type(parsed.make(seed=3)) is bot
        assert parse_spec(f"{kind.value}#2") == parsed  # a tournament's twin
        parameter = bot.spec_parameter
        assert parsed.value == (None if parameter is None else parameter.default)
        assert kind.value in spec_forms()
    threshold = parse_spec("threshold:7")
    assert threshold == ParsedSpec(BotKind.THRESHOLD, 7)
    assert threshold.make(seed=1).threshold == 7 and parse_spec("threshold").make(seed=1).threshold == 20
    assert parse_spec("random").make(seed=5).seed == 5 and parse_spec(BotKind.RANDOM).kind is BotKind.RANDOM
    assert not parse_spec("coach").make(seed=0).exact and not parse_spec("win").make(seed=0).exact  # floats: fast
    assert spec_forms() == "coach, win, threshold[:T], random (T: the pot in gems at which it holds, 20 if left out)"


@pytest.mark.parametrize(
    "spec",
    [
        "human",
        "wizard",
        "Coach",
        "",
        "coach:3",
        "random:1",
        "threshold:",
        "threshold:x",
        "threshold:12345",
        "threshold:-1",
        "random#",
        "random#x",
        "threshold:2:3",
        None,
    ],
)
def test_an_unknown_spec_is_refused_with_every_kind(spec):
    with pytest.raises(ValueError, match=r"unknown bot .*; use coach, win, threshold\[:T\], random"):
        parse_spec(spec)
