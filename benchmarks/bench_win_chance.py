"""The coach's chance of winning: how fast each path is, as the play app uses it.

1. **Rollout policies** (games played to the end a second, one core, from a situation early in a
   3-player ``dragon-stripes`` game, each on a fresh shuffle of the cards left): the threshold bot the
   estimate uses, and the coach bot, which solves every turn exactly.
2. **The Monte Carlo estimate** (:func:`dragonkit.simulate.estimate_win_chances` with the coach's settings:
   up to 2,000 games per option within a 1.5 s budget): its wall time, the games per option it fitted, and
   the half-width of its intervals, for 2 (``kali``), 3, 4 and 6 players, early and late in a game.  The
   whole panel (:func:`dragonkit.ui.coach_panel.render_coach`) is timed too: it must show within 2 s.
3. **The race model's table** (two players of ``dragon-stripes``): the panel's time per decision over whole
   games between the win bot and the coach bot (median, 99th percentile, the worst), the table loaded from the
   user's cache first.

Run: ``PYTHONPATH=. python benchmarks/bench_win_chance.py [--games 20]``
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from dragonkit.analysis.win.race import win_table
from dragonkit.bots import CoachBot, ThresholdBot, WinBot
from dragonkit.coach import views
from dragonkit.coach.views import Coach
from dragonkit.engine import Game
from dragonkit.game_state import Phase
from dragonkit.rules import Ruleset
from dragonkit.simulate import estimate_win_chances
from dragonkit.ui.coach_panel import render_coach


def at_choice(preset: str, players: int, seed: int, cards_left: int | None = None) -> Game:
    """A seeded game played by threshold bots to a reveal-or-hold choice (with at most ``cards_left`` cards left)."""
    bot = ThresholdBot(12)
    while True:
        game = Game([f"P{i}" for i in range(players)], Ruleset.preset(preset), seed=seed)
        while not game.is_over:
            late_enough = cards_left is None or game.remaining.total <= cards_left
            if game.phase is Phase.CHOOSE and late_enough:
                return game
            game.apply(bot.choose(game))
        seed += 1000


def rollouts_per_second(game: Game, make_bot, seconds: float = 3.0) -> float:
    cards, mover = game.remaining.cards(), game.to_move
    rng = np.random.default_rng(1)
    played, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        copy = game.redealt([cards[i] for i in rng.permutation(len(cards))], events=False)
        bots = [make_bot() for _ in game.players]
        copy.apply("reveal", by=mover)
        while (seat := copy.to_move) is not None:
            copy.apply(bots[seat].choose(copy), by=seat)
        played += 1
    return played / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="two-player games timed on the table path")
    args = parser.parse_args()

    print("1. rollout policies, 3 players of dragon-stripes, early (games a second, one core, CPU time)")
    game = at_choice("dragon-stripes", 3, seed=5)
    for name, make in (("threshold:20", lambda: ThresholdBot(20)), ("coach", lambda: CoachBot(exact=False))):
        print(f"   {name:14} {rollouts_per_second(game, make):8.0f}", flush=True)

    print("\n2. the estimate (budget 1.5 s, at most 2,000 games per option) and the whole panel")
    print(
        f"   {'preset':15} {'players':>7} {'cards':>5} {'games/option':>12} {'estimate s':>10} {'±CI pts':>8} "
        f"{'panel s':>8}"
    )
    for preset, players in (("kali", 2), ("dragon-stripes", 3), ("dragon-stripes", 4), ("dragon-stripes", 6)):
        for cards_left in (None, 20):
            game = at_choice(preset, players, seed=7, cards_left=cards_left)
            found = estimate_win_chances(game, games=views.ESTIMATE_GAMES, seconds=views.ESTIMATE_SECONDS)
            half = max(o.ci_high - o.ci_low for o in found.options) / 2 * 100
            start = time.perf_counter()
            render_coach(Coach(), game, "en")  # a new coach: no estimate kept
            panel = time.perf_counter() - start
            print(
                f"   {preset:15} {players:7} {found.cards_left:5} {found.games:12,} {found.seconds:10.2f} "
                f"{half:8.1f} {panel:8.2f}",
                flush=True,
            )

    print("\n3. the race model's table: the panel per decision, 2 players of dragon-stripes (ms)")
    start = time.perf_counter()
    win_table(Ruleset.preset("dragon-stripes"))
    print(f"   table loaded (or built, the first time on a machine) in {time.perf_counter() - start:.2f} s")
    times: list[float] = []
    coach = Coach()
    for seed in range(args.games):
        game = Game(["Ann", "Bob"], seed=seed)
        bots = [WinBot(exact=False), CoachBot(exact=False)]
        while not game.is_over:
            start = time.perf_counter()
            render_coach(coach, game, "en")
            times.append(time.perf_counter() - start)
            seat = game.to_move
            assert seat is not None
            game.apply(bots[seat].choose(game), by=seat)
    times.sort()
    print(
        f"   {len(times)} decisions: median {statistics.median(times) * 1e3:.1f}, "
        f"99th percentile {times[int(0.99 * len(times))] * 1e3:.1f}, worst {times[-1] * 1e3:.1f}"
    )


if __name__ == "__main__":
    main()
