"""Our class's data (dragonkit.topics.our_class): where they come from (the record, or the sample labelled as one),
the stopping choices judged by the record's exact values and the boundary against a brute-force expectimax, the
cards' exact chances against a count of every order of a small deck, the Monte Carlo of the same reveals."""

from __future__ import annotations

import itertools
from datetime import date
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from dragonkit.game_state import GameState
from dragonkit.record import session as record_session
from dragonkit.record import visit
from dragonkit.rules import DANGER_CARD, STOP_CARD, Card
from dragonkit.topics import our_class

from ..class_rows import MINI, POOR, decision, frame, mini_turn, short_holds
from ..expectimax import expectimax


def test_the_choices_are_judged_by_the_records_exact_values():
    turn = [decision(state, action, card=card) for state, action, card in mini_turn()]
    choices = our_class.stopping_choices(frame(turn + short_holds()))
    # the compulsory reveal is no choice; then two reveals past the boundary, a hold on it, two holds short of it
    assert choices["id"].tolist() == [2, 3, 4, 5, 6]
    assert choices["verdict"].tolist() == ["past", "past", "held", "short", "short"]
    assert choices["best"].tolist() == ["hold", "hold", "hold", "reveal", "reveal"]
    # mini, by plain expectimax: reveal 3/7 at pot 2, 5/3 at pot 5; holding pays the pot
    assert choices["given_up"].tolist() == [2 - Fraction(3, 7), 5 - Fraction(5, 3), 0, Fraction(8, 7), Fraction(1, 3)]
    summary = our_class.stopping_summary(choices)
    row = summary.loc[("mini", 0)]
    assert (row["choices"], row["holds"], row["short"], row["past"]) == (5, 3, 2, 2)
    assert row["short_gems"] == Fraction(8, 7) + Fraction(1, 3)
    assert row["past_gems"] == Fraction(11, 7) + Fraction(10, 3)
    assert row["per_choice"] == (row["short_gems"] + row["past_gems"]) / 5
    tie = decision(mini_turn()[1][0], "reveal", {"reveal": Fraction(2), "hold": Fraction(2)})
    assert our_class.stopping_choices(frame([tie]))["verdict"].tolist() == ["revealed"]  # a tie gives up nothing


def test_an_offer_and_an_edition_that_is_not_a_preset_are_no_turn_of_the_player():
    row = frame([decision(*mini_turn()[1][:2])]).iloc[0].to_dict()
    assert our_class.decision_turn(row) == mini_turn()[1][0].turn()
    assert our_class.decision_turn({**row, "phase": "offer"}) is None
    assert our_class.decision_turn({**row, "edition": "my own deck"}) is None


def _brute_hold_from(state: GameState) -> int | None:
    """The smallest pot at the knight's position from which holding is worth at least revealing, by plain
    expectimax over every card order (RULES.md section 7), over the pots a turn can have collected there."""
    turn = state.turn()
    bank = turn.treasure + turn.pot
    collected = sum(MINI.stripe_value(k, 0) for k in range(1, turn.position + 1))
    for pot in range(min(collected + turn.pot, bank) + 1):
        stage = turn.dangers_revealed
        push = expectimax(MINI, turn.composition, turn.position, pot, turn.gems, bank - pot, stage, True)
        if pot >= push:
            return pot
    return None


def test_each_holds_boundary_is_where_plain_expectimax_starts_holding():
    turn = [decision(state, action, card=card) for state, action, card in mini_turn()]
    rows = frame(turn + short_holds())
    holds = our_class.holding_pots(rows)
    assert holds["id"].tolist() == [4, 5, 6]
    states = [mini_turn()[3][0], POOR.child(Card.footprint(1)), POOR.child(Card.footprint(1)).child(Card.footprint(1))]
    want = [_brute_hold_from(state) for state in states]
    assert [None if np.isnan(b) else int(b) for b in holds["hold_from"]] == want
    short = holds["verdict"] == our_class.SHORT
    assert (holds.loc[short, "pot"] < holds.loc[short, "hold_from"].fillna(np.inf)).all()
    assert (holds.loc[~short, "pot"] >= holds.loc[~short, "hold_from"]).all()


def _orders_next(deck: dict[Card, int]) -> dict[Card, Fraction]:
    """The next card's law by counting every distinct order of the deck left (each equally likely after a
    shuffle): the share of orders that start with each kind."""
    cards = [card for card, count in deck.items() for _ in range(count)]
    orders = set(itertools.permutations(cards))
    return {card: Fraction(sum(order[0] == card for order in orders), len(orders)) for card in deck}


