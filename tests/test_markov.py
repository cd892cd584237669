"""Tests for dragonkit.markov.AbsorbingChain.

The expected matrices below are derived by hand (cofactors / first-step
analysis), not copied from the implementation:

* Grinstead & Snell, *Introduction to Probability*, ch. 11.2, the Drunkard's
  Walk on 0..4 with p = 1/2 (Examples 11.13-11.15 there).
* Gambler's ruin on 0..4 with p = 2/3 (up), checked against the closed forms
  ruin_i = ((q/p)^i - (q/p)^4) / (1 - (q/p)^4),
  D_i = i/(q-p) - 4/(q-p) * (1 - (q/p)^i) / (1 - (q/p)^4).
* Waiting for HH and for HTH in fair coin tosses (E = 6 and 10, Var = 22 and 58);
  both have cycles among the transient states, HTH a 3-cycle that makes exact
  elimination create fill-in.
* Tennis from deuce with p = 3/5 (Kemeny & Snell style): P(win) = p^2/(p^2+q^2) = 9/13,
  E[points] = 2/(p^2+q^2) = 50/13.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dragonkit.markov import AbsorbingChain

h = F(1, 2)


# --------------------------------------------------------------------------------------
# textbook chains, written out in full, and their hand-derived answers
# --------------------------------------------------------------------------------------


def drunkard_P():
    return [
        [1, 0, 0, 0, 0],
        [h, 0, h, 0, 0],
        [0, h, 0, h, 0],
        [0, 0, h, 0, h],
        [0, 0, 0, 0, 1],
    ]


DRUNKARD = dict(
    P=drunkard_P,
    labels=None,
    transient=[1, 2, 3],
    absorbing=[0, 4],
    Q=[[0, h, 0], [h, 0, h], [0, h, 0]],
    R=[[h, 0], [0, 0], [0, h]],
    N=[[F(3, 2), 1, F(1, 2)], [1, 2, 1], [F(1, 2), 1, F(3, 2)]],
    t=[3, 4, 3],
    B=[[F(3, 4), F(1, 4)], [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]],
    # (2N - I) t = [17, 24, 17];  minus t*t = [9, 16, 9]
    var=[8, 8, 8],
)

p, q = F(2, 3), F(1, 3)


def gambler_P():
    return [
        [1, 0, 0, 0, 0],
        [q, 0, p, 0, 0],
        [0, q, 0, p, 0],
        [0, 0, q, 0, p],
        [0, 0, 0, 0, 1],
    ]


GAMBLER = dict(
    P=gambler_P,
    labels=None,
    transient=[1, 2, 3],
    absorbing=[0, 4],
    Q=[[0, p, 0], [q, 0, p], [0, q, 0]],
    R=[[q, 0], [0, 0], [0, p]],
    # det(I - Q) = 1 - 2pq = 5/9; N = adj / det
    N=[[F(7, 5), F(6, 5), F(4, 5)], [F(3, 5), F(9, 5), F(6, 5)], [F(1, 5), F(3, 5), F(7, 5)]],
    t=[F(17, 5), F(18, 5), F(11, 5)],
    B=[[F(7, 15), F(8, 15)], [F(1, 5), F(4, 5)], [F(1, 15), F(14, 15)]],
    # (2N - I) t = [457, 468, 241] / 25;  t*t = [289, 324, 121] / 25
    var=[F(168, 25), F(144, 25), F(24, 5)],
)


def hh_P():
    # states: "" (nothing useful yet), "H", "HH" (absorbing)
    return [
        [h, h, 0],
        [h, 0, h],
        [0, 0, 1],
    ]


HH = dict(
    P=hh_P,
    labels=["-", "H", "HH"],
    transient=["-", "H"],
    absorbing=["HH"],
    Q=[[h, h], [h, 0]],
    R=[[0], [h]],
    # I - Q = [[1/2, -1/2], [-1/2, 1]], det 1/4
    N=[[4, 2], [2, 2]],
    t=[6, 4],
    B=[[1], [1]],
    # (2N - I) t = [58, 36];  t*t = [36, 16]
    var=[22, 20],
)


def hth_P():
    # states: "" , "H", "HT", "HTH" (absorbing)
    return [
        [h, h, 0, 0],
        [0, h, h, 0],
        [h, 0, 0, h],
        [0, 0, 0, 1],
    ]


HTH = dict(
    P=hth_P,
    labels=["-", "H", "HT", "HTH"],
    transient=["-", "H", "HT"],
    absorbing=["HTH"],
    Q=[[h, h, 0], [0, h, h], [h, 0, 0]],
    R=[[0], [0], [h]],
    # 2(I - Q) = [[1,-1,0],[0,1,-1],[-1,0,2]] has det 1 and inverse [[2,2,1],[1,2,1],[1,1,1]]
    N=[[4, 4, 2], [2, 4, 2], [2, 2, 2]],
    t=[10, 8, 6],
    B=[[1], [1], [1]],
    # (2N - I) t = [158, 120, 90];  t*t = [100, 64, 36]
    var=[58, 56, 54],
)

a, b = F(3, 5), F(2, 5)  # player A wins a point with probability a


def tennis_P():
    # deliberately not in canonical order: absorbing states interleaved
    #      A wins  deuce  adv A  B wins  adv B
    return [
        [1, 0, 0, 0, 0],  # A wins
        [0, 0, a, 0, b],  # deuce
        [a, b, 0, 0, 0],  # adv A
        [0, 0, 0, 1, 0],  # B wins
        [0, a, 0, b, 0],  # adv B
    ]


TENNIS = dict(
    P=tennis_P,
    labels=["A wins", "deuce", "adv A", "B wins", "adv B"],
    transient=["deuce", "adv A", "adv B"],
    absorbing=["A wins", "B wins"],
    Q=[[0, a, b], [b, 0, 0], [a, 0, 0]],
    R=[[0, 0], [a, 0], [0, b]],
    # det(I - Q) = 1 - 2ab = 13/25; N = 25/13 [[1, a, b], [b, 1-ab, b^2], [a, a^2, 1-ab]]
    N=[[F(25, 13), F(15, 13), F(10, 13)], [F(10, 13), F(19, 13), F(4, 13)], [F(15, 13), F(9, 13), F(19, 13)]],
    t=[F(50, 13), F(33, 13), F(43, 13)],
    B=[[F(9, 13), F(4, 13)], [F(57, 65), F(8, 65)], [F(27, 65), F(38, 65)]],
    # 2N - I = [[37, 30, 20], [20, 25, 8], [30, 18, 25]] / 13, t = [50, 33, 43] / 13:
    #   (2N - I) t = [1850 + 990 + 860, 1000 + 825 + 344, 1500 + 594 + 1075] / 169
    #              = [3700, 2169, 3169] / 169;  t*t = [2500, 1089, 1849] / 169
    var=[F(1200, 169), F(1080, 169), F(1320, 169)],
)

CHAINS = {"drunkard": DRUNKARD, "gambler": GAMBLER, "HH": HH, "HTH": HTH, "tennis": TENNIS}
chain_ids = list(CHAINS)


def _frac(M):
    return [[F(x) for x in row] for row in M]


def _sanity_check_by_hand_data(spec):
    """The written-out answers are consistent among themselves (pure Fraction arithmetic,
    no AbsorbingChain): (I - Q) N = I, t = N 1, B = N R, var = (2N - I) t - t*t."""
    Q, R, N = _frac(spec["Q"]), _frac(spec["R"]), _frac(spec["N"])
    n = len(Q)
    for i in range(n):
        for j in range(n):
            assert sum(((i == k) - Q[i][k]) * N[k][j] for k in range(n)) == (i == j)
    t = [sum(row) for row in N]
    assert t == spec["t"]
    B = [[sum(N[i][k] * R[k][m] for k in range(n)) for m in range(len(R[0]))] for i in range(n)]
    assert _frac(spec["B"]) == B
    var = [sum((2 * N[i][k] - (i == k)) * t[k] for k in range(n)) - t[i] ** 2 for i in range(n)]
    assert var == spec["var"]


@pytest.mark.parametrize("name", chain_ids)
def test_hand_derived_answers_are_self_consistent(name):
    _sanity_check_by_hand_data(CHAINS[name])


def test_closed_forms_for_the_hand_derived_answers():
    # gambler's ruin, p = 2/3, target 4
    r = q / p
    for i, (ruin, win) in zip([1, 2, 3], GAMBLER["B"]):
        assert ruin == (r**i - r**4) / (1 - r**4)
        assert win == 1 - ruin
    for i, d in zip([1, 2, 3], GAMBLER["t"]):
        assert d == i / (q - p) - 4 / (q - p) * (1 - r**i) / (1 - r**4)
    # drunkard's walk: absorption at 4 from i is i/4, duration i(4 - i)
    for i, (at0, at4), d in zip([1, 2, 3], DRUNKARD["B"], DRUNKARD["t"]):
        assert (at0, at4, d) == (1 - F(i, 4), F(i, 4), i * (4 - i))
    # tennis from deuce
    assert TENNIS["B"][0][0] == a**2 / (a**2 + b**2) == F(9, 13)
    assert TENNIS["t"][0] == 2 / (a**2 + b**2)
    # the textbook means and variances of the waiting times for HH and HTH
    assert (HH["t"][0], HH["var"][0]) == (6, 22)
    assert (HTH["t"][0], HTH["var"][0]) == (10, 58)


# --------------------------------------------------------------------------------------
# 1. exact results with Fraction input
# --------------------------------------------------------------------------------------


def _exact_chain(spec):
    return AbsorbingChain(spec["P"](), labels=spec["labels"])


def _assert_all_fractions(values):
    for v in np.asarray(values, dtype=object).ravel():
        assert isinstance(v, F), (type(v), v)


@pytest.mark.parametrize("name", chain_ids)
def test_exact_textbook_results(name):
    spec = CHAINS[name]
    chain = _exact_chain(spec)
    assert chain.exact
    assert chain.transient == spec["transient"]
    assert chain.absorbing == spec["absorbing"]

    N = chain.fundamental_matrix()
    assert isinstance(N, pd.DataFrame)
    assert list(N.index) == list(N.columns) == spec["transient"]
    assert N.values.tolist() == _frac(spec["N"])
    _assert_all_fractions(N.values)

    t = chain.expected_steps()
    assert isinstance(t, pd.Series)
    assert list(t.index) == spec["transient"]
    assert t.tolist() == [F(x) for x in spec["t"]]
    _assert_all_fractions(t.values)

    B = chain.absorption_probabilities()
    assert list(B.index) == spec["transient"] and list(B.columns) == spec["absorbing"]
    assert B.values.tolist() == _frac(spec["B"])
    _assert_all_fractions(B.values)

    var = chain.steps_variance()
    assert list(var.index) == spec["transient"]
    assert var.tolist() == [F(x) for x in spec["var"]]
    _assert_all_fractions(var.values)


@pytest.mark.parametrize("name", chain_ids)
def test_exact_Q_and_R(name):
    spec = CHAINS[name]
    chain = _exact_chain(spec)
    Q, R = chain.Q, chain.R
    t, m = len(spec["transient"]), len(spec["absorbing"])
    for M, expected, shape in ((Q, spec["Q"], (t, t)), (R, spec["R"], (t, m))):
        assert isinstance(M, np.ndarray) and M.dtype == object and M.shape == shape
        _assert_all_fractions(M)
        assert M.tolist() == _frac(expected)


def test_hth_fill_in_and_transposed_solves():
    """The HTH chain has the cycle - -> H -> HT -> - among transient states:
    the start-row solves (with the transpose of I - Q) must be exact too."""
    chain = _exact_chain(HTH)
    assert chain.expected_steps(start="-") == 10
    assert chain.expected_steps(start="H") == 8
    assert chain.expected_steps(start="HT") == 6
    assert chain.steps_variance(start="-") == 58
    assert chain.absorption_probabilities(start="HT").tolist() == [1]


def test_sparse_row_exact_input():
    """A list of dicts {column: Fraction} is exact input, same answers."""
    for spec in CHAINS.values():
        rows = [{j: F(x) for j, x in enumerate(row) if x} for row in spec["P"]()]
        chain = AbsorbingChain(rows, labels=spec["labels"])
        assert chain.exact
        assert chain.fundamental_matrix().values.tolist() == _frac(spec["N"])
        assert chain.expected_steps().tolist() == [F(x) for x in spec["t"]]
        assert chain.absorption_probabilities().values.tolist() == _frac(spec["B"])
        assert chain.steps_variance().tolist() == [F(x) for x in spec["var"]]
        assert chain.Q.tolist() == _frac(spec["Q"]) and chain.R.tolist() == _frac(spec["R"])


def test_sparse_row_exact_input_tolerates_explicit_zeros_and_int_entries():
    rows = [{0: 1}, {0: F(1, 2), 1: 0, 2: F(1, 2)}, {2: 1}]
    chain = AbsorbingChain(rows)
    assert chain.exact
    assert chain.expected_steps().tolist() == [1]
    assert chain.absorption_probabilities().values.tolist() == [[h, h]]


def test_int_only_nested_lists_are_exact_and_float_lists_are_not():
    assert AbsorbingChain([[1, 0], [0, 1]]).exact
    assert not AbsorbingChain([[1.0, 0.0], [0.5, 0.5]]).exact
    assert not AbsorbingChain(np.array([[1, 0], [0, 1]])).exact
    # one float anywhere selects floating point
    assert not AbsorbingChain([[1, 0, 0], [h, 0, 0.5], [0, 0, 1]]).exact


# --------------------------------------------------------------------------------------
# 2. float input: numpy and scipy.sparse
# --------------------------------------------------------------------------------------


def _float_P(spec):
    return np.array([[float(x) for x in row] for row in spec["P"]()])


FORMATS = {
    "dense": lambda P: P,
    "list": lambda P: P.tolist(),
    "csr": sp.csr_matrix,
    "csc": sp.csc_matrix,
    "coo": sp.coo_matrix,
    "csr_array": sp.csr_array,
}


def _as_float(M):
    return np.array([[float(x) for x in row] for row in M], dtype=float)


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("name", chain_ids)
def test_float_textbook_results(name, fmt):
    spec = CHAINS[name]
    chain = AbsorbingChain(FORMATS[fmt](_float_P(spec)), labels=spec["labels"])
    assert not chain.exact
    assert chain.transient == spec["transient"] and chain.absorbing == spec["absorbing"]
    tol = dict(rtol=0, atol=1e-12)

    N = chain.fundamental_matrix()
    assert list(N.index) == list(N.columns) == spec["transient"]
    assert N.values.dtype == float
    np.testing.assert_allclose(N.values, _as_float(spec["N"]), **tol)

    t = chain.expected_steps()
    assert t.dtype == float and list(t.index) == spec["transient"]
    np.testing.assert_allclose(t.values, [float(x) for x in spec["t"]], **tol)

    B = chain.absorption_probabilities()
    assert list(B.columns) == spec["absorbing"]
    np.testing.assert_allclose(B.values, _as_float(spec["B"]), **tol)

    np.testing.assert_allclose(chain.steps_variance().values, [float(x) for x in spec["var"]], **tol)


@pytest.mark.parametrize("name", chain_ids)
def test_Q_R_types_and_shapes(name):
    spec = CHAINS[name]
    t, m = len(spec["transient"]), len(spec["absorbing"])
    P = _float_P(spec)

    dense = AbsorbingChain(P, labels=spec["labels"])
    for M, expected, shape in ((dense.Q, spec["Q"], (t, t)), (dense.R, spec["R"], (t, m))):
        assert isinstance(M, np.ndarray) and not sp.issparse(M)
        assert M.dtype == np.float64 and M.shape == shape
        np.testing.assert_array_equal(M, _as_float(expected))

    for fmt in ("csr", "csc", "coo", "csr_array"):
        sparse = AbsorbingChain(FORMATS[fmt](P), labels=spec["labels"])
        for M, expected, shape in ((sparse.Q, spec["Q"], (t, t)), (sparse.R, spec["R"], (t, m))):
            assert sp.issparse(M), fmt
            assert M.shape == shape and M.dtype == np.float64
            np.testing.assert_array_equal(M.toarray(), _as_float(expected))


def test_Q_and_R_are_copies():
    chain = AbsorbingChain(sp.csr_matrix(_float_P(DRUNKARD)))
    chain.Q.data[:] = 0.0
    chain.R.data[:] = 0.0
    np.testing.assert_allclose(chain.expected_steps().values, [3, 4, 3], atol=1e-12)
    exact = _exact_chain(DRUNKARD)
    exact.Q[0, 1] = F(0)
    assert exact.expected_steps().tolist() == [3, 4, 3]


def test_sparse_input_is_not_modified():
    """Building a chain must not change the caller's matrix (here: a CSR matrix
    holding an explicit zero and unsorted / duplicate entries)."""
    P = _float_P(DRUNKARD)
    # an explicit zero at (1, 3) and row 2 split into duplicates, as a user might build it
    data = np.array([1.0, 0.5, 0.5, 0.0, 0.25, 0.5, 0.25, 0.5, 0.5, 1.0])
    indices = np.array([0, 0, 2, 3, 1, 3, 1, 2, 4, 4])
    indptr = np.array([0, 1, 4, 7, 9, 10])
    S = sp.csr_matrix((data, indices, indptr), shape=(5, 5))
    np.testing.assert_array_equal(S.toarray(), P)
    saved = (S.data.copy(), S.indices.copy(), S.indptr.copy(), S.nnz)
    chain = AbsorbingChain(S)
    np.testing.assert_allclose(chain.expected_steps().values, [3, 4, 3], atol=1e-12)
    assert S.nnz == saved[3], "AbsorbingChain changed the nnz of the caller's sparse matrix"
    np.testing.assert_array_equal(S.indptr, saved[2])
    np.testing.assert_array_equal(S.indices, saved[1])
    np.testing.assert_array_equal(S.data, saved[0])


def test_dense_input_is_not_modified():
    P = _float_P(TENNIS)
    saved = P.copy()
    AbsorbingChain(P).steps_variance()
    np.testing.assert_array_equal(P, saved)
    rows = TENNIS["P"]()
    saved_rows = [list(r) for r in rows]
    AbsorbingChain(rows).steps_variance()
    assert rows == saved_rows


# --------------------------------------------------------------------------------------
# 3. start= variants, rewards, labels, canonical form, HTML
# --------------------------------------------------------------------------------------


def _chains_for(spec):
    yield _exact_chain(spec)
    P = _float_P(spec)
    yield AbsorbingChain(P, labels=spec["labels"])
    yield AbsorbingChain(sp.csr_matrix(P), labels=spec["labels"])


def _same(x, y, exact):
    if exact:
        assert x == y and isinstance(x, F), (x, y)
    else:
        assert math.isclose(float(x), float(y), rel_tol=1e-12, abs_tol=1e-12), (x, y)


@pytest.mark.parametrize("name", chain_ids)
def test_start_variants_match_full_results(name):
    spec = CHAINS[name]
    for chain in _chains_for(spec):
        t = chain.expected_steps()
        var = chain.steps_variance()
        B = chain.absorption_probabilities()
        rewards = list(range(10, 10 + len(chain.absorbing)))
        reward = chain.expected_reward(rewards)
        for s in chain.transient:
            _same(chain.expected_steps(start=s), t[s], chain.exact)
            _same(chain.steps_variance(start=s), var[s], chain.exact)
            row = chain.absorption_probabilities(start=s)
            assert isinstance(row, pd.Series)
            assert list(row.index) == chain.absorbing
            for m in chain.absorbing:
                _same(row[m], B.loc[s, m], chain.exact)
            _same(chain.expected_reward(rewards, start=s), reward[s], chain.exact)


@pytest.mark.parametrize("name", chain_ids)
def test_expected_reward_is_B_r(name):
    spec = CHAINS[name]
    rewards = [F(7, 3) * (k + 1) - 2 for k in range(len(spec["absorbing"]))]
    expected = [sum(F(x) * r for x, r in zip(row, rewards)) for row in spec["B"]]
    for chain in _chains_for(spec):
        as_seq = chain.expected_reward(rewards)
        as_map = chain.expected_reward(dict(zip(chain.absorbing, rewards)))
        as_tuple = chain.expected_reward(tuple(rewards))
        as_array = chain.expected_reward(np.array([float(r) for r in rewards]) if not chain.exact else rewards)
        for res in (as_seq, as_map, as_tuple, as_array):
            assert isinstance(res, pd.Series) and list(res.index) == chain.transient
            for got, want in zip(res.tolist(), expected):
                _same(got, want, chain.exact)


def test_expected_reward_tennis_and_mapping_order():
    """+1 if A wins, -1 if B wins: from deuce 9/13 - 4/13 = 5/13.  A mapping in any
    key order (and with extra keys) gives the same as the sequence in absorbing order."""
    chain = _exact_chain(TENNIS)
    assert chain.absorbing == ["A wins", "B wins"]
    assert chain.expected_reward({"B wins": -1, "A wins": 1}, start="deuce") == F(5, 13)
    assert chain.expected_reward({"B wins": -1, "A wins": 1, "unused": 99}).tolist() == [
        F(5, 13),
        F(49, 65),
        F(-11, 65),
    ]
    assert chain.expected_reward([1, -1]).tolist() == [F(5, 13), F(49, 65), F(-11, 65)]
    # rewards of 1 everywhere give 1 (B's rows sum to 1)
    assert chain.expected_reward([1, 1]).tolist() == [1, 1, 1]


def test_expected_reward_errors():
    chain = _exact_chain(TENNIS)
    with pytest.raises(ValueError, match="B wins"):
        chain.expected_reward({"A wins": 1})
    with pytest.raises(ValueError, match="1 rewards for 2"):
        chain.expected_reward([1])
    with pytest.raises(ValueError, match="3 rewards for 2"):
        chain.expected_reward([1, 2, 3])


def test_labels_in_pandas_results():
    chain = _exact_chain(TENNIS)
    assert chain.labels == TENNIS["labels"]
    assert list(chain.fundamental_matrix().index) == ["deuce", "adv A", "adv B"]
    assert chain.fundamental_matrix().loc["adv B", "adv A"] == F(9, 13)
    assert chain.expected_steps()["adv B"] == F(43, 13)
    assert chain.absorption_probabilities().loc["adv A", "A wins"] == F(57, 65)
    assert chain.steps_variance()["deuce"] == F(1200, 169)
    assert chain.absorption_probabilities(start="deuce")["A wins"] == F(9, 13)
    # default labels are 0..n-1
    d = _exact_chain(DRUNKARD)
    assert d.labels == [0, 1, 2, 3, 4]
    assert list(d.expected_steps().index) == [1, 2, 3]
    # labels may be any hashables, e.g. tuples
    labels = [("pos", i) for i in range(5)]
    c = AbsorbingChain(DRUNKARD["P"](), labels=labels)
    assert c.transient == labels[1:4] and c.absorbing == [labels[0], labels[4]]
    assert c.expected_steps(start=("pos", 2)) == 4


def test_canonical_form_puts_transient_states_first():
    for chain in _chains_for(TENNIS):
        cf = chain.canonical_form()
        order = ["deuce", "adv A", "adv B", "A wins", "B wins"]
        assert isinstance(cf, pd.DataFrame)
        assert list(cf.index) == list(cf.columns) == order
        P = TENNIS["P"]()
        pos = {lab: i for i, lab in enumerate(TENNIS["labels"])}
        for r in order:
            for c in order:
                _same(cf.loc[r, c], F(P[pos[r]][pos[c]]), False)
                if chain.exact:
                    assert cf.loc[r, c] == P[pos[r]][pos[c]]
        # block structure [[Q, R], [0, I]]
        values = cf.values
        np.testing.assert_array_equal(values[:3, :3].astype(float), _as_float(TENNIS["Q"]))
        np.testing.assert_array_equal(values[:3, 3:].astype(float), _as_float(TENNIS["R"]))
        np.testing.assert_array_equal(values[3:, :3].astype(float), np.zeros((2, 3)))
        np.testing.assert_array_equal(values[3:, 3:].astype(float), np.eye(2))


def test_repr_and_repr_html():
    chain = _exact_chain(TENNIS)
    assert "5 states" in repr(chain) and "exact" in repr(chain)
    html = chain._repr_html_()
    assert isinstance(html, str) and "<table" in html and "</table>" in html
    for lab in TENNIS["labels"]:
        assert lab in html
    fl = AbsorbingChain(_float_P(TENNIS))
    assert "float" in repr(fl) and "<table" in fl._repr_html_()
    # a big chain is summarised, not tabulated
    big = AbsorbingChain(_walk(40, 0.5))
    html = big._repr_html_()
    assert isinstance(html, str) and "<table" not in html and "absorbing" in html


def test_start_errors():
    for chain in _chains_for(TENNIS):
        for method in (chain.expected_steps, chain.steps_variance, chain.absorption_probabilities):
            with pytest.raises(ValueError, match="nowhere"):
                method(start="nowhere")
            with pytest.raises(ValueError, match="A wins"):
                method(start="A wins")
        with pytest.raises(ValueError, match="nowhere"):
            chain.expected_reward([1, 0], start="nowhere")
        with pytest.raises(ValueError, match=r"B wins.*absorbing|absorbing.*B wins"):
            chain.expected_reward([1, 0], start="B wins")
    d = _exact_chain(DRUNKARD)
    with pytest.raises(ValueError, match="absorbing"):
        d.expected_steps(start=0)
    with pytest.raises(ValueError, match="7"):
        d.absorption_probabilities(start=7)


def test_chain_with_no_transient_states():
    for P in ([[1, 0], [0, 1]], np.eye(2), sp.identity(2, format="csr")):
        chain = AbsorbingChain(P)
        assert chain.transient == [] and chain.absorbing == [0, 1]
        assert chain.expected_steps().empty
        assert chain.absorption_probabilities().shape == (0, 2)
        assert chain.fundamental_matrix().shape == (0, 0)


# --------------------------------------------------------------------------------------
# 4. validation
# --------------------------------------------------------------------------------------


def test_non_square_input():
    with pytest.raises(ValueError, match="square"):
        AbsorbingChain(np.ones((2, 3)) / 3)
    with pytest.raises(ValueError, match="square"):
        AbsorbingChain(sp.csr_matrix(np.ones((3, 2)) / 2))
    with pytest.raises(ValueError, match="square"):
        AbsorbingChain(np.array([1.0]))
    # exact nested lists: the message names the offending row
    with pytest.raises(ValueError, match="row 1"):
        AbsorbingChain([[1, 0], [h, h, 0]])
    with pytest.raises(ValueError, match="row 0"):
        AbsorbingChain([[1, 0, 0], [0, 1, 0]])
    # exact sparse rows: a column outside 0..n-1
    with pytest.raises(ValueError, match="row 1"):
        AbsorbingChain([{0: F(1)}, {0: h, 2: h}])
    with pytest.raises(ValueError, match="row 1"):
        AbsorbingChain([{0: F(1)}, {-1: h, 1: h}])
    # ragged float lists are refused too
    with pytest.raises(ValueError):
        AbsorbingChain([[1.0, 0.0], [0.5]])


@pytest.mark.parametrize("bad", [-0.25, 1.25, float("nan")])
@pytest.mark.parametrize("fmt", ["dense", "csr", "list"])
def test_float_entries_outside_unit_interval(bad, fmt):
    P = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]])
    P[1, 1] = bad
    P[1, 2] = 0.5 - bad if not math.isnan(bad) else 0.5  # keep the row sum at 1 where possible
    mat = {"dense": P, "csr": sp.csr_matrix(P), "list": P.tolist()}[fmt]
    with pytest.raises(ValueError, match=r"P\[1, 1\].*'mid'"):
        AbsorbingChain(mat, labels=["lo", "mid", "hi"])


def test_exact_entries_outside_unit_interval():
    with pytest.raises(ValueError, match=r"P\[1, 0\].*'mid'"):
        AbsorbingChain([[1, 0, 0], [F(-1, 2), 0, F(3, 2)], [0, 0, 1]], labels=["lo", "mid", "hi"])
    with pytest.raises(ValueError, match=r"P\[1, 2\].*'mid'"):
        AbsorbingChain([[1, 0, 0], [F(1, 2), 0, F(3, 2)], [0, 0, 1]], labels=["lo", "mid", "hi"])
    with pytest.raises(ValueError, match=r"P\[1, 1\]"):
        AbsorbingChain([{0: F(1)}, {1: F(-1), 0: F(2)}])


def test_rows_must_sum_to_one():
    labels = ["lo", "mid", "hi"]
    # exactly, for Fractions: 1 - 1/10**30 is not 1
    almost = [[1, 0, 0], [h, 0, h - F(1, 10**30)], [0, 0, 1]]
    with pytest.raises(ValueError, match=r"row 1.*'mid'"):
        AbsorbingChain(almost, labels=labels)
    with pytest.raises(ValueError, match=r"row 1.*'mid'"):
        AbsorbingChain([{0: F(1)}, {0: h, 2: h - F(1, 10**30)}, {2: F(1)}], labels=labels)
    too_much = [[1, 0, 0], [h, 0, h + F(1, 10**30)], [0, 0, 1]]
    with pytest.raises(ValueError, match=r"row 1"):
        AbsorbingChain(too_much, labels=labels)
    # a row of zeros
    with pytest.raises(ValueError, match=r"row 2.*'hi'"):
        AbsorbingChain([[1, 0, 0], [h, 0, h], [0, 0, 0]], labels=labels)
    # floats: within 1e-9
    P = np.array([[1, 0, 0], [0.5, 0, 0.4], [0, 0, 1.0]])
    for mat in (P, sp.csr_matrix(P)):
        with pytest.raises(ValueError, match=r"row 1.*'mid'"):
            AbsorbingChain(mat, labels=labels)
    ok = np.array([[1, 0, 0], [0.1, 0.2, 0.7], [0, 0, 1.0]])  # 0.1 + 0.2 + 0.7 != 1.0 in binary
    AbsorbingChain(ok)


def test_no_absorbing_state():
    for P in ([[0, 1], [1, 0]], np.array([[0.5, 0.5], [0.5, 0.5]]), sp.csr_matrix([[0.0, 1.0], [1.0, 0.0]])):
        with pytest.raises(ValueError, match="no absorbing state"):
            AbsorbingChain(P)


def test_transient_state_that_cannot_reach_absorption():
    labels = ["done", "ping", "pong", "feeder", "ok"]
    # ping <-> pong is a closed transient cycle; feeder leads into it; ok can reach done
    P = [
        [1, 0, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [0, h, h, 0, 0],
        [0, h, 0, 0, h],  # feeder can reach done through ok, so it's fine
        [h, 0, 0, h, 0],
    ]
    with pytest.raises(ValueError, match=r"'ping'.*'pong'") as info:
        AbsorbingChain(P, labels=labels)
    assert "'feeder'" not in str(info.value) and "'ok'" not in str(info.value)
    for mat in (_as_float(P), sp.csr_matrix(_as_float(P))):
        with pytest.raises(ValueError, match=r"'ping'.*'pong'"):
            AbsorbingChain(mat, labels=labels)
    # a state that only leads into the trap is named too
    P2 = [
        [1, 0, 0, 0],
        [0, 0, 1, 0],
        [0, 1, 0, 0],
        [0, h, h, 0],
    ]
    with pytest.raises(ValueError, match=r"'b'.*'c'.*'d'"):
        AbsorbingChain(P2, labels=["a", "b", "c", "d"])


def test_label_errors():
    P = DRUNKARD["P"]()
    with pytest.raises(ValueError, match="4 labels for 5 states"):
        AbsorbingChain(P, labels=list("abcd"))
    with pytest.raises(ValueError, match="6 labels for 5 states"):
        AbsorbingChain(_float_P(DRUNKARD), labels=list("abcdef"))
    with pytest.raises(ValueError, match="distinct"):
        AbsorbingChain(P, labels=list("abcda"))


def test_duplicate_label_error_names_the_label():
    """The class docstring promises that the message names the row or the state;
    for duplicate labels the duplicated label should be named."""
    with pytest.raises(ValueError) as info:
        AbsorbingChain(DRUNKARD["P"](), labels=["w", "x", "dup", "y", "dup"])
    assert "dup" in str(info.value), str(info.value)


# --------------------------------------------------------------------------------------
# 5. property test: random small absorbing chains
# --------------------------------------------------------------------------------------


@st.composite
def absorbing_chains(draw):
    """A valid absorbing chain with Fraction entries.  States are drawn in a random
    order; in 'canonical position' k >= n_abs each transient state gets a positive
    weight to some state of position < k (so absorption is always reachable) plus
    arbitrary weights everywhere else, including later transient states and
    itself, so cycles among transient states are common."""
    n = draw(st.integers(2, 6))
    n_abs = draw(st.integers(1, n - 1))
    order = draw(st.permutations(range(n)))
    rows = [[F(0)] * n for _ in range(n)]
    for k, s in enumerate(order):
        if k < n_abs:
            rows[s][s] = F(1)
            continue
        weights = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
        weights[order[draw(st.integers(0, k - 1))]] += draw(st.integers(1, 3))
        if draw(st.booleans()):
            weights[s] = 0  # sometimes no self-loop
        total = sum(weights)
        rows[s] = [F(w, total) for w in weights]
    return rows


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(absorbing_chains())
@pytest.mark.slow
def test_random_chains_exact_identities_and_float_agreement(rows):
    chain = AbsorbingChain(rows)
    assert chain.exact
    Q, R = chain.Q, chain.R
    t_n, a_n = Q.shape[0], R.shape[1]
    assert t_n >= 1 and a_n >= 1

    N = chain.fundamental_matrix().values
    _assert_all_fractions(N)
    # (I - Q) N = I and N (I - Q) = I, exactly
    IQ = np.array([[F(int(i == j)) - Q[i, j] for j in range(t_n)] for i in range(t_n)], dtype=object)
    eye = np.array([[F(int(i == j)) for j in range(t_n)] for i in range(t_n)], dtype=object)
    assert (IQ.dot(N) == eye).all()
    assert (N.dot(IQ) == eye).all()
    assert (N >= 0).all() and all(N[i, i] >= 1 for i in range(t_n))

    t = chain.expected_steps()
    assert t.tolist() == [sum(row, F(0)) for row in N]
    assert all(x >= 1 for x in t)

    B = chain.absorption_probabilities().values
    _assert_all_fractions(B)
    assert all(sum(row, F(0)) == 1 for row in B)
    assert (B >= 0).all()
    assert (N.dot(R) == B).all()

    var = chain.steps_variance()
    _assert_all_fractions(var.values)
    assert all(v >= 0 for v in var)
    tv = t.values
    assert (var.values == (2 * N - eye).dot(tv) - tv * tv).all()

    rewards = [F(k * k - 3, k + 1) for k in range(a_n)]
    reward = chain.expected_reward(rewards)
    assert reward.tolist() == B.dot(np.array(rewards, dtype=object)).tolist()

    for s in chain.transient:
        assert chain.expected_steps(start=s) == t[s]
        assert chain.steps_variance(start=s) == var[s]
        assert chain.absorption_probabilities(start=s).tolist() == B[chain.transient.index(s)].tolist()
        assert chain.expected_reward(rewards, start=s) == reward[s]

    # the same chain in floating point, dense and sparse
    P = np.array([[float(x) for x in row] for row in rows])
    for fchain in (AbsorbingChain(P), AbsorbingChain(sp.csr_matrix(P))):
        assert not fchain.exact
        assert fchain.transient == chain.transient and fchain.absorbing == chain.absorbing

        def close(got, want):
            got = np.asarray(got, dtype=float)
            want = np.asarray(want, dtype=float)
            np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)

        close(fchain.fundamental_matrix().values, N)
        close(fchain.expected_steps().values, tv)
        close(fchain.absorption_probabilities().values, B)
        close(fchain.steps_variance().values, var.values)
        close(fchain.expected_reward([float(r) for r in rewards]).values, reward.values)
        s = chain.transient[0]
        close(fchain.expected_steps(start=s), t[s])
        close(fchain.absorption_probabilities(start=s).values, B[0])


@settings(max_examples=40)
@given(absorbing_chains(), st.data())
def test_random_chains_with_a_closed_transient_class_are_refused(rows, data):
    """Turn two transient states into a closed pair: the chain must be refused, naming them."""
    n = len(rows)
    transient = [i for i in range(n) if rows[i][i] != 1]
    if len(transient) < 2:
        return
    i, j = data.draw(st.permutations(transient))[:2]
    rows = [list(r) for r in rows]
    rows[i] = [F(0)] * n
    rows[j] = [F(0)] * n
    rows[i][j] = F(1)
    rows[j][i] = F(1, 3)
    rows[j][j] = F(2, 3)
    with pytest.raises(ValueError, match="reached") as info:
        AbsorbingChain(rows, labels=[f"s{k}" for k in range(n)])
    assert f"'s{i}'" in str(info.value) and f"'s{j}'" in str(info.value)


# --------------------------------------------------------------------------------------
# 6. a large sparse chain
# --------------------------------------------------------------------------------------


def _walk(n, up):
    """Random walk on 0..n-1, absorbing at 0 and n-1, step up with probability `up`, as CSR."""
    i = np.arange(1, n - 1)
    rows = np.concatenate([[0], i, i, [n - 1]])
    cols = np.concatenate([[0], i + 1, i - 1, [n - 1]])
    vals = np.concatenate([[1.0], np.full(n - 2, up), np.full(n - 2, 1 - up), [1.0]])
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


@pytest.mark.parametrize("up", [0.5, 0.6, 0.45])
def test_large_sparse_random_walk_matches_gamblers_ruin(up):
    n = 2000
    top = n - 1  # absorbing barriers at 0 and top
    P = _walk(n, up)
    chain = AbsorbingChain(P)
    assert chain.transient == list(range(1, top)) and chain.absorbing == [0, top]
    assert sp.issparse(chain.Q) and chain.Q.nnz == 2 * (n - 2) - 2

    steps = chain.expected_steps().values
    starts = [1, 2, 17, 500, 999, 1500, top - 1]
    rows = {s: chain.absorption_probabilities(start=s) for s in starts}
    one_steps = {s: chain.expected_steps(start=s) for s in (1, 999, top - 1)}

    i = np.arange(1, top)
    if up == 0.5:
        expected_steps = i * (top - i)
        win = lambda k: k / top  # noqa: E731
    else:
        r = (1 - up) / up

        # ruin probability ((r^k - r^top) / (1 - r^top)); written to avoid overflow for r > 1
        def win(k):
            if r < 1:
                return (1 - r**k) / (1 - r**top)
            s = 1 / r
            return (s ** (top - k) - s**top) / (1 - s**top)

        expected_steps = np.array([k / (1 - 2 * up) - top / (1 - 2 * up) * win(k) for k in i])
    np.testing.assert_allclose(steps, expected_steps, rtol=1e-8, atol=1e-8)
    for s, row in rows.items():
        assert list(row.index) == [0, top]
        np.testing.assert_allclose(row.values, [1 - win(s), win(s)], rtol=1e-8, atol=1e-12)
    for s, val in one_steps.items():
        assert math.isclose(val, expected_steps[s - 1], rel_tol=1e-8)


def test_large_sparse_walk_does_not_form_N(monkeypatch):
    """expected_steps / absorption_probabilities(start=) must not go through the dense
    fundamental matrix."""
    chain = AbsorbingChain(_walk(2000, 0.5))

    def boom(*args, **kwargs):
        raise AssertionError("fundamental_matrix was called")

    monkeypatch.setattr(chain, "fundamental_matrix", boom)
    assert math.isclose(chain.expected_steps(start=1000), 1000 * 999, rel_tol=1e-10)
    assert math.isclose(chain.absorption_probabilities(start=1000)[1999], 1000 / 1999, rel_tol=1e-10)
    assert math.isclose(chain.steps_variance(start=1), chain.steps_variance()[1], rel_tol=1e-12)


def test_exact_long_walk():
    """A 300-state exact walk: duration k (n - 1 - k) and absorption k / (n - 1), exactly."""
    n = 300
    rows = [{0: F(1)}] + [{k - 1: h, k + 1: h} for k in range(1, n - 1)] + [{n - 1: F(1)}]
    chain = AbsorbingChain(rows)
    steps = chain.expected_steps()
    assert steps.tolist() == [k * (n - 1 - k) for k in range(1, n - 1)]
    assert chain.expected_steps(start=123) == 123 * 176
    assert chain.absorption_probabilities(start=123).tolist() == [F(176, 299), F(123, 299)]
