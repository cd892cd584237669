"""The figures of lessons 1 to 4 in words and numbers: each figure's text alternative and table are written from the
same data as the figure (the numbers checked here against values computed apart), in the page's language; the
lesson widgets show them (``alt`` and a table); and no figure tells its categories by colour alone."""

from __future__ import annotations

import html
import math
import re
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from matplotlib.patches import Rectangle

from dragonkit import Ruleset, i18n
from dragonkit.analysis import HoldAtPot, evaluate_policy
from dragonkit.analysis.chain_tables import threshold_chain
from dragonkit.analysis.deck import deck_after
from dragonkit.analysis.first_guess import GuessResult
from dragonkit.analysis.one_push import break_even_pot, compare_with_optimal, one_push, story_state, with_pot
from dragonkit.lessons.base import fresh_turn, largest_pot
from dragonkit.lessons.chain import ChainLab, spy_plot
from dragonkit.lessons.next_card import EXERCISE_DISCARDS, DeckExplorer
from dragonkit.lessons.observe import DeckView, FirstGuess
from dragonkit.lessons.one_more_card import MyopicVsOptimal, OnePushExplorer
from dragonkit.plots import chain_graph, chain_graph_text
from dragonkit.plots.chain import spy_figure_text
from dragonkit.plots.first_guess import guess_figure, guess_figure_text
from dragonkit.plots.next_card import composition_figure, composition_figure_text, explorer_figure_text
from dragonkit.plots.one_push import (
    HOLD_HATCH,
    myopic_figure,
    myopic_figure_text,
    one_push_figure,
    one_push_figure_text,
)
from dragonkit.plots.text import FigureText
from dragonkit.rules import Card

from ..i18n.test_notebooks import ENGLISH_WORDS as LESSON_WORDS
from ..ui.test_app_i18n import ENGLISH_WORDS as APP_WORDS

DRAGON = Ruleset.preset("dragon-stripes")
#: English words that an Italian text never holds (the lessons' and the apps' lists).
ENGLISH = LESSON_WORDS | APP_WORDS
#: Longer than this, a text alternative is too long to be read aloud (characters).
ALT_LIMIT = 300


@pytest.fixture(autouse=True)
def english_after():
    """Every test starts and ends in English."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(scope="module")
def guess() -> GuessResult:
    state = fresh_turn("mini")
    return GuessResult(state, 3, largest_pot(state))


@pytest.fixture(scope="module")
def rich_map():
    """Lesson 3's map with enough gems at stake that optimal play holds somewhere."""
    return compare_with_optimal(story_state(150))


def _number(text: str) -> float:
    """A number as English writes it (``-1,234.5`` -> -1234.5)."""
    return float(text.replace(",", ""))


def _checked(text: FigureText) -> FigureText:
    """A figure's text as every page needs it: a short alternative, a header and rows as long as it."""
    assert 0 < len(text.alt) <= ALT_LIMIT, text.alt
    assert text.columns and text.rows
    assert all(len(row) == len(text.columns) for row in text.rows)
    return text


def _italian(text: FigureText) -> None:
    """An Italian text: no English word, and its decimals written with a comma."""
    cells = [cell for row in text.rows for cell in row]
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", " ".join([text.alt, *text.columns, *cells]))}
    assert not words & ENGLISH, (words & ENGLISH, text.alt)
    for number in re.findall(r"\d[\d.,]*\d", text.alt):  # a point only between thousands: 7.945, 2.000,5
        assert "." not in number or re.fullmatch(r"[1-9]\d{0,2}(\.\d{3})+(,\d+)?", number), (number, text.alt)


# -- lesson 1: the first guess ---------------------------------------------------------------------------------


def test_the_guess_text_gives_the_curves_points(guess):
    text = _checked(guess_figure_text(guess, "en"))
    state = fresh_turn("mini")
    exact = evaluate_policy(state, HoldAtPot(3), exact=True)
    rows = {row[0]: row[1:] for row in text.rows}
    assert rows["your guess: hold at 3"] == (f"{float(exact.expected_gain):.3f}", f"{float(exact.p_loss):.3f}")
    assert f"t = 3: {float(exact.expected_gain):.3f} gems" in text.alt
    assert f"Optimal play: {float(guess.optimal):.3f} gems" in text.alt
    scan = guess.scan[guess.scan["threshold"].notna()]
    lowest = scan.loc[scan["expected_gain"].astype(float).idxmin()]
    assert rows[f"the curve's lowest point: hold at {int(lowest['threshold'])}"][0] == f"{lowest['expected_gain']:.3f}"
    best = f"best hold-at-t: hold at {guess.best_threshold}"
    assert _number(rows[best][0]) == pytest.approx(scan["expected_gain"].astype(float).max(), abs=5e-4)
    # the figure draws the same points: the guess's marker and the best one
    gain_ax = guess_figure(guess).axes[0]
    marks = {line.get_label(): (line.get_xdata()[0], line.get_ydata()[0]) for line in gain_ax.lines}
    assert marks["your guess: t = 3"] == (3, pytest.approx(float(exact.expected_gain)))
    assert marks[f"best hold-at-t: t = {guess.best_threshold}"][1] == pytest.approx(_number(rows[best][0]), abs=5e-4)


