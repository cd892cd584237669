"""The play app's rooms: a table two to six students share, each from their own page.

:class:`RoomForm`, under the setup form, opens a room for the form's edition and seats (the seats no student takes
are played by the bots the form gives them), with the coach's setting (on, off, after the game) and how long a seat
waits for a player who left; and joins one by its code, through the server's door (``/dragonkit/room``, which slows
wrong codes): a plain HTML form, so that the page of the room opens with the code in its address. :func:`render_lobby`
draws a room waiting for its players; :func:`render_room_line` says, during the game, which room this is, who this
page plays, and who left. The rules and the record are the room's (:class:`~dragonkit.topics.room_table.RoomTable`);
here are only widgets and words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import i18n
from ..coach.words import verb
from ..i18n import N_, tr
from ..i18n.numbers import decimal_text, integer_text
from ..record.room_settings import LEAVE_AFTER, RoomCoach
from ..record.rows import DecisionRow
from ..record.where import record_url
from ..teach.notes import close_widgets
from ..turn import Action

__all__ = [
    "COACH_SETTINGS",
    "DOOR",
    "RoomForm",
    "render_lobby",
    "render_review",
    "render_room_line",
    "review_rows",
    "rooms_available",
    "spelled",
]

#: The coach's settings of a room: setting -> label (msgids).
COACH_SETTINGS = {
    RoomCoach.ON: N_("coach on"),
    RoomCoach.OFF: N_("coach off"),
    RoomCoach.AFTER: N_("coach after the game"),
}
#: How long a seat waits for a player who left (seconds -> label, msgids), in the record's order (the first is the
#: default).
_WAITS = dict(zip(LEAVE_AFTER, (N_("1 minute"), N_("30 seconds"), N_("2 minutes"), N_("5 minutes")), strict=True))
_INVITATION = N_(
    "Open a room for the edition and the seats above: the seats nobody takes are played by their bots. "
    "Or join a room with the code its player gives you."
)
#: The server's door for a room's code, from the play app's page (``voila/render/play.ipynb``).
DOOR = "../../dragonkit/room"


def rooms_available() -> bool:
    """Whether this kernel can open and join rooms: it keeps the class's record (``dragonkit serve``)."""
    return record_url() is not None


def spelled(code: str) -> str:
    """A room's code spaced for reading aloud: ``"K7MQX"`` → ``"K 7 M Q X"``."""
    return " ".join(code)