def test_each_reveals_chances_are_the_share_of_the_orders_of_its_deck():
    steps = mini_turn()[:3]
    rows = frame([decision(state, action, card=card) for state, action, card in steps])
    reveals = our_class.reveal_decks(rows)
    assert reveals["card"].tolist() == ["2", "1", "2"] and reveals["cards"].tolist() == [8, 7, 6]
    assert list(reveals.columns[5:]) == ["1", "2", "stop", "danger"]
    for row, (state, _, _) in zip(reveals.to_dict("records"), steps):
        deck = dict(state.deck.counts())
        counted = _orders_next(deck)
        for kind in ("1", "2", "stop", "danger"):
            card = our_class.kind_card(kind)
            assert Fraction(row[kind], row["cards"]) == counted[card] == Fraction(deck[card], state.deck.total)
    simulated = our_class.replay_reveals(reveals, seed=0)
    table = our_class.card_frequencies(reveals, simulated)
    # pooled: the expected count of a kind is the sum of the reveals' exact chances
    assert table.loc["1", "expected_count"] == Fraction(3, 8) + Fraction(3, 7) + Fraction(2, 6)
    assert table.loc["2", "expected"] == (Fraction(2, 8) + Fraction(1, 7) + Fraction(1, 6)) / 3
    assert table.loc["stop", "expected"] == (Fraction(2, 8) + Fraction(2, 7) + Fraction(2, 6)) / 3
    assert sum(table["expected"]) == 1 and table["count"].tolist() == [1, 2, 0, 0]
    chances = [Fraction(1, 8), Fraction(1, 7), Fraction(1, 6)]
    assert table.loc["danger", "sd"] == pytest.approx(float(sum(p * (1 - p) for p in chances)) ** 0.5 / 3)
    assert float(table.loc["2", "ci_low"]) < 2 / 3 < float(table.loc["2", "ci_high"])  # Wilson, 2 of 3


def test_the_monte_carlo_draws_each_reveal_from_its_own_deck():
    rows = frame([decision(state, action, card=card) for state, action, card in mini_turn()[:3]] * 400)
    reveals = our_class.reveal_decks(rows)
    simulated = our_class.replay_reveals(reveals, seed=5)
    assert np.array_equal(simulated, our_class.replay_reveals(reveals, seed=5))
    assert not np.array_equal(simulated, our_class.replay_reveals(reveals, seed=6))
    in_deck = [row[kind] > 0 for row, kind in zip(reveals.to_dict("records"), simulated)]
    assert all(in_deck)
    table = our_class.card_frequencies(reveals, simulated, level=0.999)
    assert table["mc_covers"].all()  # 1,200 draws: every kind's interval contains its exact probability
    running = our_class.running_frequency(reveals, simulated, "stop")
    last = running.iloc[-1]
    assert last["class"] == table.loc["stop", "frequency"] and last["simulated"] == table.loc["stop", "mc_frequency"]
    assert last["expected"] == pytest.approx(float(table.loc["stop", "expected"]))
    assert last["half"] == pytest.approx(1.959964 * table.loc["stop", "sd"], rel=1e-5)
    with pytest.raises(ValueError):
        our_class.running_frequency(reveals, simulated, "4")
    with pytest.raises(ValueError):
        our_class.card_frequencies(reveals, simulated[:-1])


def test_a_card_that_is_not_in_its_deck_is_refused():
    state = mini_turn()[0][0]
    rows = frame([decision(state, "reveal", card=Card.footprint(1))])
    rows.at[0, "card"] = "4"
    with pytest.raises(ValueError, match="not in the deck"):
        our_class.reveal_decks(rows)
    assert our_class.kind_card("stop") == STOP_CARD and our_class.kind_card("danger") == DANGER_CARD
    with pytest.raises(ValueError):
        our_class.kind_card("joker")


def test_without_a_record_the_data_are_the_sample_labelled_as_such(monkeypatch):
    monkeypatch.delenv("DRAGONKIT_RECORD", raising=False)
    data = our_class.class_data()
    assert data.source == our_class.SAMPLE and data.seed == our_class.SAMPLE_SEED
    assert data.students == our_class.SAMPLE_STUDENTS and len(data.decisions) > 0
    assert our_class.refreshed(data) is data


def test_with_a_record_the_data_are_todays_decisions_of_this_class(recording):
    page = visit("01-play-and-observe")
    for state, action, card in mini_turn():
        page.decision(decision(state, action, card=card))
    assert record_session.flush()
    data = our_class.class_data()
    assert data.source == our_class.RECORD and data.class_name == "3B" and data.day == date.today()
    assert data.decisions["action"].tolist() == ["reveal", "reveal", "reveal", "hold"]
    assert data.students == 1 and data.last_id == int(data.decisions["id"].max())
    assert our_class.class_data(day=date(2000, 1, 1)).decisions.empty
    for row in short_holds():
        page.decision(row)
    assert record_session.flush()
    later = our_class.refreshed(data)
    assert len(later.decisions) == 6 and later.decisions["id"].is_unique
    assert our_class.stopping_summary(our_class.stopping_choices(later.decisions)).loc[("mini", 0), "short"] == 2


def test_a_record_without_tables_has_no_decision_and_one_that_cannot_be_read_says_so(monkeypatch, tmp_path):
    monkeypatch.setenv("DRAGONKIT_RECORD", f"sqlite:///{tmp_path / 'new.sqlite'}")
    empty = our_class.class_data()
    assert empty.source == our_class.RECORD and empty.readable and empty.decisions.empty and empty.students == 0
    monkeypatch.setenv("DRAGONKIT_RECORD", f"sqlite:///{tmp_path / 'no-such-folder' / 'x' / 'record.sqlite'}")
    (tmp_path / "no-such-folder").write_text("a file where a folder should be")
    gone = our_class.class_data()
    assert gone.source == our_class.RECORD and not gone.readable and gone.decisions.empty
    assert isinstance(gone.decisions, pd.DataFrame) and gone.last_id == 0
