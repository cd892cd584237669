"""The ruleset, the deck and the rule arithmetic, checked against shared/RULES.md.

Every expected number below is worked out by hand from RULES.md (sections 1, 3,
5 and 6), never copied from the implementation.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dragonkit.rules import PRESETS, Card, CardKind, Composition, FinalDanger, FootprintEffect, Ruleset, Stage

Q, H = Fraction(1, 4), Fraction(1, 2)
F1, F2, F3, F4 = (Card.footprint(n) for n in (1, 2, 3, 4))
STOP, DANGER = Card("stop"), Card("danger")

# RULES.md section 1 (dragon-stripes) and section 6 (the other presets).
EXPECTED = {
    "dragon-stripes": dict(
        starting_gems=40,
        treasure=400,
        stripe_values=tuple(range(1, 18)),
        footprints={1: 14, 2: 12, 3: 8, 4: 4},
        stop_cards=10,
        danger_cards=3,
        stages=[(Q, 1), (Q, 1), (H, 2)],
        final_danger="all_gems",
        deck_size=51,
    ),
    "kali": dict(
        starting_gems=40,
        treasure=400,
        stripe_values=tuple(range(1, 19)),
        footprints={1: 14, 2: 12, 3: 8, 4: 4},
        stop_cards=12,
        danger_cards=2,
        stages=[(Q, 1), (H, 2)],
        final_danger="pot_only",
        deck_size=52,
    ),
    "drago-rosso": dict(
        starting_gems=40,
        treasure=400,
        stripe_values=tuple(range(1, 17)),
        footprints={1: 15, 2: 13, 3: 9, 4: 4},
        stop_cards=11,
        danger_cards=2,
        stages=[(Q, 1), (H, 2)],
        final_danger="pot_only",
        deck_size=54,
    ),
    # 1x3 + 2x2 footprints, 2 stops, 1 danger: 3 + 2 + 2 + 1 = 8 cards.
    "mini": dict(
        starting_gems=12,
        treasure=20,
        stripe_values=(1, 2, 3, 4, 5),
        footprints={1: 3, 2: 2},
        stop_cards=2,
        danger_cards=1,
        stages=[(Q, 1)],
        final_danger="all_gems",
        deck_size=8,
    ),
}
PRESET_NAMES = list(EXPECTED)


# -- presets ------------------------------------------------------------------------


def test_the_four_presets_exist_and_nothing_else():
    assert set(PRESETS) == set(EXPECTED)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_numbers_match_rules_md(name):
    rules = Ruleset.preset(name)
    want = EXPECTED[name]
    assert rules.name == name
    assert rules.starting_gems == want["starting_gems"]
    assert rules.treasure == want["treasure"]
    assert rules.stripe_values == want["stripe_values"]
    assert rules.n_stripes == len(want["stripe_values"])
    assert rules.head == len(want["stripe_values"]) + 1
    assert dict(rules.footprints) == want["footprints"]
    assert rules.stop_cards == want["stop_cards"]
    assert rules.danger_cards == want["danger_cards"]
    assert [(s.rate, s.multiplier) for s in rules.stages] == want["stages"]
    assert rules.final_danger == want["final_danger"]
    # RULES.md 3.4: the bounty is the pot.
    assert rules.bounty_rate == 1


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_deck_size_and_composition(name):
    rules = Ruleset.preset(name)
    want = EXPECTED[name]
    assert rules.deck_size == want["deck_size"]
    comp = rules.composition
    assert comp.total == want["deck_size"]
    assert dict(comp.footprints) == want["footprints"]
    assert comp.stops == want["stop_cards"]
    assert comp.dangers == want["danger_cards"]
    cards = comp.cards()
    assert len(cards) == want["deck_size"]
    counts = Counter(cards)
    for steps, n in want["footprints"].items():
        assert counts[Card.footprint(steps)] == n
    assert counts[STOP] == want["stop_cards"]
    assert counts[DANGER] == want["danger_cards"]


def test_dragon_stripes_has_38_footprints_and_51_cards():
    rules = Ruleset.preset("dragon-stripes")
    assert sum(c for _, c in rules.footprints) == 38
    assert rules.deck_size == 38 + 10 + 3 == 51


def test_default_ruleset_and_default_preset_are_dragon_stripes():
    assert Ruleset() == Ruleset.preset() == Ruleset.preset("dragon-stripes")


@pytest.mark.parametrize("bad", ["dragon", "Kali", "", None, 3, ["mini"]])
def test_unknown_preset_name_is_refused(bad):
    with pytest.raises(ValueError, match="preset") as info:
        Ruleset.preset(bad)
    for name in PRESET_NAMES:  # the message lists what is allowed
        assert name in str(info.value)


# -- validation ---------------------------------------------------------------------

INVALID = [
    ("name", ""),
    ("name", "   "),
    ("name", 5),
    ("name", None),
    ("starting_gems", -1),
    ("starting_gems", 1.5),
    ("starting_gems", "40"),
    ("starting_gems", True),
    ("starting_gems", None),
    ("treasure", -400),
    ("treasure", 400.0),
    ("treasure", False),
    ("treasure", "400"),
    ("stripe_values", []),
    ("stripe_values", ()),
    ("stripe_values", "12345"),
    ("stripe_values", 17),
    ("stripe_values", None),
    ("stripe_values", [1, 2, -3]),
    ("stripe_values", [1, 2.5]),
    ("stripe_values", [1, True]),
    ("stripe_values", [1, "2"]),
    ("footprints", {}),
    ("footprints", []),
    ("footprints", {1: 0, 2: 0}),
    ("footprints", {0: 3}),
    ("footprints", {-1: 3}),
    ("footprints", {1: -2}),
    ("footprints", {1: 2.5}),
    ("footprints", {1: True}),
    ("footprints", {True: 3}),
    ("footprints", {1.5: 2}),
    ("footprints", {"1": 2}),
    ("footprints", 5),
    ("footprints", None),
    ("footprints", [(1, 2, 3)]),
    ("footprints", [(1, 2), (1, 3)]),
    ("stop_cards", -1),
    ("stop_cards", 1.5),
    ("stop_cards", True),
    ("stop_cards", "10"),
    ("danger_cards", -1),
    ("danger_cards", 2.5),
    ("danger_cards", True),
    ("danger_cards", None),
    ("final_danger", "all"),
    ("final_danger", "ALL_GEMS"),
    ("final_danger", ""),
    ("final_danger", None),
    ("final_danger", 0),
    ("bounty_rate", -1),
    ("bounty_rate", -0.5),
    ("bounty_rate", Fraction(-1, 3)),
    ("bounty_rate", True),
    ("bounty_rate", "lots"),
    ("bounty_rate", "1/0"),
    ("bounty_rate", None),
    ("bounty_rate", float("nan")),
]


@pytest.mark.parametrize("field_name, value", INVALID, ids=lambda v: repr(v))
def test_invalid_field_is_refused_naming_the_field(field_name, value):
    with pytest.raises(ValueError, match=field_name):
        Ruleset(**{field_name: value})


@pytest.mark.parametrize("field_name, value", INVALID, ids=lambda v: repr(v))
def test_dataclasses_replace_validates_too(field_name, value):
    for name in PRESET_NAMES:
        with pytest.raises(ValueError, match=field_name):
            dataclasses.replace(Ruleset.preset(name), **{field_name: value})


ONE_STAGE, THREE_STAGES = ((Q, 1),), ((Q, 1), (Q, 1), (H, 2))
INVALID_STAGES = [
    # wrong length for the default 3 danger cards: one stage per stage 0..2
    (),
    ONE_STAGE,
    ((Q, 1), (H, 2)),
    THREE_STAGES + ((H, 2),),
    # not a sequence of stages
    "ab",
    None,
    5,
    {"rate": Q, "multiplier": 1},
    # malformed single stage
    ((Q, 1), (Q, 1), (H, 2, 3)),
    ((Q, 1), (Q, 1), 5),
    ((Q, 1), (Q, 1), {"rate": H}),
    ((Q, 1), (Q, 1), {"rate": H, "multiplier": 2, "extra": 0}),
    # rates outside [0, 1] or not numbers
    ((Q, 1), (Q, 1), (Fraction(-1, 4), 2)),
    ((Q, 1), (Q, 1), (Fraction(5, 4), 2)),
    ((Q, 1), (Q, 1), (2, 2)),
    ((Q, 1), (Q, 1), (-0.5, 2)),
    ((Q, 1), (Q, 1), (1.5, 2)),
    ((Q, 1), (Q, 1), (True, 2)),
    ((Q, 1), (Q, 1), ("half", 2)),
    ((Q, 1), (Q, 1), (None, 2)),
    # multipliers must be whole numbers >= 1
    ((Q, 1), (Q, 1), (H, 0)),
    ((Q, 1), (Q, 1), (H, -2)),
    ((Q, 1), (Q, 1), (H, 1.5)),
    ((Q, 1), (Q, 1), (H, True)),
    ((Q, 1), (Q, 1), (H, "2")),
]


@pytest.mark.parametrize("stages", INVALID_STAGES, ids=lambda v: repr(v))
def test_invalid_stages_are_refused_naming_the_field(stages):
    with pytest.raises(ValueError, match="stages"):
        Ruleset(stages=stages)
    with pytest.raises(ValueError, match="stages"):
        dataclasses.replace(Ruleset(), stages=stages)


def test_stages_must_follow_the_number_of_danger_cards():
    # 2 danger cards need 2 stages; 0 danger cards still need the one stage 0.
    with pytest.raises(ValueError, match="stages"):
        dataclasses.replace(Ruleset(), danger_cards=2)
    with pytest.raises(ValueError, match="stages"):
        Ruleset(danger_cards=0, stages=())
    with pytest.raises(ValueError, match="stages"):
        Ruleset(danger_cards=0, stages=((Q, 1), (H, 2)))
    assert Ruleset(danger_cards=2, stages=((Q, 1), (H, 2))).danger_cards == 2
    assert Ruleset(danger_cards=0, stages=ONE_STAGE).deck_size == 38 + 10


@pytest.mark.parametrize("rate", [0, 1, Fraction(0), Fraction(1), 0.0, 1.0, "1/3", "0"])
def test_stage_rates_on_the_closed_interval_are_accepted(rate):
    rules = Ruleset(stages=((rate, 1), (Q, 1), (H, 2)))
    expected = Fraction(str(rate)) if isinstance(rate, float) else Fraction(rate)
    assert rules.stages[0].rate == expected
    assert isinstance(rules.stages[0].rate, Fraction)


def test_stages_accept_pairs_dicts_and_stage_objects_alike():
    a = Ruleset(stages=((Q, 1), (Q, 1), (H, 2)))
    b = Ruleset(stages=[{"rate": "1/4", "multiplier": 1}, ["1/4", 1], Stage(H, 2)])
    c = Ruleset(stages=((0.25, 1), (0.25, 1), (0.5, 2)))
    assert a == b == c == Ruleset()
    assert all(isinstance(s, Stage) and isinstance(s.rate, Fraction) for s in b.stages)


def test_valid_custom_values_are_accepted_and_normalized():
    rules = Ruleset(
        name="custom",
        starting_gems=0,
        treasure=0,
        stripe_values=[0, 5, 7],
        footprints=[(3, 1), (1, 2)],
        stop_cards=0,
        danger_cards=0,
        stages=[(0, 1)],
        final_danger="pot_only",
        bounty_rate="2/3",
    )
    assert rules.stripe_values == (0, 5, 7)
    assert rules.footprints == ((1, 2), (3, 1))  # sorted (steps, count) pairs
    assert rules.bounty_rate == Fraction(2, 3)
    assert rules.deck_size == 3
    assert rules.head == 4


def test_replace_recomputes_the_deck():
    rules = dataclasses.replace(Ruleset(), stop_cards=0, footprints={1: 1})
    assert rules.deck_size == 1 + 0 + 3
    assert rules.composition == Composition.of({1: 1}, 0, 3)
    assert Ruleset().deck_size == 51  # the original is untouched


def test_ruleset_is_frozen():
    rules = Ruleset()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.treasure = 5


# -- serialization ------------------------------------------------------------------

CUSTOM = Ruleset(
    name="classroom",
    starting_gems=9,
    treasure=33,
    stripe_values=(2, 0, 4),
    footprints={1: 2, 5: 1},
    stop_cards=3,
    danger_cards=0,
    stages=((Fraction(1, 3), 3),),
    final_danger="pot_only",
    bounty_rate=Fraction(1, 2),
)


@pytest.mark.parametrize("rules", [*PRESETS.values(), CUSTOM], ids=lambda r: r.name)
def test_to_dict_from_dict_round_trip(rules):
    data = rules.to_dict()
    back = Ruleset.from_dict(data)
    assert back == rules
    assert back.composition == rules.composition
    # ... also through actual JSON text
    again = Ruleset.from_dict(json.loads(json.dumps(data)))
    assert again == rules
    assert again.stages == rules.stages and again.bounty_rate == rules.bounty_rate


def test_from_dict_refuses_unknown_fields_and_non_dicts():
    data = Ruleset().to_dict()
    with pytest.raises(ValueError, match="colour"):
        Ruleset.from_dict({**data, "colour": "red"})
    with pytest.raises(ValueError):
        Ruleset.from_dict({**data, "_composition": None})
    for bad in (None, [], "dragon-stripes", 5):
        with pytest.raises(ValueError):
            Ruleset.from_dict(bad)


@pytest.mark.parametrize(
    "field_name, value",
    [
        ("starting_gems", "40"),
        ("treasure", -1),
        ("footprints", {"x": 1}),
        ("footprints", {"1": "a"}),
        ("stages", [{"rate": "2", "multiplier": 1}] * 3),
        ("final_danger", "nothing"),
        ("bounty_rate", "-1"),
    ],
)
def test_from_dict_validates_every_field(field_name, value):
    data = Ruleset().to_dict()
    data[field_name] = value
    with pytest.raises(ValueError, match=field_name):
        Ruleset.from_dict(data)


# -- cards and compositions ---------------------------------------------------------


def test_card_basics():
    assert (F3.kind, F3.steps) == (CardKind.FOOTPRINT, 3)
    assert (STOP.kind, STOP.steps) == (CardKind.STOP, 0)
    assert (DANGER.kind, DANGER.steps) == (CardKind.DANGER, 0)
    assert Card.footprint(2) == Card("footprint", 2) == Card(CardKind.FOOTPRINT, 2)
    for card in (F1, F2, F3, F4, STOP, DANGER):
        assert Card.from_json(card.to_json()) == card


def test_a_kind_given_by_its_name_is_kept_as_the_enum():
    for kind in CardKind:
        card = Card(kind.value, 1 if kind is CardKind.FOOTPRINT else 0)
        assert type(card.kind) is CardKind and card.kind is kind
        assert card == Card(kind, card.steps) and hash(card) == hash(Card(kind, card.steps))
        assert type(Card.from_json(card.to_json()).kind) is CardKind
    assert sorted([STOP, F2, DANGER, F1]) == [DANGER, F1, F2, STOP]  # by the kind's name, then the steps
    with pytest.raises(ValueError, match="card kind must be one of 'footprint', 'stop', 'danger', not 'joker'"):
        Card("joker")


@pytest.mark.parametrize(
    "kind, steps",
    [
        ("joker", 0),
        ("STOP", 0),
        (None, 0),
        (["stop"], 0),
        ("footprint", 0),
        ("footprint", -1),
        ("footprint", 1.5),
        ("stop", 1),
        ("danger", 2),
        (CardKind.STOP, 1),
    ],
)
def test_invalid_cards_are_refused(kind, steps):
    with pytest.raises(ValueError):
        Card(kind, steps)


@pytest.mark.parametrize("text", ["X", "", "F", "F-1", "F0", "s", None, 3])
def test_card_from_json_refuses_garbage(text):
    with pytest.raises(ValueError):
        Card.from_json(text)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_full_deck_outcomes_are_exact_fractions_summing_to_one(name):
    rules = Ruleset.preset(name)
    want = EXPECTED[name]
    n = want["deck_size"]
    outcomes = rules.composition.outcomes()
    assert all(isinstance(p, Fraction) for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    expected = {Card.footprint(s): Fraction(c, n) for s, c in want["footprints"].items()}
    expected[STOP] = Fraction(want["stop_cards"], n)
    expected[DANGER] = Fraction(want["danger_cards"], n)
    assert dict(outcomes) == expected
    assert len(outcomes) == len(expected)  # each card kind once


def test_outcomes_omit_exhausted_cards_and_empty_deck_gives_nothing():
    comp = Composition.of({1: 0, 2: 3}, 1, 0)
    assert dict(comp.outcomes()) == {F2: Fraction(3, 4), STOP: Fraction(1, 4)}
    assert Composition.of({1: 0}, 0, 0).outcomes() == []
    assert Composition.of({1: 0}, 0, 0).total == 0


def test_without_removes_exactly_one_card():
    comp = Ruleset().composition
    for card in (F1, F2, F3, F4, STOP, DANGER):
        after = comp.without(card)
        assert after.total == comp.total - 1
        assert after.count(card) == comp.count(card) - 1
        for other in (F1, F2, F3, F4, STOP, DANGER):
            if other != card:
                assert after.count(other) == comp.count(other)
        assert comp.total == 51  # compositions are values: the original is unchanged


def test_without_refuses_a_card_that_is_not_left():
    comp = Composition.of({1: 1}, 0, 1)
    comp = comp.without(F1)
    for card in (F1, F2, STOP):
        with pytest.raises(ValueError):
            comp.without(card)
    assert comp.without(DANGER).total == 0


def test_drawing_the_whole_deck_one_card_at_a_time():
    comp = Ruleset.preset("mini").composition
    for card in comp.cards():
        probabilities = dict(comp.outcomes())
        assert probabilities[card] == Fraction(comp.count(card), comp.total)
        comp = comp.without(card)
    assert comp.total == 0


# -- the rule arithmetic ------------------------------------------------------------


@pytest.mark.parametrize(
    "name, gems, stage, expected",
    [
        # dragon-stripes: 1/4 at stages 0 and 1, 1/2 at stage 2, rounded down
        ("dragon-stripes", 40, 0, 10),
        ("dragon-stripes", 43, 0, 10),
        ("dragon-stripes", 3, 0, 0),
        ("dragon-stripes", 0, 0, 0),
        ("dragon-stripes", 39, 1, 9),
        ("dragon-stripes", 41, 2, 20),
        ("dragon-stripes", 40, 2, 20),
        ("dragon-stripes", 1, 2, 0),
        # kali / drago-rosso: 1/4 at stage 0, 1/2 at stage 1
        ("kali", 41, 0, 10),
        ("kali", 41, 1, 20),
        ("drago-rosso", 7, 0, 1),
        ("drago-rosso", 7, 1, 3),
        ("mini", 12, 0, 3),
        ("mini", 11, 0, 2),
    ],
)
def test_penalty(name, gems, stage, expected):
    assert Ruleset.preset(name).penalty(gems, stage) == expected


@pytest.mark.parametrize("name, final", [("dragon-stripes", 3), ("kali", 2), ("drago-rosso", 2), ("mini", 1)])
def test_the_final_stage_has_no_penalty_rate(name, final):
    rules = Ruleset.preset(name)
    with pytest.raises(ValueError):
        rules.penalty(40, final)
    with pytest.raises(ValueError):
        rules.stage(-1)
    assert not rules.is_final_danger(final - 1)
    assert rules.is_final_danger(final)
    assert rules.last_stage == final - 1
    assert rules.stage(rules.last_stage) == rules.stages[-1]


def test_without_danger_cards_stage_zero_is_the_last():
    rules = Ruleset(danger_cards=0, stages=ONE_STAGE)
    assert rules.last_stage == 0
    assert rules.stage(rules.last_stage) == rules.stages[0]


@pytest.mark.parametrize(
    "name, position, stage, treasure, expected",
    [
        ("dragon-stripes", 1, 0, 400, 1),
        ("dragon-stripes", 5, 0, 400, 5),
        ("dragon-stripes", 17, 1, 400, 17),
        ("dragon-stripes", 5, 2, 400, 10),
        ("dragon-stripes", 17, 2, 400, 34),
        # the treasure cap: all that is left, possibly nothing
        ("dragon-stripes", 17, 2, 33, 33),
        ("dragon-stripes", 5, 0, 4, 4),
        ("dragon-stripes", 5, 0, 5, 5),
        ("dragon-stripes", 5, 0, 0, 0),
        ("kali", 18, 0, 400, 18),
        ("kali", 18, 1, 400, 36),
        ("drago-rosso", 16, 1, 400, 32),
        ("mini", 5, 0, 20, 5),
        ("mini", 5, 0, 2, 2),
    ],
)
def test_stripe_gems(name, position, stage, treasure, expected):
    assert Ruleset.preset(name).stripe_gems(position, stage, treasure) == expected


@pytest.mark.parametrize(
    "rate, pot, expected",
    [
        (1, 0, 0),
        (1, 13, 13),
        (1, 400, 400),
        (Fraction(1, 2), 13, 6),
        (Fraction(1, 2), 1, 0),
        (Fraction(1, 2), 14, 7),
        (Fraction(2, 3), 10, 6),
        ("2/3", 11, 7),
        (Fraction(3, 2), 5, 7),
        (0, 50, 0),
        # 0.29 as a float times 100 is 28.999999999999996; the configured 0.29 means exactly 29/100
        (0.29, 100, 29),
        (0.1, 30, 3),
    ],
)
def test_bounty_is_rate_times_pot_rounded_down(rate, pot, expected):
    assert Ruleset(bounty_rate=rate).bounty(pot) == expected


def effect(rules, card, *, position=0, pot=0, gems=40, treasure=400, stage=0, cards_left=10):
    return rules.apply_card(
        card, position=position, pot=pot, gems=gems, treasure=treasure, dangers_revealed=stage, cards_left=cards_left
    )


def conserved(before_pot, before_treasure, e):
    """Gems next to the knight + treasure + the active player's change is unchanged."""
    return before_pot + before_treasure == e.pot + e.treasure + e.gems_change


