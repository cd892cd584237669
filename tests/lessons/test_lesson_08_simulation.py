"""Lesson 8, simulation: exact turns, confidence intervals and the error's shrinking, the Monte Carlo and
tournament labs, the code cell, the lesson's answers."""

from __future__ import annotations

import ast
import html
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dragonkit import Ruleset, i18n
from dragonkit.analysis import HoldAfterReveals, HoldAtPot, evaluate_policy
from dragonkit.lessons import base, simulation
from dragonkit.record import session as record_session
from dragonkit.record import visit
from dragonkit.rules import STOP_CARD
from dragonkit.simulate import round_robin, simulate_turns
from dragonkit.topics.our_class import RECORD, replay_reveals, sample_data

from ..class_rows import decision, mini_turn
from .helpers import _notes_text, _notes_words, _text

ROOT = Path(__file__).parents[2]


MINI = Ruleset.preset("mini")


def test_exact_turns_are_the_chain_values():
    mini = simulation.exact_turn("mini", "optimal")
    assert mini.mean == Fraction(-11, 8)  # the worked example of RULES.md
    state = base.fresh_turn(Ruleset.preset("dragon-stripes"))
    hold = simulation.exact_turn("dragon-stripes", 20)
    chain = evaluate_policy(state, HoldAtPot(20), exact=True)
    assert hold.mean == chain.expected_gain and math.isclose(hold.std, math.sqrt(chain.variance))


def test_confidence_intervals_cover_the_exact_value_about_95_percent_of_the_time():
    exact = simulation.exact_turn("dragon-stripes", 20)
    result = simulation.coverage(exact, 100, 400, 0.95, seed=11)
    gains = simulate_turns(exact.state, HoldAtPot(20), 100 * 400, rng=11).gain.reshape(400, 100)
    means, sds = gains.mean(axis=1), gains.std(axis=1, ddof=1)
    low, high = means - 1.959964 * sds / 10, means + 1.959964 * sds / 10
    assert np.allclose(result.intervals["ci_low"], low) and np.allclose(result.intervals["ci_high"], high)
    inside = (low <= float(exact.mean)) & (float(exact.mean) <= high)
    assert list(result.intervals["covers"]) == list(inside)
    assert abs(result.rate - 0.95) < 4 * math.sqrt(0.95 * 0.05 / 400)
    assert (
        simulation.coverage(exact, 100, 200, 0.8, seed=3).rate < simulation.coverage(exact, 100, 200, 0.99, seed=3).rate
    )
    with pytest.raises(ValueError):
        simulation.coverage(exact, 1, 10)
    with pytest.raises(ValueError):
        simulation.coverage(exact, 10_000, 1_000)


def test_the_error_shrinks_like_one_over_root_n():
    exact = simulation.exact_turn("dragon-stripes", 20)
    errors = simulation.error_by_n(exact, sizes=(10, 100, 1000), repetitions=200, seed=5)
    assert np.allclose(errors["theory"], exact.std / np.sqrt([10, 100, 1000]))
    assert np.all((errors["rms_error"] / errors["theory"]).between(0.8, 1.25))
    slope = np.polyfit(np.log(errors.index), np.log(errors["rms_error"]), 1)[0]
    assert -0.6 < slope < -0.4


@pytest.mark.slow
def test_the_monte_carlo_lab_agrees_with_the_simulation_and_the_chain():
    lab = simulation.MonteCarloLab(edition="mini", policy=20, n=1000, seed=4)
    direct = simulate_turns(base.fresh_turn(MINI), HoldAtPot(20), 1000, rng=4)
    assert np.array_equal(lab.simulation.gain, direct.gain)
    row = direct.summary().loc["expected_gain"]
    shown = (f"{row['estimate']:.3f}", str(lab.exact.mean))
    assert all(text.replace("-", "−") in lab.report.value for text in shown)  # a true minus sign
    inside = row["ci_low"] <= lab.exact.mean <= row["ci_high"]
    assert ("contains the exact value" in lab.report.value) == inside
    lab.n.value = 100
    assert lab.simulation.n == 100
    lab.policy.value = "optimal"
    i18n.set_language("it")
    assert lab.policy.value == "optimal" and lab.n.value == 100 and lab.edition.value == "mini"
    assert lab.policy.label == "gioco ottimo" and "stima (media campionaria)" in lab.report.value


def test_the_tournament_lab_shows_the_round_robin_and_refuses_a_lonely_bot():
    lab = simulation.TournamentLab(bots=("threshold:5", "random"), games=20, seed=3, edition="mini")
    direct = round_robin(["threshold:5", "random"], 20, seed=3, rules=MINI)
    assert lab.result.standings.equals(direct.standings)
    first = lab.result
    for spec, box in lab.checks.items():
        box.value = spec == "random"
    assert lab.run() is None and "at least two bots" in lab.message.value and lab.result is first
    i18n.set_language("it")
    assert "almeno due bot" in lab.message.value and "vittorie" in lab.report.value


