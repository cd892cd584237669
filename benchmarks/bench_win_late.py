"""The late game solved exactly (``kali``, ``drago-rosso``): how often games get there, and what a decision costs.

Seeded two-player games between coaches are played to their end; at every decision with a choice once at most
``LATE_CARDS`` cards are left, the win bot's :class:`LateGame` is asked (one per game, as the bot and the coach
keep it).  Reported per preset: the games that reach a late decision, the late decisions, the first solve of a
game (time and reduced states) and the later decisions' lookups, the process's peak resident memory, and how
often the exact chance of winning picks another action than the coach's expected gems.

Run: ``PYTHONPATH=. python benchmarks/bench_win_late.py [--games 300] [--presets kali drago-rosso]``
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from dragonkit.analysis.win.late import LATE_CARDS, LateGame, is_late
from dragonkit.bots import CoachBot
from dragonkit.engine import Game
from dragonkit.game_state import GameState
from dragonkit.rules import Ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--presets", nargs="*", default=["kali", "drago-rosso"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"late: at most {LATE_CARDS} cards left; {args.games} coach-vs-coach games per preset, seed {args.seed}")
    for name in args.presets:
        rules, coach = Ruleset.preset(name), CoachBot()
        reached = decisions = differ = 0
        first: list[float] = []
        states: list[int] = []
        lookups: list[float] = []
        for game_seed in range(args.seed, args.seed + args.games):
            game, late = Game(["a", "b"], rules, seed=game_seed), LateGame()
            solved_once = False
            while not game.is_over:
                state = GameState.from_game(game)
                action = coach.choose(game)
                if is_late(state) and len(game.legal_actions()) > 1:
                    start = time.perf_counter()
                    values = late.action_values(state)
                    (first if not solved_once else lookups).append(time.perf_counter() - start)
                    if not solved_once:
                        states.append(late.states_visited)
                    reached += not solved_once
                    solved_once = True
                    decisions += 1
                    differ += values[action] < max(values.values()) - 1e-9
                game.apply(action)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{name}: {reached} of {args.games} games reach a late decision; {decisions} late decisions")
        if first:
            print(
                f"  first solve of a game: median {1000 * statistics.median(first):.1f} ms, "
                f"max {1000 * max(first):.0f} ms; reduced states median {statistics.median(states):,.0f}, "
                f"max {max(states):,}"
            )
        if lookups:
            later = 1000 * statistics.median(lookups), 1000 * max(lookups)
            print(f"  later decisions: median {later[0]:.2f} ms, max {later[1]:.1f} ms")
        print(f"  the coach's action is worse for winning in {differ} of {decisions}; peak RSS {peak:.0f} MiB")


if __name__ == "__main__":
    main()
