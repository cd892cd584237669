"""The exact analysis of Dragon Stripes, in two rooms that do not import each other:

* :mod:`.turn` — the turn as a decision problem: optimal stopping by backward induction, any policy as an absorbing
  Markov chain, the takeover market (its API is re-exported here, for the notebooks' one-line imports);
* :mod:`.win` — winning the whole game: the exact two-player solvers of the public state (:mod:`.win.solver`,
  :mod:`.win.reduced`, :mod:`.win.late`), the race and gems models' tables (:mod:`.win.race`, :mod:`.win.gems`),
  and :mod:`.win.model`, the one place that says which of them answers a game.

The generic stochastic game (:mod:`dragonkit.stochastic_game`) sits beside :mod:`dragonkit.markov`, below both; what
the lessons show of them, topic by topic, is in :mod:`dragonkit.topics`.
"""

from .turn import *  # noqa: F403  (the turn's API, listed once, in .turn's __all__)
from .turn import __all__ as __all__
