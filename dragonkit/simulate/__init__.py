"""Monte Carlo: turns (vectorized), whole games between bots, and tournaments.

* :func:`simulate_turns` — many turns from one situation under a policy, with
  estimates, standard errors and confidence intervals;
* :func:`simulate_games` — whole games between bots, one row per game;
* :func:`round_robin` — every pair of bots, seats alternating, win rates with intervals;
* :func:`estimate_win_chances` — the chance of winning after each option of the player to move,
  from fresh shuffles of the cards left (common random numbers across the options).

Games and tournaments run in this process, in worker processes (``workers=``)
or on a Dask cluster (``client=``), with the same results for the same seed.
"""

from .games import available_workers, parse_bots, simulate_games
from .tournament import TournamentResult, round_robin
from .turns import OUTCOMES, TurnSimulation, simulate_turns
from .win_chance import WinChanceEstimate, estimate_win_chances

__all__ = [
    "OUTCOMES",
    "TournamentResult",
    "TurnSimulation",
    "WinChanceEstimate",
    "available_workers",
    "estimate_win_chances",
    "parse_bots",
    "round_robin",
    "simulate_games",
    "simulate_turns",
]
