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
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, TypeAlias, overload

import numpy as np
import numpy.typing as npt

# pandas and scipy.sparse load inside the functions that use them: the play app imports the
# analysis package (whose turn chain subclasses this class) in every Voilà kernel and needs neither.
if TYPE_CHECKING:
    import pandas as pd
    import scipy.sparse as sp
    from scipy.sparse.linalg import SuperLU

__all__ = ["AbsorbingChain"]

_TOL = 1e-9

#: Exact sparse rows: row i is ``{column: probability}`` (zeros left out).
_Rows: TypeAlias = list[dict[int, Fraction]]
#: A float sparse matrix, as the chain keeps it.
_Csr: TypeAlias = "sp.csr_matrix[np.float64]"
_FloatArray: TypeAlias = npt.NDArray[np.float64]
#: An array of ``Fraction`` objects.
_ObjectArray: TypeAlias = npt.NDArray[np.object_]
_IntArray: TypeAlias = npt.NDArray[np.int64]
#: A number the chain computes: a ``Fraction`` (exact chain) or a float.
Number: TypeAlias = Fraction | float


def _is_rational(x: object) -> bool:
    return isinstance(x, numbers.Rational) and not isinstance(x, bool)


def _exact_rows(P: object) -> _Rows | None:
    """P as sparse exact rows if it is given in ints and Fractions, else None."""
    import scipy.sparse as sp

    if isinstance(P, np.ndarray) or sp.issparse(P) or not isinstance(P, Iterable):
        return None
    rows: list[object] = list(P)
    mappings = [r for r in rows if isinstance(r, Mapping)]
    if rows and len(mappings) == len(rows):
        if all(_is_rational(x) for r in mappings for x in r.values()):
            return [{int(j): Fraction(x) for j, x in r.items() if x != 0} for r in mappings]
        return None
    sequences = [r for r in rows if isinstance(r, Iterable)]
    if len(sequences) != len(rows):
        return None
    lists = [list(r) for r in sequences]
    if not all(_is_rational(x) for r in lists for x in r):
        return None
    n = len(lists)
    for i, r in enumerate(lists):
        if len(r) != n:
            raise ValueError(f"P must be square: row {i} has {len(r)} entries, expected {n}")
    return [{j: Fraction(x) for j, x in enumerate(r) if x != 0} for r in lists]


def _float_matrix(P: object) -> _Csr:
    """P as our own float CSR matrix (the caller's matrix is never modified), repeated entries summed, zeros dropped."""
    import scipy.sparse as sp

    try:
        if sp.issparse(P):
            # scipy-stubs narrow issparse() to SparseABC, a base that no overload of the constructor accepts
            M = sp.csr_matrix(P, dtype=np.float64, copy=True)  # type: ignore[call-overload]
        else:
            M = np.array(P, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("P must be a square matrix of probabilities (rows of equal length)") from None
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"P must be a square matrix, not of shape {M.shape}")
    csr: _Csr = sp.csr_matrix(M)
    csr.sum_duplicates()
    csr.eliminate_zeros()
    return csr


@dataclass(frozen=True)
class _ExactBlocks:
    """The canonical blocks of an exact chain as sparse rows: Q[k] = {k': p}, R[k] = {m: p}."""

    Q: _Rows
    R: _Rows


@dataclass
class _FloatBlocks:
    """The canonical blocks of a float chain, and the LU factors of I - Q once computed."""

    Q: _Csr
    R: _Csr
    lu: SuperLU[np.float64] | None = None