def test_apply_footprint_moves_and_fills_the_pot():
    rules = Ruleset()
    e = effect(rules, F2, position=3, pot=6, treasure=394)
    assert e.outcome is None
    assert (e.position, e.gems_placed, e.pot, e.treasure, e.gems_change, e.dangers_revealed) == (5, 5, 11, 389, 0, 0)
    assert not e.ends_turn and not e.ends_game
    assert conserved(6, 394, e)


def test_apply_footprint_from_the_tail():
    e = effect(Ruleset(), F1)
    assert (e.outcome, e.position, e.gems_placed, e.pot, e.treasure) == (None, 1, 1, 1, 399)


def test_apply_footprint_multiplier_at_stage_two():
    e = effect(Ruleset(), F3, position=4, pot=10, treasure=300, stage=2)
    assert (e.outcome, e.position, e.gems_placed, e.pot, e.treasure, e.dangers_revealed) == (None, 7, 14, 24, 286, 2)


def test_apply_footprint_multiplier_one_at_stage_one():
    e = effect(Ruleset(), F3, position=4, pot=10, treasure=300, stage=1)
    assert (e.gems_placed, e.pot, e.treasure) == (7, 17, 293)


def test_apply_footprint_with_a_nearly_empty_treasure():
    e = effect(Ruleset(), F4, position=13, pot=50, treasure=3)
    assert (e.outcome, e.position, e.gems_placed, e.pot, e.treasure) == (None, 17, 3, 53, 0)
    e = effect(Ruleset(), F1, position=13, pot=50, treasure=0)
    assert (e.outcome, e.position, e.gems_placed, e.pot, e.treasure) == (None, 14, 0, 50, 0)