def test_the_answers_of_lesson_8():
    answer = simulation.answers()
    assert answer["standard_error"] == Fraction(12, 20) and answer["halve"] == 1600 and answer["misses"] == 10
    assert answer["hold_after_one"] == Fraction(3 * 1 + 2 * 2 - 2 * 3 - 1 * 12, 8)
    assert (
        answer["hold_after_one"]
        == evaluate_policy(base.fresh_turn(MINI), HoldAfterReveals(1), exact=True).expected_gain
    )
    with pytest.raises(ValueError):
        simulation.answers(n=300)


@pytest.mark.parametrize("folder", ["", "it"])
def test_lesson_8s_code_cell_shows_the_estimates_beside_the_exact_values(folder):
    """The cell the prose asks the learner to change and run in JupyterLab shows its result as a table in the
    page's language (Voilà shows it without the code), never as a printout; with another ``n`` too."""
    cells = json.loads((ROOT / "notebooks" / folder / "08-simulation.ipynb").read_text(encoding="utf-8"))["cells"]
    hidden = [c["metadata"].get("jupyter", {}).get("source_hidden", False) for c in cells]
    (source,) = ["".join(c["source"]) for c, h in zip(cells, hidden) if c["cell_type"] == "code" and not h]
    assert "print(" not in source and "n=2_000" in source
    i18n.set_language(folder or "en")
    point = "," if folder else "."
    for n, turns in ((2_000, f"2{'.' if folder else ','}000"), (300, "300")):
        tree = ast.parse(source.replace("n=2_000", f"n={n}"))
        namespace: dict = {}
        exec(compile(ast.Module(tree.body[:-1], []), "<cell>", "exec"), namespace)
        shown = eval(compile(ast.Expression(tree.body[-1].value), "<cell>", "eval"), namespace).data
        assert (
            f"<caption>{turns} " in shown
            and f'<span class="dk-frac">−11/8</span> <span class="dk-dec">≈ −1{point}375' in shown
        )


def test_the_estimates_table_reads_in_the_pages_language():
    state = base.fresh_turn(MINI)
    policy = HoldAfterReveals(1)
    summary = simulate_turns(state, policy, n=2_000, rng=42).summary()
    exact = evaluate_policy(state, policy, exact=True)
    english, italian_ = (
        simulation.estimates_html(summary, exact, lang="en"),
        simulation.estimates_html(summary, exact, lang="it"),
    )
    assert "<caption>2,000 simulated turns against the exact values</caption>" in english
    assert "<td>−1.357</td><td>0.099</td><td>[−1.551, −1.163]</td>" in english and "≈ −1.375" in english
    assert "P(X &lt; 0)" in english and "<td><b>no</b></td>" not in english  # seed 42: every interval covers
    assert "<caption>2.000 turni simulati a confronto con i valori esatti</caption>" in italian_
    assert "<td>−1,357</td><td>0,099</td><td>[−1,551; −1,163]</td>" in italian_ and "≈ −1,375" in italian_
    assert "probabilità di finire su uno stop" in italian_ and "<td>sì</td>" in italian_
    floats = evaluate_policy(state, policy)  # the exact values in floats: decimals
    assert "<td>−1.375</td>" in simulation.estimates_html(summary, floats, lang="en")
    with pytest.raises(ValueError, match="summary"):
        simulation.estimates_html(summary.drop(index="p_loss"), exact)


def test_tournament_refuses_more_coach_games_than_its_budget():
    lab = simulation.TournamentLab(bots=("threshold:5", "threshold:20"), games=10, run=False)
    try:
        lab.run()
        kept = lab.result
        for box in lab.checks.values():
            box.value = True
        lab.games.value = 400  # 5 opponents x 400 games of the coach: minutes
        opponents = len(simulation.BOT_CHOICES) - 1
        assert lab.run() is None and lab.result is kept
        assert f"at most {simulation.COACH_GAMES // opponents} games per pair" in lab.message.value
        i18n.set_language("it")
        assert "Il bot allenatore è lento" in lab.message.value
    finally:
        i18n.set_language("en")
        lab.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_notes_games_to_tell_two_bots_apart(lang):
    """Two win rates near 50%, 5 points apart: the 95% interval of their difference is ±0.05 at about 770 games a bot,
    and a test with power 0.8 needs about 1570 (the notes' figures, not the 400 of one rate's interval)."""
    from scipy.stats import norm

    z, power = norm.ppf(0.975), norm.ppf(0.8)
    interval = 2 * 0.25 * (z / 0.05) ** 2
    detect = 2 * 0.25 * ((z + power) / 0.05) ** 2
    assert round(interval, -1) == 770 and round(detect, -1) == 1570
    assert round(1.96 * 0.5 / math.sqrt(120), 2) == 0.09
    notes = _notes_text("08-simulation", lang)
    assert "770" in notes and "1570" in notes and "400$ per" not in notes


