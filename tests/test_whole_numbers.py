"""One whole-number check (``dragonkit.rules.whole_number``) for every part of the model: the same integers are
accepted by the ruleset, the turn, the game's state and the engine's actions, and bools and floats are refused by
all of them with a message that names the argument and what was given."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dragonkit import Game, Ruleset
from dragonkit.analysis import HoldAfterReveals, HoldAtPot
from dragonkit.bots import ThresholdBot
from dragonkit.game_state import GameState, Phase
from dragonkit.i18n.numbers import MINUS
from dragonkit.rules import WholeNumberError, whole_number
from dragonkit.turn import TurnState

MINI = Ruleset.preset("mini")
#: The integer types the kit accepts wherever it asks for a whole number.
INTEGERS = (int, np.int64, np.int32)
#: Values that are no whole number, however close.
NOT_WHOLE = (True, False, 3.0, 2.5, np.float64(4.0), "4", None)


def _turn(**changes: object) -> TurnState:
    fields = dict(
        rules=MINI,
        footprints={1: 3, 2: 2},
        stops=2,
        dangers=1,
        dangers_revealed=0,
        gems=12,
        treasure=20,
        position=0,
        pot=0,
        must_reveal=True,
    )
    fields.update(changes)
    return TurnState(**fields)


@given(st.integers(0, 10**6), st.sampled_from(INTEGERS))
def test_whole_number_returns_a_python_int(value, kind):
    number = whole_number(kind(value % 2**31), "x", minimum=0)
    assert type(number) is int and number == value % 2**31


@given(st.integers(-(10**6), 10**6), st.integers(-50, 50), st.integers(0, 100))
def test_whole_number_bounds_are_included(value, low, width):
    high = low + width
    if low <= value <= high:
        assert whole_number(value, "x", minimum=low, maximum=high) == value
    else:
        low_, high_ = (
            str(n).replace("-", MINUS) for n in (low, high)
        )  # the bounds with a true minus, as tr writes them
        with pytest.raises(ValueError, match=f"x must be a whole number from {low_} to {high_}, not {value}") as info:
            whole_number(value, "x", minimum=low, maximum=high)
        assert not isinstance(info.value, TypeError)  # a whole number out of range: a ValueError only


@pytest.mark.parametrize("value", NOT_WHOLE)
def test_whole_number_refuses_bools_floats_and_strings(value):
    with pytest.raises(WholeNumberError, match=r"^count must be a whole number >= 0, not ") as info:
        whole_number(value, "count", minimum=0)
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)  # either may be caught
    assert repr(value) in str(info.value)
    with pytest.raises(TypeError, match=r"^count must be a whole number, not "):
        whole_number(value, "count")


@pytest.mark.parametrize("kind", INTEGERS)
def test_every_part_of_the_model_accepts_the_same_integers(kind):
    rules = Ruleset(
        starting_gems=kind(40), treasure=kind(400), stop_cards=kind(10), stripe_values=[kind(v) for v in range(1, 18)]
    )
    assert rules == Ruleset() and type(rules.starting_gems) is int
    turn = _turn(gems=kind(12), treasure=kind(20), stops=kind(2), footprints={1: kind(3), 2: kind(2)})
    assert turn == _turn() and type(turn.gems) is int and type(turn.footprints[1]) is int
    state = GameState(MINI, (kind(12), kind(12)), kind(20), MINI.composition, owner=kind(1), active=kind(1))
    assert state == GameState(MINI, (12, 12), 20, MINI.composition, owner=1, active=1)
    assert all(type(g) is int for g in state.gems) and type(state.owner) is int
    game = Game(["Ann", "Bo"], MINI, seed=kind(3))
    assert game.seed == 3 and type(game.seed) is int
    game.reveal(by=kind(0))  # the engine's actions take the seat as any of them
    if game.phase is Phase.CHOOSE:
        game.apply("hold", by=kind(0))
    assert HoldAtPot(kind(5)).threshold == 5 and HoldAfterReveals(kind(2)).reveals == 2
    assert ThresholdBot(kind(8)).threshold == 8


@pytest.mark.parametrize("value", NOT_WHOLE)
def test_every_part_of_the_model_refuses_bools_and_floats(value):
    with pytest.raises(ValueError, match="starting_gems must be a whole number from 0 to"):
        Ruleset(starting_gems=value)
    with pytest.raises(ValueError, match="gems must be a whole number from 0 to"):
        _turn(gems=value)
    with pytest.raises(ValueError, match=r"gems\[1\] must be a whole number >= 0, not"):
        GameState(MINI, (12, value), 20, MINI.composition)
    with pytest.raises(ValueError, match="pot must be a whole number >= 0, not"):
        GameState(MINI, (12, 12), 20, MINI.composition, pot=value)
    if value is not None:  # no seed: a random one
        with pytest.raises(ValueError, match=r"seed must be a whole number from 0 to 2\*\*63 - 1, not"):
            Game(["Ann", "Bo"], MINI, seed=value)
    with pytest.raises(ValueError, match="threshold must be a whole number >= 0, not"):
        HoldAtPot(value)
    with pytest.raises(ValueError, match="threshold must be a whole number >= 0, not"):
        ThresholdBot(value)


def test_the_engine_refuses_a_seat_that_is_no_whole_number():
    from dragonkit.engine import NotYourTurnError

    game = Game(["Ann", "Bo"], MINI, seed=3)
    for by in (True, 0.0, "0"):
        with pytest.raises(NotYourTurnError, match="it is Ann's move"):
            game.reveal(by=by)
    assert not game.actions  # nothing changed


# -- the layers above the model: topics, simulations, the apps' numbers and the market ------------------------


def _above_the_model(value: object) -> dict[str, object]:
    """One representative public call of each layer above the model, given ``value`` where a whole number goes
    (each allows 1, but the stage: mini has one, stage 0)."""
    from dragonkit.analysis.turn.market import held_turn, takeover
    from dragonkit.rules import Card
    from dragonkit.server.budget import KernelBudget
    from dragonkit.simulate.games import simulate_games
    from dragonkit.simulate.turns import simulate_turns
    from dragonkit.topics.deck import deck_after
    from dragonkit.topics.one_push import with_pot
    from dragonkit.ui.trainer import HandTrainer

    held = held_turn(MINI, [1], stage=0)
    return {  # the argument's name, as the message names it, and the call
        "the number of discarded 1 step cards": lambda: deck_after(MINI, {Card.footprint(1): value}),
        "pot": lambda: with_pot(held, value),
        "n": lambda: simulate_turns(held, HoldAtPot(4), value, rng=1),
        "games": lambda: simulate_games(["random", "threshold:4"], value, rules=MINI),
        "seed": lambda: HandTrainer(level="mini", seed=value),
        "max_kernels": lambda: KernelBudget(max_kernels=value),
        "stage": lambda: held_turn(MINI, [1], stage=value),
        "gems": lambda: takeover(held, value),
    }


@pytest.mark.parametrize("kind", INTEGERS)
def test_the_layers_above_the_model_accept_the_same_integers(kind):
    from dragonkit.rules import Card
    from dragonkit.ui.trainer import HandTrainer

    results = {name: call() for name, call in _above_the_model(kind(1)).items() if name != "stage"}
    assert results["the number of discarded 1 step cards"].count(Card.footprint(1)) == 2
    assert results["pot"].pot == 1 and type(results["pot"].pot) is int
    assert len(results["n"].gain) == 1
    assert len(results["games"]) == 1
    assert results["seed"].rng.getstate() == HandTrainer(level="mini", seed=1).rng.getstate()
    assert results["max_kernels"].max_kernels == 1 and type(results["max_kernels"].max_kernels) is int
    assert _above_the_model(kind(0))["stage"]().dangers_revealed == 0
    assert results["gems"].gems == 1 and type(results["gems"].gems) is int


@pytest.mark.parametrize("value", (True, 3.0))
def test_the_layers_above_the_model_refuse_bools_and_floats(value):
    for name, call in _above_the_model(value).items():
        with pytest.raises(ValueError, match=f"{name} must be a whole number"):
            call()
