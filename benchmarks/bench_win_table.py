"""The race model's win table: build time, memory, file, decision time, and how far it is from the real game.

For each preset the table can model (final danger costing all gems):

* **build**: the float table from nothing (seconds, one core), its size in memory and on disk, the
  process's peak resident memory; loading it again from the cache (memory-mapped);
* **decisions**: :meth:`WinTable.best_action` over the decisions of seeded games (milliseconds each);
* **the model against the exact game**: ``mini`` with ``Fraction``\\ s, every state of a fresh 2-player
  game against :class:`~dragonkit.analysis.win.solver.WinSolver` (largest and mean error of the win
  probability, decisions where the model's action is worse and by how much); ``dragon-stripes``
  late situations against :class:`~dragonkit.analysis.win.reduced.ReducedWinSolver` (every decision
  of the exact optimal play from seeded situations with ``--late`` cards left);
* **Monte Carlo**: the win bot against itself (``--self-play`` games): the first player's win rate
  against the model's value of the fresh game;
* **head to head**: the win bot against the coach (``--games`` games, seats alternating, ``--workers``).

Run: ``PYTHONPATH=. python benchmarks/bench_win_table.py [--games 10000] [--workers 2] [--self-play 4000]``
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from bench_win_reduced import late  # the late situations of seeded games, as that benchmark chooses them

from dragonkit.analysis import SolvedTurn, TurnState, takeover_gain
from dragonkit.analysis.win.race import WinTable, win_table
from dragonkit.analysis.win.reduced import ReducedWinSolver
from dragonkit.analysis.win.solver import WinSolver
from dragonkit.bots import CoachBot, WinBot
from dragonkit.engine import Game
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import Ruleset
from dragonkit.simulate import round_robin
from dragonkit.simulate.stats import proportion_estimate
from dragonkit.turn import Action


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build(preset: str) -> None:
    rules = Ruleset.preset(preset)
    start = time.perf_counter()
    table = WinTable(rules)
    built = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as cache:
        os.environ["DRAGONKIT_CACHE"] = cache
        win_table.cache_clear()
        start = time.perf_counter()
        win_table(rules)  # builds and saves
        saved = time.perf_counter() - start
        win_table.cache_clear()
        start = time.perf_counter()
        loaded = win_table(rules)
        load = time.perf_counter() - start
        size = sum(f.stat().st_size for f in Path(cache).rglob("*.npy"))
        del os.environ["DRAGONKIT_CACHE"]
    first = loaded.win_probability(GameState.fresh(rules))
    print(
        f"{preset}: built in {built:.2f} s ({table.reveal.size:,} entries, {table.reveal.nbytes / 2**20:.0f} MiB), "
        f"built and saved {saved:.2f} s, file {size / 2**20:.0f} MiB, loaded (mmap) {load * 1000:.1f} ms; "
        f"peak RSS {peak_mib():.0f} MiB; P(first player wins) {first:.4f}"
    )
    win_table.cache_clear()


def decisions(preset: str, games: int) -> None:
    rules = Ruleset.preset(preset)
    table = win_table(rules)
    times = []
    for seed in range(games):
        game = Game(["a", "b"], rules, seed=seed)
        while not game.is_over:
            start = time.perf_counter()
            action = table.best_action(GameState.from_game(game))
            times.append(time.perf_counter() - start)
            game.apply(action)
    times.sort()
    print(
        f"{preset}: {len(times):,} decisions of {games} games: median {times[len(times) // 2] * 1000:.2f} ms, "
        f"p99 {times[int(len(times) * 0.99)] * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms"
    )


def against_exact_mini() -> None:
    rules = Ruleset.preset("mini")
    exact, model = WinSolver(exact=True), WinTable(rules, exact=True)
    exact.win_probability(GameState.fresh(rules))
    states = [s for s in exact._wins if not s.is_terminal()]
    errors = [abs(exact.win_probabilities(s)[0] - model.win_probabilities(s)[0]) for s in states]
    losses = []
    for s in states:
        values = exact.action_values(s)
        if len(values) > 1:
            losses.append(max(values.values()) - values[model.best_action(s)])
    worse = [x for x in losses if x > 0]
    fresh = GameState.fresh(rules)
    largest, mean = float(max(errors)), float(sum(errors) / len(errors))
    print(
        f"mini, every state of a fresh 2-player game ({len(states):,}): the model equals the exact value in "
        f"{sum(e == 0 for e in errors):,}; largest error {largest:.4f}, mean {mean:.6f}; its action is worse "
        f"in {len(worse)} of {len(losses):,} decisions (largest loss {float(max(worse, default=Fraction(0))):.4f}); "
        f"P(first wins) exact {exact.win_probability(fresh)}, model {model.win_probability(fresh)}"
    )


def against_exact_late(preset: str, cards_left: int, situations: int) -> None:
    rules = Ruleset.preset(preset)
    model = win_table(rules)
    errors: list[float] = []
    losses: list[float] = []
    for seed in range(situations):
        exact = ReducedWinSolver(rules)
        frontier = [late(rules, cards_left, seed)]
        seen: set[GameState] = set()
        while frontier:  # every decision reachable under any play
            state = frontier.pop()
            if state in seen or state.is_terminal():
                continue
            seen.add(state)
            errors.append(abs(exact.win_probability(state) - model.win_probability(state)))
            values = exact.action_values(state)
            if len(values) > 1:
                losses.append(max(values.values()) - values[model.best_action(state)])
            for action in state.legal_actions():
                if action is Action.REVEAL:
                    frontier += [state.child(card) for card, _ in state.chance_outcomes()]
                else:
                    frontier.append(state.child(action))
    worse = [x for x in losses if x > 1e-12]
    errors.sort()
    print(
        f"{preset}, {situations} seeded situations with {cards_left} cards left, every reachable decision "
        f"({len(errors):,}): error of the model's win probability median {errors[len(errors) // 2]:.4f}, "
        f"95th percentile {errors[int(len(errors) * 0.95)]:.4f}, largest {errors[-1]:.4f}; its action is worse in "
        f"{len(worse)} of {len(losses):,} decisions (largest loss {max(worse, default=0):.4f})"
    )


def self_play(preset: str, games: int) -> None:
    rules = Ruleset.preset(preset)
    bot, first = WinBot(), 0.0
    for seed in range(games):
        game = Game(["a", "b"], rules, seed=10_000 + seed)
        while not game.is_over:
            game.apply(bot.choose(game))
        first += float(game.returns()[0])
    est = proportion_estimate(first, games)
    model = win_table(rules).win_probability(GameState.fresh(rules))
    print(
        f"{preset}: the win bot against itself, {games:,} games: the first player won {est['estimate']:.4f} "
        f"(95 % CI {est['ci_low']:.4f}–{est['ci_high']:.4f}); the model says {model:.4f}"
    )


def disagreements(preset: str, games: int) -> None:
    """Decisions where the coach (expected gems of the turn) and the win bot part: the first of each kind."""
    rules = Ruleset.preset(preset)
    table, coach, bot = win_table(rules), CoachBot(exact=False), WinBot()
    shown: set[tuple[int, str, str]] = set()
    for seed in range(games):
        game = Game(["a", "b"], rules, seed=seed)
        while not game.is_over:
            by_coach, by_win = coach.choose(game), bot.choose(game)
            state, turn = GameState.from_game(game), TurnState.from_game(game)
            kind = (state.stage, state.phase.value, by_win.value)
            if by_coach != by_win and kind not in shown:
                shown.add(kind)
                wins = {a.value: f"{p:.4f}" for a, p in table.action_values(state).items()}
                if state.phase is Phase.OFFER:
                    taker = state.offer_to
                    assert taker is not None
                    gems = f"take over: expected gain {takeover_gain(turn, state.gems[taker], state.bounty):+.2f} gems"
                else:
                    solution = SolvedTurn(turn).solution(turn)
                    assert solution is not None
                    gems = f"reveal {solution.push_value:+.2f} gems, hold {solution.hold_value:+d}"
                print(
                    f"  game {seed}: stage {state.stage}, {state.deck.total} cards left ({state.deck.stops} stops, "
                    f"{state.deck.dangers} dangers), knight on {state.position}, pot {state.pot}, gems {state.gems} "
                    f"(active {state.active}, owner {state.owner}, {state.phase.value}): coach {by_coach.value} "
                    f"({gems}), win bot {by_win.value} (P(win) {wins})"
                )
            game.apply(by_win if seed % 2 else by_coach)


def head_to_head(preset: str, games: int, workers: int, bots: list[str]) -> None:
    start = time.perf_counter()
    result = round_robin(bots, games, seed=1, rules=Ruleset.preset(preset), workers=workers)
    print(f"{preset}: round robin, {games:,} games per pair, {time.perf_counter() - start:.0f} s")
    print(result.standings.to_string(float_format=lambda x: f"{x:.3f}"))
    print(result.pairs.to_string(float_format=lambda x: f"{x:.3f}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="head-to-head games per pair (default 10,000)")
    parser.add_argument("--bots", nargs="+", default=["win", "coach"], help="the round robin's bots")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--self-play", type=int, default=4000, help="games of the win bot against itself")
    parser.add_argument("--late", type=int, default=6, help="cards left in the exact late situations")
    parser.add_argument("--situations", type=int, default=20, help="late situations")
    args = parser.parse_args()
    build("dragon-stripes")
    build("mini")
    for preset in ("kali", "drago-rosso"):
        try:
            WinTable(Ruleset.preset(preset))
        except ValueError as exc:
            print(f"{preset}: not modelled: {exc}")
    decisions("dragon-stripes", 200)
    against_exact_mini()
    against_exact_late("dragon-stripes", args.late, args.situations)
    self_play("dragon-stripes", args.self_play)
    print("where the two coaches part (dragon-stripes, 2 players):")
    disagreements("dragon-stripes", 60)
    if args.games:
        head_to_head("dragon-stripes", args.games, args.workers, args.bots)


if __name__ == "__main__":
    main()
