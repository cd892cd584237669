"""Benchmark: exact turn analysis and whole games.  Run by hand or by CI as a report:

    python benchmarks/bench_turn.py

It prints, for a fresh turn of every preset, the number of reachable decision
points and the time of a cold optimal solve in float and in exact Fraction
arithmetic; then how many whole games per second threshold bots play.
"""

from __future__ import annotations

import time

from dragonkit import Game, Ruleset
from dragonkit.analysis import TurnState, _solver, solve_turn
from dragonkit.bots import ThresholdBot
from dragonkit.rules import PRESETS


def fresh_turn(rules: Ruleset) -> TurnState:
    return TurnState(rules, dict(rules.footprints), rules.stop_cards, rules.danger_cards, 0,
                     rules.starting_gems, rules.treasure)


def cold_solve(state: TurnState, exact: bool) -> tuple[float, object]:
    _solver.cache_clear()
    start = time.perf_counter()
    solution = solve_turn(state, exact=exact)
    return time.perf_counter() - start, solution


def games_per_second(preset: str, games: int = 300) -> float:
    rules = Ruleset.preset(preset)
    start = time.perf_counter()
    for seed in range(games):
        bots = [ThresholdBot(10), ThresholdBot(20), ThresholdBot(30)]
        game = Game(["a", "b", "c"], rules, seed)
        while not game.is_over:
            game.apply(bots[game.to_move].choose(game))
    return games / (time.perf_counter() - start)


def main() -> None:
    print(f"{'preset':<15}{'states':>8}{'float ms':>10}{'exact ms':>10}{'turn value':>14}{'games/s':>9}")
    for name, rules in PRESETS.items():
        state = fresh_turn(rules)
        t_float, solution = cold_solve(state, exact=False)
        states = solution.states
        t_exact, exact = cold_solve(state, exact=True)
        assert abs(float(exact.value) - solution.value) < 1e-9
        print(f"{name:<15}{states:>8}{t_float * 1e3:>10.1f}{t_exact * 1e3:>10.1f}{float(exact.value):>14.6f}"
              f"{games_per_second(name):>9.0f}")


if __name__ == "__main__":
    main()
