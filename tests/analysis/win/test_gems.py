"""The gems model of the editions whose final danger costs only the pot (``kali``, ``drago-rosso``).

* Where its three departures (G1–G3 of :mod:`dragonkit.analysis.win.gems`) cannot apply — one kind of footprint,
  gems and pots on the grid's points — it *is* the game: brute force over every situation of a whole small deck
  against :class:`ReducedWinSolver`'s exact values.
* On the real decks: the coach shows its chances, and the win bot plays them and beats the coach in a seeded
  head-to-head (the full figures, and the model's distance from the exact values late in real games, are
  ``benchmarks/bench_win_gems.py``'s, in ``docs/win.md``).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from dragonkit.analysis.win.gems import GemsWinTable, gems_win_table, models
from dragonkit.analysis.win.reduced import ReducedWinSolver
from dragonkit.bots import CoachBot, WinBot
from dragonkit.coach.views import Coach
from dragonkit.engine import Game
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import Ruleset, Stage
from dragonkit.simulate import round_robin
from dragonkit.turn import Action
from dragonkit.ui.coach_panel import render_coach

KALI = Ruleset.preset("kali")
#: One kind of footprint (G1), a treasure that cannot run short (G2), and players who never own more than 17 gems
#: together (G3): the model's grid holds every situation.
ONE_STEP = Ruleset(
    name="one-step",
    starting_gems=3,
    treasure=24,
    stripe_values=(1, 2),
    footprints=((1, 4),),
    stop_cards=2,
    danger_cards=2,
    stages=(Stage(Fraction(1, 4), 1), Stage(Fraction(1, 2), 2)),
    final_danger="pot_only",
)


def _every_situation(rules: Ruleset) -> list[GameState]:
    """Every situation of a two-player game of ``rules`` that is not over, from the first card on."""
    seen: set[GameState] = set()
    stack = [GameState.fresh(rules)]
    while stack:
        state = stack.pop()
        if state.is_terminal() or state in seen:
            continue
        seen.add(state)
        for action in state.legal_actions():
            if action is Action.REVEAL:
                stack.extend(state.child(card) for card, _ in state.chance_outcomes())
            else:
                stack.append(state.child(action))
    return list(seen)


@pytest.mark.slow
def test_where_no_departure_applies_the_model_is_the_game() -> None:
    table, exact = GemsWinTable(ONE_STEP), ReducedWinSolver(ONE_STEP)
    situations = _every_situation(ONE_STEP)
    starts = 0
    for state in situations:
        model, truth = table.action_values(state), exact.action_values(state)
        assert list(model) == list(truth)
        assert [model[a] for a in truth] == pytest.approx([truth[a] for a in truth], abs=1e-6)  # float32 turns
        if state.phase is Phase.MUST_REVEAL and state.position == 0:
            assert table.turn_start_value(state) == pytest.approx(exact.win_probability(state), abs=1e-12)
            starts += 1
    assert len(situations) > 1000 and starts > 100


def test_the_grid_and_the_table() -> None:
    table = gems_win_table(KALI)
    assert table.start.shape == (39, 13, 3, table.totals.size, table.leads.size)
    assert np.all((table.start > -1e-12) & (table.start < 1 + 1e-12))  # probabilities, to rounding
    assert not table.start[:, :, 0].any()  # no danger left: the game is over before
    assert set(range(-16, 17)) <= set(table.leads) and table.leads[-1] >= 480 and table.totals[-1] >= 480
    first = table.win_probability(GameState.fresh(KALI))
    assert 0.4 < first < 0.6
    assert table.win_probabilities(GameState.fresh(KALI)) == pytest.approx((first, 1 - first))
    assert gems_win_table(KALI) is table  # one per process


def test_refusals_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="all the revealer's gems"):
        GemsWinTable(Ruleset.preset("mini"))
    with pytest.raises(ValueError, match="must be a Ruleset"):
        GemsWinTable("kali")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="float64 of shape"):
        GemsWinTable(ONE_STEP, start=np.zeros((2, 2)))
    table = GemsWinTable(ONE_STEP)
    with pytest.raises(ValueError, match="float64 of shape"):
        GemsWinTable(ONE_STEP, start=table.start.astype(np.float32))
    with pytest.raises(ValueError, match="starts of turns"):
        table.turn_start_value(GameState.fresh(ONE_STEP).child(ONE_STEP.composition.cards()[0]))
    with pytest.raises(ValueError, match="not a 3-player game"):
        table.action_values(GameState.fresh(ONE_STEP, players=3))
    with pytest.raises(ValueError, match="another ruleset \\('kali'\\)"):
        table.action_values(GameState.fresh(KALI))
    fresh = GameState.fresh(ONE_STEP)
    with pytest.raises(ValueError, match="at stage 1 has 1 danger card"):  # a state made up by hand
        table.action_values(dataclasses.replace(fresh, stage=1, deck=dataclasses.replace(fresh.deck, dangers=0)))
    with pytest.raises(ValueError, match="add up to 30, not 2030"):
        table.win_probability(dataclasses.replace(fresh, gems=(1003, 1003)))
    no_danger = dataclasses.replace(ONE_STEP, danger_cards=0, stages=ONE_STEP.stages[:1])
    with pytest.raises(ValueError, match="no danger card"):
        GemsWinTable(no_danger)
    assert models(KALI, 2) and models(Ruleset.preset("drago-rosso"), 2)
    assert not models(KALI, 3) and not models(Ruleset.preset("dragon-stripes"), 2) and not models(no_danger, 2)


def _at_a_choice(seed: int) -> Game:
    game = Game(["Ann", "Bob"], KALI, seed=seed)
    while game.phase is not Phase.CHOOSE:
        game.reveal()
    return game


def test_the_coach_shows_the_models_chances_and_the_win_bot_plays_them() -> None:
    game = _at_a_choice(3)
    state = GameState.from_game(game)
    values = gems_win_table(KALI).action_values(state)
    coach = Coach()
    views = coach.views(game)
    assert views.source == "model" and not coach.estimate_needed(game)
    assert {o.action: o.win for o in views.options} == pytest.approx(values)
    assert all(o.ci is None for o in views.options)
    assert "which carries both players" in render_coach(coach, game, "en")
    assert "che tiene conto delle gemme di entrambi" in render_coach(coach, game, "it")
    best = max(values.values())
    tied = [a for a, v in values.items() if v >= best - 1e-9]
    chosen = WinBot().choose(game)
    assert chosen is (CoachBot().choose(game) if len(tied) > 1 else tied[0])


@pytest.mark.slow
def test_the_win_bot_beats_the_coach_in_kali() -> None:
    """A seeded head-to-head short enough for the tests (the full one is in docs/win.md)."""
    result = round_robin(["win", "coach"], 60, seed=11, rules=KALI)
    assert result.standings.loc["win", "wins"] > 33  # of 60, seats alternating


def test_the_table_is_built_once_and_then_read_from_the_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("DRAGONKIT_CACHE", str(tmp_path))
    gems_win_table.cache_clear()
    try:
        built = np.array(gems_win_table(ONE_STEP).start)
        assert len(list(tmp_path.glob("gems-win-table-one-step-*.npy"))) == 1
        gems_win_table.cache_clear()
        loaded = gems_win_table(ONE_STEP)
        assert isinstance(loaded.start, np.memmap) and np.array_equal(loaded.start, built)
        state = GameState.fresh(ONE_STEP)
        assert loaded.action_values(state) == GemsWinTable(ONE_STEP).action_values(state)
    finally:
        gems_win_table.cache_clear()