class RoomForm(widgets.VBox):
    """Play with others: open a room, or join one with its code.

    Parameters
    ----------
    on_open : callable
        Called with ``(coach, leave_after)`` (a :class:`~dragonkit.record.room_settings.RoomCoach`, seconds) when
        "Open a room" is clicked.
    """

    def __init__(self, on_open: Callable[[RoomCoach, int], None], **kwargs: Any) -> None:
        self.coach = widgets.Dropdown(options=[], layout=widgets.Layout(width="260px"))
        self.wait = widgets.Dropdown(options=[], layout=widgets.Layout(width="460px", max_width="100%"))
        self.wait.style.description_width = "initial"
        self.open_button = widgets.Button(
            icon="users",
            button_style="info",
            layout=widgets.Layout(width="auto", min_width="200px", align_self="flex-start"),
        )
        self.open_button.add_class("dk-open-room")
        self.open_button.on_click(lambda _b: on_open(RoomCoach(self.coach.value), int(self.wait.value)))
        self.heading, self.join = widgets.HTML(), widgets.HTML()
        self.message = widgets.HTML()  # what a room's code or address met (a room over, started, full)
        super().__init__(
            [
                self.heading,
                widgets.HBox([self.coach, self.wait], layout=widgets.Layout(flex_flow="row wrap")),
                self.open_button,
                self.join,
                self.message,
            ],
            **kwargs,
        )
        self.add_class("dk-rooms")
        self._label()
        i18n.settings.observe(self._on_language, names="language")
        self._following = True

    def close(self) -> None:
        """Stop following the language and close the form with its widgets; closing twice is harmless."""
        if self._following:
            self._following = False
            i18n.settings.unobserve(self._on_language, names="language")
            children = self.children
            super().close()
            for child in children:
                close_widgets(child)

    def _on_language(self, _change: object = None) -> None:
        self._label()

    def _label(self) -> None:
        coach, wait = self.coach.value, self.wait.value
        self.coach.options = [(tr(label), value) for value, label in COACH_SETTINGS.items()]
        self.coach.value = coach or RoomCoach.ON
        self.coach.description = tr("Coach")
        self.wait.options = [(tr(label), value) for value, label in _WAITS.items()]
        self.wait.value = wait or LEAVE_AFTER[0]
        self.wait.description = tr("A bot plays for a player who left after")
        self.open_button.description = tr("Open a room")
        self.open_button.tooltip = tr("a table for these seats: others join from their own pages with its code")
        self.heading.value = (
            f'<h2 class="dk-rooms-title">{escape(tr("Play with others, each from their own page"))}</h2>'
            f"<p>{escape(tr(_INVITATION))}</p>"
        )
        lang = i18n.settings.language
        self.join.value = (
            f'<form class="dk-join-room" method="get" action="{DOOR}">'
            f'<label for="dk-room-code">{escape(tr("Room code"))}</label> '
            f'<input id="dk-room-code" name="code" required maxlength="12" autocomplete="off" '
            f'autocapitalize="characters" spellcheck="false" aria-describedby="dk-room-code-rule"> '
            f'<input type="hidden" name="lang" value="{escape(lang, quote=True)}">'
            f'<button type="submit">{escape(tr("Join the room"))}</button>'
            f'<span id="dk-room-code-rule" class="dk-note">'
            f"{escape(tr('5 letters and digits, without 0, O, 1 or I'))}</span></form>"
        )


def render_lobby(
    code: str,
    seats: list[tuple[str | None, str]],
    host: str,
    coach: RoomCoach,
    mine: int | None,
    lang: str | None = None,
    held: bool = True,
) -> str:
    """A room waiting for its players, as HTML: its code (large, and spaced for reading aloud), the seats (a
    player's nickname, or the bot that plays a free seat) and the coach's setting.

    Parameters
    ----------
    code : str
    seats : list of (str or None, str)
        Each seat's player (None: free) and the label of the bot that plays it if it stays free (a msgid).
    host : str
    coach : RoomCoach
    mine : int or None
        This page's seat.
    lang : str, optional
    held : bool
        Whether this page still holds its seat (another page of the same nickname may have taken it).
    """
    rows = []
    for seat, (player, bot) in enumerate(seats):
        you = f" <em>({escape(tr('you', lang))})</em>" if seat == mine and held else ""
        who = (
            f"<b>{escape(player)}</b>{you}"
            if player is not None
            else escape(tr("free: {bot} plays it if nobody comes", lang, bot=tr(bot, lang)))
        )
        rows.append(f"<tr><th scope='row'>{seat + 1}</th><td>{who}</td></tr>")
    watching = "" if held else f'<p class="dk-note" role="status">{escape(tr(_WATCHES, lang))}</p>'
    return (
        f'<section class="dk-lobby" aria-labelledby="dk-lobby-title">'
        f'<h2 id="dk-lobby-title">{escape(tr("Room", lang))} '
        f'<span class="dk-room-code" aria-label="{escape(spelled(code), quote=True)}">{escape(code)}</span></h2>'
        f"{watching}"
        f"<p>{escape(tr('The players of this table join with its code, each from their own page.', lang))}</p>"
        f'<table class="dk-table dk-lobby-seats"><caption>{escape(tr("Seats", lang))}</caption>'
        f"<thead><tr><th scope='col'>{escape(tr('seat', lang))}</th>"
        f"<th scope='col'>{escape(tr('player', lang))}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<p>{escape(tr(COACH_SETTINGS[coach], lang))} · "
        f"{escape(tr('{host} starts the game when the table is ready.', lang, host=host))}</p></section>"
    )


