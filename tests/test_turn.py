"""The steppable model of a turn (dragonkit.turn) and of a game (Game.child/returns)."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from dragonkit import Game, Ruleset
from dragonkit.analysis import solve_turn
from dragonkit.bots import RandomBot
from dragonkit.engine import IllegalActionError
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import DANGER_CARD, PRESETS, STOP_CARD, Card, CardKind, Outcome
from dragonkit.turn import Action, TurnState, footprint_children, pot_bound, takeover_step


def _random_situations(preset: str, n: int, seed: int) -> list[tuple[Game, TurnState]]:
    """Situations of real games of random bots: (game, the active player's turn state)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        game = Game(["a", "b", "c"], Ruleset.preset(preset), seed=rng.randrange(2**63))
        bots = [RandomBot(rng.randrange(1000)) for _ in range(3)]
        while not game.is_over:
            if game.phase in (Phase.MUST_REVEAL, Phase.CHOOSE):
                out.append((game, TurnState.from_game(game)))
            game = game.child(bots[game.to_move].choose(game))
    return out[:n]


@pytest.mark.parametrize("preset", PRESETS)
def test_chance_outcomes_are_exact_and_sum_to_one(preset):
    for _, state in _random_situations(preset, 30, 1):
        outcomes = state.chance_outcomes()
        assert all(isinstance(p, Fraction) for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        assert {c for c, _ in outcomes} == {c for c, k in state.composition.counts() if k}


@pytest.mark.parametrize("preset", PRESETS)
def test_a_reveal_in_the_model_is_the_engines_reveal(preset):
    """child(card) of the model gives what the engine does with the same card."""
    for game, state in _random_situations(preset, 60, 2):
        after = game.child(Action.REVEAL)
        card = after.last_card
        child = state.child(card)
        me = game.active_player
        assert child.gems == after.gems[me]
        assert child.treasure + child.pot == after.treasure + after.pot
        assert child.dangers_revealed == after.stage or child.outcome is Outcome.FINAL_DANGER
        assert child.composition == after.remaining
        if child.outcome is None:
            assert child == TurnState.from_game(after)
            assert child.returns() == 0 and child.legal_actions() == [Action.REVEAL, Action.HOLD]
        else:
            assert child.is_terminal() and child.legal_actions() == [] and child.chance_outcomes() == []
            assert child.returns() == after.gems[me] - game.gems[me]
            assert (after.ending == child.outcome) if after.is_over else not child.outcome.ends_game


def test_hold_takes_the_pot_and_ends_the_turn():
    state = TurnState.fresh(Ruleset.preset("mini")).child(Card.footprint(2))
    held = state.child("hold")
    assert (held.outcome, held.returns(), held.gems, held.pot) == (Outcome.HELD, 2, 14, 0)
    assert held.gems + held.treasure == state.gems + state.treasure + state.pot


def test_a_takeover_in_the_turn_model_is_the_games_takeover():
    """The taker's turn (TurnState.taken_over) is the game's turn after a takeover, whose payment is takeover_step."""
    mini = Ruleset.preset("mini")
    deck = mini.composition.without(Card.footprint(1)).without(Card.footprint(2))
    held = GameState(mini, (12, 9), 16, deck, phase=Phase.CHOOSE, position=3, pot=4).child(Action.HOLD)
    taken = held.child(Action.TAKE_OVER)
    assert taken.gems == takeover_step(9, 12, held.bounty)[::-1] == (16, 5)
    assert held.turn().taken_over(9, held.bounty) == taken.turn()
    assert taken.turn().must_reveal and taken.turn().gems == 5
    pays, gets = takeover_step(np.array([9, 20]), np.array([12, 0]), np.array([4, 7]))  # many at once
    assert pays.tolist() == [5, 13] and gets.tolist() == [16, 7]
    for gems, bounty, named in ((9, 10, "bounty"), (9, -1, "bounty"), (9, 1.5, "bounty"), (-1, 0, "gems")):
        with pytest.raises(ValueError, match=named):
            held.turn().taken_over(gems, bounty)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_array_step_is_the_model_step(preset):
    """footprint_children (the decision graph's step), for one kind and for every kind at once,
    agrees with child() on random situations."""
    rng = np.random.default_rng(3)
    for _, state in _random_situations(preset, 40, 3):
        for card, _p in state.chance_outcomes():
            if card.kind is not CardKind.FOOTPRINT:
                continue
            positions = np.array([state.position, *rng.integers(0, state.rules.n_stripes + 1, 5)])
            pots = np.minimum(np.array([state.pot, *rng.integers(0, 60, 5)]), state.bank)
            step = footprint_children(
                state.rules, card.steps, positions, pots, state.bank, state.dangers_revealed, state.cards_left
            )
            kinds = sorted(state.footprints)
            every = footprint_children(
                state.rules, kinds, positions, pots, state.bank, state.dangers_revealed, state.cards_left
            )
            row = kinds.index(card.steps)
            for k in range(len(positions)):
                one = state.replace(position=int(positions[k]), pot=int(pots[k]), treasure=state.bank - int(pots[k]))
                child = one.child(card)
                for got, at in ((step, (k,)), (every, (row, k))):  # one kind, or every kind at once
                    assert int(got.position[at]) == child.position
                    assert int(got.pot[at]) == child.pot
                    assert int(got.gain[at]) == child.returns()
                    assert bool(got.goes_on[at]) == (child.outcome is None)


@pytest.mark.parametrize("preset", PRESETS)
def test_pot_bound_bounds_every_pot_a_turn_reaches(preset):
    """Walking child() from real situations (every footprint card, until the turn ends), the pot
    never passes pot_bound at the knight's position, nor the bank."""
    rng = random.Random(5)
    for _, start in _random_situations(preset, 30, 6):
        bound = pot_bound(start.rules, start.dangers_revealed, start.bank, start.pot)
        assert bound.shape == (start.rules.n_stripes + 1,) and bound.max() <= start.bank
        state = start
        while not state.is_terminal():
            assert state.pot <= bound[state.position]
            footprints = [card for card, _p in state.chance_outcomes() if card.kind is CardKind.FOOTPRINT]
            if not footprints:
                break
            state = state.child(rng.choice(footprints))


def _walk_value(state: TurnState) -> Fraction:
    """Backward induction by walking the model one state at a time: the textbook recursion."""

    @cache
    def value(s: TurnState) -> Fraction:
        if s.is_terminal():
            return Fraction(s.returns())
        best = None
        for action in s.legal_actions():
            if action is Action.HOLD:
                v = value(s.child(action))
            else:
                v = sum((p * value(s.child(card)) for card, p in s.chance_outcomes()), Fraction(0))
            best = v if best is None else max(best, v)
        return best

    return value(state)


@pytest.mark.slow
def test_walking_the_model_gives_the_solvers_values():
    mini = Ruleset.preset("mini")
    assert _walk_value(TurnState.fresh(mini)) == Fraction(-11, 8) == solve_turn(TurnState.fresh(mini), exact=True).value
    for preset in ("dragon-stripes", "kali", "drago-rosso"):
        for _, state in _random_situations(preset, 200, 4)[-4:]:  # late situations: small decks
            assert _walk_value(state) == solve_turn(state, exact=True).value


def test_illegal_moves_are_refused_and_change_nothing():
    state = TurnState.fresh(Ruleset.preset("mini"))
    before = state.key
    with pytest.raises(ValueError, match="cannot hold now"):
        state.child("hold")
    with pytest.raises(ValueError, match="by chance"):
        state.child("reveal")
    with pytest.raises(ValueError, match="cannot take_over now"):
        state.child("take_over")
    with pytest.raises(ValueError, match="a Card or 'hold'"):
        state.child("jump")
    with pytest.raises(ValueError, match="no 4 steps card left"):
        state.child(Card.footprint(4))
    ended = state.child(STOP_CARD)
    with pytest.raises(ValueError, match="has ended"):
        ended.child(Card.footprint(1))
    assert state.key == before


def test_outcomes_are_one_list_with_one_wording():
    assert [o.label for o in Outcome] == ["held", "stopped", "danger", "final danger", "head", "deck empty"]
    assert [o for o in Outcome if o.ends_game] == [Outcome.FINAL_DANGER, Outcome.HEAD, Outcome.DECK_EMPTY]
    with pytest.raises(ValueError):
        _ = Outcome.HELD.ending
    kali = TurnState.fresh(Ruleset.preset("kali")).replace(dangers_revealed=1, dangers=1)
    pot_only = kali.effect(DANGER_CARD)
    assert pot_only.outcome is Outcome.FINAL_DANGER and pot_only.describe("en").endswith(
        "you lose the pot, and the game ends"
    )
    ds = TurnState.fresh(Ruleset()).replace(dangers_revealed=2, dangers=1)
    assert "you lose 40 gems and the pot" in ds.effect(DANGER_CARD).describe("en")
    assert "perdi 40 gemme e il piatto" in ds.effect(DANGER_CARD).describe("it")
    would = ds.effect(DANGER_CARD).describe("en", hypothetical=True)
    assert would == "the final danger: you would have lost 40 gems and the pot, and the game would have ended"
    assert "avresti pagato" in TurnState.fresh(Ruleset()).effect(STOP_CARD).describe("it", hypothetical=True)


def test_the_game_steps_too():
    game = Game(["a", "b"], Ruleset.preset("mini"), seed=7)
    before = game.public_state()
    child = game.child("reveal")
    assert game.public_state() == before and len(child.discards) == 1
    with pytest.raises(IllegalActionError):
        game.child("hold")
    assert game.public_state() == before
    while not child.is_terminal():
        child = child.child(child.legal_actions()[0])
    shares = child.returns()
    assert sum(shares) == 1 and all(s in (0, Fraction(1, len(child.winners))) for s in shares)


def test_only_players_who_own_the_bounty_may_take_over():
    rules = Ruleset()
    assert rules.may_take_over(10, 10) and not rules.may_take_over(9, 10)