def test_the_notes_explain_the_small_n_shortfall_and_the_random_bot_as_the_code_has_them():
    """Review 6-10, items 8 and 9: t with 4 degrees of freedom, the coverage of ±1.96 s/√5 for normal data, and
    the random bot, which picks any legal action (a takeover too)."""
    import inspect

    from scipy import stats

    from dragonkit.bots import RandomBot

    assert round(stats.t.ppf(0.975, 4), 2) == 2.78 and round(100 * (2 * stats.t.cdf(1.96, 4) - 1)) == 88
    assert "choice(game.legal_actions())" in inspect.getsource(RandomBot.choose)
    notes = _notes_words("08-simulation")
    assert "$n = 5$ even normal data need $t_4 = 2.78$; with 1.96 they cover only 88%" in notes
    assert "taking over an offered turn with probability 1/2 when it can pay" in notes
    assert "the difference is not significant at the 5%&nbsp;level" in notes
    italian_ = _notes_words("08-simulation", "it")
    assert "$t_4 = 2{,}78$; con 1,96 la copertura è solo dell'88%" in italian_ and "jackpot" not in italian_


# -- our class's cards ----------------------------------------------------------------------------------------------


def test_our_class_shows_the_cards_the_class_turned_up(recording):
    page = visit("play")
    for state, action, card in mini_turn():  # three reveals (a 2-step, a 1-step, a 2-step footprint), a hold
        page.decision(decision(state, action, card=card))
    assert record_session.flush()
    view = simulation.ClassCards()
    assert view.source.data.source == RECORD
    assert _text(view.source.sentence.value).strip() == "Our class (3B): 4 decisions by 1 student today."
    table = view.frequencies
    assert table["count"].tolist() == [1, 2, 0, 0] and list(table.index) == ["1", "2", "stop", "danger"]
    assert table.loc["stop", "expected"] == (Fraction(2, 8) + Fraction(2, 7) + Fraction(2, 6)) / 3
    assert view.kind.value == "stop"
    assert [label for label, _ in view.kind.options] == ["1 step", "2 steps", "stop", "danger"]
    assert "Each of the 3 reveals turned up a card" in _text(view.report.value)
    assert 'alt="The cards our class turned up in 3 reveals, by kind' in view.cards.value
    running = html.unescape(view.running.value)
    assert "alt=\"The frequency of “stop” as the class's reveals accumulate: after 3 reveals 0.000" in running
    simulated = view.simulated.copy()
    view.seed.value = 7
    assert np.array_equal(view.simulated, replay_reveals(view.reveals, 7)) and len(simulated) == 3
    page.decision(decision(mini_turn()[0][0], "reveal", card=STOP_CARD))  # another game's first card: a stop
    assert record_session.flush()
    view.source.refresh.click()
    assert view.frequencies.loc["stop", "count"] == 1 and int(view.frequencies["n"].iloc[0]) == 4
    view.kind.value = "danger"
    assert "of “danger”" in view.running.value


def test_without_a_record_our_class_cards_are_the_samples_and_say_so(monkeypatch):
    monkeypatch.delenv("DRAGONKIT_RECORD", raising=False)
    view = simulation.ClassCards()
    sample = sample_data()
    assert view.source.data is sample
    assert "no class record on this computer" in _text(view.source.sentence.value)
    reveals = (sample.decisions["action"] == "reveal") & sample.decisions["card"].notna()
    assert int(view.frequencies["n"].iloc[0]) == int(reveals.sum())
    assert list(view.frequencies.index) == ["1", "2", "3", "4", "stop", "danger"]
    i18n.set_language("it")
    assert view.kind.description == "Carta seguita" and view.seed.description == "Seme del Monte Carlo"
    assert "Le carte uscite alla nostra classe" in view.cards.value


def test_a_record_with_no_reveal_yet_says_so(recording):
    view = simulation.ClassCards()
    assert "no decision recorded yet today" in _text(view.source.sentence.value)
    assert "No reveal with its card recorded yet." in _text(view.report.value) and view.kind.options == ()
    assert view.cards.layout.display == "none" and view.running.layout.display == "none"
    view.close()


def test_the_notes_give_the_error_the_page_draws_and_the_theorys_beside_it():
    """Third reading: the notes quoted the theory's σ/√n as the measured error; the page draws 4.6 and 0.27 gems at
    n = 10 and 3000 (the widget's seed 3), the theory 4.8 and 0.28."""
    errors = simulation.error_shrinkage(edition="dragon-stripes", policy=20, repetitions=100, seed=3).errors
    assert [round(errors.loc[n, "rms_error"], d) for n, d in ((10, 1), (3000, 2))] == [4.6, 0.27]
    assert [round(errors.loc[n, "theory"], d) for n, d in ((10, 1), (3000, 2))] == [4.8, 0.28]
    english, italian_ = _notes_words("08-simulation"), _notes_words("08-simulation", "it")
    assert "falls from about 4.6 to about 0.27 gems (the theory, $\\sigma/\\sqrt n$: 4.8 and 0.28)" in english
    assert "scende da circa 4,6 a circa 0,27 gemme (in teoria, $\\sigma/\\sqrt n$: 4,8 e 0,28)" in italian_
