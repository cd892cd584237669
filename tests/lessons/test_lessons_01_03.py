"""Lessons 1-3 (play and observe, the next card, one more card?): their widgets'
numbers against independent computations, the widgets' reactions, their Italian
texts, and the notebooks' exercise answers and teacher's notes."""

from __future__ import annotations

import ast
import dataclasses
import html
import itertools
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import matplotlib
import numpy as np
import pytest

from dragonkit import Game, Phase, Ruleset, i18n
from dragonkit.analysis import (
    HoldAfterReveals,
    HoldAtPot,
    TurnState,
    evaluate_policy,
    optimal_policy,
    policy_map,
    solve_turn,
)
from dragonkit.analysis.deck import all_footprints, deck_after, run_table
from dragonkit.analysis.first_guess import GuessResult
from dragonkit.analysis.one_push import break_even_pot, one_push, story_state, with_pot
from dragonkit.analysis.walk import after_cards
from dragonkit.lessons import next_card, observe, one_more_card
from dragonkit.lessons.base import LessonWidget, fresh_turn, largest_pot
from dragonkit.lessons.next_card import DeckExplorer
from dragonkit.lessons.observe import DeckView, FirstGuess
from dragonkit.lessons.one_more_card import MyopicVsOptimal, OnePushExplorer
from dragonkit.rules import Card
from dragonkit.simulate import simulate_turns
from dragonkit.teach import ChoiceExercise, FractionExercise

from ..catalogs import has_italian, italian

matplotlib.use("Agg")

ROOT = Path(__file__).parents[2]
MODULES = [ROOT / "dragonkit" / "lessons" / f"{name}.py" for name in ("observe", "next_card", "one_more_card")]
DRAGON = Ruleset.preset("dragon-stripes")
MINI = Ruleset.preset("mini")
STOP, DANGER = Card("stop"), Card("danger")


#: Lesson widgets made by the running test, closed after it (an open one is redrawn at every language switch).
OPENED: list = []


def opened(view):
    """``view``, to be closed when the test ends."""
    OPENED.append(view)
    return view


@pytest.fixture(autouse=True)
def english_after():
    """Every test starts and ends in English, whatever it switched to, with its widgets closed."""
    i18n.set_language("en")
    yield
    while OPENED:
        OPENED.pop().close()
    i18n.set_language("en")


