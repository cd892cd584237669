"""The play app's rooms, as a controller: it turns the rooms' clicks (open a room, start its game, leave it, play again
at the same table, ask the coach for its estimate) into the record's actions, finds the room of a page opened again,
and keeps the page's table up to date with the record; the play app (:class:`~dragonkit.ui.app.PlayApp`) composes it
and draws the game, :mod:`dragonkit.ui.rooms` has the rooms' form and words.

The room and its game are the class's record's (:class:`~dragonkit.topics.room_table.RoomTable`). A page in a room
reads it every :data:`POLL` seconds, and gives a sign of life at its seat every :data:`BEAT` seconds, **away from the
kernel's event loop**: a task on the loop hands each reading to a thread (a slow database never freezes the page), one
reading at a time, and takes what it found, and changes the widgets, back on the loop (widgets are never touched from
the thread). A record that cannot be read leaves a note on the page, and the next reading tries again. If this page
drives the room and a bot is to move, the bot's move is made :attr:`~dragonkit.ui.app.PlayApp.bot_delay` after the
last move (written to the record like a player's move). A page opened again (a reload, another laptop, a kernel that
died) finds its player's room and takes the seat back.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import TYPE_CHECKING, Any, Protocol

import ipywidgets as widgets

from ..address import query_values
from ..coach.words import ESTIMATE_BUTTON
from ..engine import Game, IllegalActionError
from ..i18n import tr
from ..record.session import nickname
from ..record.where import class_name, record_url
from ..rules import Message
from .controls import guarded, running_loop
from .recorder import Recorder
from .rooms import RoomForm, render_lobby, render_room_line, review_rows, rooms_available
from .setup import SetupForm, kind_label
from .shown import is_drawn, when_drawn

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from ..record.room_settings import RoomCoach
    from ..topics.room_table import News, Reading, RoomTable

__all__ = ["BEAT", "POLL", "RoomApp", "RoomController"]

log = logging.getLogger("dragonkit.ui")

#: Seconds between two readings of a room (one query when nothing moved), and between two signs of life of the page
#: at its seat.
POLL = 0.1
BEAT = 1.5


class RoomApp(Protocol):
    """What the rooms' controller asks of the app that composes it (:class:`~dragonkit.ui.app.PlayApp`): its setup
    form, the view of its game and its coach's button, and the ways it draws the table's game."""

    setup_form: SetupForm
    widget: Any  # ipywidgets.VBox: the page, which counts the views a browser draws of it (ui/shown.py)
    game_view: Any  # ipywidgets.Box
    show_coach: Any  # ipywidgets.ToggleButton
    bot_delay: float
    game_id: str
    _recorder: Recorder
    _refocus: bool

    def show_setup(self) -> None: ...
    def _say(self, text: Message | str, level: str = "info", rooms: bool = False) -> None: ...
    def _label(self) -> None: ...
    def _sit_at_table(self) -> None: ...
    def _follow_table(self) -> None: ...
    def _moved(self) -> None: ...
    def _move_focus(self) -> None: ...
    def _write_end(self) -> None: ...
    def _refresh(self) -> None: ...
    def _require_game(self) -> Game: ...


class RoomController:
    """The rooms of one play app: their widgets, the table the page plays at, and its readings of the record.

    Parameters
    ----------
    app : RoomApp
        The app that composes it (:class:`~dragonkit.ui.app.PlayApp`): it shows the widgets below, and draws the
        table's game.

    Attributes
    ----------
    table : RoomTable or None
        The room this page plays in, if any.
    form : RoomForm or None
        Open a room, or join one (None where the kernel keeps no record: no rooms).
    lobby_view : ipywidgets.VBox
        A room waiting for its players (:attr:`lobby`), with :attr:`buttons`.
    lobby : ipywidgets.HTML
    buttons : dict of str to ipywidgets.Button
        ``start_room`` (the host's), ``leave_room``.
    room_line : ipywidgets.HTML
        Over the board: the room, who this page plays, whom the table waits for, who left.
    play_again : ipywidgets.Button
        Once the room's game is over: the same table again, in a new room.
    estimate_button : ipywidgets.Button
        The coach's Monte Carlo estimate, made when the player asks (the class shares the server).
    asked : int
        The move (its number) for which the player asked for the estimate; -1 before.
    """

    def __init__(self, app: RoomApp) -> None:
        self._app = app
        self.table: RoomTable | None = None
        self._holder = uuid.uuid4().hex  # this page, as the record knows the seat it holds
        self._task: asyncio.Task[None] | None = None  # the readings of the room, on the kernel's event loop
        self._closed = False
        self._beat_at = self._moved_at = 0.0
        self._unreachable = False  # the record could not be read: the page says so until it can again
        self._reviewed: tuple[str, list[dict[str, Any]]] = ("", [])  # the room's game, and this player's decisions
        self._review_tries = 0  # the review read again while the record lacked some of the player's decisions
        self.asked = -1
        self.room_line, self.lobby = widgets.HTML(), widgets.HTML()
        self.buttons = {
            "start_room": widgets.Button(icon="play", button_style="success", layout=widgets.Layout(width="auto")),
            "leave_room": widgets.Button(icon="sign-out", layout=widgets.Layout(width="auto")),
        }
        self.buttons["start_room"].on_click(lambda _b: self._on_start_room())
        self.buttons["leave_room"].on_click(lambda _b: self.leave())
        self.lobby_view = widgets.VBox(
            [self.lobby, widgets.HBox(list(self.buttons.values()), layout=widgets.Layout(flex_flow="row wrap"))],
            layout=widgets.Layout(display="none", width="830px", max_width="100%"),
        )
        self.form = RoomForm(on_open=self._on_open_room) if rooms_available() else None
        self.estimate_button = widgets.Button(icon="calculator", layout=widgets.Layout(width="auto", display="none"))
        self.estimate_button.on_click(lambda _b: self._on_estimate())
        self.play_again = widgets.Button(
            icon="repeat", button_style="primary", layout=widgets.Layout(width="auto", display="none")
        )
        self.play_again.on_click(lambda _b: self._on_play_again())

    def close(self) -> None:
        """Stop reading the room (a reading in its thread ends by itself; what it finds is left)."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def label(self) -> None:
        """Write the rooms' buttons in the current language."""
        self.buttons["start_room"].description = tr("Start the game")
        self.buttons["leave_room"].description = tr("Leave the room")
        self.estimate_button.description = tr(ESTIMATE_BUTTON)
        self.play_again.description = tr("Play again at this table")
        self.play_again.tooltip = tr("a new game with the same players, in a new room: each of them presses it")

    def _say(self, text: Message | str, level: str = "info", rooms: bool = False) -> None:
        """Show ``text`` in the app's message line (see :meth:`PlayApp._say <dragonkit.ui.app.PlayApp._say>`)."""
        self._app._say(text, level, rooms=rooms)

    # -- entering and leaving a room ------------------------------------------------------

    def _record(self) -> tuple[Engine, str]:
        """The record's engine for rooms, and this page's nickname.

        Raises
        ------
        ValueError
            Without a record, or without a nickname.
        """
        url = record_url()
        who = nickname()
        if url is None:
            raise ValueError(Message("rooms need the class's record: the teacher starts the server with one"))
        if not who:
            raise ValueError(Message("give a nickname first: rooms seat players by their nicknames"))
        from ..record.rooms import kernel_engine  # SQLAlchemy: only in a kernel with a record

        return kernel_engine(url), who

    @guarded
    def find_my_room(self) -> None:
        """Once the visitor is known: the room their address names (``?room=``, which the server's door checked), or
        else the room where they sit and whose game is not over (a page opened again takes its seat back). An address
        that names a room this player can no longer sit in (over, closed, full, started) is one kept from an earlier
        game: a room where they sit goes first; only without one is the refusal said."""
        if self.table is not None or self._closed or not nickname():
            return
        from ..record import rooms
        from ..topics.room_table import RoomTable

        engine, who = self._record()
        asked = query_values("room")
        refused: rooms.RoomError | None = None
        if asked:
            try:
                room, _seat = rooms.sit(engine, asked[-1], who)
            except rooms.RoomError as error:
                refused = error
            else:
                self._enter(RoomTable.enter(engine, room, who, self._holder))
                return
        mine = rooms.rooms_of(engine, class_name(), who)
        if mine:
            self._enter(RoomTable.enter(engine, mine[0], who, self._holder))
        elif refused is not None:
            self._say(Message("{reason}.", reason=Message.of(refused)), "warning", rooms=True)

    @guarded
    def _on_open_room(self, coach: RoomCoach, leave_after: int) -> None:
        from ..record import rooms
        from ..topics.room_table import RoomTable

        engine, who = self._record()
        config = self._app.setup_form.config()
        seats = [(s.name, s.kind) for s in config.seats]
        room = rooms.open_room(
            engine, class_name(), who, config.preset, seats, coach=coach, leave_after=leave_after, holder=self._holder
        )
        self._enter(RoomTable(engine, room, 0, self._holder))
        self.buttons["start_room"].focus()

    def _enter(self, table: RoomTable) -> None:
        """This page plays in ``table``'s room from now on."""
        self.table = table
        self._review_tries = 0
        self._app._sit_at_table()
        self.show_room()
        self._keep_reading_soon()

    @guarded
    def _on_start_room(self) -> None:
        table = self.table
        if table is None:
            raise IllegalActionError(Message("this page is not in a room"))
        from ..record import rooms

        rooms.start(table.engine, table.room.id, self._holder)
        table.sync()
        self._app._follow_table()
        self.show_room()
        self._app._refocus = True
        self._app._move_focus()

    @guarded
    def leave(self) -> None:
        """Leave the room: the seat is free for a bot (or for the player's return), and the page goes back to the
        setup."""
        table = self.table
        self.table = None  # the readings end with it
        self._app._label()
        if table is not None and table.seat is not None:
            from ..record import rooms

            rooms.leave(table.engine, table.room.id, table.seat, self._holder)
        self._app.show_setup()
        self.room_line.value = ""
        self._app.setup_form.start.focus()

    def forget(self) -> None:
        """The page plays a game of its own: it no longer reads the room (its seat stays its player's, whose page
        opened again takes it back)."""
        self.table = None

    @guarded
    def _on_play_again(self) -> None:
        """The table plays again: the next room of this room's table (opened by the first who asks), this page in it."""
        table = self.table
        if table is None or table.seat is None:
            raise IllegalActionError(Message("this page is not in a room"))
        from ..record import rooms
        from ..topics.room_table import RoomTable

        engine, who = self._record()
        room = rooms.rematch(engine, table.room.id, who, self._holder)
        self._enter(RoomTable.enter(engine, room, who, self._holder))
        if self.table is not None and self.table.seat == 0:
            self.buttons["start_room"].focus()  # the host: Enter starts the game once the others are in

    @guarded
    def _on_estimate(self) -> None:
        """The player asks the coach for its estimate of the chance of winning (in a room)."""
        game = self._app._require_game()
        self.asked = len(game.actions)
        self._app._refresh()
        self._app.show_coach.focus()  # the button is gone with the estimate: the focus stays by the coach

    # -- drawing --------------------------------------------------------------------------

    def show_room(self) -> None:
        """The lobby while the room waits for its players; the table once its game is on."""
        table = self.table
        if table is None:
            return
        from ..record.rooms import RoomStatus

        waiting = table.room.status is RoomStatus.WAITING
        self._app._label()
        # drawn first, shown after: a view shown before it is drawn flashes its old state (at the start, the action
        # buttons on every page, whose click would then be refused as not that player's turn)
        if waiting:
            self._app.game_view.layout.display = "none"
            self._draw_lobby()
            self.lobby_view.layout.display = None
        else:
            self.lobby_view.layout.display = "none"
            self._app._moved()
            self._app.game_view.layout.display = None

    def _draw_lobby(self) -> None:
        table = self.table
        if table is None:
            return
        room = table.room
        seats = [(s.nickname, kind_label(s.kind)) for s in room.seats]
        self.lobby.value = render_lobby(room.code, seats, room.host, room.coach, table.seat, held=table.held)
        self.buttons["start_room"].layout.display = None if table.seat == 0 and table.held else "none"

    def draw_room_line(self) -> None:
        """The line over the board (empty outside a room)."""
        table = self.table
        if table is None:
            self.room_line.value = ""
            return
        game, room = table.game, table.room
        mover = game.to_move
        waiting_for = None
        if mover is not None and mover != table.seat and room.seats[mover].is_person and not table.away(mover):
            waiting_for = room.seats[mover].name
        away = [s.name for s in room.seats if s.is_person and s.seat != table.seat and table.away(s.seat)]
        mine = None if table.seat is None else room.seats[table.seat].name
        self.room_line.value = render_room_line(room.code, mine, waiting_for, away, table.held)

    def review(self) -> list[dict[str, Any]]:
        """This player's decisions in the room's game, from the record and from this page (read once per game: the
        record has them all once the game is over, but for the last ones this page may still be writing)."""
        table, game_id = self.table, self._app.game_id
        if self._reviewed[0] != game_id and table is not None:
            from ..record.reading import decisions_in_game
            from ..record.rooms import moves

            made = [row for row in self._app._recorder.decisions if row.game_id == game_id]
            rows = review_rows(decisions_in_game(table.engine, game_id, nickname()), made)
            mine = sum(move.seat == table.seat for move in moves(table.engine, table.room.id))
            loop = running_loop()
            if len(rows) < mine and self._review_tries < 10 and loop is not None:
                # a page this player left may still be writing its last decisions: read them again in a second
                self._review_tries += 1
                loop.call_later(1.0, self._app._refresh)
                return rows
            self._reviewed = (game_id, rows)
        return self._reviewed[1]

    # -- reading the room -----------------------------------------------------------------

    def _keep_reading_soon(self) -> None:
        """Read the room every :data:`POLL` seconds while the page is at a table, on the kernel's event loop (none in
        a plain script or test: :meth:`read_room` reads), once a browser has drawn the page (a page reopened in a
        room draws the room as it is made, and its readings wait for the browser's handshake to end:
        :mod:`~dragonkit.ui.shown`); one task a page, which ends when the page leaves its table."""
        loop = running_loop()
        if loop is None or self._closed or (self._task is not None and not self._task.done()):
            return
        if not is_drawn(self._app.widget):
            when_drawn(self._app.widget, self._keep_reading_soon)
            return
        self._task = loop.create_task(self._keep_reading())

    async def _keep_reading(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closed and (table := self.table) is not None:
            reading = self._reading(table)
            try:
                news = await loop.run_in_executor(None, reading)  # the database in a thread: the page never waits
            except Exception as error:  # any failure of the database: a note, and the next reading tries again
                if self.table is table:
                    self._cannot_read(error)
            else:
                if self.table is table and not self._closed:  # the same table still: take what was read, on the loop
                    self._took(table, news)
            await asyncio.sleep(POLL)

    def read_room(self) -> None:
        """Read the room here and now, and redraw what changed (a page reads it every :data:`POLL` seconds in a thread
        of its own; a script or a test, without an event loop, calls this); a record out of reach is said on the page.
        """
        table = self.table
        if table is None or self._closed:
            return
        try:
            news = self._reading(table)()
        except Exception as error:  # any failure of the database
            self._cannot_read(error)
            return
        self._took(table, news)

    def _reading(self, table: RoomTable) -> Reading:
        """The next reading of ``table``'s room: with a sign of life of the page every :data:`BEAT` seconds."""
        now = time.monotonic()
        beat = now - self._beat_at >= BEAT
        if beat:
            self._beat_at = now
        return table.reading(beat=beat)

    def _cannot_read(self, error: Exception) -> None:
        if not self._unreachable:
            log.warning(
                "dragonkit: the room's record cannot be read now (%s: %s); trying again", type(error).__name__, error
            )
            self._unreachable = True
            self._say(Message("The room's record cannot be reached: trying again."), "warning")

    @guarded
    def _took(self, table: RoomTable, news: News) -> None:
        """Take what a reading found and redraw what changed; if this page drives the room and a bot is to move, the
        bot's move, :attr:`~dragonkit.ui.app.PlayApp.bot_delay` after the last move."""
        from ..record.rooms import RoomStatus

        app = self._app
        now = time.monotonic()
        status, moves, held, was_mine = table.room.status, len(table.game.actions), table.held, table.my_turn
        away = [table.away(s.seat) for s in table.room.seats]
        changed = table.take(news)
        if news.beat is not None and (table.held != held or away != [table.away(s.seat) for s in table.room.seats]):
            changed = True
        if len(table.game.actions) != moves:
            self._moved_at = now
        elif now - self._moved_at >= app.bot_delay and table.play_bot():
            self._moved_at, changed = now, True
        if self._unreachable:
            self._unreachable = False
            self._say("")
        if not changed:
            return
        app._follow_table()
        ended = table.game.is_over and moves != len(table.game.actions)
        if (table.my_turn and not was_mine) or ended:
            app._refocus = True  # the player's turn has come, or the game's end: the focus on their first button
        if table.room.status is not status or table.room.status is RoomStatus.WAITING:
            self.show_room()
        else:
            app._moved()
        app._write_end()
