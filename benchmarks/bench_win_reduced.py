"""Exact 2-player win probabilities of the real presets: reduced states, time and memory by cards left.

For each preset, late situations of seeded games (threshold bots play until at most ``k`` cards are
left at the start of a turn) are solved exactly by :class:`ReducedWinSolver`, ``k`` growing until one
solve takes more than ``--budget`` seconds.  Reported per solve: the cards actually left, the reduced
states, the time (one core, floats), the process's peak resident memory so far, and the growth of the
states per extra card.  The full game's reduced space is then bounded by its factors (deck
compositions, knight positions, pot and both players' gems, phase and owner), labelled as a bound.

Run: ``PYTHONPATH=. python benchmarks/bench_win_reduced.py [--budget 10] [--presets dragon-stripes kali]``
"""

from __future__ import annotations

import argparse
import math
import resource
import time

from dragonkit.analysis.win.reduced import ReducedWinSolver
from dragonkit.bots import ThresholdBot
from dragonkit.engine import Game
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import Ruleset


def late(rules: Ruleset, cards_left: int, seed: int) -> GameState:
    """The public state of a seeded game played by threshold bots until at most ``cards_left`` cards are left."""
    bot = ThresholdBot(20)
    while True:
        game = Game(["a", "b"], rules, seed=seed)
        while not game.is_over and not (game.remaining.total <= cards_left and game.phase is Phase.MUST_REVEAL):
            game.apply(bot.choose(game))
        if not game.is_over:
            return GameState.from_game(game)
        seed += 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=10.0, help="stop a preset after a solve this long (s)")
    parser.add_argument("--presets", nargs="*", default=["dragon-stripes", "kali", "drago-rosso"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'preset':15} {'cards':>5} {'states':>9} {'time s':>7} {'peak MB':>8} {'P(mover wins)':>14}")
    for name in args.presets:
        rules = Ruleset.preset(name)
        solved: dict[int, tuple[int, float]] = {}
        for k in range(4, rules.deck_size + 1):
            state = late(rules, k, args.seed)
            left = state.deck.total
            if left in solved:
                continue
            solver = ReducedWinSolver(rules)
            start = time.perf_counter()
            value = solver.win_probability(state)
            elapsed = time.perf_counter() - start
            solved[left] = (solver.states_visited, elapsed)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"{name:15} {left:5} {solver.states_visited:9,} {elapsed:7.2f} {peak:8.0f} {value:14.4f}", flush=True)
            if elapsed > args.budget:
                break
        lefts = sorted(solved)
        (k0, (s0, _)), (k1, (s1, t1)) = (lefts[-2], solved[lefts[-2]]), (lefts[-1], solved[lefts[-1]])
        growth = (s1 / s0) ** (1 / (k1 - k0))
        compositions = math.prod(count + 1 for _, count in rules.composition.counts())
        total = 2 * rules.starting_gems + rules.treasure  # pot, both players' gems: each at most the sum
        bound = compositions * rules.head * (total + 1) ** 3 * 6  # x (3 phases) x (owner active or not)
        print(
            f"{name}: exact up to {k1} cards left ({s1:,} states, {t1:.1f} s); the states grow x{growth:.1f} per card; "
            f"the full game's reduced space: {compositions:,} deck compositions x {rules.head} positions x "
            f"{total + 1}^3 (pot, gems, gems) x 6 <= 1e{math.log10(bound):.0f} states, "
            f"1e{math.log10(bound * t1 / s1 / 86400):.0f} days at this rate (an upper bound, not a measurement)"
        )


if __name__ == "__main__":
    main()