def _text(html_text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", html_text))


# -- lesson 2: the deck and runs of footprints ------------------------------------------------------------


def test_the_deck_after_the_discards_is_counted_card_by_card():
    deck = deck_after(DRAGON, next_card.EXERCISE_DISCARDS)
    assert deck.total == 51 - 11
    assert dict(deck.footprints) == {1: 11, 2: 10, 3: 7, 4: 3}
    assert (deck.stops, deck.dangers) == (7, 2)
    assert deck_after(DRAGON, {}) == DRAGON.composition


@pytest.mark.parametrize(
    "discards, error",
    [
        ({STOP: 11}, ValueError),
        ({Card.footprint(4): 5}, ValueError),
        ({STOP: -1}, ValueError),
        ({STOP: 1.5}, ValueError),
        ({"stop": 1}, TypeError),
    ],
)
def test_impossible_discards_are_refused(discards, error):
    with pytest.raises(error):
        deck_after(DRAGON, discards)
    with pytest.raises(error):
        opened(DeckExplorer(discards=discards))


def test_runs_of_footprints_match_binomial_coefficients_and_a_brute_force_count():
    deck = MINI.composition  # 8 cards: every ordered draw can be listed
    cards = deck.cards()
    for k in range(0, deck.total + 1):
        draws = list(itertools.permutations(range(len(cards)), k))
        favourable = sum(all(cards[i].kind == "footprint" for i in draw) for draw in draws)
        assert all_footprints(deck, k) == Fraction(favourable, len(draws))
    rng = np.random.default_rng(3)
    for _ in range(40):
        discards = {card: int(rng.integers(0, count + 1)) for card, count in DRAGON.composition.counts()}
        discards[DANGER] = min(discards[DANGER], 2)
        left = deck_after(DRAGON, discards)
        n, f = left.total, sum(c for _s, c in left.footprints)
        for k in range(1, min(n, 12) + 1):
            assert all_footprints(left, k) == Fraction(math.comb(f, k), math.comb(n, k))
            assert all_footprints(left, k, replacement=True) == Fraction(f, n) ** k
            assert all_footprints(left, k) <= all_footprints(left, k, replacement=True)


def test_scipy_floats_agree_with_the_exact_fractions():
    for row in run_table(deck_after(DRAGON, next_card.EXERCISE_DISCARDS), 12):
        assert row["hypergeom"] == pytest.approx(float(row["without"]), rel=1e-12, abs=1e-15)
        assert row["binom"] == pytest.approx(float(row["with"]), rel=1e-12, abs=1e-15)
    with pytest.raises(ValueError):
        run_table(MINI.composition, 9)
    with pytest.raises(ValueError):
        all_footprints(MINI.composition, -1)


@pytest.mark.slow
def test_the_explorer_follows_its_sliders():
    explorer = opened(DeckExplorer())
    assert "51 cards left (0 discarded), 38 of them footprints" in _text(explorer.summary.value)
    picture = explorer.picture.value
    explorer.set_discards(next_card.EXERCISE_DISCARDS)
    assert explorer.composition == deck_after(DRAGON, next_card.EXERCISE_DISCARDS)
    assert "40 cards left (11 discarded), 31 of them footprints" in _text(explorer.summary.value)
    table = _text(explorer.next_card.value)
    assert "31/40" in table and "7/40" in table and "1/20" in table  # footprints, stops, dangers
    assert explorer.picture.value != picture
    runs = _text(explorer.runs.value)
    assert str(Fraction(31 * 30 * 29, 40 * 39 * 38)) in runs and str(Fraction(31, 40) ** 3) in runs
    explorer.k_slider.value = 9
    assert explorer.runs.value.count("<tr>") == 1 + 9
    explorer.sliders[STOP].value = 4  # a slider alone redraws too
    assert "39 cards left (12 discarded)" in _text(explorer.summary.value)
    with pytest.raises(ValueError):
        explorer.set_discards({DANGER: 3})
    assert explorer.sliders[DANGER].value == 1
    assert explorer.sliders[DANGER].max == 2  # the third danger would end the game
    explorer.reset()
    assert explorer.composition == DRAGON.composition


def test_the_explorer_never_draws_more_cards_than_are_left():
    explorer = opened(DeckExplorer(MINI, k_max=6))
    explorer.set_discards({card: slider.max for card, slider in explorer.sliders.items()})
    assert explorer.composition.total == 1  # the danger card: the only one that cannot be discarded
    assert explorer.k_max == 1 and explorer.runs.value.count("<tr>") == 2
    assert run_table(explorer.composition, 1)[0]["without"] == 0


def test_lesson_2_answers_by_hand():
    answers = next_card.answers()
    assert answers == {
        "cards": 40,
        "footprint": Fraction(31, 40),
        "stop": Fraction(7, 40),
        "three": Fraction(31 * 30 * 29, 40 * 39 * 38),
        "three_with": Fraction(31**3, 40**3),
        "ends": 1 - Fraction(math.comb(31, 3), math.comb(40, 3)),
    }


# -- lesson 1: the first deck and the first guess ------------------------------------------------------


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
    widget = opened(FirstGuess())
    assert widget.report.value == "" and widget.picture.layout.display == "none"
    widget.submit.click()
    widget.slider.value = 30
    widget.submit.click()
    assert widget.guesses == [20, 30]
    report = _text(widget.report.value)
    assert "Your guesses so far: 20, 30." in report
    assert f"{float(widget.result.gain):.4f}" in report and str(widget.result.gain) in report
    assert widget.picture.layout.display is None and '<img src="data:image/png;base64,' in widget.picture.value
    assert f'alt="Hold-at-t policies against t. Your guess, t = 30: {float(widget.result.gain):.3f} gems' in (
        widget.picture.value
    )
    with pytest.raises(ValueError):
        opened(FirstGuess(start=0))


def test_the_deck_view_shows_the_first_card_chances():
    view = opened(DeckView())
    table = _text(view.table.value)
    assert "10/51" in table and "14/51" in table and "1/17" in table and "13/51" in table


# -- lesson 3: one more card ---------------------------------------------------------------------------------


def _situations():
    """Decision points of real games (where holding is allowed), at several stages, in two editions."""
    found = []
    for rules in (DRAGON, MINI):
        for seed in range(8):
            game = Game(["A", "B", "C"], rules=rules, seed=seed)
            steps = 0
            while not game.is_over and steps < 300:
                steps += 1
                if game.phase is Phase.CHOOSE and steps % 9 == 0:
                    found.append(Game.replay(game.players, game.rules, game.seed, game.actions))
                if game.phase is Phase.OFFER:
                    game.decline(by=game.offer_to)
                elif game.phase is Phase.CHOOSE and game.pot >= 4 + game.turn_number % 9:
                    game.hold()
                else:
                    game.reveal()
    return found


SITUATIONS = _situations()


def _engine_one_push(game: Game) -> Fraction:
    """E1 by the engine: each card left put on top of the deck in turn, revealed, then a hold that
    everybody declines; the mean change of the active player's gems."""
    me, start = game.active_player, game.gems[game.active_player]
    total = Fraction(0)
    for i in range(len(game._deck)):  # the test looks at the hidden deck, the lesson never does
        copy = Game.replay(game.players, game.rules, game.seed, game.actions)
        copy._deck[i], copy._deck[-1] = copy._deck[-1], copy._deck[i]
        copy.reveal()
        if not copy.is_over and copy.phase is Phase.CHOOSE:
            copy.hold()
            while copy.phase is Phase.OFFER:
                copy.decline(by=copy.offer_to)
        total += copy.gems[me] - start
    return total / len(game._deck)


def test_one_push_agrees_with_the_engine_and_with_the_markov_chain():
    stages = {TurnState.from_game(g).dangers_revealed for g in SITUATIONS}
    assert len(SITUATIONS) >= 20 and stages >= {0, 1}
    for game in SITUATIONS:
        state = TurnState.from_game(game)
        push = one_push(state)
        assert push.value == _engine_one_push(game)
        assert push.value == evaluate_policy(state, HoldAfterReveals(1), exact=True).expected_gain
        assert sum(o.probability for o in push.outcomes) == 1
        assert solve_turn(state, exact=True).push_value >= push.value  # playing on can always hold at once


def test_one_push_at_the_last_stage_loses_everything_on_the_final_danger():
    state = dataclasses.replace(story_state(), dangers_revealed=2, dangers=1)
    final = [o for o in one_push(state).outcomes if o.card == DANGER]
    assert final[0].gain == -40 and final[0].effect.outcome == "final_danger"


def test_the_story_by_the_lessons_formula():
    story = story_state()
    assert (story.position, story.pot, story.treasure, story.gems) == (8, 24, 400 - 24, 40)
    assert dict(story.footprints) == {1: 12, 2: 11, 3: 8, 4: 3} and (story.stops, story.dangers) == (10, 3)
    counts, enders = {1: 12, 2: 11, 3: 8, 4: 3}, 13
    stripe_sum = sum(c * (8 + n) for n, c in counts.items())  # stripe k pays k gems
    for gems in (0, 10, 40, 77, 100):
        penalty = gems // 4  # stops and the 1st danger at rate 1/4
        e1 = Fraction(sum(c * (24 + 8 + n) for n, c in counts.items()) - enders * penalty, 47)
        state = story_state(gems)
        assert one_push(state).value == e1
        expected = max(Fraction(stripe_sum - enders * penalty, enders), Fraction(0))
        assert break_even_pot(state) == expected
    assert one_more_card.answers() == {
        "value": Fraction(1028, 47),
        "advantage": Fraction(-100, 47),
        "break_even": Fraction(212, 13),
        "break_even_rich": Fraction(17, 13),
    }


def test_the_break_even_pot_is_where_the_advantage_changes_sign():
    for game in SITUATIONS[::3]:
        state = TurnState.from_game(game)
        point = break_even_pot(state)
        top = min(60, state.treasure + state.pot)
        advantage = [one_push(with_pot(state, p)).advantage for p in range(0, top + 1)]
        for p, a in enumerate(advantage):
            assert (a > 0) == (p < point)
        low = math.floor(point)
        if 0 < point < top:  # affine in between: the root interpolates exactly
            slope = advantage[low + 1] - advantage[low]
            assert advantage[low] + slope * (point - low) == 0
    only_footprints = dataclasses.replace(story_state(), stops=0, dangers=0)
    assert break_even_pot(only_footprints) == 400  # pays until every gem of the dragon is in the pot


def test_the_break_even_pot_falls_as_the_player_gets_richer():
    points = [break_even_pot(story_state(g)) for g in range(0, 201)]
    assert all(a >= b for a, b in itertools.pairwise(points))
    assert points[0] > points[200] == 0


def test_bad_situations_are_refused():
    story = story_state()
    with pytest.raises(ValueError):
        with_pot(story, -1)
    with pytest.raises(ValueError):
        with_pot(story, story.treasure + story.pot + 1)
    with pytest.raises(ValueError):
        after_cards(story, [STOP])  # a stop ends the turn
    with pytest.raises(ValueError):
        after_cards(story, [Card.footprint(4)] * 4)  # only 3 left
    with pytest.raises(ValueError):
        one_push(dataclasses.replace(story, footprints={1: 0, 2: 0, 3: 0, 4: 0}, stops=0, dangers=0))
    with pytest.raises(ValueError):
        opened(OnePushExplorer(story_state(500)))


@pytest.mark.slow
def test_the_one_push_explorer_follows_its_sliders():
    explorer = opened(OnePushExplorer())
    verdict = _text(explorer.verdict.value)
    assert "E1 = 21.872" in verdict and "212/13" in verdict and "HOLD" in verdict and "disagree" in verdict
    assert "1028/47" in _text(explorer.table.value)
    picture = explorer.picture.value
    explorer.sliders["gems"].value = 100
    assert explorer.break_even == Fraction(17, 13) and "17/13" in _text(explorer.verdict.value)
    assert explorer.picture.value != picture
    explorer.sliders["pot"].value = 0
    assert explorer.push.pays and "REVEAL (advantage" in _text(explorer.verdict.value)
    explorer.sliders["stage"].value = 2
    assert "final danger" in _text(explorer.table.value)
    explorer.sliders["position"].value = 17
    assert explorer.break_even > 80
    assert "reaches the head" in _text(explorer.table.value)


def test_optimal_play_never_holds_where_one_more_card_pays():
    for gems in (0, 40, 200):
        base = dataclasses.replace(story_state(gems), position=0, pot=0, treasure=400)
        grid = policy_map(base)
        for position in grid.columns:
            point = break_even_pot(dataclasses.replace(base, position=int(position)))
            column = grid[position].dropna()
            pays = np.array([pot < point for pot in column.index], dtype=bool)
            assert (column[pays] > 0).all()
    widget = opened(MyopicVsOptimal())
    assert widget.disagree > 0 and f"differ at {widget.disagree} of the" in _text(widget.summary.value)
    assert f"at {widget.disagree} of them optimal play reveals" in _text(widget.summary.value)  # all one way


# -- Italian ------------------------------------------------------------------------------------------------


def _msgids() -> list[str]:
    ids = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr":
                assert isinstance(node.args[0], ast.Constant), f"{path.name}: tr() with a computed msgid"
                ids.append(node.args[0].value)
    return ids


def test_every_msgid_has_an_italian_text_with_the_same_fields():
    merged = italian()  # one catalog for the kit: test_i18n checks that no entry is dead
    ids = set(_msgids())
    assert ids <= set(merged), sorted(ids - set(merged))
    fields = re.compile(r"{(\w*)}")
    for msgid in ids:
        assert sorted(fields.findall(msgid)) == sorted(fields.findall(merged[msgid])), msgid


ENGLISH = {
    "cards",
    "left",
    "discarded",
    "the",
    "with",
    "without",
    "replacement",
    "pot",
    "gems",
    "hold",
    "reveal",
    "next",
    "card",
    "probability",
    "deck",
    "footprint",
    "footprints",
    "danger",
    "knight",
    "stage",
    "your",
    "guess",
    "optimal",
    "play",
    "step",
    "steps",
    "head",
    "pays",
    "one",
    "more",
    "gain",
    "then",
    "break-even",
}


def _words(*texts: str) -> set[str]:
    text = " ".join(_text(t) for t in texts)
    text = re.sub(r"scipy\.stats\.\w+", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]*", text)}


@pytest.mark.slow
def test_the_widgets_speak_italian():
    deck, guess, push, myopic = (
        opened(DeckExplorer(discards=next_card.EXERCISE_DISCARDS)),
        opened(FirstGuess()),
        opened(OnePushExplorer()),
        opened(MyopicVsOptimal()),
    )
    guess.record()
    before = (deck.picture.value, push.picture.value)
    i18n.set_language("it")
    assert deck.sliders[Card.footprint(2)].description == "scartate: 2 passi"
    assert "Restano 40 carte (11 scartate), di cui 31 impronte." in _text(deck.summary.value)
    assert guess.submit.description == "Invia la mia ipotesi"
    assert push.sliders["gems"].description == "le tue gemme"
    assert "FERMATI" in _text(push.verdict.value)
    assert (deck.picture.value, push.picture.value) != before  # the charts are drawn again in Italian
    texts = [
        deck.summary.value,
        deck.next_card.value,
        deck.runs.value,
        guess.report.value,
        guess.prompt.value,
        push.table.value,
        push.verdict.value,
        push.deck.value,
        myopic.summary.value,
        *(s.description for s in deck.sliders.values()),
        deck.k_slider.description,
        *(s.description for s in push.sliders.values()),
    ]
    assert not _words(*texts) & ENGLISH, _words(*texts) & ENGLISH


# -- the notebooks ------------------------------------------------------------------------------------------


def _run_notebook(name: str) -> tuple[list, str]:
    """Run a lesson's code cells in this process: the exercises it shows, in order, and its teacher's notes."""
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    namespace: dict = {}
    shown = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, name, "exec"), namespace)
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), name, "eval"), namespace))
    for view in shown:
        if isinstance(view, LessonWidget):
            opened(view)
    exercises = [x for x in shown if isinstance(x, (FractionExercise, ChoiceExercise))]
    notes = [x for x in shown if type(x).__name__ == "TeacherNotes"]
    assert len(notes) == 1 and shown[-1] is notes[0], f"{name}: the teacher's notes come last"
    return exercises, notes[0].markdown.replace("−", "-")


