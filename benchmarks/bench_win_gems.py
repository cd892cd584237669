"""The gems model of ``kali`` and ``drago-rosso``: its cost, its distance from the exact values, its calibration.

Per preset:

* the table: entries, size, build time and the process's peak memory (``--build`` builds it afresh, else it is
  found in the cache or built there);
* **against the exact solver**: seeded games of threshold bots (holding at 20) are played until at most
  ``--cards`` cards are left at a decision with a choice (the exact solver's reach); there the model's chance of
  winning after each action is set against :class:`ReducedWinSolver`'s, and its choice against the optimum;
* **calibration** (Monte Carlo of the real game): seeded games between two win bots (the model's own play, exact
  in the last cards); at every decision with a choice before the last cards, the mover's chance by the model is
  recorded with whether the mover went on to win (a shared win counts one half); reported by bins of the chance,
  with the Brier score;
* **a decision's time** in those games: the first of a turn (it solves the turn's layers) and the later ones.

Run: ``PYTHONPATH=. python benchmarks/bench_win_gems.py [--games 200] [--cards 7] [--build]``
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from dragonkit.analysis.win.gems import GemsWinTable, gems_win_table
from dragonkit.analysis.win.late import is_late
from dragonkit.analysis.win.reduced import ReducedWinSolver
from dragonkit.bots import ThresholdBot, WinBot
from dragonkit.engine import Game
from dragonkit.game_state import GameState
from dragonkit.rules import Ruleset


def against_exact(rules: Ruleset, table: GemsWinTable, games: int, cards: int, seed: int) -> None:
    bot = ThresholdBot(20)
    errors: list[float] = []
    optimal = compared = 0
    for game_seed in range(seed, seed + games):
        game = Game(["a", "b"], rules, seed=game_seed)
        while not game.is_over and not (game.remaining.total <= cards and len(game.legal_actions()) > 1):
            game.apply(bot.choose(game))
        if game.is_over:
            continue
        state = GameState.from_game(game)
        model, exact = table.action_values(state), ReducedWinSolver(rules).action_values(state)
        errors.extend(abs(model[a] - exact[a]) for a in exact)
        optimal += exact[max(model, key=model.__getitem__)] >= max(exact.values()) - 1e-9
        compared += 1
    print(
        f"  against the exact solver, {compared} situations with at most {cards} cards left: |model - exact| per "
        f"action median {statistics.median(errors):.4f}, mean {statistics.mean(errors):.4f}, "
        f"max {max(errors):.4f}; the model's choice is optimal in {optimal} of {compared}"
    )


def calibration(rules: Ruleset, table: GemsWinTable, games: int, seed: int) -> None:
    bots = WinBot(), WinBot()
    pairs: list[tuple[float, float]] = []  # the model's chance for the mover, and the mover's share of the win
    first: list[float] = []
    later: list[float] = []
    for game_seed in range(seed, seed + games):
        game, turn, asked = Game(["a", "b"], rules, seed=game_seed), -1, []
        while not game.is_over:
            state = GameState.from_game(game)
            if len(game.legal_actions()) > 1 and not is_late(state):
                clock = time.perf_counter()
                chance = table.win_probability(state)
                (first if game.turn_number != turn else later).append(time.perf_counter() - clock)
                turn = game.turn_number
                asked.append((chance, game.to_move))
            mover = game.to_move
            assert mover is not None
            game.apply(bots[mover].choose(game))
        shares = GameState.from_game(game).returns()
        pairs.extend((chance, float(shares[seat])) for chance, seat in asked)
    print(f"  calibration, {games} games between win bots, {len(pairs):,} decisions before the last cards:")
    for low in (0.0, 0.2, 0.4, 0.6, 0.8):
        inside = [(c, w) for c, w in pairs if low <= c < low + 0.2 or (low == 0.8 and c == 1.0)]
        if inside:
            said, won = statistics.mean(c for c, _ in inside), statistics.mean(w for _, w in inside)
            print(f"    chance {low:.1f}-{low + 0.2:.1f}: {len(inside):5,} decisions, said {said:.3f}, won {won:.3f}")
    brier = statistics.mean((c - w) ** 2 for c, w in pairs)
    print(f"    Brier score {brier:.4f} (a coin's 0.25)")
    print(
        f"  a decision: first of a turn median {1000 * statistics.median(first):.0f} ms, max "
        f"{1000 * max(first):.0f} ms; later ones median {1000 * statistics.median(later):.1f} ms, "
        f"max {1000 * max(later):.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--cards", type=int, default=7)
    parser.add_argument("--presets", nargs="*", default=["kali", "drago-rosso"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--build", action="store_true", help="build each table afresh (else load it from the cache)")
    args = parser.parse_args()
    for name in args.presets:
        rules = Ruleset.preset(name)
        start = time.perf_counter()
        table = GemsWinTable(rules) if args.build else gems_win_table(rules)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{name}: table of {table.start.size:,} entries ({table.start.nbytes / 2**20:.0f} MiB), "
            f"{'built' if args.build else 'ready'} in {seconds:.1f} s; peak RSS {peak:.0f} MiB"
        )
        against_exact(rules, table, args.games, args.cards, args.seed)
        calibration(rules, table, args.games, args.seed)


if __name__ == "__main__":
    main()
