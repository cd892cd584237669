r"""Lesson 4: the turn as an absorbing Markov chain.

Under a fixed policy a turn is an absorbing chain (:func:`dragonkit.analysis.turn_chain`):
its transient states are the decision points where the policy reveals a card,
one step is one card, and the absorbing states are the turn's outcomes.  This
module shows that chain for the classroom deck (``mini``):

* :class:`ChainLab` — a slider for the policy *hold when the pot reaches h*,
  the chain's graph, the matrices :math:`P, Q, R, N = (I-Q)^{-1}, t = N\mathbf 1,
  B = NR` and the expected gem change :math:`Br` as exact-fraction tables, and a
  panel that reads a chosen row of them aloud in words;
* :func:`spy_plot` — the sparsity pattern of a large chain's :math:`Q`
  (:func:`dragonkit.plots.chain.spy_figure`);
* :func:`sparse_solve_report` — what the lesson's code finds for the real deck (the sizes of :math:`Q`
  and :math:`R`, :math:`t` and the start's row of :math:`B`), in words and a table for the page;
* :func:`answers` — the exercises' answers, read off the chains.

:func:`state_name` names the chain's states for people.  Every number comes from
:mod:`dragonkit.analysis` (the tables: :mod:`dragonkit.topics.chain`) and
:mod:`dragonkit.markov`.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

import ipywidgets as widgets
import numpy as np
import pandas as pd

from .. import i18n
from ..analysis import TurnState
from ..i18n import N_, tr
from ..i18n.numbers import decimal_text, fraction_text, integer_text, percent_text
from ..plots.chain import spy_figure, spy_figure_text
from ..plots.render import figure_png
from ..rules import Ruleset, whole_number
from ..style import CSS
from ..topics.chain import chain_matrices, outcome_order, situation_after, state_counts, threshold_chain
from ..ui.figures import FigureView, figure_html
from ..ui.numbers import number_html
from .base import LessonWidget, fresh_turn, policy_name

__all__ = [
    "ChainLab",
    "StateName",
    "answers",
    "read_aloud",
    "sparse_solve_report",
    "spy_plot",
    "state_name",
]

MATRICES = ("P", "Q", "R", "N", "t", "B", "Br")


def state_name(label, lang: str | None = None) -> str:
    """A chain state's name for people: ``@2, pot 3`` for a decision point (a
    :class:`~dragonkit.analysis.Situation`), the translated outcome otherwise."""
    if hasattr(label, "position") and hasattr(label, "pot"):
        return tr("@{position}, pot {pot}", lang, position=label.position, pot=label.pot)
    text = str(label)
    if text.startswith("held "):
        return tr("held {pot}", lang, pot=text.split(" ", 1)[1])
    return tr(text, lang)  # "stopped", "danger", "final danger", "head", "deck empty"


class StateName:
    """A chain state's name as a field of a translated text (:func:`state_name` in the language asked for).

    Examples
    --------
    ``Message("the knight visits {state}", state=StateName(label))`` reads in every language.
    """

    def __init__(self, label: object):
        self.label = label

    def describe(self, lang: str | None = None) -> str:
        """The state's name in ``lang`` (default: the current language)."""
        return state_name(self.label, lang)


# -- the chain of the mini deck -----------------------------------------------------------


def _matrix_html(frame: pd.DataFrame, lang: str, highlight=None) -> str:
    """An exact table as HTML: fractions, zeros as a faint dot, readable state names, one row highlighted."""
    head = "".join(f"<th>{escape(state_name(c, lang))}</th>" for c in frame.columns)
    rows = []
    for label, row in frame.iterrows():
        cells = "".join(
            '<td class="dk-zero">·</td>' if v == 0 else f'<td class="dk-frac">{fraction_text(v)}</td>' for v in row
        )
        on = ' class="dk-row-on"' if label == highlight else ""
        rows.append(f"<tr{on}><th>{escape(state_name(label, lang))}</th>{cells}</tr>")
    corner = f'<th><span class="dk-sr-only">{escape(tr("from (row), to (column)", lang))}</span></th>'
    return f'<table class="dk-matrix"><tr>{corner}{head}</tr>{"".join(rows)}</table>'