@pytest.mark.parametrize("position, card", [(17, F1), (16, F2), (14, F4), (17, F4), (15, F3)])
def test_apply_footprint_past_the_last_stripe_reaches_the_head(position, card):
    rules = Ruleset()
    e = effect(rules, card, position=position, pot=70, treasure=250, gems=31)
    assert e.outcome == "head"
    assert e.position == rules.head == 18
    assert e.gems_change == 70 + 250  # the pot and all the treasure
    assert (e.pot, e.treasure) == (0, 0)
    assert e.ends_turn and e.ends_game
    assert conserved(70, 250, e)


@pytest.mark.parametrize("position, card, landing", [(13, F4, 17), (16, F1, 17), (0, F4, 4)])
def test_apply_footprint_onto_the_last_stripe_is_not_the_head(position, card, landing):
    e = effect(Ruleset(), card, position=position, pot=0, treasure=400)
    assert e.outcome is None and e.position == landing


def test_apply_stop():
    rules = Ruleset()
    e = effect(rules, STOP, position=7, pot=28, gems=43, treasure=372)
    assert e.outcome == "stopped"
    assert e.gems_change == -10  # floor(43 / 4)
    assert e.pot == 0 and e.treasure == 372 + 28 + 10
    assert e.dangers_revealed == 0
    assert e.ends_turn and not e.ends_game
    assert conserved(28, 372, e)


