"""Lesson 10, gems or wins: Pig's win-optimal policy, the two coaches of Dragon Stripes, the first move, the
head-to-head and a game against the win bot.

The lesson's numbers are checked against second computations: the solvers asked directly on states built here
(:func:`solve_turn` on a ``TurnState``, the win table on a ``GameState``), the exact :class:`WinSolver` by brute
force on the mini deck, Pig's boundary read off its own policy array, the round robin played again; the figures'
texts against their data; the notebook's exercises and teacher's notes against :func:`wins.answers`.
"""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from dragonkit import Ruleset, i18n
from dragonkit.analysis import gems_or_wins as gw
from dragonkit.analysis import solve_turn
from dragonkit.analysis.pig import hold_at_expected_score, solve_pig
from dragonkit.analysis.win import WinSolver
from dragonkit.analysis.win_table import win_table
from dragonkit.bots import WinBot
from dragonkit.engine import Action, Phase
from dragonkit.game_state import GameState
from dragonkit.lessons import wins
from dragonkit.plots.wins import coach_map_figure, coach_map_figure_text, pig_policy_figure, pig_policy_figure_text
from dragonkit.rules import Card
from dragonkit.simulate import round_robin
from dragonkit.turn import TurnState
from dragonkit.ui import PlayApp
from dragonkit.ui.setup import SEAT_KINDS, SetupForm

from .catalogs import has_italian
from .test_lessons_i18n import english_words

ROOT = Path(__file__).parents[1]
NOTEBOOK = ROOT / "notebooks" / "10-gems-or-wins.ipynb"
STRIPES, MINI = Ruleset.preset("dragon-stripes"), Ruleset.preset("mini")

pytestmark = pytest.mark.usefixtures("english_widgets")


@pytest.fixture(scope="module")
def mini_solver() -> WinSolver:
    """The exact solver of two-player mini games, its memo shared by the module's tests (about 3 s)."""
    return WinSolver(exact=True)


@pytest.fixture(scope="module")
def answer() -> dict:
    """The lesson's answers, computed once for the module (the head-to-head plays 100 games)."""
    return wins.answers()


def _alt(value: str) -> str:
    found = re.search(r'<img [^>]*alt="([^"]*)"', value)
    assert found, value[:200]
    return html.unescape(found.group(1))


# -- the analysis ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage, cards", [(0, 51), (0, 20), (1, 9), (2, 25), (2, 8)])
def test_a_typical_deck_keeps_the_dangers_left_and_every_kinds_share(stage, cards):
    deck = gw.typical_deck(STRIPES, stage, cards)
    assert deck.total == cards and deck.dangers == STRIPES.danger_cards - stage
    full = STRIPES.composition
    others = full.total - full.dangers
    for card, count in deck.counts():
        if card.kind != "danger":
            share = Fraction(full.count(card) * (cards - deck.dangers), others)
            assert abs(count - share) < 1, card
    assert gw.typical_deck(STRIPES, 0, 51) == full


@pytest.mark.parametrize("stage, cards", [(3, 20), (0, 3), (2, 50), (-1, 20), (0, 1.5)])
def test_a_deck_the_game_cannot_have_is_refused(stage, cards):
    with pytest.raises(ValueError):
        gw.typical_deck(STRIPES, stage, cards)


def test_a_situation_keeps_the_gems_of_the_game():
    deck = gw.typical_deck(STRIPES, 2, 25)
    state = gw.situation(STRIPES, deck, 2, (40, 30), 3, 10)
    assert sum(state.gems) + state.treasure + state.pot == gw.game_gems(STRIPES) == 480
    assert (state.phase, state.owner, state.active, state.position) == (Phase.CHOOSE, 0, 0, 3)
    with pytest.raises(ValueError, match="exceed"):
        gw.situation(STRIPES, deck, 2, (300, 200), 3, 10)