def _check(exercises, expected, notes):
    assert [x.answer for x in exercises] == expected
    for exercise in exercises:
        assert exercise.hints, "every exercise has a hint"
        for text in (exercise.question, *exercise.hints):
            assert has_italian(text), f"no Italian for {text!r}"
        if isinstance(exercise, FractionExercise):
            assert f"**{exercise.answer}**" in notes, f"the notes do not give {exercise.answer}"


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
def test_lesson_2_notebook_exercises_and_notes():
    exercises, notes = _run_notebook("02-the-next-card")
    a = next_card.answers()
    _check(exercises, [a["cards"], a["footprint"], a["stop"], a["three"], a["three_with"], a["ends"], 1], notes)
    deck = deck_after(DRAGON, next_card.EXERCISE_DISCARDS)
    ratio = {k: float(all_footprints(deck, k) / all_footprints(deck, k, True)) for k in (3, 10)}
    full = DRAGON.composition
    assert f"about ${ratio[3]:.2f}$" in notes and f"about ${ratio[10]:.2f}$" in notes
    assert f"about ${float(all_footprints(full, 6) / all_footprints(full, 6, True)):.2f}$" in notes
    assert f"{math.comb(38, 6) / math.comb(51, 6):.3f}" in notes


@pytest.mark.slow
def test_lesson_3_notebook_exercises_and_notes():
    exercises, notes = _run_notebook("03-one-more-card")
    a = one_more_card.answers()
    _check(exercises, [a["value"], a["advantage"], a["break_even"], a["break_even_rich"], 1, 0], notes)
    assert f"{break_even_pot(story_state(10))}" in notes
    rich = min(g for g in range(201) if break_even_pot(story_state(g)) == 0)
    assert f"from {rich} gems on" in notes
    assert f"{solve_turn(story_state(), exact=True).push_value}" in notes
    widget = opened(MyopicVsOptimal())
    counts = []
    for gems in (40, 100, 200):
        widget.gems.value = gems
        counts.append(widget.disagree)
    pairs = int(policy_map(dataclasses.replace(story_state(), position=0, pot=0, treasure=400)).notna().sum().sum())
    assert f"differ at {counts[0]} of the {pairs}" in notes
    assert f"at\n{counts[1]} with 100 gems and at {counts[2]} with 200 gems" in notes


