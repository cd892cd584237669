"""Lesson 9, the editions: the edition profiles against the analysis, the comparison widget, the deck
designer and a mischievous student's inputs, the lesson's answers."""

from __future__ import annotations

import html
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest

from dragonkit import Ruleset, i18n
from dragonkit.analysis import HoldAtPot, evaluate_policy, optimal_policy, solve_turn
from dragonkit.lessons import base, editions, market
from dragonkit.rules import FinalDanger

from .helpers import _prose

ROOT = Path(__file__).parents[2]


MINI = Ruleset.preset("mini")


def test_a_fresh_turn_lacks_the_dangers_of_earlier_stages():
    rules = Ruleset.preset("dragon-stripes")
    for stage in range(3):
        state = base.fresh_turn(rules, stage)
        assert (state.dangers, state.dangers_revealed, state.gems, state.treasure) == (3 - stage, stage, 40, 400)
        assert state.must_reveal and state.composition.total == 51 - stage
    with pytest.raises(ValueError):
        base.fresh_turn(rules, 3)


@pytest.mark.parametrize("edition", base.EDITIONS)
def test_edition_profiles_are_the_analysis_numbers(edition):
    rules = Ruleset.preset(edition)
    table = editions.compare_editions({edition: rules}, "optimal")
    assert len(table) == len(rules.stages)
    for stage in range(len(rules.stages)):
        state = base.fresh_turn(rules, stage)
        row = table.loc[(edition, stage)]
        chain = evaluate_policy(state, optimal_policy(state))
        assert row["expected_gain"] == solve_turn(state, exact=True).value
        assert math.isclose(row["p_loss"], chain.p_loss) and math.isclose(row["std"], chain.std)
        assert row["p_first_ends"] == Fraction(rules.stop_cards + rules.danger_cards - stage, rules.deck_size - stage)
    held = editions.edition_profile(rules, 0, 20)
    assert held["expected_gain"] == evaluate_policy(base.fresh_turn(rules), HoldAtPot(20), exact=True).expected_gain


def test_the_mini_deck_profile_by_hand():
    row = editions.edition_profile(MINI, 0, "optimal")
    # reveal one card and hold: +1 (3/8), +2 (2/8), -3 (2/8), -12 (1/8)
    mean = Fraction(-11, 8)
    variance = Fraction(3, 8) * 1 + Fraction(2, 8) * 4 + Fraction(2, 8) * 9 + Fraction(1, 8) * 144 - mean**2
    assert row["expected_gain"] == mean and math.isclose(row["std"], math.sqrt(variance))
    assert math.isclose(row["p_loss"], 3 / 8) and row["expected_cards"] == 1 and row["p_head"] == 0


def test_the_answers_of_lesson_9():
    answer = editions.answers()
    assert answer["kali_first_ends"] == Fraction(12 + 2, 52)
    assert answer["two_footprints"] == Fraction(38 * 37, 51 * 50)
    assert answer["first_pot"] == Fraction(14 * 1 + 12 * 2 + 8 * 3 + 4 * 4, 51)
    table = editions.compare_editions({e: Ruleset.preset(e) for e in editions.PUBLISHED}, "optimal", stages=False)
    assert editions.PUBLISHED[answer["riskiest_p_loss"]] == "kali" == table["p_loss"].astype(float).idxmax()[0]
    assert editions.PUBLISHED[answer["riskiest_std"]] == "drago-rosso" == table["std"].astype(float).idxmax()[0]


def test_challenge_2s_hint_doubles_the_standard_deviation_with_the_same_deck():
    """The teacher's hint to challenge 2, in the designer as a student types it: the same cards on a dragon of six
    stripes keep P(the first card ends the turn) at 13/51 and double σ (a factor of 2.02); doubling the treasure
    instead changes no card and gives 1.98, as the notes say."""
    designer = editions.DeckDesigner(start="dragon-stripes")
    designer.stripes.value = "1-6"
    assert designer.error is None and designer.rules.stripe_values == (1, 2, 3, 4, 5, 6)
    shorter, dragon = designer.rules, Ruleset.preset("dragon-stripes")
    assert shorter.composition == dragon.composition
    base, short = editions.edition_profile(dragon), editions.edition_profile(shorter)
    assert short["p_first_ends"] == base["p_first_ends"] == Fraction(13, 51)
    assert round(short["std"] / base["std"], 2) == 2.02 and round(base["std"]) == 95 and round(short["std"]) == 193
    assert round(short["p_head"], 2) == 0.33 and round(base["p_head"], 3) == 0.057 and round(short["p_loss"], 2) == 0.67
    designer.stripes.value = "1-17"
    designer.treasure.value = 800
    richer = editions.edition_profile(designer.rules)
    assert round(richer["std"] / base["std"], 2) == 1.98
    english, italian = _prose("09-editions"), _prose("09-editions", "it")
    assert re.search(r"about 193 gems, a\s+factor of 2\.02", english) and re.search(
        r"gives a factor of\s+1\.98", english
    )
    assert re.search(r"un fattore\s+2,02", italian) and re.search(r"dà un fattore\s+1,98", italian)