def test_the_coach_map_is_each_coach_asked_alone():
    """Every cell of a map against the gem coach's solve of the turn and the win table's best action, on states built
    here; where the win table's two values tie the cell takes the gem coach's advice."""
    cells = gw.coach_map(STRIPES, 2, 25, (40, 40))
    deck = gw.typical_deck(STRIPES, 2, 25)
    table = win_table(STRIPES)
    assert list(cells.columns) == list(range(1, STRIPES.n_stripes + 1)) and cells.index.max() == 80
    seen = set()
    rng = np.random.default_rng(10)
    filled = [(pot, position) for pot in cells.index for position in cells.columns if cells.at[pot, position]]
    for k in rng.choice(len(filled), 60, replace=False):
        pot, position = filled[k]
        footprints = dict(deck.footprints)
        turn = TurnState(STRIPES, footprints, deck.stops, deck.dangers, 2, 40, 400 - pot, position, pot, False)
        gem = solve_turn(turn).push_value > pot
        state = GameState(STRIPES, (40, 40), 400 - pot, deck, 2, phase=Phase.CHOOSE, position=position, pot=pot)
        values = table.action_values(state)
        tie = abs(values[Action.REVEAL] - values[Action.HOLD]) <= gw.TIE
        win = gem if tie else table.best_action(state) is Action.REVEAL
        expected = {(True, True): "both reveal", (False, False): "both hold", (True, False): "win reveals"}
        assert cells.at[pot, position] == expected.get((win, gem), "win holds"), (pot, position)
        seen.add(cells.at[pot, position])
    assert {"both reveal", "win holds"} <= seen
    # an unreachable pot: more than every stripe up to the position pays, twice, at stage 2
    assert cells.at[3, 1] is None and cells.at[80, 17] is not None


def test_the_two_coaches_part_ways_as_the_lesson_says():
    early = gw.coach_map(STRIPES, 0, 20, (40, 40))
    late = gw.coach_map(STRIPES, 2, 25, (40, 40))
    count = lambda cells, kind: int((cells.to_numpy() == kind).sum())  # noqa: E731
    assert count(early, "win reveals") > 0 and count(early, "win holds") == 0  # stage 0: the win coach is bolder
    assert count(late, "win holds") > count(late, "win reveals")  # stage 2: it passes the danger
    assert count(gw.coach_map(STRIPES, 0, 48, (40, 40)), "both reveal") == int(early.notna().to_numpy().sum())


def test_the_first_player_chances(mini_solver):
    chances = gw.first_player_chances()
    assert round(chances["pig"], 4) == 0.5306
    assert chances["mini"] == Fraction(1, 2) == mini_solver.win_probability(GameState.fresh(MINI))
    assert chances["dragon-stripes"] == win_table(STRIPES).win_probability(GameState.fresh(STRIPES))
    assert 0.5 < chances["dragon-stripes"] < 0.53


def test_after_the_first_card_of_a_mini_game_the_exact_solver_agrees(mini_solver):
    start = GameState.fresh(MINI)
    solver = mini_solver
    after = gw.after_first_card(MINI)
    assert sum(p for p, _ in after.values()) == 1
    for card, (p, win) in after.items():
        assert p == dict(start.chance_outcomes())[card]
        assert win == solver.win_probabilities(start.child(card))[0]
    assert after[Card("danger")][1] == 0


def test_pig_ladder_and_the_best_rule():
    ladder = gw.hold_at_ladder([20, 21, 25])
    assert ladder[20][0] == ladder[21][0] == hold_at_expected_score(20) > ladder[25][0]
    assert ladder[20][1] == Fraction(9440899, 15116544)  # P(a hold-at-20 turn banks nothing), published 0.624541
    # one more roll at turn total k gains (20 - k)/6 points on average: the best rule holds from 20
    gains = {k: Fraction(-k, 6) + Fraction(2 + 3 + 4 + 5 + 6, 6) for k in range(40)}
    assert gw.best_hold_at() == min(k for k, g in gains.items() if g <= 0) == 20
    with pytest.raises(ValueError):
        gw.best_hold_at([])


