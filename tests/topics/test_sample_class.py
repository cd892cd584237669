"""The simulated class: seeded, the record's columns, values a real class's record could hold, and written into a
record (SQLite and PostgreSQL) it reads back the same."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

import pandas as pd
import pytest

from dragonkit.record import reading
from dragonkit.record.store import connect
from dragonkit.topics.sample_class import (
    EXERCISES,
    SAMPLE_START,
    SampleClass,
    sample_class,
    saved_sample_class,
    write_sample,
)


@pytest.fixture(scope="module")
def sample():
    return sample_class(students=6, seed=4, games=2)


def test_the_same_seed_gives_the_same_class_and_another_seed_another(sample):
    again = sample_class(students=6, seed=4, games=2)
    for name in ("decisions", "attempts", "games", "visits"):
        pd.testing.assert_frame_equal(getattr(sample, name), getattr(again, name))
    other = sample_class(students=6, seed=5, games=2)
    assert not other.decisions["event_id"].isin(sample.decisions["event_id"]).any()


def _assert_same(sample: SampleClass, other: SampleClass) -> None:
    for name in ("decisions", "attempts", "games", "visits"):
        pd.testing.assert_frame_equal(getattr(sample, name), getattr(other, name))  # the columns' types too
    assert (other.class_name, other.end) == (sample.class_name, sample.end)


def test_a_sample_read_back_from_json_is_the_same_to_the_column_types(sample):
    _assert_same(sample, SampleClass.from_json(sample.to_json()))
    with pytest.raises(ValueError):
        SampleClass.from_json(sample.to_json()[:-40])  # a file cut short
    with pytest.raises(KeyError):
        SampleClass.from_json('{"class_name": "x", "end": "2026-03-02T09:00:00"}')


def test_the_saved_sample_is_simulated_once_per_machine_and_is_the_sample(monkeypatch, tmp_path):
    monkeypatch.setenv("DRAGONKIT_CACHE", str(tmp_path))
    first = saved_sample_class(students=3, seed=7)
    (saved,) = tmp_path.glob("sample-class-3-7.*.json")
    _assert_same(sample_class(students=3, seed=7), first)
    saved.write_text(saved.read_text().replace('"Ada"', '"Ada Lovelace"'))  # what is read is the file
    assert "Ada Lovelace" in set(saved_sample_class(students=3, seed=7).visits["nickname"])
    saved.write_text("{")  # a file cut short by a crash is simulated again
    _assert_same(first, saved_sample_class(students=3, seed=7))


def test_a_class_has_its_students_games_and_answers(sample):
    assert sample.visits["nickname"].nunique() == 6
    assert len(sample.games) == 12
    assert sample.games["nickname"].value_counts().eq(2).all()
    assert len(sample.decisions) > 12 * 5 and len(sample.attempts) > 6
    assert sample.decisions["at"].min() >= SAMPLE_START
    assert sample.end == max(sample.decisions["at"].max(), sample.attempts["at"].max(), sample.games["at"].max())
    for frame in (sample.decisions, sample.attempts, sample.games):
        assert frame["id"].tolist() == list(range(1, len(frame) + 1))
        assert frame["at"].is_monotonic_increasing


def test_every_decision_is_valued_exactly_and_is_an_option_of_its_situation(sample):
    for row in sample.decisions.itertuples():
        values = {action: Fraction(v) for action, v in row.gems.items()}
        assert row.action in values
        best = max(values.values())
        assert row.best_gems == sorted(a for a, v in values.items() if v == best)
        assert row.gems_given_up == pytest.approx(float(best - values[row.action]))
        assert row.gems_given_up >= 0
        assert (
            set(values)
            == {
                "must_reveal": {"reveal"},
                "choose": {"reveal", "hold"},
                "offer": {"take_over", "decline"},
            }[row.phase]
        )
        if row.phase == "choose":
            assert values["hold"] == row.pot == row.situation["pot"]
        assert pd.notna(row.card) == (row.action == "reveal")
        assert row.win is None and row.verdict == "none" and row.seconds > 0
        assert row.app == "play" and row.game_id in set(sample.games["game_id"])


def test_every_game_has_one_human_against_bots_of_one_kind(sample):
    for row in sample.games.itertuples():
        bots = [seat for seat in row.seats if seat != "human"]
        assert row.seats.count("human") == 1 and len(set(bots)) == 1
        assert bots[0] in {"coach", "win", "threshold", "random"}
        assert row.winners and set(row.winners) <= set(range(len(row.seats)))
        assert max(row.gems) == row.gems[row.winners[0]]


def test_answers_are_right_exactly_when_they_are_the_right_answer_and_hints_only_grow(sample):
    right = {(e.lesson, e.exercise): e.right for e in EXERCISES}
    for row in sample.attempts.itertuples():
        assert row.correct == (row.answer.replace(",", ".") == right[row.lesson, row.exercise])
    for _, tries in sample.attempts.groupby(["nickname", "lesson", "exercise"]):
        assert tries["hints"].is_monotonic_increasing
        assert not tries["correct"].iloc[:-1].any()  # a student stops once right


def test_the_sample_takes_wrong_answers_from_the_common_ones(sample):
    common = {(e.lesson, e.exercise): {w for w, _ in e.wrong} for e in EXERCISES}
    wrong = sample.attempts[~sample.attempts["correct"]]
    assert len(wrong) and all(r.answer.replace(",", ".") in common[r.lesson, r.exercise] for r in wrong.itertuples())


def test_a_class_needs_a_student():
    with pytest.raises(ValueError, match="at least one student"):
        sample_class(students=0)
    with pytest.raises(ValueError, match="games"):
        sample_class(games=-1)


def test_written_into_a_record_the_readers_give_the_sample_back(record_url):
    sample = sample_class(students=2, seed=1, games=1)
    engine = connect(record_url)
    end = datetime(2026, 5, 4, 10, 30)
    written = write_sample(engine, sample, end=end)
    shift = end - sample.end
    tables = {"decisions": len(sample.decisions), "attempts": len(sample.attempts), "games": 2}
    assert written == {"visits": 2 + sample.attempts["visit_id"].nunique(), **tables}
    for name in ("decisions", "attempts", "games"):
        read = getattr(reading, name)(engine, class_name=sample.class_name)
        expected = getattr(sample, name).assign(at=lambda f: f["at"] + shift)
        assert list(read.columns) == list(expected.columns)
        pd.testing.assert_frame_equal(read, expected, check_dtype=False)
    present = reading.present(engine, sample.class_name, within=10**9)  # every visit, however old
    assert set(present["nickname"]) == set(sample.visits["nickname"])
    assert present["last_seen"].max() == end and present["started"].min() == sample.visits["started"].min() + shift
    engine.dispose()