def test_the_comparison_widget_follows_the_policy_and_the_language():
    comparison = editions.EditionComparison(editions=("mini", "kali"), policy="optimal", measure="std")
    assert "−1.38" in comparison.html.value and "0.269" in comparison.html.value
    comparison.exact.value = True
    assert "−11/8" in comparison.html.value
    comparison.policy.value = 20
    assert comparison.table.loc[("mini", 0), "expected_gain"] == editions.edition_profile(MINI, 0, 20)["expected_gain"]
    i18n.set_language("it")
    assert comparison.policy.value == 20 and comparison.measure.value == "std"
    assert comparison.policy.label == "fermati a 20 gemme" and "edizione" in comparison.html.value
    assert "mini (mazzo per la classe)" in comparison.html.value


def test_the_deck_designer_refuses_bad_decks_and_keeps_the_last_valid_one():
    designer = editions.DeckDesigner(start="mini")
    assert designer.error is None and designer.rules.composition == MINI.composition
    designer.stops.value = 4
    valid = designer.rules
    assert valid.stop_cards == 4 and "accept" in designer.status.value
    refusals = [
        (designer.stages, "5/4 x1", "rate must lie between 0 and 1", "Stages"),
        (designer.stages, "quarter", "rate x multiplier", None),
        (designer.stripes, "5-1", "is backwards", None),
        (designer.stripes, "1-30", "from 1 to 24 stripes", None),
        (designer.stripes, "1, two", "numbers or ranges", None),
        (designer.name, "  ", "name must be a non-empty string", "Name"),
    ]
    for control, value, reason, field in refusals:
        old = control.value
        control.value = value
        assert designer.rules == valid and reason in str(designer.error)
        assert "refused" in designer.status.value and designer.analyse.disabled
        assert field is None or f"Check: {field}." in designer.status.value
        assert "last valid deck is kept: 10 cards: footprints 5, stops 4" in designer.status.value
        control.value = old
        assert designer.error is None and designer.rules == valid
    for control in designer.footprints.values():
        control.value = 0
    assert "footprints must hold at least one card" in str(designer.error) and designer.rules.composition.total >= 1
    i18n.set_language("it")
    assert (
        "Questo mazzo è rifiutato" in designer.status.value
        and "Metti nel mazzo almeno una carta impronta" in designer.status.value
    )
    i18n.set_language("en")
    designer.footprints[1].value = 3


def test_the_deck_designer_keeps_one_stage_per_danger_and_adds_its_deck_to_the_comparison():
    designer = editions.DeckDesigner(start="dragon-stripes")
    assert designer.stages.value == "1/4 x1; 1/4 x1; 1/2 x2"
    designer.dangers.value = 1
    assert designer.stages.value == "1/4 x1" and designer.rules.danger_cards == 1
    designer.dangers.value = 2
    assert designer.stages.value == "1/4 x1; 1/4 x1" and designer.error is None
    designer.stripes.value = "1-12"
    designer.name.value = "short"
    designer.add_to_comparison()
    table = designer.comparison.table
    assert (base.CUSTOM, 1) in table.index and designer.comparison.entries[base.CUSTOM] is designer.rules
    assert table.loc[(base.CUSTOM, 0), "expected_gain"] == editions.edition_profile(designer.rules, 0)["expected_gain"]
    assert "your deck: short" in designer.comparison.html.value
    designer.start.value = "kali"
    assert designer.rules.stripe_values == tuple(range(1, 19)) and designer.rules.final_danger is FinalDanger.POT_ONLY
    comparison = designer.comparison
    designer.close()  # the designer and the comparison it feeds stop following the language
    assert comparison.widget.comm is None and designer.widget.comm is None
    before = comparison.html.value
    i18n.set_language("it")
    assert comparison.html.value == before
    i18n.set_language("en")


