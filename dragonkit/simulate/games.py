"""Whole games between bots, under the engine's rules, in parallel.

Every game gets its own seed, derived from the run's seed and the game's number
alone (:class:`numpy.random.SeedSequence`), so a run gives the same games
whatever the number of workers or the way they are split.  Work is done in
chunks by a function that runs anywhere: in this process, in a
:class:`concurrent.futures.ProcessPoolExecutor`, or on a Dask cluster
(``client=`` a :class:`dask.distributed.Client`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

import numpy as np
from tqdm.auto import tqdm

from ..bots import Bot, bot_seed, parse_spec
from ..engine import Game
from ..i18n import tr
from ..rules import MAX_PLAYERS, MIN_PLAYERS, Ruleset, whole_number

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "BotSpec",
    "available_workers",
    "game_seed",
    "parse_bots",
    "play_game",
    "run_chunks",
    "simulate_games",
    "turn_start_treasures",
]

CHUNK = 250  # games per unit of work


class BotSpec(str):
    """A seat's bot, named by its spec (:func:`dragonkit.bots.parse_spec`: ``"coach"``, ``"random"``,
    ``"threshold:T"``, ... every kind of :data:`dragonkit.bots.BOTS`).  ``"#2"`` may be appended to tell two bots
    of the same spec apart."""

    def make(self, seed: int) -> Bot:
        """A fresh bot (:meth:`ParsedSpec.make <dragonkit.bots.ParsedSpec.make>`); a random bot is seeded with
        ``seed``.

        Raises
        ------
        ValueError
            For an unknown spec.
        """
        return parse_spec(self).make(seed)


def parse_bots(specs: Iterable[str]) -> list[BotSpec]:
    """Check bot specs and number repeated ones (``random``, ``random#2``, ...).

    Raises
    ------
    ValueError
        For an unknown spec.
    """
    out: list[BotSpec] = []
    for spec in specs:
        spec = str(spec).strip()
        parse_spec(spec)  # refuses an unknown spec
        name, k = spec, 2
        while name in out:
            name, k = f"{spec}#{k}", k + 1
        out.append(BotSpec(name))
    return out


def game_seed(seed: int, *index: int) -> int:
    """The seed of one game: a function of the run's seed and the game's indices only."""
    return int(np.random.SeedSequence([seed, *index]).generate_state(1, dtype=np.uint64)[0] >> 1)


def play_game(rules: Ruleset, seating: Sequence[BotSpec], seed: int) -> dict:
    """Play one game between bots seated in this order; return its record.

    Returns
    -------
    dict
        ``seating``, ``winners`` (bots, comma-separated), ``ending``, ``turns`` and
        one ``gems[bot]`` entry per bot (gems at the end).
    """
    *_, game = _played(rules, seating, seed)  # the game once over
    record = {
        "seating": ",".join(seating),
        "winners": ",".join(seating[i] for i in game.winners),
        "ending": game.ending,
        "turns": game.turn_number,
    }
    record.update({f"gems[{spec}]": gems for spec, gems in zip(seating, game.gems)})
    return record


def _played(rules: Ruleset, seating: Sequence[BotSpec], seed: int) -> Iterator[Game]:
    """The game between bots seated in this order, at each of its decisions, then once over."""
    bots = [spec.make(bot_seed(seed, seat)) for seat, spec in enumerate(seating)]
    game = Game([str(s) for s in seating], rules, seed=seed)
    while (seat := game.to_move) is not None:  # None once the game is over
        yield game
        game.apply(bots[seat].choose(game), by=seat)
    yield game


def turn_start_treasures(rules: Ruleset, seating: Sequence[BotSpec], seed: int, games: int) -> np.ndarray:
    """The dragon's treasure at the start of every turn of ``games`` games between bots seated in this order, the
    ``g``-th game seeded ``game_seed(seed, g)``: what a lesson says of the treasure a turn meets in play.

    Parameters
    ----------
    rules : Ruleset
    seating : sequence of BotSpec
        One bot per seat (2 to 6).
    seed : int
    games : int

    Returns
    -------
    numpy.ndarray of int, shape (turns,)
        Gems, turn by turn and game by game, in order.

    Raises
    ------
    ValueError
        For an unknown bot spec.
    """
    treasures = []
    for number in range(games):
        turn = None
        for game in _played(rules, seating, game_seed(seed, number)):
            if game.to_move is not None and game.turn_number != turn:
                turn = game.turn_number
                treasures.append(game.treasure)
    return np.array(treasures, dtype=np.int64)


def _play_range(rules: dict, bots: list[str], seed: int, start: int, stop: int, rotate: bool) -> list[dict]:
    rules_ = Ruleset.from_dict(rules)
    specs = [BotSpec(b) for b in bots]
    rows = []
    for g in range(start, stop):
        shift = g % len(specs) if rotate else 0
        seating = specs[shift:] + specs[:shift]
        rows.append({"game": g, "seed": game_seed(seed, g), **play_game(rules_, seating, game_seed(seed, g))})
    return rows


def run_chunks(
    function: Callable,
    chunks: list[tuple],
    workers: int = 1,
    client=None,
    progress: bool = False,
    description: str | None = None,
    combine: Callable | None = None,
):
    """Run ``function(*chunk)`` for every chunk, in order, here, in worker processes,
    or on a Dask cluster; show a progress bar (tqdm.auto) when asked, labelled with
    ``description`` (default: "games", in the current language), its share done and its times.

    With ``combine``, each chunk's result is folded into the running total as it
    arrives (memory stays flat); otherwise the results are returned as a list in
    chunk order.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, not {workers}")
    bar = tqdm(
        total=len(chunks),
        desc=description or tr("games"),
        disable=not progress,
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}",  # no unit: a chunk is not a word
    )
    results: dict[int, object] = {}
    total = None

    def take(i: int, value) -> None:
        nonlocal total
        if combine is None:
            results[i] = value
        else:
            total = value if total is None else combine(total, value)
        bar.update(1)

    try:
        if client is not None:
            from dask.distributed import as_completed

            futures = [client.submit(function, *chunk, pure=False) for chunk in chunks]
            index = {f.key: i for i, f in enumerate(futures)}
            done = {}
            for future in as_completed(futures):
                done[index[future.key]] = future.result()
            for i in range(len(chunks)):  # fold in chunk order: the same total on any cluster
                take(i, done.pop(i))
        elif workers == 1:
            for i, chunk in enumerate(chunks):
                take(i, function(*chunk))
        else:
            with ProcessPoolExecutor(max_workers=workers) as pool:
                for i, value in enumerate(pool.map(function, *zip(*chunks))):
                    take(i, value)
    finally:
        bar.close()
    return [results[i] for i in range(len(chunks))] if combine is None else total