def test_the_guess_text_speaks_italian(guess):
    text = _checked(guess_figure_text(guess, "it"))
    _italian(text)
    assert text.alt.startswith("Politiche «fermati a t»") and text.columns[0] == "politica"


# -- lesson 2: the deck ----------------------------------------------------------------------------------------


def test_the_deck_text_counts_the_bars():
    deck = DRAGON.composition
    text = _checked(composition_figure_text(deck, lang="en"))
    assert text.alt.startswith(
        "The deck: 51 cards: 38 footprints (1 step ×14, 2 steps ×12, 3 steps ×8, 4 steps ×4), 10 stops, 3 dangers."
    )
    assert "footprint with probability 38/51 ≈ 0.745, a stop or a danger with 13/51 ≈ 0.255" in text.alt
    assert text.columns == ("card", "left in the deck", "P(the next card is of that kind)")
    assert [row[:2] for row in text.rows] == [(card.describe("en"), str(n)) for card, n in deck.counts()]
    # the figure writes the same count/total over each bar
    labels = [t.get_text() for t in composition_figure(deck).axes[0].texts]
    assert labels == [row[2].split(" ≈")[0] for row in text.rows]


def test_the_deck_text_counts_the_discards_and_agrees_in_number():
    left = deck_after(DRAGON, EXERCISE_DISCARDS)
    text = _checked(composition_figure_text(left, DRAGON.composition, "en"))
    assert text.alt.startswith("The deck: 40 of 51 cards left: 31 footprints (1 step ×11, 2 steps ×10")
    assert text.columns[2] == "discarded"
    assert {row[0]: int(row[2]) for row in text.rows} == {c.describe("en"): n for c, n in EXERCISE_DISCARDS.items()}
    for row in text.rows:
        count, total = map(int, row[3].split(" ≈")[0].split("/"))
        assert (count, total) == (int(row[1]), 40)
        assert _number(row[3].split("≈ ")[1]) == pytest.approx(count / 40, abs=5e-4)
    lonely = deck_after(DRAGON, {Card("danger"): 2, Card("stop"): 9})
    assert "1 stop, 1 danger." in composition_figure_text(lonely, DRAGON.composition, "en").alt


def test_the_explorer_text_gives_each_k_without_and_with_replacement():
    left = deck_after(DRAGON, EXERCISE_DISCARDS)
    text = _checked(explorer_figure_text(left, DRAGON.composition, 6, "en"))
    n, f = 40, 31
    for k, (shown_k, without, with_) in enumerate(text.rows, start=1):
        assert int(shown_k) == k
        assert _number(without) == pytest.approx(float(math.prod(Fraction(f - i, n - i) for i in range(k))), abs=5e-5)
        assert _number(with_) == pytest.approx(float(Fraction(f, n) ** k), abs=5e-5)
    assert "falls from 0.7750 for k = 1 to 0.1918 for k = 6 without replacement, to 0.2167 with" in text.alt
    assert "31 footprints" in text.alt


@pytest.mark.slow
def test_the_deck_texts_speak_italian():
    left = deck_after(DRAGON, EXERCISE_DISCARDS)
    for text in (
        composition_figure_text(DRAGON.composition, lang="it"),
        composition_figure_text(left, DRAGON.composition, "it"),
        explorer_figure_text(left, DRAGON.composition, 6, "it"),
    ):
        _italian(_checked(text))
    assert "38 impronte (1 passo ×14, 2 passi ×12" in composition_figure_text(DRAGON.composition, lang="it").alt


# -- lesson 3: one more card -----------------------------------------------------------------------------------


def test_the_one_push_text_gives_each_curves_break_even_pot():
    state = story_state()
    push, point = one_push(state), break_even_pot(state)
    text = _checked(one_push_figure_text(push, point, 80, 200, "en"))
    assert text.columns == ("player's gems", "break-even pot (gems)", "E1 − pot at a pot of 24 gems")
    rows = {row[0]: row[1:] for row in text.rows}
    assert set(rows) == {"10 gems", "40 gems (you)", "100 gems", "200 gems"}
    for name, (shown, advantage) in rows.items():
        gems = int(name.split()[0])
        rich = state.replace(gems=gems)
        assert _number(shown) == pytest.approx(float(break_even_pot(rich)), abs=0.005)
        assert _number(advantage) == pytest.approx(float(one_push(with_pot(rich, 24)).value - 24), abs=0.005)
    never = min(g for g in range(0, 201, 2) if break_even_pot(state.replace(gems=g)) == 0)
    assert f"0 from {never} gems on" in text.alt
    assert f"E1 − pot = {float(push.advantage):.2f} gems" in text.alt
    assert f"break-even pot is {float(point):.2f} gems" in text.alt


