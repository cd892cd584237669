"""What the teacher's dashboard shows of the class's record: who is playing now, the class's reveal and hold decisions
against the optimal policy, the expected gems they gave up, the class's win rate against each bot, and each
exercise's answers.

Every function takes the record's tables as :mod:`dragonkit.record.reading` gives them (or a simulated class's,
:mod:`dragonkit.topics.sample_class`) and returns plain numbers and tables; nothing here reads the database or draws.

A reveal-or-hold decision is judged by its own exact values, the coach's first view as the record keeps it
(:func:`dragonkit.topics.our_class.stopping_choices`, as lesson 1 judges it): as the optimum, a stop short of the
boundary (held where revealing was worth more) or a push past it (revealed where holding was worth more). The map it is
drawn on is the optimal policy of its edition and stage at a turn's start (:func:`~dragonkit.analysis.policy_map`,
with the starting gems and the whole treasure): where a student's gems or the deck differed, their own values may
judge otherwise than the map's colours.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache

import numpy as np
import pandas as pd

from ..analysis import fresh_turn, policy_map
from ..bots import BotKind
from ..i18n import LANGUAGES
from ..i18n.numbers import parse_number
from ..record.session import HEARTBEAT
from ..simulate.stats import proportion_estimate
from .our_class import HELD, PAST, REVEALED, SHORT

__all__ = [
    "PLAYING_WITHIN",
    "VERDICTS",
    "ClassMap",
    "GemsGivenUp",
    "class_map",
    "exercise_summary",
    "gems_given_up",
    "map_choices",
    "playing_now",
    "win_rates",
]

#: The verdicts of a reveal-or-hold choice (:func:`~dragonkit.topics.our_class.stopping_choices`), as the dashboard
#: counts them.
VERDICTS = (HELD, REVEALED, SHORT, PAST)

#: A student is playing now when their page was seen within three heartbeats (seconds).
PLAYING_WITHIN = 3 * HEARTBEAT


def playing_now(visits: pd.DataFrame, now: datetime, within: float = PLAYING_WITHIN) -> pd.DataFrame:
    """The students whose pages were seen lately: each student's pages open, the latest seen first.

    Parameters
    ----------
    visits : pandas.DataFrame
        Columns ``nickname``, ``page``, ``started``, ``last_seen`` (UTC times; :func:`dragonkit.record.reading.present`
        gives them, or a sample's ``visits``).
    now : datetime.datetime
        The time now (UTC, without a zone, as the record keeps times).
    within : float
        Seconds: a page seen longer ago is closed.

    Returns
    -------
    pandas.DataFrame
        Columns ``nickname``, ``page``, ``since`` (the page's ``started``) and ``last_seen``; one row per page of a
        nickname (a student with two tabs on one page counts once, since its first), the latest seen first. A
        student without a nickname is ``""``.
    """
    seen = visits[visits["last_seen"] >= now - timedelta(seconds=within)]
    pages = seen.groupby(["nickname", "page"], as_index=False).agg(
        since=("started", "min"), last_seen=("last_seen", "max")
    )
    return pages.sort_values(["last_seen", "nickname"], ascending=[False, True], ignore_index=True)


def map_choices(choices: pd.DataFrame) -> list[tuple[str, int, int]]:
    """The editions and stages the class made reveal-or-hold decisions in, the most decisions first.

    Parameters
    ----------
    choices : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.stopping_choices`.

    Returns
    -------
    list of (str, int, int)
        Edition, stage and the number of decisions.
    """
    counts = choices.groupby(["edition", "stage"]).size()
    found = [(str(edition), int(stage), int(n)) for edition, stage, n in counts.reset_index().itertuples(index=False)]
    return sorted(found, key=lambda item: (-item[2], item[0], item[1]))


@cache
def _turn_start_map(edition: str, stage: int) -> pd.DataFrame:
    return policy_map(fresh_turn(edition, stage))


@dataclass(frozen=True)
class ClassMap:
    """The class's reveal-or-hold decisions of one edition and stage, over its optimal policy map.

    Attributes
    ----------
    edition : str
    stage : int
    advantage : pandas.DataFrame
        The policy map at a turn's start (:func:`~dragonkit.analysis.policy_map`): push minus hold value (gems) by
        pot (index) and knight position (columns), NaN where the pot is out of reach.
    points : pandas.DataFrame
        One row per (``position``, ``pot``, ``action``, ``verdict``) with ``decisions``, the class's decisions
        there; the most decisions first.
    counts : dict of str to int
        The decisions by verdict (every one of :data:`VERDICTS`, 0 where none).
    """

    edition: str
    stage: int
    advantage: pd.DataFrame
    points: pd.DataFrame
    counts: dict[str, int]

    @property
    def decisions(self) -> int:
        """The decisions on the map."""
        return sum(self.counts.values())


def class_map(choices: pd.DataFrame, edition: str, stage: int) -> ClassMap:
    """The class's decisions of ``edition`` at ``stage``, placed on that stage's policy map by knight position and pot.

    Parameters
    ----------
    choices : pandas.DataFrame
        :func:`~dragonkit.topics.our_class.stopping_choices` (of every edition and stage).
    edition : str
        A preset's name.
    stage : int
        Dangers revealed before the turn.

    Returns
    -------
    ClassMap

    Raises
    ------
    ValueError
        For an unknown edition or a stage it does not have.
    """
    advantage = _turn_start_map(edition, int(stage))
    mine = choices[(choices["edition"] == edition) & (choices["stage"] == stage)]
    keys = ["position", "pot", "action", "verdict"]
    points = mine.groupby(keys, as_index=False).size().rename(columns={"size": "decisions"})
    points = points.sort_values(["decisions", *keys], ascending=[False, True, True, True, True], ignore_index=True)
    found = Counter(mine["verdict"])
    return ClassMap(edition, int(stage), advantage, points, {v: int(found.get(v, 0)) for v in VERDICTS})


@dataclass(frozen=True)
class GemsGivenUp:
    """The expected gems the class gave up by its choices: for a decision, the best option's expected gems minus the
    chosen one's (gems, ≥ 0; 0 for a best option).

    Attributes
    ----------
    decisions : int
        Decisions with a choice (reveal or hold, take over or decline).
    total : float
        Gems given up in all.
    mean : float
        Per decision (NaN without decisions).
    by_student : pandas.DataFrame
        Index ``nickname``; columns ``decisions``, ``total``, ``mean``; the most given up first.
    by_edition : pandas.DataFrame
        Index ``edition``; the same columns.
    biggest : pandas.DataFrame
        The decisions that gave up the most, the most first: ``nickname``, ``edition``, ``stage``, ``phase``,
        ``position``, ``pot``, ``action``, ``best`` (the best options, joined by ``"/"``) and ``gems_given_up``.
    """

    decisions: int
    total: float
    mean: float
    by_student: pd.DataFrame
    by_edition: pd.DataFrame
    biggest: pd.DataFrame


def _sums(choices: pd.DataFrame, by: str) -> pd.DataFrame:
    grouped = choices.groupby(by)["gems_given_up"]
    table = pd.DataFrame({"decisions": grouped.size(), "total": grouped.sum(), "mean": grouped.mean()})
    return table.sort_values(["total", "decisions"], ascending=[False, False], kind="stable")


def gems_given_up(decisions: pd.DataFrame, biggest: int = 5) -> GemsGivenUp:
    """The expected gems given up per decision, in all, by student and by edition, and the ``biggest`` decisions.

    Parameters
    ----------
    decisions : pandas.DataFrame
        The record's decisions; those with one option (a compulsory reveal) give nothing up and are left out.
    biggest : int
        How many of the costliest decisions to list.

    Returns
    -------
    GemsGivenUp
    """
    choices = decisions[decisions["gems"].map(len) > 1]
    total = float(choices["gems_given_up"].sum())
    mean = float(choices["gems_given_up"].mean()) if len(choices) else float("nan")
    costly = choices[choices["gems_given_up"] > 0].sort_values("gems_given_up", ascending=False, kind="stable")
    top = costly.head(biggest).assign(best=lambda f: f["best_gems"].map("/".join))
    columns = ["nickname", "edition", "stage", "phase", "position", "pot", "action", "best", "gems_given_up"]
    return GemsGivenUp(
        len(choices),
        total,
        mean,
        _sums(choices, "nickname"),
        _sums(choices, "edition"),
        top[columns].reset_index(drop=True),
    )


def win_rates(games: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """The class's win rate against each kind of bot: over the games of one student against bots of one kind.

    A shared win counts as a share (a win shared by two is half a win), and the interval is Wilson's score interval
    (Wilson 1927; :func:`dragonkit.simulate.stats.proportion_estimate`, which rounds a half win for it).

    Parameters
    ----------
    games : pandas.DataFrame
        The record's games (:func:`dragonkit.record.reading.games`).
    level : float
        The intervals' confidence level.

    Returns
    -------
    pandas.DataFrame
        Index: the bot kinds met (in :class:`~dragonkit.bots.BotKind`'s order); columns ``games``, ``wins`` (shares
        counted), ``estimate``, ``std_error``, ``ci_low``, ``ci_high``, ``n`` and ``fair_share``, the mean of
        1/players: the win rate of a student as strong as the bots.
    """
    rows: dict[str, list[tuple[float, float]]] = {}
    for seats, winners in zip(games["seats"], games["winners"]):
        kinds = {seat for seat in seats if seat != BotKind.HUMAN.value}
        if seats.count(BotKind.HUMAN.value) != 1 or len(kinds) != 1:
            continue
        human = seats.index(BotKind.HUMAN.value)
        share = 1 / len(winners) if human in winners else 0.0
        rows.setdefault(kinds.pop(), []).append((share, 1 / len(seats)))
    order = [kind.value for kind in BotKind if kind.value in rows]
    table = {}
    for kind in order:
        shares, fair = zip(*rows[kind])
        table[kind] = {
            "games": len(shares),
            "wins": sum(shares),
            **proportion_estimate(sum(shares), len(shares), level),
        }
        table[kind]["fair_share"] = float(np.mean(fair))
    columns = ["games", "wins", "estimate", "std_error", "ci_low", "ci_high", "n", "fair_share"]
    return pd.DataFrame.from_dict(table, orient="index", columns=columns)


def _answer_key(answer: str, lang: str) -> object:
    """What an answer says: its exact value where it is a number, read in the student's language first, then in the
    others (``0,6`` and ``0.6`` alike), else its words."""
    for reading in dict.fromkeys([lang, *LANGUAGES]):
        try:
            return parse_number(answer, reading)
        except ValueError:
            continue
    return " ".join(answer.lower().split())


def exercise_summary(attempts: pd.DataFrame, wrong: int = 3) -> pd.DataFrame:
    """Each exercise's answers: how many, by how many students, how many right, and the commonest wrong ones.

    Parameters
    ----------
    attempts : pandas.DataFrame
        The record's attempts (:func:`dragonkit.record.reading.attempts`).
    wrong : int
        How many of the commonest wrong answers to give.

    Returns
    -------
    pandas.DataFrame
        One row per (``lesson``, ``exercise``), by lesson, a lesson's exercises by their number (an exercise's key,
        :mod:`dragonkit.teach.attempts`; a key that is no number after them, in the order first answered):
        ``attempts``, ``students``, ``right`` (the share of the attempts that were right), ``solved`` (the students
        who gave a right answer), ``hints`` (the mean of the hints open at an attempt) and ``wrong_answers`` (a list
        of (answer, count), the commonest first; the same number written two ways, ``0,6`` and ``0.6``, counts as
        one, under its commonest spelling).
    """
    rows = []
    number = attempts["exercise"].map(lambda key: int(key) if str(key).isdigit() else float("inf"))
    in_order = attempts.assign(_number=number).sort_values(["lesson", "_number", "id"], kind="stable")
    for (lesson, exercise), tries in in_order.groupby(["lesson", "exercise"], sort=False):
        wrong_tries = tries[~tries["correct"].astype(bool)]
        spellings: dict[object, Counter[str]] = {}
        for answer, lang in zip(wrong_tries["answer"], wrong_tries["language"]):
            spellings.setdefault(_answer_key(str(answer), str(lang)), Counter())[str(answer).strip()] += 1
        common = sorted(
            ((spelled.most_common(1)[0][0], spelled.total()) for spelled in spellings.values()),
            key=lambda item: (-item[1], item[0]),
        )
        rows.append(
            {
                "lesson": lesson,
                "exercise": exercise,
                "attempts": len(tries),
                "students": tries["nickname"].nunique(),
                "right": float(tries["correct"].astype(bool).mean()),
                "solved": tries.loc[tries["correct"].astype(bool), "nickname"].nunique(),
                "hints": float(tries["hints"].mean()),
                "wrong_answers": common[:wrong],
            }
        )
    columns = ["lesson", "exercise", "attempts", "students", "right", "solved", "hints", "wrong_answers"]
    return pd.DataFrame(rows, columns=columns)