class AbsorbingChain:
    """An absorbing Markov chain, validated and put in canonical form.

    Parameters
    ----------
    P : array_like, scipy.sparse matrix, or nested lists of Fraction
        The n x n transition matrix; row i is the distribution of the next state
        from state i.  Nested lists whose entries are all ``int`` or ``Fraction``
        select exact arithmetic, as does a list of n dicts ``{column: Fraction}``
        (sparse exact rows); anything else is converted to float64 and kept sparse.
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

    def __init__(self, P: object, labels: Sequence[Hashable] | None = None):
        import pandas as pd
        import scipy.sparse as sp

        rows = _exact_rows(P)
        matrix: _Rows | _Csr = rows if rows is not None else _float_matrix(P)
        self.exact = isinstance(matrix, list)
        self._input_sparse = sp.issparse(P)
        n = len(matrix) if isinstance(matrix, list) else matrix.shape[0]
        if isinstance(matrix, list):
            for i, row in enumerate(matrix):
                if any(not 0 <= j < n for j in row):
                    raise ValueError(f"P must be square: row {i} has a column outside 0..{n - 1}")
        self.labels: list[Hashable] = list(range(n)) if labels is None else list(labels)
        if len(self.labels) != n:
            raise ValueError(f"labels: {len(self.labels)} labels for {n} states")
        if len(set(self.labels)) != n:
            counts = pd.Series(self.labels).value_counts()
            repeated = counts.index[counts > 1].tolist()
            raise ValueError(f"labels must be distinct: {repeated[:5]!r} repeated")
        self._n = n
        if isinstance(matrix, list):
            self._validate_exact(matrix)
            absorbing = [i for i, row in enumerate(matrix) if row.get(i, 0) == 1]
            edges = [(i, j) for i, row in enumerate(matrix) for j in row if j != i]
            src = np.asarray([e[0] for e in edges], dtype=np.int64)
            dst = np.asarray([e[1] for e in edges], dtype=np.int64)
        else:
            self._validate_float(matrix)
            diag = matrix.diagonal()
            absorbing = np.flatnonzero(np.abs(diag - 1) <= _TOL).tolist()
            coo = matrix.tocoo()
            keep = coo.row != coo.col
            src, dst = coo.row[keep].astype(np.int64), coo.col[keep].astype(np.int64)
        if not absorbing:
            raise ValueError("the chain has no absorbing state (no row with P[i, i] = 1)")
        self._check_reachable(src, dst, absorbing)
        absorbing_set = set(absorbing)
        transient = [i for i in range(n) if i not in absorbing_set]
        self._t_idx, self._a_idx = transient, absorbing
        self.transient = [self.labels[i] for i in transient]
        self.absorbing = [self.labels[i] for i in absorbing]
        self._blocks: _ExactBlocks | _FloatBlocks
        if isinstance(matrix, list):
            t_pos = {i: k for k, i in enumerate(transient)}
            a_pos = {i: k for k, i in enumerate(absorbing)}
            self._blocks = _ExactBlocks(
                Q=[{t_pos[j]: p for j, p in matrix[i].items() if j in t_pos} for i in transient],
                R=[{a_pos[j]: p for j, p in matrix[i].items() if j in a_pos} for i in transient],
            )
        else:
            rows_t = matrix[transient]
            self._blocks = _FloatBlocks(Q=rows_t[:, transient].tocsr(), R=rows_t[:, absorbing].tocsr())

    # -- construction helpers -------------------------------------------------------

    def _validate_exact(self, rows: _Rows) -> None:
        for i, row in enumerate(rows):
            for j, p in row.items():
                if not 0 <= p <= 1:
                    raise ValueError(f"P[{i}, {j}] = {p} (state {self.labels[i]!r}) is not a probability in [0, 1]")
            total = sum(row.values(), Fraction(0))
            if total != 1:
                raise ValueError(f"row {i} (state {self.labels[i]!r}) sums to {total}, not 1")

    def _validate_float(self, M: _Csr) -> None:
        bad = np.flatnonzero(~((M.data >= 0) & (M.data <= 1)))  # NaN fails both
        if bad.size:
            k = bad[0]
            i = int(np.searchsorted(M.indptr, k, side="right") - 1)
            raise ValueError(
                f"P[{i}, {M.indices[k]}] = {M.data[k]} (state {self.labels[i]!r}) is not a probability in [0, 1]"
            )
        sums = np.asarray(M.sum(axis=1)).ravel()
        off = np.flatnonzero(np.abs(sums - 1) > _TOL)
        if off.size:
            i = int(off[0])
            raise ValueError(f"row {i} (state {self.labels[i]!r}) sums to {sums[i]}, not 1")

    def _check_reachable(self, src: _IntArray, dst: _IntArray, absorbing: list[int]) -> None:
        """Every state must reach an absorbing one: a search backwards from the absorbing states
        along the edges ``src[e] -> dst[e]``."""
        import scipy.sparse as sp
        from scipy.sparse.csgraph import breadth_first_order

        n = self._n
        # reversed graph plus a source node n pointing at every absorbing state
        rows = np.concatenate([dst, np.full(len(absorbing), n, dtype=np.int64)])
        cols = np.concatenate([src, np.asarray(absorbing, dtype=np.int64)])
        graph = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n + 1, n + 1))
        reached = breadth_first_order(graph, n, directed=True, return_predecessors=False)
        stuck = np.setdiff1d(np.arange(n), reached)
        if stuck.size:
            names = ", ".join(repr(self.labels[i]) for i in stuck[:5])
            raise ValueError(
                f"no absorbing state can be reached from transient state(s) {names}"
                + (f" and {stuck.size - 5} more" if stuck.size > 5 else "")
            )

    # -- the canonical form ---------------------------------------------------------

    @staticmethod
    def _dense(rows: _Rows, width: int) -> _ObjectArray:
        M = np.full((len(rows), width), Fraction(0), dtype=object)
        for k, row in enumerate(rows):
            for j, p in row.items():
                M[k, j] = p
        return M

    @property
    def Q(self) -> _ObjectArray | _FloatArray | _Csr:
        """Transitions among transient states, shape (t, t): a float ndarray (dense
        input), a ``scipy.sparse`` CSR matrix (sparse input) or an object array of Fractions."""
        b = self._blocks
        if isinstance(b, _ExactBlocks):
            return self._dense(b.Q, len(self._t_idx))
        return b.Q.copy() if self._input_sparse else b.Q.toarray()

    @property
    def R(self) -> _ObjectArray | _FloatArray | _Csr:
        """Transitions from transient to absorbing states, shape (t, a); same types as :attr:`Q`."""
        b = self._blocks
        if isinstance(b, _ExactBlocks):
            return self._dense(b.R, len(self._a_idx))
        return b.R.copy() if self._input_sparse else b.R.toarray()

    def canonical_form(self) -> pd.DataFrame:
        """P with the transient states first, as a labelled table (n x n)."""
        import pandas as pd

        t, a = len(self._t_idx), len(self._a_idx)
        b = self._blocks
        values: _ObjectArray | _FloatArray
        if isinstance(b, _ExactBlocks):
            values = np.full((t + a, t + a), Fraction(0), dtype=object)
            values[:t, :t], values[:t, t:] = self._dense(b.Q, t), self._dense(b.R, a)
        else:
            values = np.zeros((t + a, t + a))
            values[:t, :t], values[:t, t:] = b.Q.toarray(), b.R.toarray()
        for m in range(a):
            values[t + m, t + m] = 1
        order = self.transient + self.absorbing
        return pd.DataFrame(values, index=order, columns=order)

    # -- solving (I - Q) X = B --------------------------------------------------------

    def _solve_exact(self, Q: _Rows, rhs: _Rows, width: int, transpose: bool = False) -> _ObjectArray:
        """Solve (I - Q) X = rhs, or its transpose, exactly, for a right-hand side of t sparse rows
        ``{column: value}`` (shape (t, width))."""
        A = [{k: Fraction(1)} for k in range(len(Q))]
        for k, row in enumerate(Q):
            for j, p in row.items():
                r, c = (j, k) if transpose else (k, j)
                A[r][c] = A[r].get(c, Fraction(0)) - p
        return _exact_solve(A, rhs, width)

    def _solve_float(self, blocks: _FloatBlocks, rhs: _FloatArray, transpose: bool = False) -> _FloatArray:
        """Solve (I - Q) X = rhs, or its transpose, by sparse LU, for a (t, width) right-hand side."""
        import scipy.sparse as sp
        from scipy.sparse.linalg import splu

        t = len(self._t_idx)
        if t == 0:
            return rhs
        if blocks.lu is None:
            coo = blocks.Q.tocoo()
            # states in topological order (an acyclic chain): I - Q is triangular, keep the order
            order: Literal["NATURAL", "COLAMD"] = "NATURAL" if (coo.col > coo.row).all() else "COLAMD"
            identity: _Csr = sp.identity(t, dtype=np.float64, format="csr")
            blocks.lu = splu(sp.csc_matrix(identity - blocks.Q), permc_spec=order)
        # scipy-stubs' SuperLU.solve leaves out the trans argument that SuperLU.solve takes
        solved: _FloatArray = blocks.lu.solve(rhs, trans="T" if transpose else "N")  # type: ignore[call-overload]
        return solved

    def _index(self, start: Hashable) -> int:
        try:
            return self.transient.index(start)
        except ValueError:
            if start in self.absorbing:
                raise ValueError(f"state {start!r} is absorbing: the chain is already absorbed there") from None
            raise ValueError(f"unknown state {start!r}") from None

    def _start_row(self, start: Hashable) -> list[Fraction] | _FloatArray:
        """Row ``start`` of N, by one transposed solve: N^T e_s."""
        k = self._index(start)
        b = self._blocks
        if isinstance(b, _ExactBlocks):
            return list(
                self._solve_exact(b.Q, [{0: Fraction(1)} if i == k else {} for i in range(len(b.Q))], 1, True)[:, 0]
            )
        e = np.zeros((len(self._t_idx), 1))
        e[k, 0] = 1
        return self._solve_float(b, e, transpose=True)[:, 0]

    def _series(self, values: Iterable[Number] | _FloatArray | _ObjectArray, index: list[Hashable]) -> pd.Series:
        import pandas as pd

        return pd.Series(list(values), index=index, dtype=object if self.exact else float)

    def _steps(self) -> list[Fraction] | _FloatArray:
        """t = N 1, a value per transient state."""
        b = self._blocks
        if isinstance(b, _ExactBlocks):
            return list(self._solve_exact(b.Q, [{0: Fraction(1)}] * len(b.Q), 1)[:, 0])
        return self._solve_float(b, np.ones((len(self._t_idx), 1)))[:, 0]

    def _visits(self, values: list[Fraction] | _FloatArray) -> list[Fraction] | _FloatArray:
        """N v for a value v per transient state."""
        b = self._blocks
        if isinstance(b, _ExactBlocks):
            return list(self._solve_exact(b.Q, [{0: Fraction(v)} for v in values], 1)[:, 0])
        return self._solve_float(b, np.asarray(values, dtype=np.float64).reshape(-1, 1))[:, 0]

    # -- results ---------------------------------------------------------------------

    def fundamental_matrix(self) -> pd.DataFrame:
        """N = (I - Q)^-1, shape (t, t), labelled by transient states.

        N[i, j] is the expected number of visits to j before absorption when
        starting from i (Kemeny & Snell, Thm. 3.2.4; Grinstead & Snell, Thm. 11.4).
        Computed by solving (I - Q) N = I (a dense t x t result: for large chains
        prefer the methods below, which never form it).
        """
        import pandas as pd

        t = len(self._t_idx)
        b = self._blocks
        if isinstance(b, _ExactBlocks):
            N: _ObjectArray | _FloatArray = self._solve_exact(b.Q, [{k: Fraction(1)} for k in range(t)], t)
        else:
            N = self._solve_float(b, np.identity(t))
        return pd.DataFrame(N, index=self.transient, columns=self.transient, dtype=object if self.exact else float)

    # None is Hashable too, but a missing start (None) means "every state": the first overload is meant
    @overload
    def expected_steps(self, start: None = None) -> pd.Series: ...  # type: ignore[overload-overlap]
    @overload
    def expected_steps(self, start: Hashable) -> Number: ...
    def expected_steps(self, start: Hashable | None = None) -> pd.Series | Number:
        """t = N 1: expected number of steps before absorption (Grinstead & Snell, Thm. 11.5).

        Parameters
        ----------
        start : label, optional
            A transient state: return its entry only (one transposed solve).

        Returns
        -------
        pandas.Series of length t, or a number with ``start`` (steps).
        """
        if start is not None:
            row = self._start_row(start)
            return sum(row, Fraction(0)) if isinstance(row, list) else np.float64(sum(row, 0.0))
        return self._series(self._steps(), self.transient)

    # None is Hashable too, but a missing start (None) means "every state": the first overload is meant
    @overload
    def steps_variance(self, start: None = None) -> pd.Series: ...  # type: ignore[overload-overlap]
    @overload
    def steps_variance(self, start: Hashable) -> Number: ...
    def steps_variance(self, start: Hashable | None = None) -> pd.Series | Number:
        """Variance of the number of steps before absorption: (2N - I) t - t∘t
        (Kemeny & Snell, Thm. 3.3.5; Grinstead & Snell, Thm. 11.5).

        Returns
        -------
        pandas.Series of length t, or a number with ``start`` (steps squared).
        """
        steps = self._steps()
        visits = self._visits(steps)  # N t
        var: list[Fraction] | _FloatArray
        if isinstance(steps, list):
            var = [2 * v - s - s * s for v, s in zip(visits, steps)]
        else:
            var = 2 * np.asarray(visits) - steps - steps * steps
        if start is not None:
            return var[self._index(start)]
        return self._series(var, self.transient)

    # None is Hashable too, but a missing start (None) means "every state": the first overload is meant
    @overload
    def absorption_probabilities(self, start: None = None) -> pd.DataFrame: ...  # type: ignore[overload-overlap]
    @overload
    def absorption_probabilities(self, start: Hashable) -> pd.Series: ...
    def absorption_probabilities(self, start: Hashable | None = None) -> pd.DataFrame | pd.Series:
        """B = N R: probability of ending in each absorbing state (Grinstead & Snell, Thm. 11.6).

        Returns
        -------
        pandas.DataFrame of shape (t, a), or with ``start`` a Series over the
        absorbing states (one transposed solve).
        """
        import pandas as pd

        a = len(self._a_idx)
        b = self._blocks
        if start is not None:
            row = self._start_row(start)
            if isinstance(b, _ExactBlocks):
                probs = [Fraction(0)] * a
                for k, n_k in enumerate(row):
                    if n_k:
                        for m, p in b.R[k].items():
                            probs[m] += Fraction(n_k) * p
                return self._series(probs, self.absorbing)
            return self._series(b.R.T @ np.asarray(row), self.absorbing)
        B: _ObjectArray | _FloatArray
        if isinstance(b, _ExactBlocks):
            B = self._solve_exact(b.Q, b.R, a)
        else:
            B = self._solve_float(b, b.R.toarray())
        return pd.DataFrame(B, index=self.transient, columns=self.absorbing, dtype=object if self.exact else float)

    # None is Hashable too, but a missing start (None) means "every state": the first overload is meant
    @overload
    def expected_reward(self, r: Mapping[Hashable, Number] | Sequence[Number], start: None = None) -> pd.Series: ...  # type: ignore[overload-overlap]
    @overload
    def expected_reward(self, r: Mapping[Hashable, Number] | Sequence[Number], start: Hashable) -> Number: ...
    def expected_reward(
        self, r: Mapping[Hashable, Number] | Sequence[Number], start: Hashable | None = None
    ) -> pd.Series | Number:
        """B r = N (R r): expected reward paid on absorption, for rewards r on the
        absorbing states (Grinstead & Snell, ch. 11.2).

        Parameters
        ----------
        r : mapping from absorbing label to reward, or sequence in :attr:`absorbing` order
        start : label, optional
            A transient state: return its entry only (one transposed solve).

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
        b = self._blocks
        Rr: list[Fraction] | _FloatArray  # R r, a length-t vector
        if isinstance(b, _ExactBlocks):
            exact = [Fraction(v) for v in values]
            Rr = [sum((p * exact[m] for m, p in row.items()), Fraction(0)) for row in b.R]
        else:
            Rr = b.R @ np.asarray(values, dtype=np.float64)
        if start is not None:
            row = self._start_row(start)
            if isinstance(Rr, list):
                return sum((Fraction(n_k) * Rr[k] for k, n_k in enumerate(row) if n_k), Fraction(0))
            return np.float64(sum((n_k * Rr[k] for k, n_k in enumerate(row) if n_k), 0.0))
        return self._series(self._visits(Rr), self.transient)

    # -- display ---------------------------------------------------------------------

    def __repr__(self) -> str:
        kind = "exact" if self.exact else "float"
        return (
            f"AbsorbingChain({self._n} states: {len(self.transient)} transient, "
            f"{len(self.absorbing)} absorbing; {kind})"
        )

    def _repr_html_(self) -> str:
        head = f"<p><b>{repr(self)[:-1].replace('AbsorbingChain(', 'Absorbing chain: ')}</b></p>"
        if self._n <= 16:
            return head + self.canonical_form().to_html()
        return head + f"<p>transient: {self.transient[:6]}…<br>absorbing: {self.absorbing[:6]}…</p>"


def _exact_solve(A: _Rows, rhs: _Rows, width: int) -> _ObjectArray:
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
