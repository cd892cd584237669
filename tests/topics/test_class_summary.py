"""The teacher's dashboard's numbers, from hand-made rows of the record with known answers."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from fractions import Fraction

import pandas as pd
import pytest

from dragonkit.analysis import fresh_turn, policy_map
from dragonkit.topics import class_summary as cs
from dragonkit.topics.our_class import HELD, PAST, REVEALED, SHORT, stopping_choices

NOW = datetime(2026, 3, 2, 10, 0)
_IDS = itertools.count(1)


def decision(
    nickname="Ada", action="reveal", reveal="5", hold="3", stage=0, position=4, pot=3, edition="mini", phase="choose"
):
    """A decision row as the record keeps it (the columns the dashboard reads)."""
    gems = {"reveal": reveal, "hold": hold} if phase == "choose" else {"reveal": reveal}
    if phase == "offer":
        gems = {"take_over": reveal, "decline": hold}
    values = {a: float(Fraction(v)) for a, v in gems.items()}
    best = max(values.values())
    return {
        "id": next(_IDS),
        "nickname": nickname,
        "edition": edition,
        "stage": stage,
        "position": position,
        "pot": pot,
        "phase": phase,
        "action": action,
        "gems": gems,
        "best_gems": sorted(a for a, v in values.items() if v == best),
        "gems_given_up": best - values[action],
    }


def test_the_class_map_is_the_stages_policy_map_at_a_turns_start_with_the_decisions_counted_by_cell():
    rows = pd.DataFrame(
        [
            decision(action="reveal", reveal="5/2", hold="3", position=3, pot=3),
            decision(action="reveal", reveal="5/2", hold="3", position=3, pot=3, nickname="Bea"),
            decision(action="hold", reveal="7/2", hold="3", position=2, pot=3),
            decision(action="hold", reveal="7/2", hold="3", position=2, pot=3, stage=1, edition="kali"),
        ]
    )
    choices = stopping_choices(rows)
    assert cs.map_choices(choices) == [("mini", 0, 3), ("kali", 1, 1)]
    found = cs.class_map(choices, "mini", 0)
    pd.testing.assert_frame_equal(found.advantage, policy_map(fresh_turn("mini", 0)))
    assert found.counts == {HELD: 0, REVEALED: 0, SHORT: 1, PAST: 2} and found.decisions == 3
    assert found.points.to_dict("records") == [
        {"position": 3, "pot": 3, "action": "reveal", "verdict": PAST, "decisions": 2},
        {"position": 2, "pot": 3, "action": "hold", "verdict": SHORT, "decisions": 1},
    ]
    assert cs.class_map(choices, "dragon-stripes", 2).decisions == 0
    with pytest.raises(ValueError):
        cs.class_map(choices, "mini", 5)


def test_the_gems_given_up_by_decision_student_and_edition_and_the_biggest():
    rows = pd.DataFrame(
        [
            decision("Ada", "reveal", "5/2", "3"),  # 1/2 given up
            decision("Ada", "hold", "5", "3"),  # 2
            decision("Bea", "reveal", "5", "3", edition="kali"),  # 0
            decision("Bea", "decline", "4", "0", phase="offer", edition="kali"),  # 4
            decision("Bea", "reveal", "-2", phase="must_reveal"),  # no choice: left out
        ]
    )
    found = cs.gems_given_up(rows, biggest=2)
    assert (found.decisions, found.total, found.mean) == (4, 6.5, 6.5 / 4)
    assert found.by_student.to_dict("index") == {
        "Bea": {"decisions": 2, "total": 4.0, "mean": 2.0},
        "Ada": {"decisions": 2, "total": 2.5, "mean": 1.25},
    }
    assert found.by_edition.loc["mini"].tolist() == [2, 2.5, 1.25]
    assert found.biggest[["nickname", "action", "best", "gems_given_up"]].values.tolist() == [
        ["Bea", "decline", "take_over", 4.0],
        ["Ada", "hold", "reveal", 2.0],
    ]
    empty = cs.gems_given_up(rows[rows["phase"] == "must_reveal"])
    assert empty.decisions == 0 and empty.total == 0 and empty.biggest.empty


def test_wilsons_interval_is_newcombes_textbook_value():
    """Newcombe (1998), Statistics in Medicine 17, 857–872, table II: 81 of 263, Wilson's score interval
    0.2553 to 0.3662; 0 of 20, 0 to 0.1611."""
    games = [{"seats": ["human", "coach"], "winners": [0] if i < 81 else [1]} for i in range(263)]
    games += [{"seats": ["random", "human"], "winners": [0]} for _ in range(20)]
    rates = cs.win_rates(pd.DataFrame(games))
    assert list(rates.index) == ["coach", "random"]
    assert rates.loc["coach", ["games", "wins"]].tolist() == [263, 81]
    assert rates.loc["coach", "estimate"] == pytest.approx(81 / 263)
    assert rates.loc["coach", ["ci_low", "ci_high"]].tolist() == pytest.approx([0.2553, 0.3662], abs=5e-5)
    assert rates.loc["random", ["estimate", "ci_low", "ci_high"]].tolist() == pytest.approx([0, 0, 0.1611], abs=5e-5)
    assert rates["fair_share"].tolist() == [0.5, 0.5]


def test_win_rates_count_a_shared_win_as_a_share_and_only_games_of_one_student_against_one_kind_of_bot():
    games = pd.DataFrame(
        [
            {"seats": ["human", "win", "win"], "winners": [0, 2]},  # half a win, of three players
            {"seats": ["win", "human"], "winners": [1]},
            {"seats": ["human", "human"], "winners": [0]},  # two students: not against a bot
            {"seats": ["human", "coach", "random"], "winners": [0]},  # two kinds of bot
        ]
    )
    rates = cs.win_rates(games)
    assert list(rates.index) == ["win"]
    assert rates.loc["win", ["games", "wins", "estimate"]].tolist() == [2, 1.5, 0.75]
    assert rates.loc["win", "fair_share"] == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert cs.win_rates(games.iloc[2:]).empty


def test_each_exercise_its_attempts_students_rights_and_commonest_wrong_answers_a_number_written_two_ways_once():
    rows = [
        ("Ada", "stop", "1/10", False, 0, "en"),
        ("Ada", "stop", "10/51", True, 1, "en"),
        ("Bea", "stop", "0.1", False, 0, "en"),  # 1/10 again, written as a decimal
        ("Cy", "stop", "0,1", False, 0, "it"),
        ("Cy", "stop", "10/41", False, 1, "it"),
        ("Bea", "deck", "51", True, 0, "en"),
        ("Cy", "deck", "fifty-one", False, 0, "it"),
    ]
    attempts = pd.DataFrame(
        [
            {
                "id": i,
                "lesson": "01-play-and-observe",
                "nickname": n,
                "exercise": e,
                "answer": a,
                "correct": c,
                "hints": h,
                "language": lang,
            }
            for i, (n, e, a, c, h, lang) in enumerate(rows, 1)
        ]
    )
    summary = cs.exercise_summary(attempts, wrong=2).set_index("exercise")
    assert list(summary.index) == ["stop", "deck"]  # as first answered
    stop = summary.loc["stop"]
    assert (stop["attempts"], stop["students"], stop["solved"]) == (5, 3, 1)
    assert stop["right"] == pytest.approx(1 / 5) and stop["hints"] == pytest.approx(2 / 5)
    assert stop["wrong_answers"] == [("1/10", 3), ("10/41", 1)]  # 1/10, 0.1 and 0,1: under the first spelling
    assert summary.loc["deck", "wrong_answers"] == [("fifty-one", 1)]


def test_playing_now_is_each_students_pages_seen_within_three_heartbeats():
    visits = pd.DataFrame(
        [
            {"nickname": "Ada", "page": "play", "started": NOW - timedelta(minutes=9), "last_seen": NOW},
            {"nickname": "Ada", "page": "play", "started": NOW - timedelta(minutes=5), "last_seen": NOW},  # 2nd tab
            {
                "nickname": "Bea",
                "page": "01-play-and-observe",
                "started": NOW - timedelta(minutes=3),
                "last_seen": NOW - timedelta(seconds=30),
            },
            {
                "nickname": "Cy",
                "page": "play",
                "started": NOW - timedelta(minutes=20),
                "last_seen": NOW - timedelta(seconds=cs.PLAYING_WITHIN + 1),
            },  # gone
        ]
    )
    now = cs.playing_now(visits, NOW)
    assert now[["nickname", "page"]].values.tolist() == [["Ada", "play"], ["Bea", "01-play-and-observe"]]
    assert now.loc[0, "since"] == NOW - timedelta(minutes=9)
    assert cs.playing_now(visits, NOW + timedelta(hours=1)).empty


def test_a_lessons_exercises_come_by_their_number_whatever_was_answered_first():
    rows = [("08-simulation", "10"), ("08-simulation", "2"), ("01-play-and-observe", "3"), ("08-simulation", "1")]
    attempts = pd.DataFrame(
        [
            {
                "id": i,
                "lesson": lesson,
                "nickname": "Ada",
                "exercise": key,
                "answer": "1",
                "correct": True,
                "hints": 0,
                "language": "en",
            }
            for i, (lesson, key) in enumerate(rows, 1)
        ]
    )
    summary = cs.exercise_summary(attempts)
    assert list(zip(summary["lesson"], summary["exercise"])) == [
        ("01-play-and-observe", "3"),
        ("08-simulation", "1"),
        ("08-simulation", "2"),
        ("08-simulation", "10"),
    ]
