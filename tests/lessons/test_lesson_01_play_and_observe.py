"""Lesson 1, play and observe: the first deck and the first guess — the widgets' numbers against independent
computations (the chain, a simulation, the rules' text), and the notebook's exercises and teacher's notes."""

from __future__ import annotations

import re
from fractions import Fraction

import matplotlib
import pytest

from dragonkit import Ruleset, i18n
from dragonkit.analysis import HoldAtPot, evaluate_policy, optimal_policy, solve_turn
from dragonkit.lessons import observe
from dragonkit.lessons.base import fresh_turn, largest_pot
from dragonkit.lessons.observe import ClassStops, DeckView, FirstGuess
from dragonkit.record import session as record_session
from dragonkit.record import visit
from dragonkit.simulate import simulate_turns
from dragonkit.topics.first_guess import GuessResult
from dragonkit.topics.our_class import RECORD, sample_data

from ..class_rows import decision, mini_turn, short_holds
from .helpers import _check, _run_notebook, _text

matplotlib.use("Agg")


DRAGON = Ruleset.preset("dragon-stripes")


def test_lesson_1_answers_from_the_rules_text():
    # RULES.md: 38 footprints (1 x14, 2 x12, 3 x8, 4 x4), 10 stops, 3 dangers; stripe k pays k; penalty 1/4.
    assert observe.answers() == {
        "deck": 14 + 12 + 8 + 4 + 10 + 3,
        "stop": Fraction(10, 51),
        "ends": Fraction(13, 51),
        "penalty": 40 // 4,
        "pot": 2 + 5,
        "likely": 0,
    }


@pytest.mark.slow
def test_a_guess_is_worth_what_the_chain_and_a_simulation_say():
    state = fresh_turn(DRAGON)
    top = largest_pot(state)
    one = GuessResult(state, 1, top)  # reveal the compulsory card, then hold: by hand
    assert one.gain == Fraction(1 * 14 + 2 * 12 + 3 * 8 + 4 * 4 - 10 * 13, 51)
    guess = GuessResult(state, 20, top)
    assert guess.gain == evaluate_policy(state, HoldAtPot(20), exact=True).expected_gain
    summary = simulate_turns(state, HoldAtPot(20), 200_000, rng=7).summary(level=0.999)
    low, high = summary.loc["expected_gain", ["ci_low", "ci_high"]]
    assert low <= float(guess.gain) <= high
    assert guess.optimal == solve_turn(state, exact=True).value
    scanned = guess.scan[guess.scan["threshold"].notna()]
    assert guess.best_gain == pytest.approx(scanned["expected_gain"].astype(float).max())
    assert float(guess.gain) <= guess.best_gain <= float(guess.optimal) + 1e-9
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError):
            GuessResult(state, bad, top)


@pytest.mark.slow
def test_the_guess_widget_records_guesses_and_shows_the_values():
    widget = FirstGuess()
    assert widget.report.value == "" and widget.picture.layout.display == "none"
    widget.submit.click()
    widget.slider.value = 30
    widget.submit.click()
    assert widget.guesses == [20, 30]
    report = _text(widget.report.value)
    assert "Your guesses so far: 20, 30." in report
    shown = (f"{float(widget.result.gain):.4f}", str(widget.result.gain))
    assert all(text.replace("-", "−") in report for text in shown)  # a true minus sign
    assert widget.picture.layout.display is None and '<img src="data:image/png;base64,' in widget.picture.value
    gain = f"{float(widget.result.gain):.3f}".replace("-", "−")  # a true minus sign
    assert f'alt="Hold-at-h policies against h. Your guess, h = 30: {gain} gems' in widget.picture.value
    with pytest.raises(ValueError):
        FirstGuess(start=0)


def test_the_deck_view_shows_the_first_card_chances():
    view = DeckView()
    table = _text(view.table.value)
    assert "10/51" in table and "14/51" in table and "1/17" in table and "13/51" in table


@pytest.mark.slow
def test_lesson_1_notebook_exercises_and_notes():
    exercises, notes = _run_notebook("01-play-and-observe")
    _check(exercises, [51, Fraction(10, 51), Fraction(13, 51), 10, 7, 0], notes)
    state = fresh_turn(DRAGON)
    for t in (10, 20):
        gain = evaluate_policy(state, HoldAtPot(t), exact=True).expected_gain
        assert f"{gain}" in notes
    assert f"{solve_turn(state, exact=True).value}" in notes
    gains = {t: evaluate_policy(state, HoldAtPot(t)).expected_gain for t in (55, 56)}
    assert gains[55] < 0 < gains[56] and f"{gains[56]:+.3f}" in notes  # "the smallest t with a positive value"
    assert r"-\frac{52}{51}" in notes