def test_the_one_push_curves_differ_by_their_dashes_too():
    state = story_state()
    curves = one_push_figure(one_push(state), break_even_pot(state), 80, 200).axes[0]
    levels = [line for line in curves.lines if "gems" in line.get_label()]
    assert len(levels) == 4 and len({str(line.get_linestyle()) for line in levels}) == 4


def test_the_map_text_counts_the_cells(rich_map):
    text = _checked(myopic_figure_text(rich_map, "en"))
    counts = np.array([[_number(cell) if cell != "—" else -1 for cell in row] for row in text.rows])
    advantage = rich_map.advantage
    assert counts[:, 2].sum() == rich_map.reachable == advantage.notna().to_numpy().sum()
    assert counts[:, 3].sum() == rich_map.hold_points == (advantage.to_numpy(dtype=float) <= 0).sum() > 0
    assert counts[:, 5].sum() == rich_map.disagree
    for row in counts:
        position = int(row[0])
        assert row[1] == pytest.approx(float(rich_map.break_even[position]), abs=0.005)
        column = advantage[position].dropna()
        holds = column[column <= 0].index
        assert row[4] == (min(holds) if len(holds) else -1)
    assert f"holds at {rich_map.hold_points}." in text.alt and f"differs from it at {rich_map.disagree};" in text.alt


def test_the_map_hatches_every_cell_where_optimal_play_holds(rich_map):
    ax = myopic_figure(rich_map).axes[0]
    hatched = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_hatch() == HOLD_HATCH]
    assert sum(p.get_width() * p.get_height() for p in hatched) == rich_map.hold_points
    advantage = rich_map.advantage
    for patch in hatched:
        x, y = patch.get_xy()
        cells = advantage[int(x + 0.5)].sort_index().loc[int(y + 0.5) : int(y + patch.get_height() - 0.5)]
        assert len(cells) == patch.get_height() and (cells <= 0).all()
    assert [t.get_text() for t in ax.get_legend().get_texts()][1:] == [
        "optimal play reveals",
        "optimal play holds (hatched)",
    ]


def test_the_lesson_3_texts_speak_italian(rich_map):
    state = story_state()
    _italian(_checked(one_push_figure_text(one_push(state), break_even_pot(state), 80, 200, "it")))
    _italian(_checked(myopic_figure_text(rich_map, "it")))


# -- lesson 4: the chain ---------------------------------------------------------------------------------------


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


# -- the lesson widgets ----------------------------------------------------------------------------------------


def _alt(value: str) -> str:
    return html.unescape(re.search(r'alt="([^"]*)"', value).group(1))


@pytest.mark.slow
def test_every_lesson_figure_has_its_alt_and_its_table():
    guess = FirstGuess()
    guess.record()
    mine = {
        "deck": (DeckView(), "picture"),
        "guess": (guess, "picture"),
        "explorer": (DeckExplorer(discards=EXERCISE_DISCARDS), "picture"),
        "one push": (OnePushExplorer(), "picture"),
        "map": (MyopicVsOptimal(), "picture"),
        "chain": (ChainLab(), "graph"),
    }
    try:
        for name, (view, attribute) in mine.items():
            value = getattr(view, attribute).value
            assert 'alt="' in value and "<table" in value and "data:image/png;base64," in value, name
        english = {name: _alt(getattr(view, attribute).value) for name, (view, attribute) in mine.items()}
        assert english["deck"].startswith("The deck: 51 cards")
        assert english["chain"].startswith("The turn as an absorbing Markov chain: 4 decision points")
        i18n.set_language("it")  # every figure is drawn again, its words with it
        for name, (view, attribute) in mine.items():
            alt = _alt(getattr(view, attribute).value)
            assert alt != english[name] and not {w.lower() for w in re.findall(r"[A-Za-z]+", alt)} & ENGLISH, name
    finally:
        for view, _attribute in mine.values():
            view.close()


def test_the_spy_plot_has_its_alt_and_its_table():
    matrix = threshold_chain(fresh_turn("mini"), 4).Q
    shown = spy_plot(sp.csr_matrix(np.array(matrix, dtype=float)))
    assert 'alt="The sparsity pattern of a 4 × 4 matrix' in shown.data and "<table" in shown.data