def test_apply_stop_at_stage_two_costs_half():
    e = effect(Ruleset(), STOP, position=2, pot=6, gems=31, treasure=100, stage=2)
    assert (e.outcome, e.gems_change, e.pot, e.treasure) == ("stopped", -15, 0, 121)


def test_apply_stop_never_takes_the_penalty_from_the_pot():
    e = effect(Ruleset(), STOP, position=2, pot=90, gems=0, treasure=100)
    assert (e.gems_change, e.pot, e.treasure) == (0, 0, 190)


def test_apply_first_danger_dragon_stripes():
    e = effect(Ruleset(), DANGER, position=5, pot=15, gems=43, treasure=385, stage=0)
    assert e.outcome == "danger"
    assert e.dangers_revealed == 1
    assert e.gems_change == -10  # stage 1 rate is still 1/4
    assert (e.pot, e.treasure) == (0, 385 + 15 + 10)
    assert e.ends_turn and not e.ends_game


def test_apply_second_danger_dragon_stripes_charges_half():
    e = effect(Ruleset(), DANGER, position=5, pot=15, gems=43, treasure=385, stage=1)
    assert e.outcome == "danger"
    assert e.dangers_revealed == 2
    assert e.gems_change == -21  # floor(43 / 2)
    assert (e.pot, e.treasure) == (0, 385 + 15 + 21)
    assert not e.ends_game


