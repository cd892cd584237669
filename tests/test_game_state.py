"""The public game state, the one model a game steps.

An engine :class:`Game` holds a :class:`GameState` and steps it at every action (nothing is kept
in lockstep any more): for every preset, a custom deck that runs out, and 2 to 4 players, random
bots play seeded games and after every action the game's state must be a GameState, the one
``GameState.from_game`` reads, the one ``public_state`` shows, ending as the rules say.  Then
the state's own steps and refusals, made by hand.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from dragonkit.bots import RandomBot, bot_seed
from dragonkit.engine import Game
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import Card, Composition, Outcome, Ruleset
from dragonkit.turn import Action

MINI = Ruleset.preset("mini")
#: The presets, and a custom deck without danger cards that runs out (both ways: on a footprint, at a turn's end).
RULESETS = {name: Ruleset.preset(name) for name in ["dragon-stripes", "kali", "drago-rosso", "mini"]} | {
    "no-danger": Ruleset(
        name="no-danger",
        stripe_values=(1, 2, 3, 4, 5, 6, 7, 8),
        footprints={1: 4, 2: 2},
        stop_cards=2,
        danger_cards=0,
        stages=((Fraction(1, 4), 1),),
    )
}
GAMES = 40  # per ruleset and number of players


def public_numbers(state: GameState) -> dict[str, object]:
    """The state's numbers under the names of :meth:`Game.public_state`."""
    return {
        "gems": list(state.gems),
        "treasure": state.treasure,
        "pot": state.pot,
        "position": state.position,
        "stage": state.stage,
        "turn_owner": state.owner,
        "active_player": state.active,
        "offer_to": state.offer_to,
        "phase": state.phase.value,
        "bounty": state.bounty,
        "remaining": {card.to_json(): n for card, n in state.deck.counts()},
        "legal_actions": [a.value for a in state.legal_actions()],
        "ending": None if state.ending is None else state.ending.value,
        "winners": list(state.winners),
    }


def engine_numbers(game: Game) -> dict[str, object]:
    public = game.public_state()
    return {name: public[name] for name in public_numbers(GameState.fresh(MINI))}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", RULESETS)
@pytest.mark.slow
def test_a_game_steps_its_public_state(preset: str, players: int) -> None:
    rules, endings = RULESETS[preset], set()
    for seed in range(GAMES):
        game = Game([f"p{i}" for i in range(players)], rules, seed=seed)
        bots = [RandomBot(bot_seed(seed, seat)) for seat in range(players)]
        assert game.state == GameState.fresh(rules, players)
        while not game.is_over:
            before = game.state
            mover = game.to_move
            assert mover is not None and before.current_player() == mover
            assert before.legal_actions() == game.legal_actions()
            action = bots[mover].choose(game)
            if action is Action.REVEAL:
                assert before.chance_outcomes() == game.chance_outcomes()
            card = game.apply(action)
            state = game.state
            assert type(state) is GameState and GameState.from_game(game) is state, (preset, seed, game.actions)
            assert state == before.child(action if card is None else card)  # the step, and nothing else
            assert public_numbers(state) == engine_numbers(game), (preset, seed, game.actions)
            if not state.is_terminal():  # the turn of a stepped state, not checked again: the checked one
                turn = state.turn()
                assert turn.key == dataclasses.replace(turn, footprints=dict(turn.footprints)).key
        assert state.is_terminal() and state.returns() == game.returns()
        assert sum(state.returns()) == 1
        endings.add(state.ending)
    assert endings == ({Outcome.DECK_EMPTY} if preset == "no-danger" else {Outcome.HEAD, Outcome.FINAL_DANGER})


def test_a_fresh_state_and_its_first_moves() -> None:
    state = GameState.fresh(MINI)
    assert state.current_player() == 0 and state.legal_actions() == [Action.REVEAL]
    assert sum(p for _, p in state.chance_outcomes()) == 1
    held = state.child(Card.footprint(2)).child(Action.HOLD)  # pot 2: player 1 may take over
    assert held.phase is Phase.OFFER and held.current_player() == 1 and held.chance_outcomes() == []
    taken = held.child("take_over")
    assert taken.gems == (14, 10) and taken.active == 1 and taken.owner == 0 and taken.pot == 2
    declined = held.child("decline")
    assert declined.gems == (14, 12) and declined.owner == declined.active == 1 and declined.pot == 0
    assert hash(declined) == hash(GameState.fresh(MINI).child(Card.footprint(2)).child("hold").child("decline"))


def test_the_last_danger_ends_the_game() -> None:
    last = GameState(MINI, (10, 14), 20, Composition.of({1: 0, 2: 0}, 0, 1), phase=Phase.CHOOSE, position=2, pot=3)
    over = last.child(Card("danger"))
    assert over.is_terminal() and over.ending is Outcome.FINAL_DANGER
    assert over.gems == (0, 14) and over.returns() == (Fraction(0), Fraction(1)) and over.winners == (1,)


@pytest.mark.parametrize(
    ("move", "phase"),
    [("reveal", Phase.MUST_REVEAL), ("hold", Phase.MUST_REVEAL), ("take_over", Phase.CHOOSE), ("jump", Phase.CHOOSE)],
)
def test_illegal_moves_are_refused(move: str, phase: Phase) -> None:
    state = GameState.fresh(MINI)
    if phase is Phase.CHOOSE:
        state = state.child(Card.footprint(1))
    with pytest.raises(ValueError):
        state.child(move)


def test_refusals_name_what_is_wrong() -> None:
    held = GameState.fresh(MINI).child(Card.footprint(1)).child("hold")
    with pytest.raises(ValueError, match="no card is revealed"):
        held.child(Card.footprint(1))
    with pytest.raises(ValueError, match="offer_queue"):
        GameState(MINI, (12, 12), 20, MINI.composition, phase=Phase.OFFER)
    with pytest.raises(ValueError, match="stop cards"):
        GameState(MINI, (12, 12), 20, Composition.of({1: 3, 2: 2}, 5, 1))
    with pytest.raises(ValueError, match="ending"):
        GameState(MINI, (12, 12), 20, MINI.composition, ending=Outcome.HELD)
    with pytest.raises(ValueError, match="ending"):
        GameState(MINI, (12, 12), 20, MINI.composition, phase=Phase.OVER)
    # a game going on must be a valid turn: checked when the state is made, not at its first step
    kali = RULESETS["kali"]
    with pytest.raises(ValueError, match=r"dangers must be a whole number from 0 to 1, not 2"):
        GameState(kali, (40, 40), 400, kali.composition, stage=1)  # a danger revealed, and both still in the deck
    with pytest.raises(ValueError, match="gems must be a whole number"):
        GameState(MINI, (10**10, 12), 20, MINI.composition)