# -- a language switch never moves a control -------------------------------------------------------------------


@pytest.mark.parametrize(
    "make", [DeckView, FirstGuess, DeckExplorer, OnePushExplorer, MyopicVsOptimal], ids=lambda make: make.__name__
)
@pytest.mark.slow
def test_language_switch_keeps_every_control(make):
    from tests.lessons.test_lessons_04_06 import assert_language_keeps_values

    assert_language_keeps_values(make)


def test_italian_says_the_two_rules_disagree_not_i_disagree():
    text = i18n.tr("They disagree: optimal play looks further ahead than one card.", "it")
    assert text.startswith("Non concordano:") and "d'accordo" not in text


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


@pytest.mark.slow
def test_all_blue_heatmap_says_why_and_red_cells_appear_with_more_gems():
    """At 40 gems optimal play never holds (checked on the policy map itself): the widget says so;
    with 160 gems some reachable points hold and the note is gone."""
    from dragonkit.analysis import policy_map

    explorer = MyopicVsOptimal()
    state = dataclasses.replace(explorer.base, position=0, pot=0, treasure=explorer.base.treasure + explorer.base.pot)
    advantage = policy_map(state).to_numpy(dtype=float)
    assert explorer.hold_points == int((advantage <= 0).sum()) == 0
    assert "No cell is red (hold): with 40 gems at stake" in explorer.summary.value
    i18n.set_language("it")
    assert "Nessuna casella è rossa" in explorer.summary.value
    i18n.set_language("en")
    explorer.gems.value = 160
    richer = policy_map(dataclasses.replace(state, gems=160)).to_numpy(dtype=float)
    assert explorer.hold_points == int((richer <= 0).sum()) > 0 and "No cell is red" not in explorer.summary.value
    explorer.close()