def test_apply_third_danger_dragon_stripes_takes_all_gems():
    e = effect(Ruleset(), DANGER, position=5, pot=30, gems=43, treasure=385, stage=2)
    assert e.outcome == "final_danger"
    assert e.dangers_revealed == 3
    assert e.gems_change == -43
    assert (e.pot, e.treasure) == (0, 385 + 30 + 43)
    assert e.ends_turn and e.ends_game


@pytest.mark.parametrize("name", ["kali", "drago-rosso"])
def test_apply_first_danger_kali_is_a_stop_at_half(name):
    e = effect(Ruleset.preset(name), DANGER, position=3, pot=12, gems=41, treasure=300, stage=0)
    assert (e.outcome, e.dangers_revealed, e.gems_change, e.pot, e.treasure) == ("danger", 1, -20, 0, 300 + 12 + 20)


@pytest.mark.parametrize("name", ["kali", "drago-rosso"])
def test_apply_second_danger_kali_costs_the_pot_only(name):
    e = effect(Ruleset.preset(name), DANGER, position=3, pot=12, gems=41, treasure=300, stage=1)
    assert e.outcome == "final_danger"
    assert e.dangers_revealed == 2
    assert e.gems_change == 0
    assert (e.pot, e.treasure) == (0, 312)
    assert e.ends_game


