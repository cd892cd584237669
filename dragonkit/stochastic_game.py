r"""Two-player zero-sum stochastic games solved for the probability of winning.

The model
---------
A game has finitely many states :math:`s = 0, \dots, n-1`, in each of which one
player, *the player to move*, chooses one of the actions :math:`a = 0, \dots, m-1`
that are legal there.  Action :math:`a` in state :math:`s` then

* ends the game at once, the mover winning, with probability :math:`r_a(s)`
  (a shared win counts one half, so :math:`r_a(s)` is the mover's expected
  share of immediate wins);
* leads to state :math:`t` *with the same player to move* with probability
  :math:`S_a(s, t)` (the mover's turn goes on);
* leads to state :math:`t` *with the opponent to move* with probability
  :math:`W_a(s, t)` (the turn passes);
* ends the game, the mover losing, with the remaining probability.

The states are described from the mover's point of view (Pig's "my score,
the opponent's score, my turn total"), so one value function serves both
players.

The Bellman equation
--------------------
Let :math:`V(s)` be the probability that the player to move in :math:`s` wins
when both players play to maximise their own probability of winning.  The game
is zero-sum and a state reached with the opponent to move is worth
:math:`1 - V(t)` to the mover, so

.. math::

    Q_a(s) = r_a(s) + \sum_t S_a(s, t)\, V(t) + \sum_t W_a(s, t)\, \bigl(1 - V(t)\bigr),
    \qquad
    V(s) = \max_{a \text{ legal in } s} Q_a(s),

the *max* for the player to move and :math:`1 - V` for the opponent (Neller &
Presser 2004, for Pig; Shapley 1953 and Condon 1992 for stochastic games).
Written as :math:`Q_a = c_a + M_a V` with :math:`c_a = r_a + W_a \mathbf 1` and
:math:`M_a = S_a - W_a`, each action is an affine map of :math:`V`.

Value iteration, layer by layer
-------------------------------
States may cycle (in Pig a roll of 1 passes the turn and can come back to the
same scores), so the equation is solved by value iteration: sweeps
:math:`V_{n+1}(s) = \max_a Q_a[V_n](s)` of all states at once (Jacobi sweeps,
vectorised with sparse matrix products) until the residual
:math:`\max_s |V_{n+1}(s) - V_n(s)|` is at most the tolerance.

Where the states fall into *layers* that the game never leaves downwards
(in Pig the sum of the two scores: a turn only adds to it), transitions from
layer :math:`\ell` reach only layers :math:`\geq \ell`.  The layers are then
solved from the highest down, each one by value iteration with the values of
the higher layers already known: every sweep touches one layer only, and a
layer converges in as many sweeps as its own cycles need (Neller & Presser
note how much faster Pig converges solved by layers of the score sum).

Convergence
-----------
If every pair of strategies ends the game with probability one (a *stopping*
game), the Bellman operator is a contraction and value iteration converges to
its unique fixed point from any start (Condon 1992).  Pig is not stopping in
this strict sense (two players who hold at a zero turn total pass forever), but
rolling there is always better than passing, the optimal play ends the game
with probability one, and the iteration converges as Neller & Presser observed.
The residual of the last sweep is reported: for a stopping game with
contraction factor :math:`\gamma` the error is at most
:math:`\text{residual} \cdot \gamma / (1 - \gamma)`.

The result
----------
:func:`solve_game` returns a :class:`GameSolution` with named fields:
``values`` (:math:`V`, shape ``(n,)``), ``policy`` (the index of an optimal
action per state, shape ``(n,)``; ties go to the lower index), ``iterations``
(the sweeps over all layers), ``residual`` (the largest last residual of any
layer) and ``tol``.

References
----------
T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig",
*The UMAP Journal* 25(1), 2004, 25–47.
A. Condon, "The complexity of stochastic games", *Information and Computation*
96(2), 1992, 203–224.
L. S. Shapley, "Stochastic games", *PNAS* 39(10), 1953, 1095–1100.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

# scipy.sparse loads inside the functions: the play app imports the analysis package and needs none of it.
if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = ["GameSolution", "StochasticGame", "solve_game"]

_FloatArray: TypeAlias = npt.NDArray[np.float64]
_IntArray: TypeAlias = npt.NDArray[np.int64]
_BoolArray: TypeAlias = npt.NDArray[np.bool_]
_Csr: TypeAlias = "sp.csr_matrix[np.float64]"


@dataclass(frozen=True)
class StochasticGame:
    """A two-player zero-sum stochastic game, from the mover's point of view.

    Attributes
    ----------
    actions : tuple of str, length m
        The actions' names.
    stay : tuple of sparse matrices, each of shape (n, n)
        ``stay[a][s, t]``: probability that action ``a`` in ``s`` leads to ``t``
        with the same player to move.
    swap : tuple of sparse matrices, each of shape (n, n)
        ``swap[a][s, t]``: probability that it leads to ``t`` with the opponent to move.
    win : ndarray, shape (m, n)
        ``win[a, s]``: probability that it ends the game at once won by the mover
        (plus one half of the probability of a shared win).
    legal : ndarray of bool, shape (m, n)
        Whether action ``a`` may be chosen in state ``s``; every state has one.
    layer : ndarray of int, shape (n,)
        A layer per state, such that no action leads to a lower layer; all zeros
        when the game has no such order.

    Use :meth:`build` to construct one with validation.
    """

    actions: tuple[str, ...]
    stay: tuple[_Csr, ...]
    swap: tuple[_Csr, ...]
    win: _FloatArray
    legal: _BoolArray
    layer: _IntArray

    @property
    def n_states(self) -> int:
        """The number of states n."""
        return int(self.layer.shape[0])

    @classmethod
    def build(
        cls,
        actions: Sequence[str],
        stay: Sequence[object],
        swap: Sequence[object],
        win: npt.ArrayLike,
        legal: npt.ArrayLike | None = None,
        layer: npt.ArrayLike | None = None,
    ) -> StochasticGame:
        """A validated game.

        Parameters
        ----------
        actions : sequence of str, length m
        stay, swap : sequences of m matrices of shape (n, n)
            Dense or ``scipy.sparse``; probabilities (see the class attributes).
        win : array_like, shape (m, n)
            Probabilities of an immediate win for the mover.
        legal : array_like of bool, shape (m, n), optional
            Every action is legal everywhere if omitted.
        layer : array_like of int, shape (n,), optional
            One layer for all states if omitted.

        Raises
        ------
        ValueError
            If a shape is wrong, a probability is negative, a legal action's
            probabilities sum to more than one, a state has no legal action, or an
            action leads to a lower layer.
        """
        m = len(actions)
        if m == 0 or len(stay) != m or len(swap) != m:
            raise ValueError(f"need one stay and one swap matrix per action: {m} actions, {len(stay)}, {len(swap)}")
        stays, swaps = tuple(_csr(x) for x in stay), tuple(_csr(x) for x in swap)
        n = stays[0].shape[0]
        wins = np.asarray(win, dtype=np.float64)
        legals = np.ones((m, n), dtype=bool) if legal is None else np.asarray(legal, dtype=bool)
        layers = np.zeros(n, dtype=np.int64) if layer is None else np.asarray(layer, dtype=np.int64)
        if any(x.shape != (n, n) for x in stays + swaps):
            raise ValueError(f"every stay and swap matrix must be {n} x {n}")
        if wins.shape != (m, n) or legals.shape != (m, n) or layers.shape != (n,):
            raise ValueError(f"win and legal must have shape ({m}, {n}) and layer ({n},)")
        if not legals.any(axis=0).all():
            raise ValueError(f"states without a legal action: {np.flatnonzero(~legals.any(axis=0))[:10].tolist()}")
        for a in range(m):
            if (stays[a].data < 0).any() or (swaps[a].data < 0).any() or (wins[a] < 0).any():
                raise ValueError(f"action {actions[a]!r} has a negative probability")
            total = np.asarray(stays[a].sum(axis=1)).ravel() + np.asarray(swaps[a].sum(axis=1)).ravel() + wins[a]
            if (total[legals[a]] > 1 + 1e-9).any():
                raise ValueError(f"action {actions[a]!r}: probabilities summing to more than 1 in some state")
            for matrix in (stays[a], swaps[a]):
                rows, cols = matrix.nonzero()
                if (layers[cols] < layers[rows]).any():
                    raise ValueError(f"action {actions[a]!r} leads to a lower layer")
        return cls(tuple(actions), stays, swaps, wins, legals, layers)


def _csr(matrix: object) -> _Csr:
    """A dense or sparse matrix as a float CSR matrix of our own."""
    import scipy.sparse as sp

    if sp.issparse(matrix):
        # scipy-stubs narrow issparse() to SparseABC, a base that no overload of the constructor accepts
        csr: _Csr = sp.csr_matrix(matrix, dtype=np.float64, copy=True)  # type: ignore[call-overload]
        return csr
    return sp.csr_matrix(np.array(matrix, dtype=np.float64))


def _times(matrix: _Csr, vector: _FloatArray) -> _FloatArray:
    """The product of a sparse matrix and a vector, as a vector."""
    return np.asarray(matrix @ vector, dtype=np.float64)


@dataclass(frozen=True)
class GameSolution:
    """The solution of a :class:`StochasticGame`.

    Attributes
    ----------
    values : ndarray, shape (n,)
        :math:`V(s)`, the probability that the player to move in ``s`` wins
        under optimal play by both (a shared win counts one half).
    policy : ndarray of int, shape (n,)
        The index of an optimal action in each state (the lowest on a tie).
    iterations : int
        The number of value-iteration sweeps, summed over the layers.
    residual : float
        The largest residual :math:`\\max |V_{n+1} - V_n|` of the last sweep of any layer.
    tol : float
        The tolerance the sweeps ran to.
    """

    values: _FloatArray
    policy: _IntArray
    iterations: int
    residual: float
    tol: float


def solve_game(game: StochasticGame, tol: float = 1e-12, max_sweeps: int = 100_000) -> GameSolution:
    """Win probabilities and an optimal policy by layered value iteration.

    Parameters
    ----------
    game : StochasticGame
    tol : float
        Sweep a layer until no value changes by more than ``tol``.
    max_sweeps : int
        The most sweeps allowed for one layer.

    Returns
    -------
    GameSolution

    Raises
    ------
    ValueError
        If ``tol`` is not positive.
    RuntimeError
        If a layer has not converged after ``max_sweeps`` sweeps.
    """
    if not tol > 0:
        raise ValueError(f"the tolerance must be positive, not {tol}")
    n, m = game.n_states, len(game.actions)
    # Q_a = c_a + M_a V, with c_a = win_a + swap_a 1 and M_a = stay_a - swap_a.
    linear = [(game.stay[a] - game.swap[a]).tocsr() for a in range(m)]
    constant = [game.win[a] + np.asarray(game.swap[a].sum(axis=1)).ravel() for a in range(m)]
    values = np.zeros(n)
    policy = np.zeros(n, dtype=np.int64)
    iterations, residual = 0, 0.0
    for level in np.unique(game.layer)[::-1]:
        states = np.flatnonzero(game.layer == level)
        # Higher layers are solved; this layer's own entries are still zero in `values`.
        local = [linear[a][states][:, states].tocsr() for a in range(m)]
        fixed = np.stack([constant[a][states] + _times(linear[a][states], values) for a in range(m)])
        fixed[~game.legal[:, states]] = -np.inf
        x = np.zeros(len(states))
        sweep, change = 0, np.inf
        while change > tol:
            if sweep == max_sweeps:
                raise RuntimeError(f"layer {level} has not converged in {max_sweeps} sweeps (last change {change:.3g})")
            sweep += 1
            q = fixed + np.stack([_times(local[a], x) for a in range(m)])  # Q_a of every state, shape (m, layer size)
            new = q.max(axis=0)
            change = float(np.abs(new - x).max())
            x = new
        iterations += sweep
        residual = max(residual, change)
        values[states] = x
        policy[states] = np.argmax(q, axis=0)
    return GameSolution(values, policy, iterations, residual, tol)
