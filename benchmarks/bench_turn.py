"""Benchmark: the exact turn analysis and whole games.  Run by hand or by CI as a report:

    python benchmarks/bench_turn.py

For a fresh turn of every preset it prints the number of reachable decision
points and the best and the median of several cold timings (``best/median``; the
solve cache emptied before each, one untimed run first) of:

* the optimal solve by layered backward induction (``solve_turn``), in float
  and in exact arithmetic;
* the same solve by the simplest correct alternative: a memoised recursion over
  (footprints left, position, pot) with the rule arithmetic inline in plain integers
  (below), in float — the honest baseline;
* ``turn_chain`` of the optimal policy plus the sparse solve of its expected reward;

then how many whole games per second three threshold bots play.
"""

from __future__ import annotations

import statistics
import time
from functools import cache

from dragonkit import Game, Ruleset
from dragonkit.analysis import TurnState, optimal_policy, solve_turn, turn_chain
from dragonkit.bots import CoachBot, ThresholdBot
from dragonkit.game_state import Phase
from dragonkit.rules import PRESETS, FinalDanger
from dragonkit.turn import Action

REPEATS = 9


def fresh_turn(rules: Ruleset) -> TurnState:
    return TurnState(
        rules, dict(rules.footprints), rules.stop_cards, rules.danger_cards, 0, rules.starting_gems, rules.treasure
    )


def plain_recursion(state: TurnState) -> float:
    """The turn value by the simplest correct alternative: a memoised recursion over
    (footprints left, position, pot) — the treasure is the bank minus the pot, the stop and
    danger cards left never change within a turn — with the rule arithmetic written inline
    in plain integers (stripe gems capped by the treasure, the penalties computed once)."""
    rules, steps, head = state.rules, tuple(state.footprints), state.rules.head
    multiplier = rules.stage(state.dangers_revealed).multiplier
    stripe = [0, *(v * multiplier for v in rules.stripe_values)]
    bank, stops, dangers = state.bank, state.stops, state.dangers
    stop_loss = rules.penalty(state.gems, state.dangers_revealed)
    final = rules.is_final_danger(state.dangers_revealed + 1)
    danger_loss = (
        (state.gems if rules.final_danger is FinalDanger.ALL_GEMS else 0)
        if final
        else rules.penalty(state.gems, state.dangers_revealed + 1)
    )
    enders = stops * stop_loss + dangers * danger_loss

    @cache
    def push(counts: tuple[int, ...], position: int, pot: int) -> float:
        total = sum(counts) + stops + dangers
        value = -enders
        for i, s in enumerate(steps):
            c = counts[i]
            if not c:
                continue
            new = position + s
            if new >= head:
                value += c * bank  # the pot and the whole treasure
                continue
            new_pot = pot + min(stripe[new], bank - pot)
            rest = counts[:i] + (c - 1,) + counts[i + 1 :]
            if total == 1:  # the last card: the deck runs out, the pot goes back
                continue
            value += c * max(new_pot, push(rest, new, new_pot))
        return value / total

    return push(tuple(state.footprints.values()), state.position, state.pot)


def timed(function, *args) -> tuple[tuple[float, float], object]:
    """The best and the median of ``REPEATS`` cold timings (seconds) after one untimed run
    (the first call of a function in a process pays for warming up), and the result."""
    times, result = [], None
    solve_turn.cache_clear()
    function(*args)
    for _ in range(REPEATS):
        solve_turn.cache_clear()
        start = time.perf_counter()
        result = function(*args)
        times.append(time.perf_counter() - start)
    return (min(times), statistics.median(times)), result


def ms(t: tuple[float, float]) -> str:
    return f"{t[0] * 1e3:.1f}/{t[1] * 1e3:.1f}"


def chain_and_solve(state: TurnState) -> float:
    chain = turn_chain(state, optimal_policy(state))
    return chain.expected_reward(chain.rewards, start=chain.start)


def games_per_second(preset: str, games: int = 300) -> float:
    rules = Ruleset.preset(preset)
    start = time.perf_counter()
    for seed in range(games):
        bots = [ThresholdBot(10), ThresholdBot(20), ThresholdBot(30)]
        game = Game(["a", "b", "c"], rules, seed)
        while not game.is_over:
            game.apply(bots[game.to_move].choose(game))
    return games / (time.perf_counter() - start)


class SolveEachDecision(CoachBot):
    """The coach as it was: a fresh backward induction at every decision (the simplest correct way)."""

    def choose(self, game: Game) -> Action:
        if game.phase is Phase.OFFER:
            return super().choose(game)
        solve_turn.cache_clear()
        return solve_turn(TurnState.from_game(game), exact=self.exact).best_action


def coach_game_ms(bot: type[CoachBot], preset: str = "dragon-stripes", games: int = 20) -> float:
    """Mean milliseconds per whole 2-player game between two coaches (seeds 0..games-1)."""
    rules = Ruleset.preset(preset)
    start = time.perf_counter()
    for seed in range(games):
        bots, game = [bot(), bot()], Game(["a", "b"], rules, seed)
        while not game.is_over:
            game.apply(bots[game.to_move].choose(game))
    return (time.perf_counter() - start) / games * 1e3


def main() -> None:
    print(
        f"{'preset':<15}{'states':>7}{'float ms':>12}{'exact ms':>12}{'plain ms':>12}{'speed-up':>12}"
        f"{'chain ms':>12}{'turn value':>12}{'games/s':>9}"
    )
    for name, rules in PRESETS.items():
        state = fresh_turn(rules)
        t_float, solution = timed(solve_turn, state, False)
        t_exact, exact = timed(solve_turn, state, True)
        t_plain, plain = timed(plain_recursion, state)
        t_chain, chained = timed(chain_and_solve, state)
        assert abs(float(exact.value) - solution.value) < 1e-9 and abs(plain - solution.value) < 1e-9
        assert abs(chained - solution.value) < 1e-9
        print(
            f"{name:<15}{solution.states:>7}{ms(t_float):>12}{ms(t_exact):>12}{ms(t_plain):>12}"
            f"{f'{t_plain[0] / t_float[0]:.1f}x/{t_plain[1] / t_float[1]:.1f}x':>12}{ms(t_chain):>12}"
            f"{float(exact.value):>12.4f}"
            f"{games_per_second(name):>9.0f}"
        )
    solved_once, each = coach_game_ms(CoachBot), coach_game_ms(SolveEachDecision)
    print(
        f"coach vs coach, dragon-stripes, exact: {solved_once:.1f} ms a game solving each turn once "
        f"(SolvedTurn) vs {each:.1f} ms solving at every decision ({each / solved_once:.1f}x)"
    )


if __name__ == "__main__":
    main()