def test_pig_is_solved_once_per_machine(tmp_path, monkeypatch):
    """The solution is written to the cache and read from it by the next process (here: after the cache is cleared)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    small = solve_pig(5)
    monkeypatch.setattr(gw, "solve_pig", lambda goal: small)
    gw.pig_solution.cache_clear()
    try:
        assert gw.pig_solution() is small
        assert list((tmp_path / "dragonkit").glob("pig-*.npz"))

        def unsolvable(goal):
            raise AssertionError("solved again")

        monkeypatch.setattr(gw, "solve_pig", unsolvable)
        gw.pig_solution.cache_clear()
        again = gw.pig_solution()
        assert np.array_equal(again.win, small.win) and np.array_equal(again.roll, small.roll)
        assert (again.iterations, again.residual) == (small.iterations, small.residual)
    finally:
        gw.pig_solution.cache_clear()


# -- the figures ----------------------------------------------------------------------------------------------------


def test_pigs_chart_is_told_from_the_policy():
    solution = gw.pig_solution()
    opponents = (0, 50, 90)
    text = pig_policy_figure_text(solution, opponents)
    assert len(text.alt) <= 300 and "At 0 against 0: hold at 21." in text.alt
    assert "Against 90: roll on until you reach 100 at scores 0–99." in text.alt
    assert text.columns == ("your score", "opponent at 0", "opponent at 50", "opponent at 90")
    for row in text.rows:
        i = int(row[0])
        for j, shown in zip(opponents, row[1:]):
            first_hold = next(k for k in range(101) if k >= 100 - i or not solution.roll[i, j, k])
            assert int(shown) == first_hold
    ax = pig_policy_figure(solution, opponents).axes[0]
    styles = {(line.get_linestyle(), line.get_marker()) for line in ax.lines}
    assert len(styles) == len(ax.lines) == len(opponents) + 1  # told apart by their style, not their colour only
    italian = pig_policy_figure_text(solution, opponents, lang="it")
    assert italian.alt.startswith("Pig: il totale del turno") and english_words(italian.alt) == []


def test_the_coach_map_is_told_from_its_cells():
    cells = gw.coach_map(STRIPES, 2, 25, (40, 40))
    text = coach_map_figure_text(cells, "Stage 2")
    assert len(text.alt) <= 300
    flat = cells.to_numpy()
    disagree = int(np.isin(flat, ["win holds", "win reveals"]).sum())
    total = int(np.isin(flat, list(gw.AGREEMENTS)).sum())
    assert f"The coaches disagree on {disagree} of {total} decisions" in text.alt
    assert len(text.rows) == STRIPES.n_stripes
    row = text.rows[2]  # position 3
    holds = [int(p) for p in cells.index if cells.at[p, 3] == "win holds"]
    assert row[0] == "3" and row[4] == f"{holds[0]}–{holds[-1]}"
    ax = coach_map_figure(cells, "Stage 2", (3, 10)).axes[0]
    hatches = {p.get_hatch() for p in ax.patches}
    assert len(hatches - {None, ""}) == 2  # each kind of disagreement its own hatching
    labels = [t.get_text() for t in ax.figure.legends[0].get_texts()]
    assert "the win coach holds, the gem coach reveals" in labels and "the situation below" in labels
    italian = coach_map_figure_text(cells, "Fase 2", "it")
    assert "Gli allenatori non sono d'accordo su" in italian.alt and english_words(italian.alt) == []
    agree = coach_map_figure_text(gw.coach_map(STRIPES, 1, 30, (40, 40)), "Stage 1")
    assert "The coaches agree on all" in agree.alt


# -- the widgets ----------------------------------------------------------------------------------------------------


def test_the_coach_map_widget_shows_both_coaches_numbers():
    widget = wins.CoachMap()
    try:
        state = widget.state
        assert (state.stage, state.deck.total, state.position, state.pot) == (2, 25, 3, 10)
        gem, win = gw.gem_advice(state), gw.win_advice(state)
        readout = widget.readout.value
        assert f"{gem.push_value:.2f}" in readout and f"{win[Action.HOLD]:.4f}" in readout
        cost = 100 * (win[Action.HOLD] - win[Action.REVEAL])
        assert f"lowers the probability of winning by {cost:.2f} percentage points" in readout
        assert _alt(widget.plot.value).startswith("Stage 2, 25 cards left; your gems 40, your opponent's 40.")
        widget.stage.value = 0
        assert (widget.cards.min, widget.cards.max, widget.cards.value) == (8, 51, 25)
        widget.cards.value = 51
        assert widget.readout.value.count("reveal") >= 3 and "The two coaches agree here." in widget.readout.value
        widget.pot.value = 80
        assert "This pot cannot be reached at this position" in widget.readout.value
        i18n.set_language("it")
        assert english_words(re.sub(r"<[^>]+>", " ", widget.readout.value)) == []
        assert widget.stage.description == "Fase" and _alt(widget.plot.value).startswith("Fase 0, 51 carte rimaste")
    finally:
        widget.close()


def test_the_head_to_head_is_the_round_robin():
    widget = wins.HeadToHead(games=20, seed=3)
    try:
        direct = round_robin(["win", "coach"], 20, seed=3, rules=STRIPES)
        assert widget.result.standings.equals(direct.standings)
        row = direct.standings.loc["win"]
        assert f"The win bot won {row['wins']:g} of 20 games" in widget.report.value
        assert all(verdict not in widget.report.value for verdict in wins.VERDICTS)  # the exercise's answer
        assert _alt(widget.plot.value).startswith("Win rates, 95% Wilson intervals: ")
        i18n.set_language("it")
        assert "Il bot della vittoria ha vinto" in widget.report.value
        assert english_words(re.sub(r"<[^>]+>", " ", widget.report.value)) == []
    finally:
        widget.close()


def test_pig_facts_and_the_first_move_show_the_solvers_numbers():
    facts, first = wins.PigFacts(), wins.FirstMove()
    try:
        assert "<b>0.5306</b>" in facts.html.value and "<b>8.142</b>" in facts.html.value
        facts.exact.value = True
        assert "492303203/60466176" in facts.html.value
        assert "0.5138" in first.html.value and "1/2" in first.html.value
        i18n.set_language("it")
        assert "<b>0,5306</b>" in facts.html.value and "0,5138" in first.html.value
        for value in (facts.html.value, first.html.value):
            assert english_words(re.sub(r"<[^>]+>|Neller|Presser", " ", value)) == []
    finally:
        facts.close()
        first.close()


@pytest.mark.parametrize(
    "make",
    [lambda: wins.CoachMap(stage=1, cards=20), lambda: wins.HeadToHead(games=20, seed=2), wins.PigFacts],
    ids=["CoachMap", "HeadToHead", "PigFacts"],
)
def test_language_switch_keeps_every_control(make):
    from tests.test_lessons_4_6 import assert_language_keeps_values

    assert_language_keeps_values(make)


def test_a_game_against_the_win_bot():
    app = PlayApp(autoplay=False, config=wins.versus_win_bot(seed=5), language_switch=False)
    assert app.game.players == ("Alex", "Ada") and app.kinds == ("human", "win bot")
    assert isinstance(app.bots[1], WinBot) and app.game.to_move == 0
    app.act("reveal")
    for _ in range(40):  # the human reveals or declines, the bot plays, until the game ends
        game = app.game
        if game.is_over:
            break
        if app.bots[game.to_move] is None:
            app.act("reveal" if Action.REVEAL in game.legal_actions() else "decline")
        else:
            app._on_next()
    assert "win bot" in app.players.value
    form = SetupForm()
    assert "win bot (plays to win the game)" in [value for _label, value in form.kinds[1].options]
    assert SEAT_KINDS["win bot (plays to win the game)"] == "win"


# -- the notebook ---------------------------------------------------------------------------------------------------


def _cells() -> list[dict]:
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]


def test_the_notebooks_exercises_and_notes_are_the_computed_answers(answer):
    """The exercises' answers are answers()'s, each question and hint has its Italian text, and the teacher's notes
    give the numbers the lesson computes."""
    code = [c for c in _cells() if c["cell_type"] == "code"]
    namespace: dict = {}
    exec("".join(code[0]["source"]).replace('lesson_page("10-gems-or-wins.ipynb", "en")', ""), namespace)
    built = [
        eval("".join(c["source"]), namespace)
        for c in code[1:]
        if "".join(c["source"]).lstrip().startswith(("FractionExercise(", "ChoiceExercise("))
    ]
    assert [ex.answer for ex in built] == [20, Fraction(4, 7), Fraction(1, 25), 3, 2]
    assert [answer[k] for k in ("pig_hold", "mini_not_danger", "danger_next", "coaches", "duel")] == [
        ex.answer for ex in built
    ]
    for ex in built:
        assert ex.hints and all(has_italian(h) for h in ex.hints) and has_italian(ex.question)
        if isinstance(ex.answer, Fraction):
            assert ex.check(str(ex.answer)) and not ex.check(str(ex.answer + 1))
    notes = "".join(code[-1]["source"])
    state = answer["situation"]
    gem, win = gw.gem_advice(state), gw.win_advice(state)
    duel = wins.head_to_head().standings.loc["win"]
    chances = gw.first_player_chances()
    for shown in (
        "**4/7**",
        "**1/25**",
        "**20**",
        f"reveal {gem.push_value:.2f} gems > hold {gem.hold_value}",
        f"reveal {win[Action.REVEAL]:.4f} < hold {win[Action.HOLD]:.4f}",
        f"costs {100 * (win[Action.HOLD] - win[Action.REVEAL]):.2f} percentage points",
        f"costs {gem.push_value - gem.hold_value:.2f} expected gems",
        f"won {duel['wins']:g} of 100, interval [{duel['ci_low']:.3f}, {duel['ci_high']:.3f}]",
        f"wins with {chances['pig']:.4f}",
        f"about {chances['dragon-stripes']:.3f}",
        f"{float(hold_at_expected_score(20)):.3f} points per turn",
        f"stage {state.stage}, {state.deck.total} cards: "
        + ", ".join(str(n) for _, n in state.deck.footprints[:-1])
        + f" and {state.deck.footprints[-1][1]} footprints",
    ):
        assert shown in notes, shown


def test_the_italian_lesson_calls_the_two_coaches_by_one_name_each():
    text = (ROOT / "notebooks" / "it" / "10-gems-or-wins.ipynb").read_text(encoding="utf-8")
    assert "allenatore delle gemme" in text and "allenatore della vittoria" in text
    assert "stadio" not in text.lower() and "Lezione 10" in text
