"""The turn written a second way, for the tests of :mod:`dragonkit.analysis`'s Markov-chain laboratory (the
policies, their evaluation, the tables, the decision graph and the plots): situations of every preset, and the stage
table and the rewards written from the text of RULES.md (sections 3, 5, 6 and 7), never from the implementation."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from hypothesis import HealthCheck
from hypothesis import strategies as st

from dragonkit import Ruleset
from dragonkit.analysis import TurnState
from dragonkit.rules import FinalDanger

PRESET_NAMES = ("dragon-stripes", "kali", "drago-rosso", "mini")

#: A custom ruleset without danger cards, 4 footprints and a stop: its deck can run out ("deck empty", 0 gems).
TINY = Ruleset(
    name="tiny",
    starting_gems=10,
    treasure=9,
    stripe_values=(1, 2, 3, 4, 5, 6, 7),
    footprints={1: 3, 2: 1},
    stop_cards=1,
    danger_cards=0,
    stages=[(Fraction(1, 2), 1)],
)


HYPOTHESIS = dict(
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


# ---------------------------------------------------------------------------------
# 1. Helpers
# ---------------------------------------------------------------------------------

#: RULES.md sections 5 and 6, typed in from the text: stop-penalty rate and stripe
#: multiplier by stage, and whether the final danger costs all the revealer's gems.
RULES_TEXT = {
    "dragon-stripes": ((Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)), (1, 1, 2), True),
    "kali": ((Fraction(1, 4), Fraction(1, 2)), (1, 2), False),
    "drago-rosso": ((Fraction(1, 4), Fraction(1, 2)), (1, 2), False),
    "mini": ((Fraction(1, 4),), (1,), True),
}


def stage_table(rules: Ruleset):
    """(rates, multipliers, final danger costs all gems) — from RULES.md for presets."""
    if rules.name in RULES_TEXT:
        return RULES_TEXT[rules.name]
    return (
        tuple(s.rate for s in rules.stages),
        tuple(s.multiplier for s in rules.stages),
        rules.final_danger is FinalDanger.ALL_GEMS,
    )


def expected_reward(state: TurnState, label: str) -> int:
    """The gem change of an absorbing state, from RULES.md section 7."""
    rates, _, final_all = stage_table(state.rules)
    d, gems = state.dangers_revealed, state.gems
    if label.startswith("held "):
        return int(label[5:])
    if label == "stopped":
        return -math.floor(rates[d] * gems)
    if label == "danger":
        assert d + 1 < state.rules.danger_cards, "a non-final danger at the last stage"
        return -math.floor(rates[d + 1] * gems)
    if label == "final danger":
        assert d + 1 == state.rules.danger_cards, "the final danger before the last stage"
        return -gems if final_all else 0
    if label == "head":
        return state.pot + state.treasure
    if label == "deck empty":
        return 0
    raise AssertionError(f"unexpected absorbing label {label!r}")


def make_situation(pick, name: str, small: bool = True) -> TurnState:
    """A decision point of preset ``name``; ``pick(lo, hi)`` draws an int in lo..hi.

    The deck is thinned (a few footprints of each kind, fewer far from the head) so
    that exact evaluation of any policy stays cheap.  Consistent with a real game,
    the dangers not yet revealed are in the deck.
    """
    rules = Ruleset.preset(name)
    n = rules.n_stripes
    position = pick(0, n)
    near = n - position <= n // 2
    cap = (5 if near else 2) if small else (8 if near else 3)
    footprints = {steps: pick(0, min(full, cap)) for steps, full in rules.footprints}
    stage = pick(0, len(rules.stages) - 1)
    dangers = rules.danger_cards - stage
    stops = pick(0, min(3, rules.stop_cards)) if pick(0, 1) else pick(0, rules.stop_cards)
    gems = pick(0, rules.starting_gems) if pick(0, 1) else pick(0, 120)
    treasure = pick(0, 25) if pick(0, 1) else pick(0, rules.treasure)
    pot = pick(0, 4 * n) if pick(0, 2) else 0
    must_reveal = bool(pick(0, 1))
    return TurnState(rules, footprints, stops, dangers, stage, gems, treasure, position, pot, must_reveal)


@st.composite
def situations(draw, names=PRESET_NAMES, small=True):
    name = draw(st.sampled_from(names))
    return make_situation(lambda lo, hi: draw(st.integers(lo, hi)), name, small)


def seeded_situations(seed: int, name: str, count: int, small: bool = True) -> list[TurnState]:
    rng = random.Random(seed)
    return [make_situation(rng.randint, name, small) for _ in range(count)]


def is_fraction(x) -> bool:
    return isinstance(x, Fraction) or (isinstance(x, int) and not isinstance(x, bool))


def close(a, b, rel: float = 1e-12) -> bool:
    """Float ``a`` against exact ``b``: relative 1e-12 (absolute 1e-12 below 1)."""
    b = float(b)
    return abs(float(a) - b) <= rel * max(1.0, abs(b))


# ---------------------------------------------------------------------------------
# 3. Exact and float agree to 1e-12
# ---------------------------------------------------------------------------------

FIELDS = ("expected_gain", "p_stopped", "p_danger", "p_head", "p_loss", "expected_cards", "variance")


# ---------------------------------------------------------------------------------
# 6. Policies
# ---------------------------------------------------------------------------------

PLAIN = lambda s: "reveal" if s.pot < 5 else "hold"  # noqa: E731