def test_apply_only_danger_mini_takes_all_gems():
    e = effect(Ruleset.preset("mini"), DANGER, position=3, pot=6, gems=12, treasure=14, stage=0)
    assert (e.outcome, e.dangers_revealed, e.gems_change, e.pot, e.treasure) == ("final_danger", 1, -12, 0, 32)


def test_final_danger_is_an_enum_read_and_written_as_its_string():
    kali = Ruleset.preset("kali")
    assert kali.final_danger is FinalDanger.POT_ONLY and kali.final_danger is FinalDanger.POT_ONLY  # a str still
    assert Ruleset(final_danger="pot_only").final_danger is FinalDanger.POT_ONLY
    data = kali.to_dict()
    assert type(data["final_danger"]) is str and data["final_danger"] == "pot_only"
    assert '"final_danger": "pot_only"' in json.dumps(data)  # saved games and cache keys as before
    again = Ruleset.from_dict(json.loads(json.dumps(data)))
    assert again == kali and hash(again) == hash(kali) and again.final_danger is FinalDanger.POT_ONLY
    assert dataclasses.replace(kali, final_danger=FinalDanger.ALL_GEMS) == dataclasses.replace(
        kali, final_danger="all_gems"
    )
    with pytest.raises(ValueError, match=r"final_danger must be one of \('all_gems', 'pot_only'\), not 'pot'"):
        Ruleset(final_danger="pot")


