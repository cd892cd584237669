"""Lesson 10, gems or wins: the widgets (the two coaches' map and their numbers, the head-to-head, Pig's facts and
the first move), a game against the win bot, the notebook's exercises and teacher's notes, the translations.

The widgets' numbers are checked against the analysis asked directly and the round robin played again; the
notebook's answers and its notes against :func:`wins.answers`.  (The analysis' own numbers are checked in
tests/topics/test_gems_or_wins.py, the figures' texts in tests/plots/test_wins.py.)
"""

from __future__ import annotations

import ast
import json
import re
import string
from fractions import Fraction
from pathlib import Path

import pytest

from dragonkit import Ruleset, i18n
from dragonkit.bots import BotKind, WinBot
from dragonkit.lessons import wins
from dragonkit.simulate import round_robin
from dragonkit.topics import gems_or_wins as gw
from dragonkit.topics.pig import hold_at_expected_score
from dragonkit.turn import Action
from dragonkit.ui import PlayApp
from dragonkit.ui.setup import SEAT_KINDS, SetupForm

from ..catalogs import has_italian, italian
from ..english import english_words
from ..figures import alt_of

ROOT = Path(__file__).parents[2]
NOTEBOOK = ROOT / "notebooks" / "10-gems-or-wins.ipynb"
STRIPES, MINI = Ruleset.preset("dragon-stripes"), Ruleset.preset("mini")


@pytest.fixture(scope="module")
def answer() -> dict:
    """The lesson's answers, computed once for the module (the head-to-head plays 100 games)."""
    return wins.answers()


# -- the widgets ----------------------------------------------------------------------------------------------------


@pytest.mark.slow
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
        assert alt_of(widget.plot.value).startswith("Stage 2, 25 cards left; your gems 40, your opponent's 40.")
        widget.stage.value = 0
        assert (widget.cards.min, widget.cards.max, widget.cards.value) == (8, 51, 25)
        widget.cards.value = 51
        assert widget.readout.value.count("reveal") >= 3 and "The two coaches agree here." in widget.readout.value
        widget.pot.value = 80
        assert "This pot cannot be reached at this position" in widget.readout.value
        i18n.set_language("it")
        assert english_words(re.sub(r"<[^>]+>", " ", widget.readout.value)) == []
        assert widget.stage.description == "Fase" and alt_of(widget.plot.value).startswith("Fase 0, 51 carte rimaste")
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
        assert alt_of(widget.plot.value).startswith("Win rates, 95% Wilson intervals: ")
        i18n.set_language("it")
        assert "Il bot per la vittoria ha vinto" in widget.report.value
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
@pytest.mark.slow
def test_language_switch_keeps_every_control(make):
    from tests.lessons.helpers import assert_language_keeps_values

    assert_language_keeps_values(make)


def test_a_game_against_the_win_bot():
    app = PlayApp(autoplay=False, config=wins.versus_win_bot(seed=5), language_switch=False)
    assert app.game.players == ("Alex", "Ada") and app.kinds == (BotKind.HUMAN, BotKind.WIN)
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
    assert BotKind.WIN in [value for _label, value in form.kinds[1].options]
    assert SEAT_KINDS[BotKind.WIN] == "win bot (plays to win the game)"


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
        f"won {duel['wins']:g} of 100, interval [{100 * duel['ci_low']:.1f}%, {100 * duel['ci_high']:.1f}%]",
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
    assert "allenatore per le gemme" in text and "allenatore per la vittoria" in text
    assert "allenatore delle gemme" not in text and "della vittoria" not in text  # as the app says it
    assert "stadio" not in text.lower() and "Lezione 10" in text


def test_every_label_of_lesson_10_has_an_italian_text_with_the_same_fields():
    """Every msgid the lesson's modules write (tr, ntr, N_) has its Italian text, with the same fields."""
    catalog = italian()
    fields = lambda text: {name for _, name, _, _ in string.Formatter().parse(text) if name}  # noqa: E731
    used = set()
    for path in (ROOT / "dragonkit" / "lessons" / "wins.py", ROOT / "dragonkit" / "plots" / "wins.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("tr", "ntr", "N_"):
                used |= {a.value for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    assert len(used) > 50 and sorted(used - set(catalog)) == []
    assert all(fields(msgid) == fields(catalog[msgid]) and catalog[msgid].strip() for msgid in used)
    assert i18n.tr(wins.BOT_LABELS["win"], "it") == "bot per la vittoria (gioca per vincere)"


def test_holding_passes_the_danger_only_on_a_turn_you_own():
    """Review 6-10, item 1 (RULES.md §3.5): a taker who holds and is not taken back opens the next turn."""
    from dragonkit import Game
    from dragonkit.rules import Card

    game = Game(["Ann", "Bo"], Ruleset.preset("dragon-stripes"), seed=1)
    cards = list(game.remaining.cards())
    ones = [card for card in cards if card == Card("footprint", 1)][:2]
    for card in ones:
        cards.remove(card)
    game = game.redealt(cards + ones)  # the top card last: two 1-step footprints first
    game.reveal(by=0)
    game.hold(by=0)  # Ann owns the turn and holds
    game.take_over(by=1)
    game.reveal(by=1)
    game.hold(by=1)  # Bo took it over and holds
    game.decline(by=0)  # Ann does not take it back: the turn ends
    assert game.turn_owner == game.to_move == 1 and game.legal_actions() == [Action.REVEAL]  # Bo reveals first
    prose = " ".join(" ".join("".join(cell["source"]) for cell in _cells()).split())
    assert "### Holding passes the danger (when the turn is yours)" in prose and "RULES.md §3.5" in prose
    assert "why at stage 2 holding a turn you own passes the danger" in prose
    assert '"Risking points is not the same as risking the probability of winning" (Neller & Presser)' in prose
    assert "Fermarsi passa il pericolo (quando il turno è tuo)" in i18n.tr(
        "### Holding passes the danger (when the turn is yours)", "it"
    )
