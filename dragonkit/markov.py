r"""Absorbing Markov chains: canonical form, fundamental matrix, absorption.

A Markov chain with transition matrix :math:`P` is *absorbing* when it has at
least one absorbing state (:math:`P_{ii} = 1`) and an absorbing state can be
reached from every state.  The other states are *transient*.  Ordering the
transient states first gives the canonical form

.. math::

    P = \begin{pmatrix} Q & R \\ 0 & I \end{pmatrix},

with :math:`Q` (t x t) the transitions among transient states and :math:`R`
(t x a) those from transient to absorbing states.  Then (Kemeny & Snell,
*Finite Markov Chains*, 1960, ch. III; Grinstead & Snell, *Introduction to
Probability*, 2nd ed., 1997, ch. 11.2):

* the **fundamental matrix** :math:`N = (I - Q)^{-1}`; :math:`N_{ij}` is the
  expected number of visits to transient state :math:`j` starting from :math:`i`;
* the **expected number of steps** before absorption :math:`t = N\mathbf 1`;
* its **variance** :math:`(2N - I)t - t \circ t`;
* the **absorption probabilities** :math:`B = NR`;
* the **expected reward** :math:`B r` for rewards :math:`r` paid on absorption.

Nothing here forms an inverse unless :meth:`AbsorbingChain.fundamental_matrix`
is asked for: every quantity is a solve with :math:`I - Q`, by sparse LU
(:func:`scipy.sparse.linalg.splu`) in floating point, or by exact rational
Gaussian elimination on sparse rows when the chain is given in ``Fraction``\ s.
This module knows nothing of the game.
"""

from __future__ import annotations

import numbers
from collections import deque
from fractions import Fraction
from typing import Any, Hashable, Mapping, Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse.linalg import splu

__all__ = ["AbsorbingChain"]

_TOL = 1e-9


def _is_exact(P: Any) -> bool:
    if isinstance(P, np.ndarray) or sp.issparse(P):
        return False
    try:
        return all(isinstance(x, numbers.Rational) and not isinstance(x, bool) for row in P for x in row)
    except TypeError:
        return False


