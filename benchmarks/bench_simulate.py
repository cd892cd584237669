"""Benchmark: Monte Carlo speed and memory.  Run by hand or by CI as a report:

    python benchmarks/bench_simulate.py

* simulated turns per second from a fresh dragon-stripes turn under hold-at-20,
  vectorized (``simulate_turns``) against a plain Python loop drawing one card
  at a time with the engine's ``apply_card`` (the same rules, the obvious way);
* whole games per second between three threshold bots, on one core and on all;
* the peak memory of round robins of growing size (streaming aggregates).
"""

from __future__ import annotations

import random
import time
import tracemalloc

from dragonkit import Ruleset
from dragonkit.analysis import HoldAtPot, TurnState
from dragonkit.simulate import available_workers, round_robin, simulate_games, simulate_turns


def fresh(rules: Ruleset) -> TurnState:
    return TurnState(
        rules, dict(rules.footprints), rules.stop_cards, rules.danger_cards, 0, rules.starting_gems, rules.treasure
    )


def plain_turns(state: TurnState, threshold: int, n: int, seed: int) -> float:
    """Mean gain of n turns simulated one card at a time in plain Python."""
    rng, rules, total = random.Random(seed), state.rules, 0
    deck0 = state.composition.cards()
    for _ in range(n):
        deck = deck0[:]
        position, pot, treasure = state.position, state.pot, state.treasure
        while True:
            card = deck.pop(rng.randrange(len(deck)))
            e = rules.apply_card(
                card,
                position=position,
                pot=pot,
                gems=state.gems,
                treasure=treasure,
                dangers_revealed=state.dangers_revealed,
                cards_left=len(deck),
            )
            if e.ends_turn:
                total += e.gems_change
                break
            position, pot, treasure = e.position, e.pot, e.treasure
            if pot >= threshold:
                total += pot
                break
    return total / n


def main() -> None:
    state = fresh(Ruleset())
    n = 1_000_000
    start = time.perf_counter()
    sim = simulate_turns(state, HoldAtPot(20), n, rng=1)
    vectorized = n / (time.perf_counter() - start)
    m = 50_000
    start = time.perf_counter()
    plain_mean = plain_turns(state, 20, m, seed=1)
    plain = m / (time.perf_counter() - start)
    print(
        f"turns/s, hold at 20, one core: vectorized {vectorized:,.0f} (mean {sim.gain.mean():.3f}), "
        f"plain loop {plain:,.0f} (mean {plain_mean:.3f}): {vectorized / plain:.0f}x"
    )
    bots = ["threshold:10", "threshold:20", "threshold:30"]
    for workers in sorted({1, available_workers()}):
        games = 4000 * workers
        start = time.perf_counter()
        simulate_games(bots, games, seed=1, workers=workers)
        rate = games / (time.perf_counter() - start)
        print(f"games/s, three threshold bots, {workers} worker(s): {rate:,.0f} ({rate / workers:,.0f} per core)")
    for games in (1_000, 10_000):
        tracemalloc.start()
        round_robin(["threshold:10", "threshold:30"], games, seed=1, rules=Ruleset.preset("mini"))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"round robin of {games:,} games: peak traced memory {peak / 1024:,.0f} KiB")


if __name__ == "__main__":
    main()
