"""The lesson widgets of lessons 1 to 4 show every figure with its text alternative and its table, in the
page's language (each figure's own text: test_first_guess.py, test_next_card.py, test_one_push.py,
test_chain.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.sparse as sp

from dragonkit import i18n
from dragonkit.lessons.base import fresh_turn
from dragonkit.lessons.chain import ChainLab, spy_plot
from dragonkit.lessons.next_card import EXERCISE_DISCARDS, DeckExplorer
from dragonkit.lessons.observe import DeckView, FirstGuess
from dragonkit.lessons.one_more_card import MyopicVsOptimal, OnePushExplorer
from dragonkit.topics.chain import threshold_chain

from ..figures import alt_of
from .texts import ENGLISH


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
        english = {name: alt_of(getattr(view, attribute).value) for name, (view, attribute) in mine.items()}
        assert english["deck"].startswith("The deck: 51 cards")
        assert english["chain"].startswith("The turn as an absorbing Markov chain: 4 decision points")
        i18n.set_language("it")  # every figure is drawn again, its words with it
        for name, (view, attribute) in mine.items():
            alt = alt_of(getattr(view, attribute).value)
            assert alt != english[name] and not {w.lower() for w in re.findall(r"[A-Za-z]+", alt)} & ENGLISH, name
    finally:
        for view, _attribute in mine.values():
            view.close()


def test_the_spy_plot_has_its_alt_and_its_table():
    matrix = threshold_chain(fresh_turn("mini"), 4).Q
    shown = spy_plot(sp.csr_matrix(np.array(matrix, dtype=float)))
    assert 'alt="The sparsity pattern of a 4 × 4 matrix' in shown.data and "<table" in shown.data
