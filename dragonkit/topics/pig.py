r"""Pig, the warm-up: its exact win-optimal play, by the stochastic-game solver.

Two players race to ``goal`` points (100).  On a turn the player rolls a die
again and again: a 1 ends the turn with nothing banked, any other face is added
to the *turn total*; holding banks the turn total and passes the die.  A player
whose score plus turn total reaches the goal holds and wins.

The state is :math:`(i, j, k)`: the mover's score :math:`i`, the opponent's
score :math:`j` and the turn total :math:`k`, with :math:`0 \le i, j <` goal and
:math:`0 \le k <` goal :math:`- i`.  With :math:`P_{i,j,k}` the probability that
the mover wins under optimal play and :math:`s` the die's sides (Neller &
Presser 2004),

.. math::

    P_{i,j,k,\text{hold}} = 1 - P_{j,\,i+k,\,0}, \qquad
    P_{i,j,k,\text{roll}} = \frac1s \Bigl[\bigl(1 - P_{j,i,0}\bigr)
        + \sum_{r=2}^{s} P_{i,\,j,\,k+r}\Bigr], \qquad
    P_{i,j,k} = \max\bigl(P_{i,j,k,\text{hold}},\ P_{i,j,k,\text{roll}}\bigr),

where :math:`P_{i,j,k} = 1` once :math:`i + k \ge` goal.  A turn only adds to the
score sum :math:`i + j`, so that sum is the layer :func:`dragonkit.stochastic_game.solve_game`
solves from the top down.

"Hold at 20" maximises the expected points of one turn; :func:`hold_at_outcomes`
gives its exact distribution and :func:`hold_at_expected_score` its mean,
both as ``Fraction``\ s.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from ..stochastic_game import StochasticGame, solve_game

__all__ = ["HOLD", "ROLL", "PigSolution", "hold_at_expected_score", "hold_at_outcomes", "pig_game", "solve_pig"]

#: The actions' indices in :func:`pig_game` (a tie holds, as in Neller & Presser).
HOLD, ROLL = 0, 1

_IntArray = npt.NDArray[np.int64]


def _states(goal: int) -> tuple[_IntArray, _IntArray, _IntArray]:
    """Scores i, j and turn totals k of every state, in (i, j, k) order; each shape (n,)."""
    i, j, k = np.meshgrid(np.arange(goal), np.arange(goal), np.arange(goal), indexing="ij")
    keep = i + k < goal
    return i[keep], j[keep], k[keep]


def _check(goal: int, sides: int) -> None:
    if goal < 1 or sides < 2:
        raise ValueError(
            f"Pig needs a goal of at least 1 and a die of at least 2 sides, not goal={goal}, sides={sides}"
        )


def pig_game(goal: int = 100, sides: int = 6) -> StochasticGame:
    """Pig as a :class:`.StochasticGame`, layered by the score sum i + j.

    Parameters
    ----------
    goal : int
        The points that win (100 in Pig).
    sides : int
        The die's faces 1..sides; a 1 ends the turn with nothing banked.

    Returns
    -------
    StochasticGame
        Actions ``("hold", "roll")``; the states (i, j, k) in lexicographic order.

    Raises
    ------
    ValueError
        If ``goal < 1`` or ``sides < 2``.
    """
    import scipy.sparse as sp

    _check(goal, sides)
    i, j, k = _states(goal)
    n = len(i)
    index = np.full((goal, goal, goal), -1, dtype=np.int64)
    index[i, j, k] = np.arange(n)
    rows, every = np.arange(n), np.ones(n)

    def matrix(r: _IntArray, c: _IntArray, p: npt.NDArray[np.float64]) -> sp.csr_matrix[np.float64]:
        return sp.csr_matrix((p, (r, c)), shape=(n, n))

    hold_swap = matrix(rows, index[j, i + k, 0], every)
    roll_swap = matrix(rows, index[j, i, 0], every / sides)
    faces = np.arange(2, sides + 1)
    total = k[:, None] + faces[None, :]  # turn totals after each face, shape (n, sides - 1)
    goes_on = i[:, None] + total < goal
    r = np.broadcast_to(rows[:, None], total.shape)[goes_on]
    roll_stay = matrix(
        r, index[i[:, None], j[:, None], np.where(goes_on, total, 0)][goes_on], np.full(r.shape, 1 / sides)
    )
    win = np.stack([np.zeros(n), (~goes_on).sum(axis=1) / sides])
    return StochasticGame.build(
        ("hold", "roll"), (matrix(rows, rows, 0 * every), roll_stay), (hold_swap, roll_swap), win, layer=i + j
    )


@dataclass(frozen=True)
class PigSolution:
    """Optimal Pig play.

    Attributes
    ----------
    goal, sides : int
        The game solved.
    win : ndarray, shape (goal, goal, goal)
        ``win[i, j, k]``: probability that the mover wins with score ``i``, the
        opponent's score ``j`` and turn total ``k`` (1 where ``i + k >= goal``).
    roll : ndarray of bool, shape (goal, goal, goal)
        ``roll[i, j, k]``: whether rolling is optimal (False where ``i + k >= goal``).
    iterations : int
        Value-iteration sweeps, summed over the layers.
    residual : float
        The largest change in the last sweep of any layer (a probability).
    """

    goal: int
    sides: int
    win: npt.NDArray[np.float64]
    roll: npt.NDArray[np.bool_]
    iterations: int
    residual: float

    @property
    def first_player_wins(self) -> float:
        """The probability that the first player wins under optimal play, ``win[0, 0, 0]``."""
        return float(self.win[0, 0, 0])

    def hold_at(self, i: int, j: int) -> int:
        """The lowest turn total at which the optimal player holds with scores ``i`` and ``j``.

        Below it the player rolls; above it the policy usually holds too, though not
        always (Neller & Presser 2004): :attr:`roll` has every decision.  A player who
        rolls on until the goal holds at ``goal - i`` (the turn total that wins).
        """
        holds = np.flatnonzero(~self.roll[i, j])
        return int(holds[0]) if holds.size else self.goal - i

    def boundary(self) -> npt.NDArray[np.int64]:
        """:meth:`hold_at` for every pair of scores: shape (goal, goal), axes (i, j)."""
        # a last column of holds: the player who rolls at every turn total below the goal holds at goal - i
        # (at score 0 no turn total of the table reaches the goal, so without it argmin would say 0)
        stop = np.zeros(self.roll.shape[:2] + (1,), dtype=bool)
        boundary: npt.NDArray[np.int64] = np.argmin(np.concatenate([self.roll, stop], axis=2), axis=2)
        return boundary


def solve_pig(goal: int = 100, sides: int = 6, tol: float = 1e-12) -> PigSolution:
    """Solve Pig for the probability of winning.

    Parameters
    ----------
    goal, sides : int
        As in :func:`pig_game`.
    tol : float
        The value-iteration tolerance (a probability).

    Returns
    -------
    PigSolution
    """
    solution = solve_game(pig_game(goal, sides), tol)
    i, j, k = _states(goal)
    win = np.ones((goal, goal, goal))
    roll = np.zeros((goal, goal, goal), dtype=bool)
    win[i, j, k] = solution.values
    roll[i, j, k] = solution.policy == ROLL
    return PigSolution(goal, sides, win, roll, solution.iterations, solution.residual)


def hold_at_outcomes(limit: int = 20, sides: int = 6) -> dict[int, Fraction]:
    """The exact distribution of the points banked by one "hold at ``limit``" turn.

    By recursion over the turn total :math:`k`: a turn at :math:`k \\ge` ``limit``
    banks :math:`k`; below it a 1 banks nothing and a face :math:`r \\ge 2` goes on
    from :math:`k + r`, each with probability :math:`1/s`.

    Parameters
    ----------
    limit : int
        The turn total at which the player holds (points).
    sides : int
        The die's faces.

    Returns
    -------
    dict
        Points banked -> probability (``Fraction``), in increasing order of points.
    """
    _check(limit, sides)

    @cache
    def outcomes(k: int) -> dict[int, Fraction]:
        if k >= limit:
            return {k: Fraction(1)}
        law = {0: Fraction(1, sides)}
        for r in range(2, sides + 1):
            for points, p in outcomes(k + r).items():
                law[points] = law.get(points, Fraction(0)) + p / sides
        return law

    return dict(sorted(outcomes(0).items()))


def hold_at_expected_score(limit: int = 20, sides: int = 6) -> Fraction:
    """The expected points of one "hold at ``limit``" turn, exactly (points).

    The mean of :func:`hold_at_outcomes`.
    """
    return sum((points * p for points, p in hold_at_outcomes(limit, sides).items()), Fraction(0))
