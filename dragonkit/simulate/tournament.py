"""Round-robin tournaments between bots, with win rates and their confidence intervals.

Every pair of bots plays the same number of games, the seating alternating so
that each bot opens half of them.  Chunks of games return only running totals
(wins, games, endings, turns), so memory stays flat however many games are played.
The result is data; :func:`dragonkit.plots.tournament.win_rates` draws it.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..i18n import tr
from ..rules import Ruleset, whole_number
from .games import CHUNK, BotSpec, game_seed, parse_bots, play_game, run_chunks
from .stats import ESTIMATE_COLUMNS, proportion_estimate

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TournamentResult", "round_robin"]


def _pair_range(rules: dict, a: str, b: str, pair: int, seed: int, start: int, stop: int) -> Counter[Any]:
    """Totals for games ``start..stop`` of one pairing: wins (a tie shares the win),
    games, endings and turns."""
    rules_ = Ruleset.from_dict(rules)
    specs = (BotSpec(a), BotSpec(b))
    totals: Counter[Any] = Counter()  # game counts, turn counts and (fractional) win shares
    for g in range(start, stop):
        seating = specs if g % 2 == 0 else specs[::-1]
        record = play_game(rules_, seating, game_seed(seed, pair, g))
        winners = record["winners"].split(",")
        for w in winners:
            totals[("wins", pair, w)] += 1 / len(winners)  # type: ignore[assignment]  # a shared win: a float share
        totals[("games", pair)] += 1
        totals[("ending", record["ending"])] += 1
        totals["turns"] += record["turns"]
    return totals


@dataclass(frozen=True)
class TournamentResult:
    """The outcome of :func:`round_robin`.

    Attributes
    ----------
    standings : pandas.DataFrame
        One row per bot, best first: ``games``, ``wins`` (a tie counts as a shared
        win) and the win rate as ``estimate``, ``std_error``, ``ci_low``, ``ci_high``.
    pairs : pandas.DataFrame
        Win rate of the row's bot against the column's bot.
    endings : pandas.Series
        How many games ended at the head and by the final danger.
    mean_turns : float
        Turns per game on average.
    level : float
        The confidence level of the intervals.
    """

    standings: pd.DataFrame
    pairs: pd.DataFrame
    endings: pd.Series
    mean_turns: float
    level: float

    def _repr_html_(self) -> str:
        return self.standings.to_html(float_format="{:.3f}".format)

    def to_json(self) -> str:
        """The result as JSON text (:meth:`from_json` reads it back): to keep a tournament without playing it again."""
        return json.dumps(
            {
                "standings": self.standings.to_dict(orient="split"),
                "pairs": self.pairs.to_dict(orient="split"),
                "endings": self.endings.to_dict(),
                "mean_turns": self.mean_turns,
                "level": self.level,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> TournamentResult:
        """The result that :meth:`to_json` wrote.

        Raises
        ------
        ValueError
            If ``text`` is not such a result.
        """
        import pandas as pd

        try:
            saved = json.loads(text)
            standings = pd.DataFrame(**saved["standings"]).astype(float)
            standings["games"] = standings["games"].astype(int)
            pairs = pd.DataFrame(**saved["pairs"]).astype(float)
            endings = pd.Series(saved["endings"], name="games", dtype=int)
            return cls(standings, pairs, endings, float(saved["mean_turns"]), float(saved["level"]))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a tournament's result: {exc}") from exc


def round_robin(
    bots,
    games_per_pair: int,
    seed: int = 0,
    rules: Ruleset | None = None,
    level: float = 0.95,
    workers: int = 1,
    client=None,
    progress: bool = False,
) -> TournamentResult:
    """Every pair of ``bots`` plays ``games_per_pair`` two-player games, seats alternating.

    Parameters
    ----------
    bots : sequence of str
        At least two bot specs (see :class:`~dragonkit.simulate.games.BotSpec`).
    games_per_pair : int
    seed : int
        The same seed gives the same tournament with any ``workers`` or cluster.
    rules : Ruleset, optional
    level : float
        Confidence level of the Wilson intervals.
    workers : int
        Processes (1: this process).
    client : dask.distributed.Client, optional
        Run on this Dask cluster instead.
    progress : bool
        Show a progress bar (tqdm.auto: terminal, JupyterLab and Voilà).

    Returns
    -------
    TournamentResult

    Raises
    ------
    ValueError
        For fewer than two bots, a bad spec, or ``games_per_pair < 1``.
    """
    import pandas as pd  # heavy: loaded when a tournament runs, not with the package

    specs = parse_bots(bots)
    if len(specs) < 2:
        raise ValueError("a round robin needs at least two bots")
    games_per_pair = whole_number(games_per_pair, "games_per_pair", minimum=1)
    rules_dict = (rules or Ruleset()).to_dict()
    pairings = list(itertools.combinations(specs, 2))
    chunks = [
        (rules_dict, str(a), str(b), p, seed, start, min(start + CHUNK, games_per_pair))
        for p, (a, b) in enumerate(pairings)
        for start in range(0, games_per_pair, CHUNK)
    ]
    totals: Counter[Any] = run_chunks(
        _pair_range, chunks, workers, client, progress, tr("tournament"), combine=lambda x, y: x + y
    )
    wins = {s: sum(totals[("wins", p, s)] for p in range(len(pairings))) for s in specs}
    games = {s: sum(totals[("games", p)] for p, pair in enumerate(pairings) if s in pair) for s in specs}
    standings = (
        pd.DataFrame(
            {s: {"games": games[s], "wins": wins[s], **proportion_estimate(wins[s], games[s], level)} for s in specs}
        )
        .T[["games", "wins"] + ESTIMATE_COLUMNS[:4]]
        .astype(float)
        .sort_values("estimate", ascending=False)
    )
    standings["games"] = standings["games"].astype(int)
    pairs = pd.DataFrame(np.nan, index=list(specs), columns=list(specs))
    for p, (a, b) in enumerate(pairings):
        n = totals[("games", p)]
        pairs.loc[a, b] = totals[("wins", p, a)] / n
        pairs.loc[b, a] = totals[("wins", p, b)] / n
    endings = pd.Series(
        {e: totals[("ending", e)] for e in ("head", "final_danger", "deck_empty") if totals[("ending", e)]},
        name="games",
    )
    played = sum(totals[("games", p)] for p in range(len(pairings)))
    return TournamentResult(standings, pairs, endings, totals["turns"] / played, level)