class AbsorbingChain:
    """An absorbing Markov chain, validated and put in canonical form.

    Parameters
    ----------
    P : array_like, scipy.sparse matrix, or nested lists of Fraction
        The n x n transition matrix; row i is the distribution of the next state
        from state i.  Nested lists whose entries are all ``int`` or ``Fraction``
        select exact arithmetic; anything else is converted to float64.
    labels : sequence of hashable, optional
        A name for each state (default ``0..n-1``).

    Raises
    ------
    ValueError
        If P is not square, an entry lies outside [0, 1], a row does not sum to 1
        (exactly for Fractions, within 1e-9 otherwise), the labels do not fit,
        there is no absorbing state, or some transient state cannot reach one.
        The message names the row or the state.

    Attributes
    ----------
    exact : bool
        Whether results are ``Fraction``\\ s.
    labels : list
        Every state's label, in the order of P.
    transient, absorbing : list
        Labels of the transient and the absorbing states (canonical order).
    """

    def __init__(self, P: Any, labels: Sequence[Hashable] | None = None):
        self.exact = _is_exact(P)
        self._input_sparse = sp.issparse(P)
        rows = self._rows(P)
        n = len(rows)
        self.labels = list(range(n)) if labels is None else list(labels)
        if len(self.labels) != n:
            raise ValueError(f"labels: {len(self.labels)} labels for {n} states")
        if len(set(self.labels)) != n:
            raise ValueError("labels must be distinct")
        self._validate(rows)
        self._n = n
        absorbing = [i for i, row in enumerate(rows) if row.get(i, 0) == 1]
        if not absorbing:
            raise ValueError("the chain has no absorbing state (no row with P[i, i] = 1)")
        absorbing_set = set(absorbing)
        transient = [i for i in range(n) if i not in absorbing_set]
        self._check_reachable(rows, absorbing)
        self._t_idx, self._a_idx = transient, absorbing
        self.transient = [self.labels[i] for i in transient]
        self.absorbing = [self.labels[i] for i in absorbing]
        t_pos = {i: k for k, i in enumerate(transient)}
        a_pos = {i: k for k, i in enumerate(absorbing)}
        # canonical blocks as sparse rows: Q[k] = {k': p}, R[k] = {m: p}
        self._Q = [{t_pos[j]: p for j, p in rows[i].items() if j in t_pos} for i in transient]
        self._R = [{a_pos[j]: p for j, p in rows[i].items() if j in a_pos} for i in transient]
        self._lu = None

    # -- construction helpers -------------------------------------------------------

    def _rows(self, P: Any) -> list[dict[int, Any]]:
        if self.exact:
            rows = [list(r) for r in P]
            n = len(rows)
            for i, r in enumerate(rows):
                if len(r) != n:
                    raise ValueError(f"P must be square: row {i} has {len(r)} entries, expected {n}")
            return [{j: Fraction(x) for j, x in enumerate(r) if x != 0} for r in rows]
        M = sp.csr_matrix(P, dtype=float) if sp.issparse(P) else np.asarray(P, dtype=float)
        if M.ndim != 2 or M.shape[0] != M.shape[1]:
            raise ValueError(f"P must be a square matrix, not of shape {M.shape}")
        if sp.issparse(M):
            M.sum_duplicates()
            return [dict(zip(M.indices[M.indptr[i]:M.indptr[i + 1]].tolist(),
                             M.data[M.indptr[i]:M.indptr[i + 1]].tolist())) for i in range(M.shape[0])]
        return [{j: float(x) for j, x in enumerate(r) if x != 0} for r in M]

    def _validate(self, rows: list[dict[int, Any]]) -> None:
        for i, row in enumerate(rows):
            for j, p in row.items():
                if not (0 <= p <= 1):  # also catches NaN
                    raise ValueError(f"P[{i}, {j}] = {p} (state {self.labels[i]!r}) is not a probability in [0, 1]")
            total = sum(row.values(), Fraction(0) if self.exact else 0.0)
            if (total != 1) if self.exact else abs(total - 1) > _TOL:
                raise ValueError(f"row {i} (state {self.labels[i]!r}) sums to {total}, not 1")

    def _check_reachable(self, rows: list[dict[int, Any]], absorbing: list[int]) -> None:
        parents: list[list[int]] = [[] for _ in rows]
        for i, row in enumerate(rows):
            for j in row:
                if j != i:
                    parents[j].append(i)
        reach = set(absorbing)
        queue = deque(absorbing)
        while queue:
            j = queue.popleft()
            for i in parents[j]:
                if i not in reach:
                    reach.add(i)
                    queue.append(i)
        stuck = [i for i in range(len(rows)) if i not in reach]
        if stuck:
            names = ", ".join(repr(self.labels[i]) for i in stuck[:5])
            raise ValueError(f"no absorbing state can be reached from transient state(s) {names}"
                             + (f" and {len(stuck) - 5} more" if len(stuck) > 5 else ""))

    # -- the canonical form ---------------------------------------------------------

    def _block(self, rows: list[dict[int, Any]], width: int):
        if self.exact:
            M = np.full((len(rows), width), Fraction(0), dtype=object)
            for k, row in enumerate(rows):
                for j, p in row.items():
                    M[k, j] = p
            return M
        data = [p for row in rows for p in row.values()]
        ri = [k for k, row in enumerate(rows) for _ in row]
        ci = [j for row in rows for j in row]
        M = sp.csr_matrix((data, (ri, ci)), shape=(len(rows), width), dtype=float)
        return M if self._input_sparse else M.toarray()

    @property
    def Q(self):
        """Transitions among transient states, shape (t, t): a float ndarray, a
        ``scipy.sparse`` CSR matrix (for sparse input) or an object array of Fractions."""
        return self._block(self._Q, len(self._t_idx))

    @property
    def R(self):
        """Transitions from transient to absorbing states, shape (t, a); same types as :attr:`Q`."""
        return self._block(self._R, len(self._a_idx))

    def canonical_form(self) -> pd.DataFrame:
        """P with the transient states first, as a labelled table (n x n)."""
        t, a = len(self._t_idx), len(self._a_idx)
        values = np.full((t + a, t + a), Fraction(0) if self.exact else 0.0, dtype=object if self.exact else float)
        for k, row in enumerate(self._Q):
            for j, p in row.items():
                values[k, j] = p
        for k, row in enumerate(self._R):
            for j, p in row.items():
                values[k, t + j] = p
        for m in range(a):
            values[t + m, t + m] = 1
        order = self.transient + self.absorbing
        return pd.DataFrame(values, index=order, columns=order)

    # -- solving (I - Q) X = B --------------------------------------------------------

    def _solve(self, rhs: list[dict[int, Any]], width: int, transpose: bool = False) -> np.ndarray:
        """Solve (I - Q) X = rhs (or its transpose) for a (t, width) right-hand side."""
        t = len(self._t_idx)
        if self.exact:
            A = [{k: Fraction(1)} for k in range(t)]
            for k, row in enumerate(self._Q):
                for j, p in row.items():
                    target = (j, k) if transpose else (k, j)
                    A[target[0]][target[1]] = A[target[0]].get(target[1], Fraction(0)) - p
            return _exact_solve(A, rhs, width)
        if self._lu is None:
            I_minus_Q = sp.identity(t, format="csc") - self._block(self._Q, t) if t else None
            self._lu = splu(sp.csc_matrix(I_minus_Q)) if t else None
        B = np.zeros((t, width))
        for k, row in enumerate(rhs):
            for j, v in row.items():
                B[k, j] = v
        if t == 0:
            return B
        return self._lu.solve(B, trans="T" if transpose else "N")

    def _index(self, start: Hashable) -> int:
        try:
            return self.transient.index(start)
        except ValueError:
            if start in self.absorbing:
                raise ValueError(f"state {start!r} is absorbing: the chain is already absorbed there") from None
            raise ValueError(f"unknown state {start!r}") from None

    def _start_row(self, start: Hashable) -> np.ndarray:
        """Row ``start`` of N, by one transposed solve: N^T e_s."""
        k = self._index(start)
        return self._solve([{0: 1} if i == k else {} for i in range(len(self._t_idx))], 1, transpose=True)[:, 0]

    def _series(self, values, index) -> pd.Series:
        return pd.Series(list(values), index=index, dtype=object if self.exact else float)

    # -- results ---------------------------------------------------------------------

    def fundamental_matrix(self) -> pd.DataFrame:
        """N = (I - Q)^-1, shape (t, t), labelled by transient states.

        N[i, j] is the expected number of visits to j before absorption when
        starting from i (Kemeny & Snell, Thm. 3.2.4; Grinstead & Snell, Thm. 11.4).
        Computed by solving (I - Q) N = I column by column (a dense t x t result).
        """
        t = len(self._t_idx)
        N = self._solve([{k: 1} for k in range(t)], t)
        return pd.DataFrame(N, index=self.transient, columns=self.transient,
                            dtype=object if self.exact else float)

    def expected_steps(self, start: Hashable | None = None):
        """t = N 1: expected number of steps before absorption (Grinstead & Snell, Thm. 11.5).

        Parameters
        ----------
        start : label, optional
            A transient state: return its entry only (one solve).

        Returns
        -------
        pandas.Series of length t, or a number (steps).
        """
        if start is not None:
            return sum(self._start_row(start), Fraction(0) if self.exact else 0.0)
        ones = [{0: 1} for _ in self._t_idx]
        return self._series(self._solve(ones, 1)[:, 0], self.transient)

    def steps_variance(self, start: Hashable | None = None):
        """Variance of the number of steps before absorption: (2N - I) t - t∘t
        (Kemeny & Snell, Thm. 3.3.5; Grinstead & Snell, Thm. 11.5 exercise).

        Returns
        -------
        pandas.Series of length t, or a number with ``start`` (steps squared).
        """
        steps = self._solve([{0: 1} for _ in self._t_idx], 1)[:, 0]
        visits = self._solve([{0: s} for s in steps], 1)[:, 0]  # N t
        var = 2 * visits - steps - steps * steps
        if start is not None:
            return var[self._index(start)]
        return self._series(var, self.transient)

    def absorption_probabilities(self, start: Hashable | None = None):
        """B = N R: probability of ending in each absorbing state (Grinstead & Snell, Thm. 11.6).

        Returns
        -------
        pandas.DataFrame of shape (t, a), or with ``start`` a Series over the
        absorbing states (one transposed solve).
        """
        a = len(self._a_idx)
        if start is not None:
            row = self._start_row(start)
            zero = Fraction(0) if self.exact else 0.0
            probs = [zero] * a
            for k, n_k in enumerate(row):
                if n_k:
                    for m, p in self._R[k].items():
                        probs[m] += n_k * p
            return self._series(probs, self.absorbing)
        B = self._solve(self._R, a)
        return pd.DataFrame(B, index=self.transient, columns=self.absorbing, dtype=object if self.exact else float)

    def expected_reward(self, r: Mapping[Hashable, Any] | Sequence, start: Hashable | None = None):
        """B r: expected reward paid on absorption, for rewards r on the absorbing states.

        Parameters
        ----------
        r : mapping from absorbing label to reward, or sequence in :attr:`absorbing` order
        start : label, optional

        Returns
        -------
        pandas.Series of length t, or a number with ``start``.

        Raises
        ------
        ValueError
            If r misses an absorbing state or has the wrong length.
        """
        if isinstance(r, Mapping):
            missing = [s for s in self.absorbing if s not in r]
            if missing:
                raise ValueError(f"r has no reward for absorbing state(s) {missing[:5]}")
            values = [r[s] for s in self.absorbing]
        else:
            values = list(r)
            if len(values) != len(self.absorbing):
                raise ValueError(f"r has {len(values)} rewards for {len(self.absorbing)} absorbing states")
        values = [Fraction(v) for v in values] if self.exact else [float(v) for v in values]
        zero = Fraction(0) if self.exact else 0.0
        Rr = [{0: sum((p * values[m] for m, p in row.items()), zero)} for row in self._R]
        if start is not None:
            row = self._start_row(start)
            return sum((n_k * Rr[k][0] for k, n_k in enumerate(row) if n_k), zero)
        return self._series(self._solve(Rr, 1)[:, 0], self.transient)

    # -- display ---------------------------------------------------------------------

    def __repr__(self) -> str:
        kind = "exact" if self.exact else "float"
        return (f"AbsorbingChain({self._n} states: {len(self.transient)} transient, "
                f"{len(self.absorbing)} absorbing; {kind})")

    def _repr_html_(self) -> str:
        head = f"<p><b>{repr(self)[:-1].replace('AbsorbingChain(', 'Absorbing chain: ')}</b></p>"
        if self._n <= 16:
            return head + self.canonical_form().to_html()
        return head + f"<p>transient: {self.transient[:6]}…<br>absorbing: {self.absorbing[:6]}…</p>"


