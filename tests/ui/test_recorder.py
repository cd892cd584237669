"""The apps in the class's record (dragonkit/ui/recorder.py): the play app writes its humans' decisions and its games,
never a bot's move; the hand trainer its learner's decisions; the coach's views are worked out after the page's
update; a kernel without a record writes nothing and starts nothing; a database that is gone or hangs never reaches a
click."""

from __future__ import annotations

import asyncio
import threading
import time
import types
from collections.abc import Callable
from fractions import Fraction

import pytest

from dragonkit import Action, Game, i18n
from dragonkit.analysis import solve_turn, takeover_gain
from dragonkit.analysis.win.race import win_table
from dragonkit.coach.views import Coach
from dragonkit.record import reading, session, writer
from dragonkit.record.rows import card_name, situation_fields
from dragonkit.record.store import connect, upgrade
from dragonkit.record.writer import Writer
from dragonkit.ui import GameConfig, HandTrainer, PlayApp, SeatConfig
from dragonkit.ui import recorder as recorder_module


def _config(seed: int, preset: str = "mini", bot: str = "coach") -> GameConfig:
    return GameConfig(seats=(SeatConfig("Ann", "human"), SeatConfig("Bob", bot)), preset=preset, seed=seed)


def _human(game: Game) -> Action:
    """Ann's choice: take over a cheap turn, hold from a pot of 3, reveal otherwise."""
    legal = game.legal_actions()
    if Action.TAKE_OVER in legal:
        return Action.TAKE_OVER if game.gems[0] >= game.bounty + 2 else Action.DECLINE
    return Action.HOLD if Action.HOLD in legal and game.pot >= 3 else Action.REVEAL


def _play(app: PlayApp, after_first: Callable[[], object] | None = None) -> list[tuple]:
    """Play the app's game to its end (Ann by :func:`_human`, the bot by Next), calling ``after_first`` after Ann's
    first decision; Ann's decisions as (state before, action, card turned up)."""
    made = []
    while not app.game.is_over:
        game = app.game
        if game.to_move == 0:
            before, action = game.state, _human(game)
            app.act(action)
            made.append((before, action, game.last_card if action is Action.REVEAL else None))
            if after_first is not None and len(made) == 1:
                after_first()
        else:
            app.step()
    return made


def _rows(url: str, table: str):
    """The record's ``table``, once this process's rows are written (an empty cell as None, not NaN; none: an empty
    record)."""
    assert session.flush()
    engine = connect(url)
    upgrade(engine)  # an empty record too
    frame = reading.rows(engine, table).astype(object)
    return frame.where(frame.notna(), None)


def _exact_gems(state) -> dict[str, str]:
    """Each option's expected gems, worked out apart from the coach: the turn solved, or the takeover's gain."""
    turn = state.turn()
    if state.offer_to is not None:
        gain = takeover_gain(turn, state.gems[state.offer_to], state.bounty, exact=True)
        return {"take_over": str(Fraction(gain)), "decline": "0"}
    solution = solve_turn(turn, exact=True)
    values = {"reveal": str(Fraction(solution.push_value))}
    if Action.HOLD in state.legal_actions():
        values["hold"] = str(Fraction(solution.hold_value))
    return values


def test_the_play_app_writes_each_human_decision_and_each_game(recording, race_tables):
    app = PlayApp(autoplay=False, config=_config(seed=6))
    made = _play(app)
    first, first_id, first_moves = app.game, app.game_id, len(made)
    app.start(_config(seed=7))
    made += _play(app)
    rows = _rows(recording, "decisions")
    assert len(rows) == len(made) and {a for _, a, _ in made} >= {Action.REVEAL, Action.HOLD, Action.TAKE_OVER}
    for (before, action, card), row in zip(made, rows.itertuples(), strict=True):
        assert row.situation == situation_fields(before) and row.action == action.value
        assert before.current_player() == 0  # Ann's own seat: the bot's moves are not written
        assert row.card == (None if card is None else card_name(card))
        assert row.gems == _exact_gems(before)
        best = max(Fraction(v) for v in row.gems.values())
        assert row.gems_given_up == float(best - Fraction(row.gems[action.value]))
        chances = win_table(before.rules).action_values(before)
        assert row.win == pytest.approx({a.value: float(p) for a, p in chances.items()})
        assert row.win_source == "table" and row.seconds >= 0
        assert (row.app, row.nickname, row.class_name, row.edition) == ("play", "Ada", "3B", "mini")
    assert list(rows.game_id) == [first_id] * first_moves + [app.game_id] * (len(made) - first_moves)
    assert first_id != app.game_id and len(first_id) == 32
    games = _rows(recording, "games")
    assert list(games.game_id) == [first_id, app.game_id]
    assert games.seats[0] == ["human", "coach"] and games.gems[0] == list(first.gems)
    assert games.winners[0] == list(first.winners) and games.ending[0] == first.ending.value
    visits = reading.present(connect(recording), "3B")
    assert list(visits.page) == ["play"] and list(visits.nickname) == ["Ada"]


def test_a_game_of_bots_alone_writes_its_end_and_no_decision(recording):
    seats = (SeatConfig("Ann", "random"), SeatConfig("Bob", "random"))
    app = PlayApp(autoplay=False, config=GameConfig(seats=seats, preset="mini", seed=2))
    while not app.game.is_over:
        app.step()
    app.step()  # nothing to play: the end is written once
    assert _rows(recording, "decisions").empty
    assert list(_rows(recording, "games").seats) == [["random", "random"]]