def test_final_danger_field_decides_the_cost():
    all_gems = dataclasses.replace(Ruleset.preset("kali"), final_danger="all_gems")
    e = effect(all_gems, DANGER, pot=5, gems=17, treasure=100, stage=1)
    assert (e.outcome, e.gems_change, e.treasure) == ("final_danger", -17, 122)
    pot_only = dataclasses.replace(Ruleset(), final_danger="pot_only")
    e = effect(pot_only, DANGER, pot=5, gems=17, treasure=100, stage=2)
    assert (e.outcome, e.gems_change, e.treasure) == ("final_danger", 0, 105)


NO_DANGER = Ruleset(name="no-danger", footprints={1: 2, 2: 1}, stop_cards=1, danger_cards=0, stages=((Q, 1),))


def test_apply_last_footprint_of_a_deck_without_danger_ends_the_game():
    e = effect(NO_DANGER, F2, position=3, pot=6, gems=40, treasure=394, cards_left=0)
    assert e.outcome == "deck_empty"
    assert e.ends_game
    assert e.pot == 0 and e.gems_change == 0
    assert e.treasure == 400  # the pot goes back; nothing new leaves the treasure
    assert conserved(6, 394, e)


def test_apply_last_footprint_reaching_the_head_is_still_the_head():
    e = effect(NO_DANGER, F2, position=17, pot=6, gems=40, treasure=394, cards_left=0)
    assert (e.outcome, e.gems_change, e.treasure) == ("head", 400, 0)