@pytest.mark.slow
def test_first_guess_table_has_p_head_on_every_row():
    """Every row of the guess table shows P(head), each checked against its own exact chain."""
    guess = FirstGuess()
    result = guess.record()
    state = guess.state
    best = evaluate_policy(state, HoldAtPot(result.best_threshold), exact=False)
    optimum = evaluate_policy(state, optimal_policy(state), exact=False)
    assert abs(result.best_p_head - float(best.p_head)) < 1e-9
    assert abs(result.optimal_p_head - float(optimum.p_head)) < 1e-9
    cells = re.findall(r"<tr><td>[^<]*</td>(?:<td>.*?</td>){3}</tr>", guess.report.value)
    assert len(cells) == 3 and "<td></td>" not in guess.report.value
    assert f"<td>{result.best_p_head:.3f}</td>" in guess.report.value
    assert f"<td>{result.optimal_p_head:.3f}</td>" in guess.report.value
    guess.close()


def test_the_deck_view_and_the_notes_say_what_they_show():
    """Review 1-5, items 12 and 13: the view shows the full deck (the first card of the game); RULES.md marks the
    treasure's 400 gems as assumed, not the head's prize."""
    from pathlib import Path

    view = DeckView()
    assert "The first card of the game" in view.table.value
    i18n.set_language("it")
    try:
        assert "La prima carta della partita" in view.table.value
    finally:
        i18n.set_language("en")
    rules = (Path(__file__).parents[2] / "docs" / "RULES.md").read_text(encoding="utf-8")
    assert "| 400 **(assumed)** | `treasure` |" in rules
    head = next(line for line in rules.splitlines() if "takes the pot **and all gems left in the" in line)
    assert "assumed" not in head


# -- our class's stopping pots ------------------------------------------------------------------------------------


def test_our_class_shows_the_class_rows_written_to_the_record(recording):
    page = visit("play")
    for state, action, card in mini_turn():  # a compulsory reveal, two reveals past the boundary, a hold on it
        page.decision(decision(state, action, card=card))
    assert record_session.flush()
    view = ClassStops()
    assert view.source.data.source == RECORD and not view.source.refresh.disabled
    assert _text(view.source.sentence.value).strip() == "Our class (3B): 4 decisions by 1 student today."
    assert view.where.options == (("mini (classroom deck), stage 0: 3 choices", ("mini", 0)),)
    report = " ".join(_text(view.report.value).split())
    assert "choices between revealing and holding 3" in report and "holds 1" in report
    assert "held short of optimal play's boundary (it would reveal) 0 0" in report
    assert "revealed past it (optimal play would hold) 2 103/21 ≈ 4.90" in report  # 11/7 + 10/3, by expectimax
    assert 'alt="Where the class held, mini (classroom deck), stage 0: 1 holds' in view.picture.value
    for row in short_holds():  # the class plays on; the teacher reads the latest decisions
        page.decision(row)
    assert record_session.flush()
    view.source.refresh.click()
    assert _text(view.source.sentence.value).strip() == "Our class (3B): 6 decisions by 1 student today."
    report = " ".join(_text(view.report.value).split())
    assert "held short of optimal play's boundary (it would reveal) 2 31/21 ≈ 1.48" in report  # 8/7 + 1/3
    assert "expected gems given up per choice 134/105 ≈ 1.276" in report  # (31/21 + 103/21) / 5
    view.source.choice.value = "simulated"
    assert view.source.refresh.disabled
    assert (
        _text(view.source.sentence.value)
        .strip()
        .startswith("A sample class (simulated, seed 0), to compare with ours:")
    )
    assert view.where.value == ("mini", 0)  # the edition and stage shown stay, where the sample has them
    assert ("dragon-stripes", 0) in [value for _, value in view.where.options]


def test_without_a_record_our_class_is_the_sample_and_says_so(monkeypatch):
    monkeypatch.delenv("DRAGONKIT_RECORD", raising=False)
    view = ClassStops()
    sample = sample_data()
    assert view.source.data is sample and view.source.refresh.disabled
    decisions = f"{len(sample.decisions):,}"
    assert _text(view.source.sentence.value).strip() == (
        f"A sample class (simulated, seed 0): no class record on this computer. {decisions} decisions by 40 students."
    )
    assert view.picture.layout.display is None and "Where the class held" in view.picture.value
    i18n.set_language("it")
    assert _text(view.source.sentence.value).strip().startswith("Una classe di esempio (simulata, seme 0)")
    assert view.source.choice.options == (("la nostra classe", "class"), ("una classe simulata", "simulated"))
    assert view.where.options[0][0].startswith("Dragon Stripes, fase ")


def test_a_record_with_no_choice_yet_says_so(recording):
    view = ClassStops()
    assert "no decision recorded yet today" in _text(view.source.sentence.value)
    assert view.where.value is None and view.picture.layout.display == "none"
    assert "No choice between revealing and holding yet." in _text(view.report.value)