def simulate_games(
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    rules: Ruleset | None = None,
    rotate: bool = True,
    workers: int = 1,
    client=None,
    progress: bool = False,
) -> pd.DataFrame:
    """Play ``games`` games between ``bots`` (2 to 6 bot specs, in seating order).

    Parameters
    ----------
    bots : sequence of str
        Bot specs (see :class:`BotSpec`), one per seat.
    games : int
    seed : int
        The run's seed; the same seed gives the same games with any ``workers``.
    rules : Ruleset, optional
    rotate : bool
        Rotate the seating by one place from one game to the next.
    workers : int
        Processes to use (1: this process).
    client : dask.distributed.Client, optional
        Run the chunks on this Dask cluster instead.
    progress : bool
        Show a progress bar.

    Returns
    -------
    pandas.DataFrame
        One row per game: ``game``, ``seed``, ``seating``, ``winners``, ``ending``
        (``head`` or ``final_danger``), ``turns``, and ``gems[bot]`` per bot.

    Raises
    ------
    ValueError
        For a bad spec, a number of bots outside 2..6, or ``games < 1``.
    """
    specs = parse_bots(bots)
    if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
        raise ValueError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} bots, not {len(specs)}")
    games = whole_number(games, "games", minimum=1)
    rules_dict = (rules or Ruleset()).to_dict()
    chunks = [
        (rules_dict, list(specs), seed, start, min(start + CHUNK, games), rotate) for start in range(0, games, CHUNK)
    ]
    parts = run_chunks(_play_range, chunks, workers, client, progress)
    import pandas as pd  # heavy: loaded when games are tabled, not with the package

    return pd.DataFrame([row for part in parts for row in part])


def available_workers() -> int:
    """Cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