def read_aloud(chain, start, lang: str | None = None) -> str:
    """The row ``start`` of N, t, B and Br of a turn chain, said in words (HTML).

    Parameters
    ----------
    chain : dragonkit.analysis.TurnChain
    start : Situation
        A transient state of ``chain``.

    Raises
    ------
    ValueError
        If ``start`` is not a transient state of the chain.
    """
    lang = lang or i18n.get_language()
    if start not in chain.transient:
        raise ValueError(f"{start!r} is not a transient state of this chain")
    visits = chain.fundamental_matrix().loc[[start]].iloc[0]
    here = f"<b>{escape(state_name(start, lang))}</b>"
    lines = []
    for target, n in visits.items():
        if n:
            lines.append(
                tr(
                    N_("the knight is at {state} now: {visits} visit, this one")
                    if target == start
                    else N_("the knight visits {state} on average {visits} times"),
                    lang,
                    state=f"<b>{escape(state_name(target, lang))}</b>",
                    visits=number_html(n, lang=lang),
                )
            )
    ends = chain.absorption_probabilities(start=start)
    outcome_lines = [
        tr(
            "{outcome} ({change}) with probability {p}",
            lang,
            outcome=f"<b>{escape(state_name(a, lang))}</b>",
            change=i18n.Gems(chain.rewards[a]),
            p=number_html(p, lang=lang),
        )
        for a, p in ends[outcome_order(chain)].items()
        if p
    ]
    parts = [
        tr("From {state} (row {state} of N, t and B):", lang, state=here),
        "<ul>" + "".join(f"<li>{line}</li>" for line in lines) + "</ul>",
        tr(
            "From here the turn lasts on average {t} cards (t, the sum of the row of N).",
            lang,
            t=number_html(chain.expected_steps(start=start), lang=lang),
        ),
        "<br>" + tr("It ends (row of B = N R):", lang),
        "<ul>" + "".join(f"<li>{line}</li>" for line in outcome_lines) + "</ul>",
        tr(
            "Expected gem change from here: {value} (B r, with r the gems each outcome pays).",
            lang,
            value=number_html(chain.expected_reward(chain.rewards, start=start), lang=lang),
        ),
    ]
    return '<div class="dk-read">' + "".join(parts) + "</div>"


_CAPTIONS = {
    "P": N_("P in canonical form: the transient states first, then the absorbing ones (the identity block)."),
    "Q": N_("Q: one card's transitions between transient states (the policy reveals again)."),
    "R": N_("R: one card's transitions from a transient state to an outcome (an absorbing state)."),
    "N": N_("N = (I − Q)⁻¹, the fundamental matrix: N[i, j] is the expected number of visits to j starting from i."),
    "t": N_("t = N 1: the expected number of cards revealed from each transient state to the end of the turn."),
    "B": N_("B = N R: the probability of ending in each outcome, from each transient state."),
    "Br": N_("B r: the expected gem change to the end of the turn, where r is what each outcome pays."),
}