def test_stripes_and_stages_read_and_write_back():
    assert editions.parse_stripes("1-3, 7 7") == (1, 2, 3, 7, 7)
    assert editions.format_stripes((1, 2, 3, 7, 8, 10)) == "1-3, 7-8, 10"
    assert editions.parse_stages("1/4 x1; 0.5 × 2;") == [("1/4", 1), ("0.5", 2)]
    assert editions.format_stages(Ruleset.preset("kali").stages) == "1/4 x1; 1/2 x2"
    with pytest.raises(ValueError):
        editions.parse_stripes("1-30")
    with pytest.raises(ValueError):
        editions.parse_stages("")


def test_italian_calls_a_stage_fase():
    """ "Stage" is "fase" everywhere in lesson 9 (the catalog's word), never "stadio"."""
    text = (ROOT / "notebooks" / "it" / "09-editions.ipynb").read_text(encoding="utf-8")
    assert "stadio" not in text.lower() and "alla fase 0" in text
    assert i18n.tr("Stages", "it") == "Fasi"


def test_designer_speaks_of_its_own_boxes():
    """The teacher's cases: the stages/dangers mismatch names the boxes (not stages=/danger_cards=),
    a backwards range says so, -1 dangers is refused (not clipped), typed stages survive a change of dangers."""
    designer = editions.DeckDesigner()
    designer.stages.value = "1/4 x1; 1/3 x2"
    reason = editions.designer_reason(designer.error)
    assert reason.startswith("The Stages box lists 2 stages, but a deck with 1 danger card needs 1")  # plurals agree
    assert "danger_cards" not in designer.status.value and "stages must" not in designer.status.value
    i18n.set_language("it")
    assert "La casella Fasi elenca 2" in designer.status.value and "danger_cards" not in designer.status.value
    i18n.set_language("en")
    designer.stages.value = "1/4 x1; 1/2 x2; 1 x3"
    designer.dangers.value = 3
    assert designer.error is None and designer.rules.danger_cards == 3
    designer.dangers.value = 1
    assert designer.stages.value == "1/4 x1" and "the stages you typed are kept" in designer.status.value
    designer.dangers.value = 3
    assert designer.stages.value == "1/4 x1; 1/2 x2; 1 x3" and designer.error is None
    kept = designer.rules
    designer.dangers.value = -1
    assert designer.dangers.value == -1 and designer.rules is kept
    assert "Danger cards must be a whole number from 0 to 4, not −1." in designer.status.value
    designer.dangers.value = 3
    designer.stripes.value = "5-1"
    assert "The range 5-1 is backwards: write the smaller number first, such as 1-5." in designer.status.value
    with pytest.raises(ValueError, match="backwards"):
        editions.parse_stripes("1-3, 9-7")
    designer.close()


def test_exact_fractions_do_not_wrap_inside_a_number():
    comparison = editions.EditionComparison(editions=("dragon-stripes",))
    comparison.exact.value = True
    spans = re.findall(r'<span style="white-space:nowrap"><span class="dk-frac">([^<]*)</span>', comparison.html.value)
    assert spans and all("/" in s for s in spans)
    comparison.close()


@pytest.mark.parametrize("name", ["$\\foo$", "a$b^$c", "$\\frac{1}{$"])
def test_designer_deck_named_like_mathtext_is_drawn_as_text(name):
    designer = editions.DeckDesigner()
    try:
        designer.name.value = name
        assert designer.error is None
        designer.add_to_comparison()  # matplotlib would parse "$...$" as maths and raise
        assert designer.comparison.entries[base.CUSTOM].name == name
        assert html.escape(name) in designer.comparison.html.value
    finally:
        designer.close()


def test_designer_refuses_a_very_long_name_and_keeps_the_last_deck():
    designer = editions.DeckDesigner()
    try:
        kept = designer.rules
        designer.name.value = "x" * 100_000
        assert designer.rules is kept and designer.analyse.disabled
        limit = editions.DESIGN_LIMITS["name"]
        assert f"at most {limit} characters" in designer.status.value
        i18n.set_language("it")
        assert f"al massimo {limit} caratteri" in designer.status.value
        i18n.set_language("en")
        designer.name.value = "x" * limit
        assert designer.error is None and designer.rules.name == "x" * limit
    finally:
        i18n.set_language("en")
        designer.close()


