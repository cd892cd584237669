"""The chain's figures (dragonkit.plots.chain): lesson 4's texts (every arrow, decision points told from
outcomes by their shape, the spy plot), and the laboratory's plots (figures returned, none left registered,
large chains refused)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from matplotlib.figure import Figure

from dragonkit.analysis import (
    HoldAfterReveals,
    HoldAtPot,
    compare_policies,
    evaluate_policy,
    optimal_policy,
    policy_map,
    turn_chain,
)
from dragonkit.lessons.base import fresh_turn
from dragonkit.plots.chain import chain_graph, chain_graph_text, spy_figure_text
from dragonkit.plots.policy import outcome_bars, policy_heatmap, threshold_curve
from dragonkit.plots.render import figure_png
from dragonkit.topics.chain import threshold_chain

from ..analysis.turn.oracle import seeded_situations
from ..situations import fresh_state
from .texts import _checked, _italian

# ---------------------------------------------------------------------------------
# 11. Plots
# ---------------------------------------------------------------------------------


def check_figure(fig) -> None:
    assert isinstance(fig, Figure)
    assert fig.axes, "the figure has no axes"
    png = figure_png(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_plots_return_figures_and_leave_none_registered():
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    mini = fresh_state("mini")
    kali = seeded_situations(9000, "kali", 1)[0]
    check_figure(policy_heatmap(policy_map(mini)))
    check_figure(policy_heatmap(policy_map(kali)))
    for exact in (True, False):
        e = evaluate_policy(mini, HoldAtPot(3), exact=exact)
        fig = outcome_bars(e)
        check_figure(fig)
        assert len(fig.axes[0].patches) == len(e.distribution)
    check_figure(outcome_bars(evaluate_policy(kali, optimal_policy(kali))))
    check_figure(threshold_curve(compare_policies(mini)))
    check_figure(threshold_curve(compare_policies(kali, [1, 5, 9], exact=True)))
    for policy in (optimal_policy(mini), HoldAtPot(3), HoldAfterReveals(2)):
        check_figure(chain_graph(turn_chain(mini, policy, exact=True)))
    check_figure(chain_graph(turn_chain(mini, HoldAtPot(3))))
    assert plt.get_fignums() == before == []


def test_chain_graph_refuses_large_chains():
    import matplotlib.pyplot as plt

    mini = fresh_state("mini")
    chain = turn_chain(mini, HoldAtPot(3), exact=True)
    size = len(chain.transient) + len(chain.absorbing)
    with pytest.raises(ValueError):
        chain_graph(chain, max_states=size - 1)
    check_figure(chain_graph(chain, max_states=size))
    big = turn_chain(fresh_state("dragon-stripes"), HoldAtPot(30))
    assert len(big.transient) + len(big.absorbing) > 60
    with pytest.raises(ValueError):
        chain_graph(big)
    assert plt.get_fignums() == []


def test_the_chain_text_lists_every_arrow():
    chain = threshold_chain(fresh_turn("mini"), 4)
    text = _checked(chain_graph_text(chain, "en"))
    assert text.columns == ("from state", "to state", "probability")
    arrows = int((chain.Q != 0).sum() + (chain.R != 0).sum())
    assert len(text.rows) == arrows
    assert f"{len(chain.transient)} decision points" in text.alt and f"{arrows} arrows" in text.alt
    sums: dict[str, Fraction] = {}
    for source, _target, p in text.rows:
        sums[source] = sums.get(source, Fraction(0)) + Fraction(p)
    assert len(sums) == len(chain.transient) and set(sums.values()) == {1}
    assert ("@0 pot 0", "stopped", "1/4") in text.rows
    # the graph draws the same arrows, with the same probabilities
    graph = chain_graph(chain).axes[0]
    assert sorted(t.get_text() for t in graph.texts if "/" in t.get_text()) == sorted(row[2] for row in text.rows)


def test_the_chain_graph_tells_decision_points_from_outcomes_by_shape():
    chain = threshold_chain(fresh_turn("mini"), 4)
    ax = chain_graph(chain).axes[0]
    nodes = [c for c in ax.collections if len(c.get_offsets()) and c.get_paths()]
    sizes = sorted(len(c.get_offsets()) for c in nodes[:2])
    assert sizes == sorted([len(chain.transient), len(chain.absorbing)])
    assert len({len(c.get_paths()[0].vertices) for c in nodes[:2]}) == 2  # a circle and a square
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "circle: a decision point, the policy reveals",
        "square: an outcome, the turn ends",
    ]


def test_the_spy_text_counts_the_entries_and_leaves_the_matrix_alone():
    matrix = sp.csr_matrix(np.array([[0, 1, 2, 0], [0, 3, 0, 4], [5, 0, 0, 0], [0, 0, 0, 0]], dtype=float))
    matrix.data[0] = 0.0  # an entry stored as 0: spy draws no dot for it
    text = _checked(spy_figure_text(matrix, "en"))
    values = dict(text.rows)
    assert (values["rows"], values["columns"], values["non-zero entries"]) == ("4", "4", "4")
    assert (values["above the diagonal"], values["on the diagonal"], values["below the diagonal"]) == ("2", "1", "1")
    assert values["share of all entries"] == "25.000%" and values["non-zero entries in the fullest row"] == "2"
    assert values["rows without a non-zero entry"] == "1" and values["non-zero entries per row, on average"] == "1.00"
    assert "4 × 4 matrix: a dot for each of its 4 non-zero entries (25.000% of all); 2 lie above" in text.alt
    assert matrix.nnz == 5  # the caller's matrix keeps its stored zero


def test_the_lesson_4_texts_speak_italian():
    chain = threshold_chain(fresh_turn("mini"), 4)
    text = chain_graph_text(chain, "it")
    _italian(_checked(text))
    assert ("@0 piatto 0", "stop", "1/4") in text.rows
    big = sp.random(2000, 2000, density=0.001, format="csr", random_state=1)
    text = spy_figure_text(big, "it")
    _italian(_checked(text))
    assert "2.000 × 2.000" in text.alt
