"""Lesson 4, the absorbing chain: the chain laboratory's matrices against a dense inverse and a brute-force
enumeration of every order of the classroom deck, its reading aloud, the code cells, the lesson's answers."""

from __future__ import annotations

import ast
import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

from dragonkit import i18n
from dragonkit.analysis import optimal_policy, turn_chain
from dragonkit.i18n.numbers import fraction_text
from dragonkit.lessons import base
from dragonkit.lessons import chain as L4
from dragonkit.plots.chain import spy_figure
from dragonkit.topics.chain import chain_matrices, outcome_order

from .helpers import _enumerated, _mini_orders, _prose

ROOT = Path(__file__).parents[2]


def test_the_enumeration_is_the_whole_deck():
    assert len(_mini_orders()) == 1680  # 8! / (3! 2! 2! 1!)
    assert sum(_enumerated(4)["dist"].values()) == 1


@pytest.mark.parametrize("threshold", [1, 3, 4, 7, 10])
@pytest.mark.slow
def test_chain_matrices_agree_with_a_dense_inverse_and_with_the_enumeration(threshold):
    lab = L4.ChainLab(threshold=threshold)
    m = lab.matrices()
    Q = m["Q"].to_numpy(dtype=object)
    N = m["N"].to_numpy(dtype=object)
    n = len(Q)
    # exact: N (I - Q) = I, and N = I + Q + Q^2 + ... (Q is nilpotent: the chain never returns)
    assert (N.dot(np.identity(n, dtype=object) - Q) == np.identity(n, dtype=object)).all()
    series, power = np.identity(n, dtype=object), np.identity(n, dtype=object)
    for _ in range(n):
        power = power.dot(Q)
        series = series + power
    assert (series == N).all()
    # float: numpy's dense inverse
    assert np.allclose(np.linalg.inv(np.identity(n) - Q.astype(float)), N.astype(float))
    assert (m["t"]["t"].to_numpy() == N.sum(axis=1)).all()
    B = m["B"].to_numpy(dtype=object)
    assert (N.dot(m["R"].to_numpy(dtype=object)) == B).all()
    assert all(sum(row) == 1 for row in B)
    # the start's row against every order of the deck played by the rules
    law = _enumerated(threshold)
    start = lab.chain.start
    assert m["t"].loc[start, "t"] == law["cards"]
    assert m["Br"].loc[start, "Br"] == sum(g * p for g, p in law["dist"].items())
    for label in lab.chain.transient:
        assert m["N"].loc[start, label] == law["visits"][(label.position, label.pot)]
    outcomes = m["B"].loc[start]
    assert outcomes["stopped"] == law["outcomes"]["stopped"]
    assert outcomes["final danger"] == law["outcomes"]["final_danger"]
    assert sum(outcomes[a] for a in outcomes.index if a.startswith("held")) == law["outcomes"].get("held", 0)
    assert len(lab.chain.transient) == len(law["visits"])


def test_outcome_columns_run_from_the_worst_to_the_best():
    chain = L4.ChainLab(threshold=7).chain
    order = outcome_order(chain)
    assert [chain.rewards[a] for a in order] == sorted(chain.rewards.values())
    assert list(chain_matrices(chain)["B"].columns) == order


def test_read_aloud_says_the_row_of_n_t_b_and_the_expected_gain():
    lab = L4.ChainLab(threshold=4)
    chain = lab.chain
    for state in chain.transient:
        text = L4.read_aloud(chain, state, "en")
        for target, visits in chain.fundamental_matrix().loc[state].items():
            if visits:
                assert L4.state_name(target, "en") in text and str(visits) in text
        assert f"{chain.expected_steps(start=state)}</span>" in text
        for outcome, p in chain.absorption_probabilities(start=state).items():
            if p:
                assert f"<b>{L4.state_name(outcome, 'en')}</b>" in text and str(p) in text
        assert fraction_text(chain.expected_reward(chain.rewards, start=state)) in text  # a true minus: −37/14
    with pytest.raises(ValueError, match="not a transient state"):
        L4.read_aloud(chain, "stopped")


