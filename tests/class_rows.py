"""A class's decisions made by hand, as the record's readers give them (:func:`dragonkit.record.reading.decisions`),
for the tests of "our class" (tests/topics/test_our_class.py, tests/plots/test_our_class.py, the lessons' tests): a
situation of the public game state, the action, the exact values of its options, the card a reveal turned up."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import asdict
from datetime import UTC, datetime
from fractions import Fraction

import pandas as pd

from dragonkit.analysis import solve_turn
from dragonkit.game_state import GameState, Phase
from dragonkit.record import DecisionRow
from dragonkit.rules import Card, Ruleset

MINI = Ruleset.preset("mini")
#: The classroom deck's first turn for a player with no gem to lose to a stop (the other one has 24).
POOR = dataclasses.replace(GameState.fresh(MINI), gems=(0, 24))


def coach_gems(state: GameState) -> dict[str, Fraction]:
    """What the coach's first view gives each option of ``state`` (a reveal or a hold): the push value and the pot."""
    solved = solve_turn(state.turn(), exact=True)
    gems = {"reveal": Fraction(solved.push_value)}
    if state.phase is Phase.CHOOSE:
        gems["hold"] = Fraction(state.pot)
    return gems


def decision(
    state: GameState,
    action: str,
    gems: Mapping[str, Fraction] | None = None,
    card: Card | None = None,
    nickname: str = "Ada",
) -> DecisionRow:
    """The decision to play ``action`` in ``state``, its options valued by ``gems`` (default: :func:`coach_gems`)."""
    values = coach_gems(state) if gems is None else gems
    return DecisionRow.of(state, action, app="play", seconds=2.0, gems=values, card=card)


def frame(rows: Iterable[DecisionRow | tuple[DecisionRow, str]]) -> pd.DataFrame:
    """``rows`` (each a decision, or a decision and its student's nickname: default ``"Ada"``) as the readers give
    them, ``id`` 1, 2, … in order, one visit per nickname."""
    out = []
    for i, given in enumerate(rows, start=1):
        row, nickname = given if isinstance(given, tuple) else (given, "Ada")
        out.append(
            {
                "id": i,
                "event_id": f"{i:032x}",
                "visit_id": f"visit-{nickname}",
                "class_name": "3B",
                "nickname": nickname,
                "at": datetime.now(UTC).replace(tzinfo=None),
                **asdict(row),
            }
        )
    return pd.DataFrame(out)


def mini_turn() -> list[tuple[GameState, str, Card | None]]:
    """A first turn of the classroom deck, step by step: the compulsory reveal (a 2-step footprint), a reveal (a
    1-step footprint), a reveal (a 2-step one), then a hold; each as (situation, action, card turned up)."""
    fresh = GameState.fresh(MINI)
    two = fresh.child(Card.footprint(2))
    three = two.child(Card.footprint(1))
    five = three.child(Card.footprint(2))
    return [
        (fresh, "reveal", Card.footprint(2)),
        (two, "reveal", Card.footprint(1)),
        (three, "reveal", Card.footprint(2)),
        (five, "hold", None),
    ]


def short_holds() -> list[DecisionRow]:
    """Two holds where revealing was worth more: :data:`POOR` holds at pot 1 (position 1: revealing is worth 15/7,
    by plain expectimax) and at pot 3 (position 2: revealing is worth 10/3)."""
    one = POOR.child(Card.footprint(1))
    three = one.child(Card.footprint(1))
    return [decision(one, "hold", {"reveal": Fraction(15, 7), "hold": Fraction(1)}), decision(three, "hold")]