def _exact_solve(A: list[dict[int, Fraction]], rhs: list[dict[int, Any]], width: int) -> np.ndarray:
    """Solve A X = rhs exactly by Gaussian elimination on sparse rows.

    A must be a nonsingular M-matrix (here I - Q of an absorbing chain), so the
    pivots met in natural order are positive and no pivoting is needed.  When
    the states are in topological order of an acyclic chain, A is triangular and
    no fill-in occurs.
    """
    n = len(A)
    A = [dict(row) for row in A]
    B = [{j: Fraction(v) for j, v in row.items() if v} for row in rhs]
    below: list[set[int]] = [set() for _ in range(n)]  # column -> rows i > column with a nonzero
    for i, row in enumerate(A):
        for j in row:
            if j < i:
                below[j].add(i)
    for k in range(n):
        pivot_row, pivot = A[k], A[k][k]
        for i in sorted(below[k]):
            row = A[i]
            factor = row.pop(k) / pivot
            for j, v in pivot_row.items():
                if j == k:
                    continue
                new = row.get(j, 0) - factor * v
                if new:
                    row[j] = new
                    if j < i:
                        below[j].add(i)
                else:
                    row.pop(j, None)
            for j, v in B[k].items():
                new = B[i].get(j, 0) - factor * v
                if new:
                    B[i][j] = new
                else:
                    B[i].pop(j, None)
    X = np.full((n, width), Fraction(0), dtype=object)
    for k in range(n - 1, -1, -1):
        acc = dict(B[k])
        for j, v in A[k].items():
            if j > k:
                for c in range(width):
                    if X[j, c]:
                        acc[c] = acc.get(c, 0) - v * X[j, c]
        pivot = A[k][k]
        for c, v in acc.items():
            X[k, c] = Fraction(v) / pivot
    return X
