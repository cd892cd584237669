"""Benchmark: what the end of a game costs the play app's kernel, in CPU-seconds.

    python benchmarks/bench_game_end.py                   # this checkout, median of 5 fresh runs per game
    python benchmarks/bench_game_end.py --repeats 9 --json
    python benchmarks/bench_game_end.py --checkout DIR    # another checkout of the kit (an older commit, say)

Each run is a fresh Python process that does what a visitor's kernel does with the play app
(``notebooks/play.ipynb``): it imports :class:`dragonkit.ui.PlayApp`, starts a seeded game of bots with
"bots play by themselves" unticked, and clicks "Next bot move" until one move is left (not measured; the
number of moves comes from the same game played once by the same bots without the app).  Then it measures the
last click: the bot's move that ends the game, and the end-of-game view drawn into the app's widgets (the
status, the board, the players, the log, and the figure of the gems over the game with its text alternative
and its numbers).  Nothing before that click has loaded matplotlib, as in a visitor's kernel.

The measure is the process's CPU time, user plus system (:func:`time.process_time`), never wall-clock time: on
a shared machine a busy neighbour slows a run down but changes its cost far less.  Linux counts it in ticks of
0.01 s.  The table gives the median, the least and the most over ``--repeats`` runs, and whether the last click
loaded matplotlib.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The games measured: a label, the seats (name, kind), the preset and the seed.
GAMES = (
    ("2 players", (("Tess", "threshold"), ("Randi", "random")), "dragon-stripes", 3),
    ("6 players", tuple((f"P{n}", ("threshold", "random")[n % 2]) for n in range(1, 7)), "dragon-stripes", 5),
)

#: One run, in a fresh process: argv[1] is the game as JSON; prints the measure as JSON.
RUN = r"""
import json, sys, time
game_spec = json.loads(sys.argv[1])
import dragonkit
from dragonkit.bots import bot_seed
from dragonkit.engine import Game
from dragonkit.ui import GameConfig, PlayApp, SeatConfig

seats = tuple(SeatConfig(name, kind) for name, kind in game_spec["seats"])
config = GameConfig(seats=seats, preset=game_spec["preset"], seed=game_spec["seed"])
# the game's length: the same game, played once by the same bots without the app
game = Game([s.name for s in seats], config.rules, seed=config.seed)
bots = [s.make_bot(bot_seed(config.seed, seat)) for seat, s in enumerate(seats)]
while not game.is_over:
    game.apply(bots[game.to_move].choose(game), by=game.to_move)
moves = len(game.actions)

app = PlayApp(autoplay=False, config=config)
while len(app.game.actions) < moves - 1:
    app.buttons["next"].click()
assert not app.game.is_over and app.message.value == "", app.message.value
loaded_before = "matplotlib" in sys.modules
start = time.process_time()
app.buttons["next"].click()  # the last move: the game ends and the app draws its end
cpu = time.process_time() - start
assert app.game.is_over and app.game.gems == game.gems and app.result_plot.value, app.message.value
print(json.dumps({
    "cpu": cpu,
    "matplotlib_before": loaded_before,
    "matplotlib_after": "matplotlib" in sys.modules,
    "turns": len(app.game.gem_history) - 1,
    "figure_chars": len(app.result_plot.value),
    "package": dragonkit.__file__,
}))
"""


def run_once(checkout: Path, spec: dict) -> dict:
    """One fresh process measuring the end of the game ``spec`` with the kit of ``checkout``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(checkout), os.environ.get("PYTHONPATH")))))
    out = subprocess.run(
        [sys.executable, "-c", RUN, json.dumps(spec)],
        capture_output=True,
        text=True,
        env=env,
        cwd=checkout,
        check=False,
    )
    if out.returncode:
        raise RuntimeError(out.stderr)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if not Path(result["package"]).resolve().is_relative_to(checkout.resolve()):
        raise RuntimeError(f"measured {result['package']}, not the checkout {checkout}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="fresh processes per game (default 5)")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose dragonkit is measured")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    report = []
    for label, seats, preset, seed in GAMES:
        spec = {"seats": seats, "preset": preset, "seed": seed}
        runs = [run_once(args.checkout, spec) for _ in range(args.repeats)]
        cpus = [r["cpu"] for r in runs]
        report.append(
            {
                "game": label,
                "preset": preset,
                "seed": seed,
                "turns": runs[0]["turns"],
                "median": statistics.median(cpus),
                "least": min(cpus),
                "most": max(cpus),
                "matplotlib_before": any(r["matplotlib_before"] for r in runs),
                "matplotlib_after": all(r["matplotlib_after"] for r in runs),
                "figure_chars": runs[0]["figure_chars"],
            }
        )
    if args.json:
        print(json.dumps({"checkout": str(args.checkout), "repeats": args.repeats, "games": report}, indent=2))
        return
    print(f"the end of a game in the play app's kernel, CPU-seconds ({args.checkout}, {args.repeats} fresh runs)")
    print(f"{'game':<12}{'turns':>6}{'median':>9}{'least':>8}{'most':>8}  matplotlib loaded  figure (chars)")
    for r in report:
        loaded = "yes" if r["matplotlib_after"] else "no"
        print(
            f"{r['game']:<12}{r['turns']:>6}{r['median']:>9.3f}{r['least']:>8.3f}{r['most']:>8.3f}  "
            f"{loaded:<17}  {r['figure_chars']}"
        )


if __name__ == "__main__":
    main()