class ChainLab(LessonWidget):
    """The classroom deck's turn as an absorbing chain, under *hold when the pot reaches h*.

    A slider sets the threshold h (hold at h); the chain's graph, the matrices (exact
    fractions) and a reading in words of one transient state's row follow it.

    Parameters
    ----------
    threshold : int
        The initial h (gems), 1 to ``max_threshold``.
    rules : Ruleset or str
        The deck (default ``"mini"``; the graph is readable only for small chains).
    max_threshold : int
        The slider's largest t (gems).
    gems : int, optional
        The active player's gems (default: the ruleset's starting gems).

    Raises
    ------
    ValueError
        If ``threshold`` is not a whole number in 1..max_threshold.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The laboratory, displayed by the notebook.
    """

    def __init__(
        self, threshold: int = 4, rules: Ruleset | str = "mini", max_threshold: int = 10, gems: int | None = None
    ):
        threshold = whole_number(threshold, "threshold", minimum=1, maximum=max_threshold)
        self.state = fresh_turn(rules, gems=gems)
        self.slider = widgets.IntSlider(
            value=int(threshold),
            min=1,
            max=max_threshold,
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="640px"),
        )
        self.summary = widgets.HTML()
        self.graph = FigureView("760px")
        self.picker = widgets.ToggleButtons(
            options=[(m, m) for m in MATRICES], value="N", style={"button_width": "46px"}
        )
        self.caption = widgets.HTML()
        self.table = widgets.HTML(layout=widgets.Layout(overflow="auto", max_width="980px"))
        self.state_picker = widgets.Dropdown(
            style={"description_width": "initial"}, layout=widgets.Layout(width="360px")
        )
        self.reading = widgets.HTML()
        self.titles = [widgets.HTML() for _ in range(3)]
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                self.slider,
                self.summary,
                self.titles[0],
                self.graph,
                self.titles[1],
                self.picker,
                self.caption,
                self.table,
                self.titles[2],
                self.state_picker,
                self.reading,
            ]
        )
        self.widget.add_class("dk-lesson")
        self.slider.observe(self._on_threshold, names="value")
        self.picker.observe(lambda _c: self._draw_table(), names="value")
        self.state_picker.observe(self._on_state, names="value")
        self._state_options(i18n.get_language())
        self.state_picker.value = self.chain.start
        self._follow_language()

    @property
    def chain(self):
        """The current :class:`~dragonkit.analysis.TurnChain` (exact)."""
        return threshold_chain(self.state, self.slider.value)

    def matrices(self) -> dict[str, pd.DataFrame]:
        """The current chain's tables (see :func:`chain_matrices`)."""
        return _matrices(self.state, self.slider.value)

    def _on_threshold(self, _change=None) -> None:
        chain = self.chain
        chosen = self.state_picker.value
        self._state_options(i18n.get_language())
        self.state_picker.value = chosen if chosen in chain.transient else chain.start
        self._redraw()

    def _state_options(self, lang: str) -> None:
        options = [(state_name(s, lang), s) for s in self.chain.transient]
        if list(self.state_picker.options) != options:
            value = self.state_picker.value
            self.state_picker.options = options
            if value in self.chain.transient:
                self.state_picker.value = value

    def _on_state(self, _change=None) -> None:
        if self.state_picker.value is not None:
            self._draw_table()
            self.reading.value = read_aloud(self.chain, self.state_picker.value)

    def _redraw(self, _change=None) -> None:
        from ..plots.chain import chain_graph, chain_graph_text

        lang = i18n.get_language()
        chain = self.chain
        self.slider.description = tr("Policy: hold when the pot reaches h =", lang)
        self.summary.value = (
            "<p>"
            + tr(
                "Under “{policy}” the turn is a chain with {t} transient states (decision points where the policy "
                "reveals) and {a} absorbing states (the outcomes). One step of the chain is one card.",
                lang,
                policy=policy_name(chain.policy, lang),
                t=state_counts(chain)[0],
                a=state_counts(chain)[1],
            )
            + "</p>"
        )
        heads = (
            tr("The chain's graph (arrows: one card, with its probability)", lang),
            tr("The matrices, in exact fractions", lang),
            tr("Read a row aloud", lang),
        )
        for widget, text in zip(self.titles, heads):
            widget.value = f"<h3>{text}</h3>"
        self.state_picker.description = tr("Start from", lang)
        self._state_options(lang)
        self.graph.show(chain_graph(chain), chain_graph_text(chain, lang), lang)
        self._on_state()

    def _draw_table(self) -> None:
        lang = i18n.get_language()
        name = self.picker.value
        self.caption.value = f'<div class="dk-caption">{tr(_CAPTIONS[name], lang)}</div>'
        self.table.value = _matrix_html(self.matrices()[name], lang, highlight=self.state_picker.value)


@lru_cache(maxsize=64)
def _matrices(state: TurnState, threshold: int) -> dict[str, pd.DataFrame]:
    return chain_matrices(threshold_chain(state, threshold))


# -- the real deck: sparse matrices ----------------------------------------------------------


def spy_plot(matrix, title: str | None = None):
    """:func:`spy_figure` for a notebook cell (and Voilà): the picture with its text alternative and its
    counts as a table (:func:`~dragonkit.ui.figures.figure_html`), in the current language.

    Returns
    -------
    IPython.display.HTML
    """
    from IPython.display import HTML

    return HTML(figure_html(figure_png(spy_figure(matrix, title)), spy_figure_text(matrix), "520px"))


