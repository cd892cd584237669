"""Benchmark: Monte Carlo speed and memory.  Run by hand or by CI as a report:

    python benchmarks/bench_simulate.py

* simulated turns per second from a fresh dragon-stripes turn under hold-at-20,
  vectorized (``simulate_turns``) against a plain Python loop drawing one card
  at a time with the rule arithmetic inline in plain integers (the simplest correct way);
* whole games per second between three threshold bots, on one core and on all;
* the peak memory of round robins of growing size (streaming aggregates).
"""

from __future__ import annotations

import random
import time
import tracemalloc

from dragonkit import Ruleset
from dragonkit.analysis import HoldAtPot, TurnState
from dragonkit.rules import CardKind, FinalDanger
from dragonkit.simulate import available_workers, round_robin, simulate_games, simulate_turns


def fresh(rules: Ruleset) -> TurnState:
    return TurnState(
        rules, dict(rules.footprints), rules.stop_cards, rules.danger_cards, 0, rules.starting_gems, rules.treasure
    )


def plain_turns(state: TurnState, threshold: int, n: int, seed: int) -> float:
    """Mean gain of n turns simulated one card at a time in plain Python, the rule arithmetic
    inline in plain integers (the simplest correct alternative)."""
    rng, rules = random.Random(seed), state.rules
    multiplier = rules.stage(state.dangers_revealed).multiplier
    stripe = [0, *(v * multiplier for v in rules.stripe_values)]
    head, bank = rules.head, state.bank
    stop_loss = rules.penalty(state.gems, state.dangers_revealed)
    final = rules.is_final_danger(state.dangers_revealed + 1)
    danger_loss = (
        (state.gems if rules.final_danger is FinalDanger.ALL_GEMS else 0)
        if final
        else rules.penalty(state.gems, state.dangers_revealed + 1)
    )
    # the deck as step counts: 0 for a stop, -1 for a danger
    deck0 = [
        c.steps if c.kind is CardKind.FOOTPRINT else 0 if c.kind is CardKind.STOP else -1
        for c in state.composition.cards()
    ]
    total = 0
    for _ in range(n):
        deck = deck0[:]
        position, pot = state.position, state.pot
        while True:
            steps = deck.pop(rng.randrange(len(deck)))
            if steps <= 0:
                total -= stop_loss if steps == 0 else danger_loss
                break
            position += steps
            if position >= head:
                total += bank
                break
            pot += min(stripe[position], bank - pot)
            if not deck:  # the deck ran out: the pot goes back
                break
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