def test_an_emptied_edition_menu_changes_nothing():
    designer, explorer = editions.DeckDesigner(), market.TakeoverExplorer()
    try:
        rules, state = designer.rules, explorer.state
        designer.start.value = None  # the browser may send index null
        explorer.edition.value = None
        assert designer.rules is rules and designer.error is None and explorer.state is state
    finally:
        designer.close()
        explorer.close()


def test_the_introduction_tells_the_editions_apart_as_the_presets_do():
    """Review 6-10, items 5 and 6: every difference the lesson names, read off the presets."""
    ds, kali, rosso = (Ruleset.preset(name) for name in ("dragon-stripes", "kali", "drago-rosso"))
    assert (kali.stop_cards - ds.stop_cards, rosso.stop_cards - ds.stop_cards) == (2, 1)
    footprints = [sum(n for _, n in rules.composition.footprints) for rules in (ds, kali, rosso)]
    assert footprints == [38, 38, 41]  # three more footprints in Drago Rosso (its 54 cards)
    assert kali.danger_cards == rosso.danger_cards == ds.danger_cards - 1
    assert (kali.n_stripes - ds.n_stripes, rosso.n_stripes - ds.n_stripes) == (1, -1)
    for older in (kali, rosso):
        assert older.stages[1].rate == Fraction(1, 2) and older.penalty(40, 1) == 20  # the first danger: half
        assert older.final_danger is FinalDanger.POT_ONLY  # the last danger costs only the pot
    assert (ds.penalty(40, 0), ds.penalty(40, 2), ds.stages[2].multiplier) == (10, 20, 2)
    assert ds.final_danger is FinalDanger.ALL_GEMS and ds.danger_cards - 2 == 1  # at stage 2 the last danger is left
    english = _prose("09-editions")
    assert (
        "two more stop cards (Kali) or one more and three more footprints (Drago Rosso), one danger fewer, a "
        "dragon one stripe longer (Kali)" in english
    )
    assert "the stop penalty doubles (10 → 20 gems)" in english and "which costs all 40 gems" in english
    assert "| stages: penalty rate × multiplier |" in english
    assert "due carte stop in più (Kali) o una in più e tre impronte in più (Drago Rosso)" in _prose(
        "09-editions", "it"
    )


def test_the_expected_first_pot_takes_two_decimals_and_the_next_lessons_code_runs():
    """Review 6-10, items 3 and 14: 26/17 ≈ 1.529 accepts 1.53 (the question says two decimals), and the
    tournament the lesson suggests imports what it calls."""
    from dragonkit.teach import FractionExercise

    exercise = FractionExercise("?", editions.answers()["first_pot"])
    assert exercise.check("1.53") and exercise.check("26/17") and not exercise.check("1.5")
    cells = json.loads((Path(__file__).parents[2] / "notebooks" / "09-editions.ipynb").read_text(encoding="utf-8"))
    markdown = "".join("".join(c["source"]) for c in cells["cells"] if c["cell_type"] == "markdown")
    code = markdown.split("```python\n")[1].split("```")[0]
    assert code.startswith("from dragonkit.simulate import round_robin\n")
    namespace = {"designer": editions.DeckDesigner(start="mini")}
    exec(code.replace("round_robin([", "result = round_robin([").replace(", 100,", ", 2,"), namespace)
    assert type(namespace["result"]).__name__ == "TournamentResult"


def test_the_notes_on_hold_at_20_name_the_mini_deck_the_chart_shows():
    """Third reading: under hold at 20 the published editions lose in 72-76% of their turns, and the mini deck, on the
    same chart, in 95%; the notes say both, in both languages."""
    profiles = {e: editions.edition_profile(Ruleset.preset(e), policy=20) for e in base.EDITIONS}
    published = [float(profiles[e]["p_loss"]) for e in editions.PUBLISHED]
    assert (
        round(min(published), 2) == 0.72
        and round(max(published), 2) == 0.76
        and round(float(profiles["mini"]["p_loss"]), 2) == 0.95
    )
    assert "The mini deck, on the chart too, loses in 95%&nbsp;of its turns under hold at 20" in _prose("09-editions")
    assert "con «fermati a 20» perde nel 95%&nbsp;dei turni" in _prose("09-editions", "it")
