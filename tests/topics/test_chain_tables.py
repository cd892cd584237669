"""The chain tables (dragonkit.topics.chain): the tables agree with each other, a chain counts its
states and finds the one after given footprints."""

from __future__ import annotations

import numpy as np
import pytest

from dragonkit.analysis import fresh_turn
from dragonkit.rules import Ruleset
from dragonkit.topics.chain import chain_matrices, situation_after, state_counts, threshold_chain

MINI = Ruleset.preset("mini")


def test_the_chain_tables_agree_with_each_other():
    chain = threshold_chain(fresh_turn(MINI), 4)
    m = chain_matrices(chain)
    n = np.array(m["N"].to_numpy(), dtype=object)
    assert all(m["t"]["t"].to_numpy() == n.sum(axis=1))
    assert (m["B"].to_numpy() == n.dot(m["R"].to_numpy())).all()


STRIPES, MINI = Ruleset.preset("dragon-stripes"), Ruleset.preset("mini")


def test_a_chain_counts_its_states_and_finds_the_one_after_given_footprints():
    chain = threshold_chain(fresh_turn(MINI), 4)
    transient, absorbing = state_counts(chain)
    assert chain.Q.shape == (transient, transient) and chain.R.shape == (transient, absorbing)
    target = situation_after(chain, "1+1")
    assert target.drawn == "1+1" and target in chain.transient
    with pytest.raises(KeyError):
        situation_after(chain, "9+9")
