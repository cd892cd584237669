"""Benchmark: what the class's record costs a click of the play app, in its kernel.

    python benchmarks/bench_record_click.py                 # 600 human decisions per record, in 4 rounds
    python benchmarks/bench_record_click.py --decisions 900 --rounds 6 --json

In one process, inside an asyncio event loop as in a Jupyter or Voilà kernel, a human seat (the same simple player
every time: take over a cheap turn, hold from a pot of 8, reveal otherwise) plays seeded two-player games of
``dragon-stripes`` against the coach bot, the bot's moves stepped by "Next bot move" (not measured). It measures the
human's clicks, :meth:`PlayApp.act <dragonkit.ui.PlayApp.act>` (the engine's step and the page's update), with each
record the kernel may have:

* ``none`` — no record (``$DRAGONKIT_RECORD`` unset): nothing is written;
* ``sqlite`` — a fresh SQLite record in a temporary folder;
* ``gone`` — a record whose PostgreSQL server does not answer (a closed port of 127.0.0.1): the rows wait in the queue.

The coach's views for the record are worked out after the click, on the loop (``loop.call_soon``): that work is
measured apart ("after"), as the loop's time from the click's return to the queue's row. The same seeds are played with
each record, the records taking turns in rounds (a neighbour's load falls on all of them alike), and the race table of
``dragon-stripes`` is solved first (as the tests' and a class's server have it), so that the coach reads it.
Wall-clock times (:func:`time.perf_counter`), milliseconds: on a shared machine, compare the medians of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from dragonkit import Action, Game
from dragonkit.analysis.win.model import table
from dragonkit.record import session
from dragonkit.rules import Ruleset
from dragonkit.ui import GameConfig, PlayApp, SeatConfig

#: The records measured: a label and the URL (None: no record).
GONE = "postgresql+psycopg://u@127.0.0.1:1/x"


def _human(game: Game) -> Action:
    legal = game.legal_actions()
    if Action.TAKE_OVER in legal:
        return Action.TAKE_OVER if game.gems[game.to_move] >= game.bounty + 10 else Action.DECLINE
    return Action.HOLD if Action.HOLD in legal and game.pot >= 8 else Action.REVEAL


async def _clicks(decisions: int, seed: int) -> tuple[list[float], list[float]]:
    """The human's clicks (ms) and the loop's work after each (ms), over ``decisions`` decisions of games seeded from
    ``seed`` on."""
    clicks: list[float] = []
    after: list[float] = []
    app = PlayApp(autoplay=False)
    while len(clicks) < decisions:
        seats = (SeatConfig("Ann", "human"), SeatConfig("Bob", "coach"))
        app.start(GameConfig(seats=seats, preset="dragon-stripes", seed=seed))
        seed += 1
        while not app.game.is_over and len(clicks) < decisions:
            if app.game.to_move != 0:
                app.step()
                continue
            action = _human(app.game)
            start = time.perf_counter()
            app.act(action)
            clicks.append(1000 * (time.perf_counter() - start))
            start = time.perf_counter()
            await asyncio.sleep(0)  # the callbacks the click left on the loop: the record's row
            after.append(1000 * (time.perf_counter() - start))
    app.close()
    return clicks, after


def _figures(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 2),
        "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 2),
        "max": round(ordered[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=600, help="human decisions per record")
    parser.add_argument("--rounds", type=int, default=4, help="turns each record takes")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    table(Ruleset.preset("dragon-stripes"))  # the race table, solved or read from the cache
    with tempfile.TemporaryDirectory() as folder:
        records = {"none": None, "sqlite": f"sqlite:///{Path(folder) / 'record.sqlite'}", "gone": GONE}
        measured: dict[str, tuple[list[float], list[float]]] = {label: ([], []) for label in records}
        for turn in range(args.rounds):
            for label, url in records.items():
                if url is None:
                    os.environ.pop("DRAGONKIT_RECORD", None)
                else:
                    os.environ["DRAGONKIT_RECORD"] = url
                clicks, after = asyncio.run(_clicks(args.decisions // args.rounds, seed=1000 * turn))
                measured[label][0].extend(clicks)
                measured[label][1].extend(after)
                if label == "sqlite":
                    assert session.flush(), "the SQLite record was not written"
    results = {label: {"click": _figures(c), "after": _figures(a)} for label, (c, a) in measured.items()}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{args.decisions} human decisions per record, in {args.rounds} rounds; milliseconds")
    print(f"{'record':8} {'click median':>13} {'p90':>7} {'max':>7} {'after median':>13} {'p90':>7} {'max':>7}")
    for label, figures in results.items():
        click, later = figures["click"], figures["after"]
        print(
            f"{label:8} {click['median']:13.2f} {click['p90']:7.2f} {click['max']:7.2f} "
            f"{later['median']:13.2f} {later['p90']:7.2f} {later['max']:7.2f}"
        )


if __name__ == "__main__":
    main()