@pytest.mark.slow
def test_the_chain_lab_follows_its_slider_and_the_state_picker():
    lab = L4.ChainLab(threshold=4)
    graph_before, table_before = lab.graph.value, lab.table.value
    assert "4 transient states" in lab.summary.value and "6 absorbing states" in lab.summary.value
    lab.slider.value = 7
    assert "8 transient states" in lab.summary.value
    assert lab.graph.value != graph_before and lab.table.value != table_before
    assert len(lab.state_picker.options) == 8
    chosen = lab.chain.transient[-1]
    lab.state_picker.value = chosen
    assert 'class="dk-row-on"><th>' + L4.state_name(chosen, "en") in lab.table.value
    assert L4.state_name(chosen, "en") in lab.reading.value
    lab.picker.value = "B"
    assert "B = N R" in lab.caption.value and "final danger" in lab.table.value
    lab.slider.value = 1  # the chosen state disappears: the picker falls back to the start
    assert lab.state_picker.value == lab.chain.start
    with pytest.raises(ValueError, match="threshold"):
        L4.ChainLab(threshold=0)


def test_the_real_deck_code_of_lesson_4_solves_the_sparse_chain():
    real = base.fresh_turn("dragon-stripes")
    chain = turn_chain(real, optimal_policy(real))
    Q, R = chain.Q, chain.R
    assert sp.issparse(Q) and Q.shape == (7945, 7945) and Q.nnz < 4 * 7945
    assert sp.triu(Q, k=1).nnz == Q.nnz  # layer order: strictly upper triangular
    n = Q.shape[0]
    e = np.zeros(n)
    e[chain.transient.index(chain.start)] = 1
    x = spsolve((sp.identity(n, format="csc") - Q).T.tocsc(), e)
    assert np.isclose(x.sum(), chain.expected_steps(start=chain.start))
    assert np.allclose(x @ R, chain.absorption_probabilities(start=chain.start).to_numpy(dtype=float))
    assert "7,945 × 7,945" in spy_figure(Q).axes[0].get_title()


def _shown_code(path: Path) -> str:
    """The one code cell of a lesson that JupyterLab shows (its source not hidden)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    shown = [c for c in cells if c["cell_type"] == "code" and not c["metadata"].get("jupyter", {}).get("source_hidden")]
    (cell,) = shown
    return "".join(cell["source"])


def _run_cell(source: str):
    """Run a cell as a kernel does: its statements, then its last line's value (what the cell shows)."""
    tree = ast.parse(source)
    namespace: dict = {}
    exec(compile(ast.Module(tree.body[:-1], []), "<cell>", "exec"), namespace)
    return eval(compile(ast.Expression(tree.body[-1].value), "<cell>", "eval"), namespace)


@pytest.mark.parametrize("folder", ["", "it"])
def test_lesson_4s_code_cell_runs_with_the_policy_it_suggests(folder):
    """The cell the prose asks the learner to run in JupyterLab: it runs as it is and with ``HoldAtPot(20)``, which
    the prose suggests (it once used the name without importing it), and shows its result as the page shows things,
    in the page's language, never as a printout."""
    source = _shown_code(ROOT / "notebooks" / folder / "04-absorbing-chain.ipynb")
    assert "print(" not in source and "policy = optimal_policy(real)" in source
    i18n.set_language(folder or "en")
    shown = _run_cell(source).data
    point = "," if folder == "it" else "."
    assert f"t = 3{point}5366" in shown and f"0{point}7252" in shown and f"0{point}0572" in shown
    shown = _run_cell(source.replace("policy = optimal_policy(real)", "policy = HoldAtPot(20)")).data
    assert f"t = 2{point}8311" in shown and "125 × 125" in shown


