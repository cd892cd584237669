"""Benchmark: Pig solved for the probability of winning.  Run by hand:

    python benchmarks/bench_pig.py

For goals 25, 50 and 100 it prints the number of states, the time to build the
game (sparse matrices) and to build and solve it by layered value iteration, the sweeps,
the last residual, the memory of the value and policy arrays and the first player's
probability of winning (Neller & Presser 2004: 0.5306 for the goal 100).
"""

from __future__ import annotations

import time

import scipy.sparse  # noqa: F401  (loaded before the clock starts)

from dragonkit.topics.pig import hold_at_expected_score, pig_game, solve_pig


def main() -> None:
    header = ("goal", "states", "build s", "total s", "sweeps", "residual", "arrays MB")
    print(" ".join(f"{h:>9}" for h in header), " P(first player wins)")
    for goal in (25, 50, 100):
        start = time.perf_counter()
        game = pig_game(goal)
        built = time.perf_counter()
        pig = solve_pig(goal)  # builds the game again and solves it
        solved = time.perf_counter()
        size = (pig.win.nbytes + pig.roll.nbytes) / 2**20
        build, total = built - start, solved - built
        print(
            f"{goal:>9} {game.n_states:>9} {build:>9.2f} {total:>9.2f} {pig.iterations:>9} {pig.residual:>9.1e}"
            f" {size:>9.1f}  {pig.first_player_wins:.10f}"
        )
    expected = hold_at_expected_score(20)
    print(f"hold at 20: {expected} = {float(expected):.6f} points a turn")


if __name__ == "__main__":
    main()
