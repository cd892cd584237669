"""A simulated class: the record a class of students would leave, made by simulation, seeded, for a page without a
record (the teacher's dashboard, the lessons' "our class"), for screenshots, benchmarks and tests.

Each student is a bot of the kit with a human's noise: most play by a pot threshold of their own
(:class:`~dragonkit.bots.ThresholdBot`), some by the exact turn optimum (:class:`~dragonkit.bots.CoachBot`), and each
slips now and then, choosing the other option (a probability of their own). They play whole games of the engine in
the play app against the kit's bots (coach, win, threshold and random, one kind a game), and every decision they make
for their own seat is valued exactly as the coach's first view values it (:class:`~dragonkit.analysis.TurnOptions`:
each option's expected gems for the turn); the chances of winning (the coach's second view) are left out
(``win`` is None): they would cost a table or a Monte Carlo run a decision. They also answer some of the lessons'
exercises, rightly with a probability of their own, wrongly with the slips students commonly make
(:data:`EXERCISES`), opening hints after a wrong answer.

:func:`sample_class` gives the record's tables as :mod:`dragonkit.record.reading` gives them (the same columns), plus
the pages' visits; :func:`write_sample` writes them into a record. Everything shown of it is labelled a sample.
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import pandas as pd

from ..analysis import TurnOptions
from ..bots import Bot, BotKind, CoachBot, ThresholdBot, bot_seed, make_bot
from ..cache import cached_file, computed_once
from ..engine import Game
from ..record.rows import AttemptRow, DecisionRow, GameRow
from ..rules import Ruleset
from ..turn import Action

if TYPE_CHECKING:  # SQLAlchemy loads with the columns' names, when a sample is made: a page without a record needs none
    from sqlalchemy import Engine

__all__ = [
    "EXERCISES",
    "NICKNAMES",
    "SAMPLE_CLASS",
    "SAMPLE_START",
    "SampleClass",
    "sample_class",
    "saved_sample_class",
    "write_sample",
]

#: The sample's class name, and when its lesson starts (UTC, without a zone, as the record keeps times).
SAMPLE_CLASS = "sample"
SAMPLE_START = datetime(2026, 3, 2, 9, 0)

#: The students' nicknames, in order (beyond them, the same names numbered: ``"Ada 2"``).
_NAMES = (
    "Ada Bruno Chiara Dario Elena Fabio Giulia Hugo Irene Jacopo Kim Luca Marta Nicola "
    "Olga Paolo Quinn Rita Sara Tommaso Ugo Vera Walter Xenia Yara Zoe Alice Bianca "
    "Carlo Davide Emma Filippo Gaia Ivan Lara Matteo Nina Omar Pietro Rosa Sofia Teo"
)
NICKNAMES = tuple(_NAMES.split())

#: Editions of the sample's games, with their weights (the win bot plays only where its table is solved in a second:
#: :data:`WIN_EDITIONS`).
EDITIONS = {"dragon-stripes": 0.8, "mini": 0.12, "kali": 0.08}
WIN_EDITIONS = ("dragon-stripes", "mini")

#: The opponents' kinds, each equally likely.
OPPONENTS = (BotKind.COACH, BotKind.WIN, BotKind.THRESHOLD, BotKind.RANDOM)

#: The share of the students whose last page is still open when the sample ends.
STILL_OPEN = 0.85

#: Seconds a bot takes for a move in the play app (its ``bot_delay``).
BOT_SECONDS = 0.9


@dataclass(frozen=True)
class SampleExercise:
    """An exercise of a lesson as the sample's students answer it.

    Attributes
    ----------
    lesson : str
        The lesson's notebook stem.
    exercise : str
        The exercise's number in its lesson, as text (:mod:`dragonkit.teach.attempts`).
    right : str
        The right answer, as typed.
    wrong : tuple of (str, float)
        The common wrong answers and their weights (what slip each reflects: see :data:`EXERCISES`).
    ease : float
        How much likelier than a student's usual a right answer is here (1: as usual).
    hints : int
        The hints the exercise has.
    """

    lesson: str
    exercise: str
    right: str
    wrong: tuple[tuple[str, float], ...]
    ease: float = 1.0
    hints: int = 1


#: The exercises of the sample, with the wrong answers students commonly give: lesson 1's first five (the deck, a stop
#: first, a turn's end first, a stop's penalty, a pot), lesson 8's first three (a standard error, a half-wide interval,
#: the intervals that miss) and lesson 9's first two (Kali's first card ends the turn, two footprints in a row).
EXERCISES = (
    # 51 cards: 38 footprints (forgetting the rest), 41 (the dangers forgotten), 48 (the stops forgotten)
    SampleExercise("01-play-and-observe", "1", "51", (("38", 3), ("48", 2), ("41", 1)), ease=1.3),
    # 10 stops of 51 cards: one in ten, or the footprints forgotten in the count
    SampleExercise("01-play-and-observe", "2", "10/51", (("1/10", 3), ("10/41", 2), ("1/51", 1))),
    # stops and dangers: 13/51; the stops only, or the dangers only
    SampleExercise("01-play-and-observe", "3", "13/51", (("10/51", 4), ("3/51", 1), ("13/38", 1)), hints=2),
    # a quarter of 40 gems; a half, or the rate as a number of gems
    SampleExercise("01-play-and-observe", "4", "10", (("20", 2), ("4", 1)), ease=1.2),
    # stripes 2 and 5: 7 gems; the last stripe only, or the steps added
    SampleExercise("01-play-and-observe", "5", "7", (("5", 4), ("3", 1), ("10", 1))),
    # s/√n = 12/20; s/n, or s/√n read as s/n²
    SampleExercise("08-simulation", "1", "0.6", (("0.03", 4), ("0.3", 1), ("6", 1)), ease=0.9),
    # a half as wide: four times the turns; twice the turns, or the square root
    SampleExercise("08-simulation", "2", "1600", (("800", 6), ("200", 1)), ease=0.8),
    # 5 % of 200; 5, or the 190 that contain it
    SampleExercise("08-simulation", "3", "10", (("5", 2), ("190", 2), ("0.05", 1))),
    # Kali: 12 stops and 2 dangers of 52 cards; the stops only, or the dangers only
    SampleExercise("09-editions", "1", "7/26", (("12/52", 4), ("2/52", 1), ("14/51", 1)), ease=0.9),
    # without replacement 38/51 × 37/50; with replacement (38/51)², or the probabilities added
    SampleExercise("09-editions", "2", "703/1275", (("1444/2601", 5), ("76/51", 1), ("75/101", 1)), 0.7, 2),
)


@dataclass(frozen=True)
class SampleClass:
    """A simulated class's record.

    Attributes
    ----------
    decisions, attempts, games : pandas.DataFrame
        As :func:`dragonkit.record.reading.decisions`, :func:`~dragonkit.record.reading.attempts` and
        :func:`~dragonkit.record.reading.games` give them: the same columns, ``id`` counting from 1 in time order.
    visits : pandas.DataFrame
        The pages the students opened, with the columns of the record's ``visits`` table (``id``, ``class_name``,
        ``nickname``, ``page``, ``language``, ``started``, ``last_seen``); most students' last page is open to the
        end (:data:`STILL_OPEN`).
    class_name : str
    end : datetime.datetime
        The time of the last row (UTC, without a zone).
    """

    decisions: pd.DataFrame
    attempts: pd.DataFrame
    games: pd.DataFrame
    visits: pd.DataFrame
    class_name: str
    end: datetime

    def to_json(self) -> str:
        """The sample as JSON: each table's columns and rows (its times in ISO 8601), which :meth:`from_json` reads
        back into the same frames, column types included."""
        tables = {
            name: {"columns": list(frame.columns), "rows": frame.to_dict("records")}
            for name, frame in self._tables().items()
        }
        return json.dumps({"class_name": self.class_name, "end": self.end, "tables": tables}, default=_iso_time)

    @classmethod
    def from_json(cls, text: str) -> SampleClass:
        """The sample :meth:`to_json` wrote.

        Raises
        ------
        ValueError
            If ``text`` is not such JSON (``json.JSONDecodeError`` is one), or a time in it is not ISO 8601.
        KeyError
            If a table or a field is missing.
        """
        found = json.loads(text)
        frames = {}
        for name, table in found["tables"].items():
            rows = [{k: _time(k, v) for k, v in row.items()} for row in table["rows"]]
            frames[name] = pd.DataFrame(rows, columns=table["columns"])
        end = datetime.fromisoformat(found["end"])
        return cls(frames["decisions"], frames["attempts"], frames["games"], frames["visits"], found["class_name"], end)

    def _tables(self) -> dict[str, pd.DataFrame]:
        return {"decisions": self.decisions, "attempts": self.attempts, "games": self.games, "visits": self.visits}


#: The columns of the sample's tables that hold times.
_TIMES = ("at", "started", "last_seen")


def _iso_time(value: object) -> str:
    if isinstance(value, datetime):  # pandas' Timestamp too
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _time(column: str, value: Any) -> Any:
    return datetime.fromisoformat(value) if column in _TIMES and value is not None else value


@dataclass
class _Student:
    """A simulated student: who they are, how they play and answer, and their clock."""

    nickname: str
    language: str
    plan: Bot
    slip: float  # the probability of choosing the other option at a decision
    pace: float  # their median seconds for a decision
    skill: float  # their probability of answering an exercise rightly at a first try (before its ease)
    clock: datetime


class _Recorder:
    """The rows of the sample as the record's writer would store them (event ids made from the sample's seed)."""

    def __init__(self, rng: random.Random, class_name: str) -> None:
        self.rng = rng
        self.class_name = class_name
        self.rows: dict[str, list[dict[str, Any]]] = {"decisions": [], "attempts": [], "games": []}
        self.visits: dict[str, dict[str, Any]] = {}

    def hex_id(self) -> str:
        return uuid.UUID(int=self.rng.getrandbits(128), version=4).hex

    def visit(self, student: _Student, page: str) -> str:
        """A new visit of ``student`` to ``page``, starting at their clock."""
        key = self.hex_id()
        self.visits[key] = {
            "id": key,
            "class_name": self.class_name,
            "nickname": student.nickname,
            "page": page,
            "language": student.language,
            "started": student.clock,
            "last_seen": student.clock,
        }
        return key

    def put(self, table: str, visit: str, student: _Student, fields: dict[str, Any]) -> None:
        self.visits[visit]["last_seen"] = student.clock
        who = {"event_id": self.hex_id(), "visit_id": visit, "class_name": self.class_name}
        self.rows[table].append({**who, "nickname": student.nickname, "at": student.clock, **fields})

    def frame(self, table: str) -> pd.DataFrame:
        from ..record.reading import columns  # SQLAlchemy: when a sample is made, not when this module loads

        names = columns(table)
        rows = sorted(self.rows[table], key=lambda row: row["at"])
        frame = pd.DataFrame(rows, columns=[c for c in names if c != "id"])
        frame.insert(0, "id", range(1, len(frame) + 1))
        return frame[names]


def _student(rng: random.Random, index: int, start: datetime) -> _Student:
    name = NICKNAMES[index % len(NICKNAMES)]
    if index >= len(NICKNAMES):
        name = f"{name} {index // len(NICKNAMES) + 1}"
    plan: Bot = CoachBot() if rng.random() < 0.2 else ThresholdBot(max(4, min(45, round(rng.gauss(18, 7)))))
    return _Student(
        nickname=name,
        language=rng.choice(("en", "it")),
        plan=plan,
        slip=rng.uniform(0.03, 0.15),
        pace=rng.uniform(1.5, 5.0),
        skill=rng.uniform(0.35, 0.9),
        clock=start + timedelta(seconds=rng.uniform(0, 240)),
    )


def _seconds(rng: random.Random, student: _Student, choice: bool) -> float:
    """How long ``student`` takes for a decision: log-normal about their pace, a compulsory reveal faster."""
    median = student.pace if choice else student.pace / 3
    return round(median * rng.lognormvariate(0.0, 0.5), 3)


def _edition_and_opponent(rng: random.Random) -> tuple[str, BotKind]:
    opponent = rng.choice(OPPONENTS)
    editions = [e for e in EDITIONS if opponent is not BotKind.WIN or e in WIN_EDITIONS]
    edition = rng.choices(editions, weights=[EDITIONS[e] for e in editions])[0]
    return edition, opponent


def _play(rng: random.Random, student: _Student, recorder: _Recorder, visit: str, options: TurnOptions) -> None:
    """One game of ``student`` in the play app against bots of one kind: their decisions, then the game."""
    edition, opponent = _edition_and_opponent(rng)
    players = 2 if opponent is BotKind.WIN or rng.random() < 0.75 else 3
    seed = rng.getrandbits(63)
    seat = rng.randrange(players)
    kinds = [BotKind.HUMAN if s == seat else opponent for s in range(players)]
    names = [student.nickname if s == seat else f"{opponent.value} {s + 1}" for s in range(players)]
    game = Game(names, Ruleset.preset(edition), seed=seed)
    bots = [
        None if k is BotKind.HUMAN else make_bot(k, **_bot_options(k, bot_seed(seed, s))) for s, k in enumerate(kinds)
    ]
    game_id = recorder.hex_id()
    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        bot = bots[mover]
        if bot is not None:
            game.apply(bot.choose(game), by=mover)
            student.clock += timedelta(seconds=BOT_SECONDS)
            continue
        state = game.state
        values = options.values(state)
        action = student.plan.choose(game)
        if len(values) > 1 and rng.random() < student.slip:
            action = next(a for a in values if a != action)
        seconds = _seconds(rng, student, len(values) > 1)
        student.clock += timedelta(seconds=seconds)
        card = game.apply(action, by=mover)
        shown = card if action is Action.REVEAL else None
        row = DecisionRow.of(state, action, app="play", seconds=seconds, gems=values, game_id=game_id, card=shown)
        recorder.put("decisions", visit, student, asdict(row))
    recorder.put("games", visit, student, asdict(GameRow.of(game_id, game.state, [k.value for k in kinds])))
    student.clock += timedelta(seconds=rng.uniform(5, 20))  # reading the result, setting up the next game


def _bot_options(kind: BotKind, seed: int) -> dict[str, Any]:
    """The options the play app gives a bot of ``kind`` (its seed, for a random bot)."""
    return {"seed": seed} if kind is BotKind.RANDOM else {}


def _answer(rng: random.Random, student: _Student, recorder: _Recorder, visits: dict[str, str]) -> None:
    """``student`` answers the sample's exercises (most of them), trying again after a wrong answer, up to three
    times, and opening a hint now and then."""
    for exercise in EXERCISES:
        if rng.random() > 0.85:
            continue
        if exercise.lesson not in visits:
            visits[exercise.lesson] = recorder.visit(student, exercise.lesson)
        hints = 0
        chance = min(0.97, student.skill * exercise.ease)
        for _ in range(3):
            student.clock += timedelta(seconds=rng.uniform(20, 120))
            right = rng.random() < chance
            if right:
                answer = exercise.right
            else:
                answers, weights = zip(*exercise.wrong)
                answer = rng.choices(answers, weights=weights)[0]
            if student.language == "it":
                answer = answer.replace(".", ",")  # as Italians write a decimal
            row = AttemptRow(exercise.lesson, exercise.exercise, answer, right, hints, student.language)
            recorder.put("attempts", visits[exercise.lesson], student, asdict(row))
            if right:
                break
            if hints < exercise.hints and rng.random() < 0.6:
                hints += 1
            chance = min(0.97, chance + 0.2 + 0.1 * hints)  # a second look, a hint: likelier right


def sample_class(
    students: int = 40,
    seed: int = 0,
    games: int = 3,
    class_name: str = SAMPLE_CLASS,
    start: datetime = SAMPLE_START,
) -> SampleClass:
    """A simulated class's record: each student plays ``games`` games in the play app and answers the sample's
    exercises, half the class in that order, half the other way round (see the module's docstring).

    Parameters
    ----------
    students : int
        How many students (at least 1).
    seed : int
        The same seed gives the same class, row for row.
    games : int
        Games each student plays (at least 0).
    class_name : str
    start : datetime.datetime
        When the lesson starts (UTC, without a zone); each student starts within its first four minutes.

    Returns
    -------
    SampleClass

    Raises
    ------
    ValueError
        If ``students`` is below 1 or ``games`` below 0.
    """
    if students < 1:
        raise ValueError(f"a class has at least one student, not {students}")
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    rng = random.Random(seed)
    recorder = _Recorder(rng, class_name)
    last_pages = []
    for index in range(students):
        student = _student(rng, index, start)
        options = TurnOptions()  # the student's page's: one solve a turn
        first_exercises = rng.random() < 0.5  # half the class plays first, half answers first
        if first_exercises:
            _answer(rng, student, recorder, {})
        play = recorder.visit(student, "play")
        for _ in range(games):
            _play(rng, student, recorder, play, options)
        if not first_exercises:
            _answer(rng, student, recorder, {})
        last_pages.append(
            max(recorder.visits.values(), key=lambda v: (v["nickname"] == student.nickname, v["last_seen"]))
        )
    frames = {table: recorder.frame(table) for table in ("decisions", "attempts", "games")}
    end = max((f["at"].max().to_pydatetime() for f in frames.values() if len(f)), default=start)
    for page in last_pages:  # most pages stay open to the end of the lesson, seen at each heartbeat
        if rng.random() < STILL_OPEN:
            page["last_seen"] = end
    from ..record.reading import columns

    visits = pd.DataFrame(recorder.visits.values(), columns=columns("visits"))
    visits = visits.sort_values("started", ignore_index=True)
    return SampleClass(frames["decisions"], frames["attempts"], frames["games"], visits, class_name, end)


def saved_sample_class(students: int, seed: int) -> SampleClass:
    """:func:`sample_class` of ``students`` and ``seed`` (its other arguments as they default), simulated once per
    machine and kept in the kit's cache (:func:`~dragonkit.cache.computed_once`): the 40 students' 120 games take about
    2.5 CPU-seconds, which every page showing the sample (a lesson's "our class", the dashboard without a record) would
    otherwise pay as it opens.

    Raises
    ------
    ValueError
        As :func:`sample_class`.
    """
    return computed_once(
        cached_file(f"sample-class-{students}-{seed}.json", __name__),  # this module's code, and what it imports
        build=lambda: sample_class(students, seed),
        save=lambda sample, file: file.write(sample.to_json().encode()),
        load=lambda path: SampleClass.from_json(path.read_text(encoding="utf-8")),
    )


def write_sample(engine: Engine, sample: SampleClass, end: datetime | None = None) -> dict[str, int]:
    """Write ``sample`` into the record behind ``engine`` (its schema brought up to date first), in one transaction.

    Parameters
    ----------
    engine : sqlalchemy.Engine
        The record (:func:`dragonkit.record.store.connect`).
    sample : SampleClass
    end : datetime.datetime, optional
        Move every time of the sample so that its last row is at ``end`` (UTC, without a zone): with the time now,
        the students whose pages were seen last are "playing now". Default: the times as they are.

    Returns
    -------
    dict of str to int
        The rows written, by table.

    Raises
    ------
    sqlalchemy.exc.IntegrityError
        If the record holds the same rows already (a sample is written once).
    """
    from sqlalchemy import Table

    from ..record.schema import TABLES
    from ..record.store import upgrade

    shift = timedelta(0) if end is None else end - sample.end
    tables = {
        "visits": sample.visits,
        "decisions": sample.decisions,
        "attempts": sample.attempts,
        "games": sample.games,
    }
    upgrade(engine)
    written = {}
    with engine.begin() as connection:
        for name, frame in tables.items():
            moved = frame.drop(columns=[] if name == "visits" else ["id"]).astype(object)  # Python's numbers
            moved = moved.where(moved.notna(), None)  # an empty cell (pandas' NaN) as NULL
            for column in ("at", "started", "last_seen"):
                if column in moved:
                    moved[column] = [t.to_pydatetime() + shift for t in moved[column]]
            rows = [{str(k): v for k, v in row.items()} for row in moved.to_dict("records")]
            table = TABLES[name].__table__
            assert isinstance(table, Table)
            if rows:
                connection.execute(table.insert(), rows)
            written[name] = len(rows)
    return written