def test_the_sparse_solve_is_reported_in_words_and_a_table_in_the_pages_language():
    real = base.fresh_turn("dragon-stripes")
    chain = turn_chain(real, optimal_policy(real))
    B = chain.absorption_probabilities(start=chain.start).to_numpy(dtype=float)
    t = chain.expected_steps(start=chain.start)
    english, italian_ = L4.sparse_solve_html(chain, t, B, "en"), L4.sparse_solve_html(chain, t, B, "it")
    assert "7,945 transient states and 3 outcomes" in english and "14,698 non-zero entries (0.023%" in english
    assert "<b>t = 3.5366</b>" in english
    assert re.search(r'<th scope="row">stopped</th><td>−10 gems</td><td>0\.7252</td>', english)
    assert re.search(r'<th scope="row">head</th><td>\+400 gems</td><td>0\.0572</td>', english)
    assert "7.945 stati transitori e 3 esiti" in italian_ and "14.698 elementi non nulli (0,023%" in italian_
    assert "<b>t = 3,5366</b>" in italian_
    assert re.search(r'<th scope="row">stop</th><td>−10 gemme</td><td>0,7252</td>', italian_)
    assert "<caption>" in english and '<th scope="col">probabilità</th>' in italian_
    with pytest.raises(ValueError, match="x @ R"):
        L4.sparse_solve_html(chain, t, B[:2])


def test_lesson_4_answers_by_enumeration():
    answer = L4.answers()
    law4, law5 = _enumerated(4), _enumerated(5)
    assert answer["states"] == len(law5["visits"]) == 5
    target = answer["visits_state"]
    assert L4.state_name(target, "en") == "@2, pot 3"
    assert answer["visits"] == law4["visits"][(target.position, target.pot)] == Fraction(3, 28)
    assert answer["cards"] == law4["cards"] == Fraction(97, 56)
    assert answer["stopped"] == law4["outcomes"]["stopped"] == Fraction(13, 28)
    assert answer["gain"] == sum(g * p for g, p in law4["dist"].items()) == Fraction(-37, 14)


def test_the_real_chains_n_is_sparse_and_one_row_is_a_forward_substitution():
    """Review 1-5, items 1 and 6: N is not dense (N_ij != 0 only when j can be reached from i), and (I - Q)^T is
    lower triangular, so the start's row of N is solved forward from the start."""
    real = base.fresh_turn("dragon-stripes")
    chain = turn_chain(real, optimal_policy(real))
    Q = chain.Q.tocsr()
    n = Q.shape[0]
    assert (n, Q.nnz) == (7945, 14698)
    assert sp.triu(Q, k=1).nnz == Q.nnz  # card by card: every step goes to a later state
    reach = [0] * n  # the states each state can reach (itself included), as bits
    for i in reversed(range(n)):
        bits = 1 << i
        for j in Q.indices[Q.indptr[i] : Q.indptr[i + 1]]:
            bits |= reach[j]
        reach[i] = bits
    nonzero = sum(bin(bits).count("1") for bits in reach)
    assert nonzero == 248_999 and round(100 * nonzero / n**2, 1) == 0.4 and round(n**2 / 1e6) == 63
    start = chain.transient.index(chain.start)
    x = spsolve((sp.identity(n, format="csc") - Q).T.tocsc(), np.eye(1, n, start).ravel())
    assert np.count_nonzero(x) == bin(reach[start]).count("1")  # the row of N is non-zero where the start leads
    english, italian_ = _prose("04-absorbing-chain"), _prose("04-absorbing-chain", "it")
    assert "only about 249 thousand (0.4%) are non-zero" in english and "7,945 solves" in english
    assert "forward substitution" in english and "back substitution" not in english and "dense:" not in english
    assert "solo circa 249 mila (lo 0,4%) sono diversi da zero" in italian_ and "sostituzione in avanti" in italian_
    assert "only $2.5\\times10^5$ non-zero" in english and "**−37/14**" in english
