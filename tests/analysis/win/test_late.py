"""The late game solved exactly, for the editions the race table does not model: the solver, the win bot, the
coach's two views and its reasons."""

from __future__ import annotations

import pytest

from dragonkit.analysis.win.late import LATE_CARDS, LateGame, is_late
from dragonkit.analysis.win.reduced import ReducedWinSolver
from dragonkit.analysis.win.solver import WinSolver
from dragonkit.bots import ThresholdBot, WinBot
from dragonkit.coach.views import Coach
from dragonkit.coach.words import reason_sentence
from dragonkit.engine import Game
from dragonkit.game_state import GameState
from dragonkit.i18n import Gems, tr
from dragonkit.rules import Ruleset
from dragonkit.turn import Action
from dragonkit.ui.coach_panel import render_coach

from .test_reduced import SMALL_POT_ONLY, late

KALI = Ruleset.preset("kali")


def test_a_whole_small_deck_equals_the_full_state_solver_in_fractions() -> None:
    """A pot-only deck of 6 cards: every decision after the first card (5 cards left, as many as
    :data:`LATE_CARDS`), whatever the order of the deck."""
    fresh = GameState.fresh(SMALL_POT_ONLY)
    assert fresh.deck.total == LATE_CARDS + 1 and not is_late(fresh)
    solver, full = LateGame(exact=True), WinSolver(exact=True)
    seen: set[GameState] = set()
    stack = [fresh.child(card) for card, _ in fresh.chance_outcomes()]
    while stack:
        state = stack.pop()
        if state.is_terminal() or state in seen:
            continue
        seen.add(state)
        assert is_late(state)
        assert solver.action_values(state) == full.action_values(state)
        for action in state.legal_actions():
            if action is Action.REVEAL:
                stack.extend(state.child(card) for card, _ in state.chance_outcomes())
            else:
                stack.append(state.child(action))
    assert len(seen) > 100


@pytest.mark.parametrize("preset", ["kali", "drago-rosso"])
def test_real_late_situations_are_the_reduced_solvers_and_one_solver_serves_the_game(preset: str) -> None:
    game = late(preset, LATE_CARDS, seed=4)
    state, late_game = GameState.from_game(game), LateGame()
    assert late_game.action_values(state) == ReducedWinSolver(state.rules).action_values(state)
    solver = late_game._solver
    game.apply(Action.REVEAL)
    if not game.is_over:  # the next decision is looked up in the same solver
        late_game.action_values(GameState.from_game(game))
        assert late_game._solver is solver
    earlier = late(preset, LATE_CARDS - 1, seed=5)  # another game: a fresh memo once more cards are left
    late_game.action_values(GameState.from_game(late(preset, LATE_CARDS - 2, seed=6)))
    late_game.action_values(GameState.from_game(earlier))
    assert late_game._solver is not solver


def test_refusals_say_what_is_wrong() -> None:
    late_game = LateGame()
    with pytest.raises(ValueError, match=f"at most {LATE_CARDS} cards left"):
        late_game.action_values(GameState.fresh(KALI))
    with pytest.raises(ValueError, match="two-player"):
        late_game.action_values(GameState.fresh(SMALL_POT_ONLY, players=3))
    with pytest.raises(ValueError):
        late_game.action_values("not a state")  # type: ignore[arg-type]
    assert not is_late(GameState.fresh(KALI))


def test_the_win_bot_plays_the_exact_best_action_late() -> None:
    bot, exact = WinBot(), ReducedWinSolver(KALI, exact=True)
    checked = 0
    for seed in range(1, 40):
        game = late("kali", LATE_CARDS, seed)
        while not game.is_over and checked < 40:
            values = exact.action_values(GameState.from_game(game))
            chosen = bot.choose(game)
            assert values[chosen] == max(values.values())
            checked += 1
            game.apply(chosen)
        if checked >= 40:
            break
    assert checked == 40


def _late_disagreement(kind: str) -> Game:
    """The first late decision of seeded ``kali`` games (threshold bots) where the two views disagree for ``kind``."""
    bot = ThresholdBot(20)
    for seed in range(1, 400):
        game = Game(["Ada", "Bo"], KALI, seed=seed)
        while not game.is_over:
            if game.remaining.total <= LATE_CARDS and len(game.legal_actions()) > 1:
                views = Coach().views(game, estimate=False)
                if views.reason is not None and views.reason.kind == kind:
                    return game
            game.apply(bot.choose(game))
    raise AssertionError(f"no {kind} found")


@pytest.mark.parametrize("kind", ["lead_bank", "lead_short"])
def test_the_coach_shows_exact_chances_late_and_says_when_the_lead_decides(kind: str) -> None:
    game = _late_disagreement(kind)
    coach = Coach()
    views = coach.views(game, estimate=False)
    exact = ReducedWinSolver(KALI).action_values(GameState.from_game(game))
    assert views.source == "exact" and not coach.estimate_needed(game)
    assert {o.action: o.win for o in views.options} == pytest.approx(exact)
    assert all(o.ci is None for o in views.options)
    reason = views.reason
    assert reason is not None
    mover = game.to_move
    assert mover is not None
    assert reason.banked == game.gems[mover] + game.pot and reason.rival == game.gems[1 - mover]
    assert (reason.action is Action.HOLD) == (kind == "lead_bank") == (reason.banked > reason.rival)
    for lang in ("en", "it"):
        sentence = reason_sentence(reason, lang)
        assert tr("{n}", lang, n=Gems(reason.banked)) in sentence and tr("{n}", lang, n=Gems(reason.rival)) in sentence
    page = render_coach(coach, game, "en", estimate=False)
    assert "Chance of winning: exact" in page and "estimate" not in page
    assert "esatta" in render_coach(coach, game, "it", estimate=False)
