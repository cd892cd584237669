"""The teacher's dashboard's tables as HTML, in the page's language: who is playing now, the rooms, the expected gems
the class gave up, each exercise's answers, the nicknames held and their releases.

Each function takes the numbers of :mod:`dragonkit.topics.class_summary` and returns a heading's section content:
tables with a caption and headers (``<th scope="col">``, a row's first cell ``<th scope="row">``), numbers written
as the language writes them, every text a student typed escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from html import escape
from typing import Any

import pandas as pd

from ..bots import BotKind
from ..engine import VERBS
from ..i18n import N_, ntr, tr
from ..i18n.numbers import decimal_text, integer_text, moment_text, percent_text
from ..topics.class_summary import GemsGivenUp
from ..topics.editions import edition_label
from ..turn import Action
from .setup import kind_label

__all__ = [
    "exercise_name",
    "page_name",
    "render_exercises",
    "render_gems_given_up",
    "render_holds",
    "render_playing",
    "render_rooms",
    "table_html",
]

#: The pages of the kit a student may be on, by the name the record keeps (a lesson is named by its notebook).
PAGES = {"play": N_("play app"), "trainer": N_("hand trainer")}

#: The students listed by the gems they gave up.
MOST_STUDENTS = 10


def page_name(page: str, lang: str | None = None) -> str:
    """The name of a page of the record in ``lang``: ``"play app"``, ``"lesson 2"`` (a lesson's notebook
    ``02-the-next-card``) or, for a page the kit does not know, its name as recorded."""
    if page in PAGES:
        return tr(PAGES[page], lang)
    number = page[:2]
    if number.isdigit() and page[2:3] == "-":
        return tr("lesson {n}", lang, n=int(number))
    return page


def exercise_name(lesson: str, exercise: str, lang: str | None = None) -> str:
    """An exercise of the record by its key (:mod:`dragonkit.teach.attempts`) in ``lang``: ``"lesson 2, exercise 3"``
    for ``("02-the-next-card", "3")``; a key that is not a number, as recorded."""
    if exercise.isdigit():
        return tr("{lesson}, exercise {n}", lang, lesson=page_name(lesson, lang), n=int(exercise))
    return f"{page_name(lesson, lang)} · {exercise}"


def table_html(caption: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table of the dashboard: its ``caption``, a header of ``columns``, ``rows`` of HTML cells (already escaped),
    each row's first cell its header.

    Raises
    ------
    ValueError
        If a row is not as long as the header.
    """
    if any(len(row) != len(columns) for row in rows):
        raise ValueError(f"every row of the table has {len(columns)} cells, as its header")
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in columns)
    body = "".join(
        f'<tr><th scope="row">{row[0]}</th>' + "".join(f"<td>{cell}</td>" for cell in row[1:]) + "</tr>" for row in rows
    )
    return (
        f'<table class="dk-table"><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def _paragraph(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def render_holds(holds: pd.DataFrame, lang: str | None = None) -> str:
    """The nicknames of the class (:func:`dragonkit.record.reading.nickname_holds`): each one's browser, since when
    it holds it, and when the teacher released it (a student who changed laptops), or a sentence when no browser
    holds one yet.

    Parameters
    ----------
    holds : pandas.DataFrame
        Columns ``nickname``, ``held``, ``taken``, ``releases``, ``last_released``.
    lang : str, optional
    """
    if holds.empty:
        return _paragraph(tr("No browser holds a nickname of this class yet.", lang))
    held = int(holds["held"].astype(bool).sum())
    summary = ntr(
        "{n} nickname is held, each by the browser that joined with it: another browser that types it is told it is "
        "taken. Release a nickname below for a student who changed laptops.",
        "{n} nicknames are held, each by the browser that joined with it: another browser that types one is told it "
        "is taken. Release a nickname below for a student who changed laptops.",
        held,
        lang,
        n=integer_text(held, lang),
    )
    rows = []
    fields = ("nickname", "held", "taken", "releases", "last_released")
    for nickname, is_held, taken, releases, last in zip(*(holds[f] for f in fields), strict=True):
        taken_at = pd.Timestamp(taken).to_pydatetime()
        state = tr("held since {moment}", lang, moment=moment_text(taken_at, lang)) if is_held else tr("free", lang)
        if releases:
            released = ntr(
                "{moment} ({n} release)",
                "{moment} (last of {n} releases)",
                int(releases),
                lang,
                moment=moment_text(pd.Timestamp(last).to_pydatetime(), lang),
                n=integer_text(int(releases), lang),
            )
        else:
            released = tr("never", lang)
        rows.append((escape(str(nickname)), escape(state), escape(released)))
    columns = (tr("nickname", lang), tr("browser", lang), tr("released by the teacher", lang))
    return _paragraph(summary) + table_html(tr("The nicknames of the class", lang), columns, rows)


def render_playing(playing: pd.DataFrame, now: datetime, lang: str | None = None) -> str:
    """Who is playing now (:func:`~dragonkit.topics.class_summary.playing_now`): page by page, the students there and
    for how long each has been on it, or a sentence when nobody is.

    Parameters
    ----------
    playing : pandas.DataFrame
        Columns ``nickname``, ``page``, ``since``.
    now : datetime.datetime
        The time now (UTC, without a zone).
    lang : str, optional
    """
    if playing.empty:
        return _paragraph(tr("Nobody is on the kit's pages right now.", lang))
    students = playing["nickname"].nunique()
    summary = ntr(
        "{n} student is on the kit's pages.", "{n} students are on the kit's pages.", students, lang, n=students
    )
    rows = []
    for page, here in playing.sort_values("nickname").groupby("page", sort=True):
        who = ", ".join(
            tr(
                "{name} ({minutes} min)",
                lang,
                name=nickname or tr("(no nickname)", lang),
                minutes=integer_text(max(0, int((now - since).total_seconds() // 60)), lang),
            )
            for nickname, since in zip(here["nickname"], here["since"])
        )
        rows.append((escape(page_name(str(page), lang)), integer_text(here["nickname"].nunique(), lang), escape(who)))
    columns = (tr("page", lang), tr("students", lang), tr("who, and for how long on the page", lang))
    return _paragraph(summary) + table_html(tr("The students, page by page", lang), columns, rows)


def _gems(value: float, lang: str | None) -> str:
    return decimal_text(value, 1, lang)


def render_gems_given_up(found: GemsGivenUp, lang: str | None = None) -> str:
    """The expected gems the class gave up (:func:`~dragonkit.topics.class_summary.gems_given_up`): in all and per
    decision, by edition, the students who gave up the most and the costliest decisions."""
    if not found.decisions:
        return _paragraph(tr("No decision with a choice yet.", lang))
    summary = ntr(
        "{n} decision with a choice: the class gave up {total} expected gems in all, {mean} per decision.",
        "{n} decisions with a choice: the class gave up {total} expected gems in all, {mean} per decision.",
        found.decisions,
        lang,
        n=integer_text(found.decisions, lang),
        total=_gems(found.total, lang),
        mean=decimal_text(found.mean, 2, lang),
    )
    explained = tr(
        "A decision gives up the best option's expected gems for the turn minus the chosen option's: 0 when it "
        "chose the best.",
        lang,
    )
    columns = (tr("decisions", lang), tr("gems given up", lang), tr("per decision", lang))

    def rows(table: pd.DataFrame, name: Callable[[Any], str]) -> list[tuple[str, ...]]:
        counts = [integer_text(int(n), lang) for n in table["decisions"]]
        totals = [_gems(t, lang) for t in table["total"]]
        means = [decimal_text(m, 2, lang) for m in table["mean"]]
        return [(escape(name(key)), *cells) for key, *cells in zip(table.index, counts, totals, means)]

    by_edition = table_html(
        tr("By edition", lang),
        (tr("edition", lang), *columns),
        rows(found.by_edition, lambda e: edition_label(str(e), lang=lang)),
    )
    top = found.by_student.head(MOST_STUDENTS)
    by_student = table_html(
        tr("The students who gave up the most", lang),
        (tr("student", lang), *columns),
        rows(top, lambda n: n or tr("(no nickname)", lang)),
    )
    costliest = [
        (
            escape(r["nickname"] or tr("(no nickname)", lang)),
            escape(tr("{edition}, stage {d}", lang, edition=edition_label(r["edition"], lang=lang), d=r["stage"])),
            escape(tr("knight on {position}, pot {pot}", lang, position=r["position"], pot=r["pot"])),
            escape(_verb(r["action"], lang)),
            escape(" / ".join(_verb(b, lang) for b in r["best"].split("/"))),
            _gems(r["gems_given_up"], lang),
        )
        for r in found.biggest.to_dict("records")
    ]
    headers = (N_("student"), N_("edition"), N_("situation"), N_("chose"), N_("best"), N_("gems given up"))
    biggest = table_html(tr("The costliest decisions", lang), [tr(h, lang) for h in headers], costliest)
    return _paragraph(summary) + _paragraph(explained) + by_edition + by_student + (biggest if costliest else "")


def _verb(action: str, lang: str | None) -> str:
    """An action of the record (``"take_over"``) as its verb in ``lang`` (``"take over"``); a name that is no
    :class:`~dragonkit.turn.Action` as the record wrote it."""
    try:
        return tr(VERBS[Action(action)], lang)
    except ValueError:
        return action


def _wrong_answers(answers: list[tuple[str, int]], lang: str | None) -> str:
    if not answers:
        return "—"
    return ", ".join(f"<code>{escape(a)}</code> ({integer_text(n, lang)}×)" for a, n in answers)


def render_exercises(summary: pd.DataFrame, lang: str | None = None) -> str:
    """Each exercise's answers (:func:`~dragonkit.topics.class_summary.exercise_summary`): attempts, students, the share
    right, the students who got it right, the commonest wrong answers."""
    if summary.empty:
        return _paragraph(tr("No answer to an exercise yet.", lang))
    rows = [
        (
            escape(exercise_name(r["lesson"], r["exercise"], lang)),
            integer_text(r["attempts"], lang),
            integer_text(r["students"], lang),
            percent_text(r["right"], 0, lang),
            integer_text(r["solved"], lang),
            _wrong_answers(r["wrong_answers"], lang),
        )
        for r in summary.to_dict("records")
    ]
    columns = (
        tr("exercise", lang),
        tr("answers", lang),
        tr("students", lang),
        tr("answers right", lang),
        tr("students who got it right", lang),
        tr("commonest wrong answers", lang),
    )
    return table_html(tr("The exercises, lesson by lesson", lang), columns, rows)


#: A room's status as the dashboard says it (msgids).
_ROOM_STATUS = {
    "waiting": N_("waiting for players"),
    "playing": N_("playing"),
    "over": N_("game over"),
    "closed": N_("closed"),
}


#: The most rooms the dashboard's table shows; a sentence counts the older ones.
ROOMS_SHOWN = 50


def render_rooms(rooms: pd.DataFrame, games: pd.DataFrame, lang: str | None = None) -> str:
    """The class's rooms that are not closed (:func:`dragonkit.record.reading.rooms`): those playing first, then
    those waiting for players, then those whose game is over, each newest first, :data:`ROOMS_SHOWN` at most and a
    sentence counting the rest: the code, the edition, the status, the players (a bot's seat marked with its kind),
    the moves so far and, for a game that ended, its winners (from the record's ``games``); or a sentence when there
    is none.

    Parameters
    ----------
    rooms : pandas.DataFrame
    games : pandas.DataFrame
        The games read (:func:`dragonkit.record.reading.games`), to name the winners of the rooms' games.
    lang : str, optional
    """
    if rooms.empty:
        return _paragraph(tr("No room is open.", lang))
    winners: dict[object, list[int]] = {}
    for game_id, seats in zip(games.get("game_id", ()), games.get("winners", ())):
        winners[game_id] = list(seats)
    order = {"playing": 0, "waiting": 1}  # then the games over; sorted() is stable: each newest first
    listed = sorted(rooms.to_dict("records"), key=lambda room: order.get(str(room["status"]), 2))
    rows = []
    for room in listed[:ROOMS_SHOWN]:
        names, kinds = list(room["players"]), list(room["kinds"])
        players = ", ".join(
            escape(name) if kind == "human" else f"{escape(name)} ({escape(tr(kind_label(BotKind(kind)), lang))})"
            for name, kind in zip(names, kinds)
        )
        status = tr(_ROOM_STATUS.get(str(room["status"]), str(room["status"])), lang)
        if room["game_id"] in winners:
            won = tuple(names[seat] for seat in winners[room["game_id"]] if seat < len(names))
            status += " · " + tr("won by {names}", lang, names=won)
        rows.append(
            (
                f'<span class="dk-room-code">{escape(str(room["code"]))}</span>',
                escape(edition_label(str(room["edition"]), lang=lang)),
                escape(status),
                players,
                integer_text(int(room["moves"]), lang),
            )
        )
    columns = (tr("room", lang), tr("edition", lang), tr("status", lang), tr("players", lang), tr("moves", lang))
    shown = table_html(tr("The rooms: playing, then waiting, then over; newest first", lang), columns, rows)
    rest = len(listed) - ROOMS_SHOWN
    if rest > 0:
        more = ntr(
            "…and {n} more room, not shown.", "…and {n} more rooms, not shown.", rest, lang, n=integer_text(rest, lang)
        )
        shown += _paragraph(more)
    return shown
