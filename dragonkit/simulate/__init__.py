"""Monte Carlo: turns (vectorized), whole games between bots, and tournaments.

* :func:`simulate_turns` — many turns from one situation under a policy, with
  estimates, standard errors and confidence intervals;
* :func:`simulate_games` — whole games between bots, one row per game;
* :func:`round_robin` — every pair of bots, seats alternating, win rates with intervals.

Games and tournaments run in this process, in worker processes (``workers=``)
or on a Dask cluster (``client=``), with the same results for the same seed.
"""

from .games import available_workers, parse_bots, simulate_games
from .tournament import TournamentResult, round_robin
from .turns import OUTCOMES, TurnSimulation, simulate_turns

__all__ = [
    "OUTCOMES",
    "TournamentResult",
    "TurnSimulation",
    "available_workers",
    "parse_bots",
    "round_robin",
    "simulate_games",
    "simulate_turns",
]
