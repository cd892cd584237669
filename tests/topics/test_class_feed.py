"""The dashboard's feed of the class's record: the rows after the last ones held, read again only when new; a sample
given whole once; a record that cannot be read changes nothing held."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, event
from sqlalchemy.exc import OperationalError

from dragonkit.record.store import connect
from dragonkit.topics.class_feed import ClassFeed
from dragonkit.topics.sample_class import sample_class, write_sample


@pytest.fixture(scope="module")
def classes():
    """Two small simulated classes of the class 3B, the second written into the record after the first."""
    return sample_class(students=2, seed=1, games=1, class_name="3B"), sample_class(2, seed=2, games=1, class_name="3B")


def test_a_feed_reads_only_the_rows_after_those_it_holds(record_url, classes):
    first, second = classes
    engine = connect(record_url)
    write_sample(engine, first, end=datetime.now(UTC).replace(tzinfo=None))
    feed = ClassFeed.of_record(record_url, "3B")
    new = feed.update()
    assert [new.count(t) for t in ("decisions", "attempts", "games")] == [
        len(first.decisions),
        len(first.attempts),
        len(first.games),
    ]
    assert set(feed.playing["nickname"]) <= set(first.visits["nickname"]) and len(feed.playing)
    assert len(feed.choices) == (first.decisions["phase"] == "choose").sum()
    again = feed.update()
    assert [again.count(t) for t in ("decisions", "attempts", "games")] == [0, 0, 0]
    write_sample(engine, second)
    later = feed.update()
    assert later.count("decisions") == len(second.decisions) and later.count("games") == len(second.games)
    assert len(feed.decisions) == len(first.decisions) + len(second.decisions)
    assert feed.decisions["id"].is_monotonic_increasing and feed.decisions["id"].is_unique
    assert feed.last_id("attempts") == len(first.attempts) + len(second.attempts)
    assert ClassFeed.of_record(record_url, "4A").update().count("decisions") == 0  # another class's rows: none
    feed.close()
    engine.dispose()


def test_a_feed_reads_the_record_as_one_moment_left_it(record_url, classes):
    """A class's rows written in one transaction (as a sample is, as a kernel writes a game) while the feed reads,
    just after it has read the decisions: it reads none of them, then all of them at its next read, never the games
    and answers without their decisions (the dashboard once announced "New in the class's record: 2 games")."""
    first = classes[0]
    writer = connect(record_url)
    feed = ClassFeed.of_record(record_url, "3B")
    written: list[dict[str, int]] = []

    def write_meanwhile(connection, _cursor, statement, *_args) -> None:
        if connection.engine is not writer and not written and "FROM decisions" in statement:
            written.append(write_sample(writer, first, end=datetime.now(UTC).replace(tzinfo=None)))

    event.listen(Engine, "after_cursor_execute", write_meanwhile)
    try:
        new = feed.update()
    finally:
        event.remove(Engine, "after_cursor_execute", write_meanwhile)
    assert written, "the feed read no decisions"
    tables = ("decisions", "attempts", "games")
    assert [new.count(t) for t in tables] == [0, 0, 0] and new.playing.empty
    later = feed.update()
    assert [later.count(t) for t in tables] == [len(first.decisions), len(first.attempts), len(first.games)]
    assert len(later.playing)
    feed.close()
    writer.dispose()


def test_a_sample_is_given_whole_at_the_first_read_and_nothing_after(classes):
    sample = classes[0]
    feed = ClassFeed.of_sample(sample)
    assert feed.sample and feed.now() == sample.end
    assert feed.update().count("decisions") == len(sample.decisions)
    assert feed.update().count("decisions") == 0 and len(feed.decisions) == len(sample.decisions)
    assert len(feed.playing) > 0


def test_a_read_that_fails_changes_nothing_held(tmp_path, classes, monkeypatch):
    url = f"sqlite:///{tmp_path / 'record.sqlite'}"
    write_sample(connect(url), classes[0])
    feed = ClassFeed.of_record(url, "3B")
    feed.update()
    held = len(feed.decisions)
    from dragonkit.record import reading

    def down(*_args, **_kwargs):
        raise OperationalError("SELECT", {}, ConnectionError("gone"))

    monkeypatch.setattr(reading, "decisions", down)
    with pytest.raises(OperationalError):
        feed.update()
    assert len(feed.decisions) == held


def test_a_feed_reads_a_record_or_holds_a_sample():
    with pytest.raises(ValueError, match="one of the two"):
        ClassFeed("3B")