def test_apply_footprint_with_cards_left_is_a_plain_move_without_dangers():
    e = effect(NO_DANGER, F2, position=3, pot=6, treasure=394, cards_left=1)
    assert (e.outcome, e.position, e.pot, e.treasure) == (None, 5, 11, 389)


@settings(max_examples=300)
@given(
    name=st.sampled_from(PRESET_NAMES),
    card=st.sampled_from([F1, F2, F3, F4, STOP, DANGER]),
    position=st.integers(0, 18),
    pot=st.integers(0, 200),
    gems=st.integers(0, 300),
    treasure=st.integers(0, 600),
    stage=st.integers(0, 2),
    cards_left=st.integers(0, 50),
)
def test_apply_card_conserves_gems_and_never_goes_negative(
    name, card, position, pot, gems, treasure, stage, cards_left
):
    rules = Ruleset.preset(name)
    position = min(position, rules.n_stripes)
    stage = min(stage, rules.danger_cards - 1)
    e = effect(
        rules, card, position=position, pot=pot, gems=gems, treasure=treasure, stage=stage, cards_left=cards_left
    )
    assert conserved(pot, treasure, e)
    assert e.pot >= 0 and e.treasure >= 0 and gems + e.gems_change >= 0
    assert 0 <= e.position <= rules.head
    assert e.dangers_revealed == stage + (card == DANGER)
    if e.outcome is None:
        assert e.pot == pot + e.gems_placed and not e.ends_turn
    else:
        assert e.pot == 0 and e.ends_turn


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.floats(allow_nan=True) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300)
@given(field_name=st.sampled_from(sorted(Ruleset().to_dict())), value=JSON_VALUES)
def test_from_dict_with_any_json_value_gives_a_ruleset_or_a_value_error(field_name, value):
    data = Ruleset().to_dict()
    data[field_name] = value
    try:
        rules = Ruleset.from_dict(data)
    except ValueError:
        return
    # accepted: then it is a valid, self-consistent ruleset that round-trips
    assert Ruleset.from_dict(rules.to_dict()) == rules
    assert rules.deck_size == rules.composition.total >= 1


def test_footprint_effect_names_its_fields_for_ints_and_arrays():
    rules = Ruleset.preset("mini")
    one = rules.footprint_effect(2, 1, 1, 19, 0, 5)
    assert isinstance(one, FootprintEffect) and one._fields == (
        "position",
        "placed",
        "pot",
        "gems_change",
        "treasure",
        "at_head",
        "deck_empty",
    )
    assert (one.position, one.placed, one.pot, one.gems_change, one.treasure) == (3, 3, 4, 0, 16)
    assert (one.at_head, one.deck_empty) == (0, 0) and tuple(one) == (3, 3, 4, 0, 16, 0, 0)
    head = rules.footprint_effect(2, 5, 4, 16, 0, 5)
    assert (head.position, head.at_head, head.gems_change, head.pot, head.treasure) == (rules.head, 1, 20, 0, 0)
    many = rules.footprint_effect(2, np.array([1, 5]), np.array([1, 4]), np.array([19, 16]), 0, 5)
    assert many.position.tolist() == [3, rules.head] and many.at_head.tolist() == [0, 1]
    assert many.gems_change.tolist() == [0, 20] and many.pot.tolist() == [4, 0]