#: A page whose seat another page took (a reload elsewhere, or a classmate who typed the same nickname).
_WATCHES = N_(
    "your seat is played from another page now: this page only watches (reload it to play here again; if the other "
    "page is not yours, tell your teacher)"
)


def render_room_line(
    code: str, mine: str | None, waiting_for: str | None, away: list[str], held: bool, lang: str | None = None
) -> str:
    """One line over a room's board: the room, who this page plays, whose move it waits for, who left.

    Parameters
    ----------
    code : str
    mine : str or None
        The name this page plays under (None: it watches).
    waiting_for : str or None
        The player whose move the table waits for (None: this page's player is to move, or nobody).
    away : list of str
        The players who left (a bot plays for them).
    held : bool
        Whether this page still holds its seat (a newer page of the same player took it).
    """
    parts = [f'{escape(tr("Room", lang))} <span class="dk-room-code">{escape(code)}</span>']
    if not held:
        parts.append(escape(tr(_WATCHES, lang)))
    elif mine is not None:
        parts.append(escape(tr("you play {name}", lang, name=mine)))
    if waiting_for is not None:
        parts.append(escape(tr("waiting for {name}", lang, name=waiting_for)))
    if away:
        parts.append(escape(tr("{names} left: a bot plays for them", lang, names=tuple(away))))
    return f'<div class="dk-room-line">{" · ".join(parts)}</div>'


def review_rows(stored: list[dict[str, Any]], made: list[DecisionRow]) -> list[dict[str, Any]]:
    """One player's decisions in a room's game: those of the record (``stored``, from every page the player played
    from) and those this page made (``made``, some perhaps not written yet), each once, in order."""
    rows = list(stored)
    seen = {(json.dumps(r["situation"], sort_keys=True), r["action"], round(float(r["seconds"]), 3)) for r in rows}
    for row in made:
        key = (json.dumps(row.situation, sort_keys=True), row.action, round(float(row.seconds), 3))
        if key not in seen:
            rows.append(asdict(row))
    return rows


def render_review(decisions: list[dict[str, Any]], lang: str | None = None) -> str:
    """The coach on one player's decisions of a room's game, after it: for each, the pot (gems), the choice, the
    coach's best for the gems of the turn and the expected gems given up (0 where the choice was a best one); and
    the total given up.

    Parameters
    ----------
    decisions : list of dict
        The player's own decisions, in order, with the fields of the record's ``decisions`` (:func:`review_rows`).
    lang : str, optional
    """
    title = escape(tr("The coach on your decisions", lang))
    if not decisions:
        return (
            f'<section class="dk-review"><h3>{title}</h3><p>{escape(tr("You made no decision.", lang))}</p></section>'
        )
    rows = []
    for number, row in enumerate(decisions, start=1):
        best = tr(" or ", lang).join(verb(Action(a), lang) for a in row["best_gems"])
        given_up = decimal_text(row["gems_given_up"], 2, lang) if row["gems_given_up"] > 0 else "0"
        rows.append(
            f"<tr><th scope='row'>{number}</th><td>{integer_text(row['pot'], lang)}</td>"
            f"<td>{escape(verb(Action(row['action']), lang))}</td><td>{escape(best)}</td><td>{given_up}</td></tr>"
        )
    total = decimal_text(sum(r["gems_given_up"] for r in decisions), 2, lang)
    head = "".join(
        f"<th scope='col'>{escape(tr(h, lang))}</th>"
        for h in (
            N_("decision"),
            N_("pot (gems)"),
            N_("you chose"),
            N_("best for the gems of the turn"),
            N_("expected gems given up"),
        )
    )
    return (
        f'<section class="dk-review"><h3>{title}</h3>'
        f'<table class="dk-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
        f"<p>{escape(tr('In all, {gems} expected gems given up.', lang, gems=total))}</p></section>"
    )