def test_the_seconds_run_from_the_decision_shown_to_the_click(recording, monkeypatch):
    now = [100.0]
    monkeypatch.setattr(recorder_module, "time", types.SimpleNamespace(monotonic=lambda: now[0]))
    app = PlayApp(autoplay=False, config=_config(seed=6))  # Ann's first decision is shown at 100 s
    now[0] = 104.0
    i18n.set_language("it")  # a redraw of the same decision keeps its clock
    now[0] = 112.5
    app.act("reveal")  # the next decision is shown now
    assert app.game.to_move == 0
    now[0] = 113.0
    app.act(_human(app.game))
    assert list(_rows(recording, "decisions").seconds) == [12.5, 0.5]


def test_the_coach_speaks_to_the_record_after_the_page_is_updated(recording, monkeypatch):
    """In a kernel (an event loop runs) the click updates the page and returns; the coach's views of the decision
    are worked out just after, from the situation before the move."""
    asked = []
    views_of = Coach.views_of

    def spy(coach, state, players):
        asked.append((state, app.board.value))
        return views_of(coach, state, players)

    monkeypatch.setattr(Coach, "views_of", spy)

    async def scenario() -> tuple[list, str]:
        app.act("reveal")
        during = list(asked)
        await asyncio.sleep(0)
        return during, app.board.value

    app = PlayApp(autoplay=False, config=_config(seed=6))
    before = app.game.state
    during, board = asyncio.run(scenario())
    assert during == [] and asked == [(before, board)]  # the board already showed the move
    assert list(_rows(recording, "decisions").action) == ["reveal"]


def test_the_trainer_writes_each_decision_with_the_coachs_views(recording):
    trainer = HandTrainer(seed=3, level="mini")
    decided = []
    for choice in ("reveal", "hold", "reveal"):
        hand = trainer.hand
        decided.append((hand, trainer.decide(choice)))
        trainer.deal()
    rows = _rows(recording, "decisions")
    assert len(rows) == 3
    for (hand, verdict), row in zip(decided, rows.itertuples(), strict=True):
        solution = verdict.solution
        assert row.gems == {"reveal": str(Fraction(solution.push_value)), "hold": str(Fraction(solution.hold_value))}
        assert row.gems_given_up == float(verdict.given_up) and row.action == verdict.action.value
        assert row.situation == situation_fields(hand.game.state)
        revealed = card_name(verdict.next_card) if verdict.action is Action.REVEAL else None
        assert row.card == revealed and row.seconds >= 0
        assert (row.app, row.game_id, row.edition, row.nickname) == ("trainer", None, "mini", "Ada")
    assert _rows(recording, "games").empty


def test_without_a_record_nothing_is_written_nor_worked_out(monkeypatch):
    monkeypatch.delenv("DRAGONKIT_RECORD", raising=False)

    def refused(*args, **kwargs):
        raise AssertionError("nothing is worked out nor written without a record")

    monkeypatch.setattr(writer, "Writer", refused)
    monkeypatch.setattr(Coach, "views_of", refused)
    writers = {t for t in threading.enumerate() if t.name == "dragonkit-record"}  # earlier tests' records
    app = PlayApp(autoplay=False, config=_config(seed=6))
    _play(app)
    trainer = HandTrainer(seed=3, level="mini")
    trainer.decide("reveal")
    assert not app._recorder.recording and not trainer._recorder.recording
    assert {t for t in threading.enumerate() if t.name == "dragonkit-record"} <= writers


@pytest.fixture
def own_writer(monkeypatch):
    """This test's kernel writer, closed afterwards (a record that points nowhere keeps trying until then)."""
    monkeypatch.setattr(session, "_writer", None)
    yield
    if session._writer is not None:
        session._writer.close(timeout=0)


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_a_record_that_points_nowhere_never_reaches_a_click(where, tmp_path, monkeypatch, own_writer, caplog):
    """A folder that cannot be made (under a file: not even for root), a PostgreSQL port where nobody listens."""
    (tmp_path / "a-file").write_text("")
    url = f"sqlite:///{tmp_path}/a-file/x.sqlite" if where == "sqlite" else "postgresql+psycopg://u@127.0.0.1:1/x"
    monkeypatch.setenv("DRAGONKIT_RECORD", url)
    app = PlayApp(autoplay=False, config=_config(seed=6))
    made = _play(app)
    assert app.game.is_over and app.message.value == ""  # every click went through
    writer = session._writer
    assert writer is not None
    deadline = time.monotonic() + 30
    while writer.failures == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert writer.failures >= 1 and writer.pending >= len(made)  # kept, to be written once the record is back
    assert "the class's record cannot be written now" in caplog.text


def test_a_click_never_waits_for_a_database_that_hangs(recording, monkeypatch, own_writer):
    entered, release = threading.Event(), threading.Event()
    write = Writer._write

    def hanging(writer, batch):
        entered.set()
        release.wait(60)
        write(writer, batch)

    monkeypatch.setattr(Writer, "_write", hanging)
    app = PlayApp(autoplay=False, config=_config(seed=6))
    made = _play(app, after_first=lambda: entered.wait(30))  # the rest is played while the writer hangs
    hung = entered.is_set() and not release.is_set()
    release.set()
    assert hung and app.game.is_over  # the game was played to its end while the database hung
    assert len(_rows(recording, "decisions")) == len(made)  # and nothing was lost