def sparse_solve_html(chain, t: float, B, lang: str | None = None) -> str:
    """What the sparse solve of a turn chain found, as HTML in ``lang``: the sizes of Q and R in a sentence, then
    t and the start's row of B (outcome, gem change, probability) in a table, numbers as the language writes them.

    Parameters
    ----------
    chain : dragonkit.analysis.TurnChain
        The chain solved (Q and R sparse or dense).
    t : float
        The expected number of cards from the start: the sum of the start's row of N.
    B : array of float
        The start's row of B = N R, one probability per absorbing state in ``chain.absorbing``'s order.
    lang : str, optional
        The language (default: the current one).

    Raises
    ------
    ValueError
        If ``B`` does not have one probability per absorbing state of ``chain``.
    """
    lang = lang or i18n.get_language()
    probabilities = np.asarray(B, dtype=float).ravel()
    if len(probabilities) != len(chain.absorbing):
        raise ValueError(
            f"B has {len(probabilities)} entries, the chain {len(chain.absorbing)} absorbing states: pass x @ R"
        )
    n, outcomes = chain.Q.shape[0], len(chain.absorbing)
    nonzero = chain.Q.nnz if hasattr(chain.Q, "nnz") else int(np.count_nonzero(chain.Q))
    sizes = tr(
        "The chain has {states} transient states and {outcomes} outcomes. Q is a {n} × {n} matrix with "
        "{nonzero} non-zero entries ({share} of its entries); R is {n} × {outcomes}.",
        lang,
        states=integer_text(n, lang),
        outcomes=integer_text(outcomes, lang),
        n=integer_text(n, lang),
        nonzero=integer_text(nonzero, lang),
        share=percent_text(nonzero / n**2, 3, lang),
    )
    cards = tr(
        "From the start, a turn reveals on average <b>t = {t}</b> cards (the sum of the start's row of N), and it "
        "ends as the start's row of B says:",
        lang,
        t=decimal_text(float(t), 4, lang),
    )
    by_outcome = dict(zip(chain.absorbing, probabilities))
    rows = []
    for outcome in outcome_order(chain):
        change = chain.rewards[outcome]
        rows.append(
            f'<tr><th scope="row">{escape(state_name(outcome, lang))}</th>'
            f"<td>{'+' if change > 0 else ''}{escape(i18n.gems(change, lang))}</td>"
            f"<td>{decimal_text(by_outcome[outcome], 4, lang)}</td></tr>"
        )
    head = "".join(f'<th scope="col">{escape(tr(c, lang))}</th>' for c in _REPORT_COLUMNS)
    caption = escape(tr("How the turn ends: the start's row of B = N R", lang))
    return (
        f'<div class="dk-coach dk-sparse"><p>{sizes}</p><p>{cards}</p>'
        f'<table class="dk-values"><caption>{caption}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


#: The columns of :func:`sparse_solve_html`'s table.
_REPORT_COLUMNS = (N_("outcome"), N_("gem change"), N_("probability"))


def sparse_solve_report(chain, t: float, B):
    """:func:`sparse_solve_html` for a notebook cell (and Voilà), in the current language: the result of the
    lesson's code shown as a page shows it, not as Python's printout.

    Returns
    -------
    IPython.display.HTML
    """
    from IPython.display import HTML

    return HTML(CSS + sparse_solve_html(chain, t, B))


# -- exercises --------------------------------------------------------------------------------


def answers(rules: Ruleset | str = "mini") -> dict:
    """The answers of lesson 4's exercises, read off the exact chains of the classroom deck.

    Returns
    -------
    dict
        ``"states"``: transient states under hold at 5 (int);
        ``"visits_state"``: the Situation reached by two 1-step footprints, and
        ``"visits"``: its entry of N from the start under hold at 4 (Fraction);
        ``"cards"``: t at the start under hold at 4 (cards, Fraction);
        ``"stopped"``: B[start, stopped] under hold at 4 (Fraction);
        ``"gain"``: the expected gem change B r at the start under hold at 4 (gems, Fraction).
    """
    state = fresh_turn(rules)
    chain4, chain5 = threshold_chain(state, 4), threshold_chain(state, 5)
    target = situation_after(chain4, "1+1")
    return {
        "states": state_counts(chain5)[0],
        "visits_state": target,
        "visits": chain4.fundamental_matrix().loc[chain4.start, target],
        "cards": chain4.expected_steps(start=chain4.start),
        "stopped": chain4.absorption_probabilities(start=chain4.start)["stopped"],
        "gain": chain4.expected_reward(chain4.rewards, start=chain4.start),
    }
