"""The play app: a setup form, then the board, the action buttons, the players,
the event log and the coach; at the end, the winner and a plot of the gems.

The app is a controller: a click becomes an engine action, checked by the
engine's own legality rules (a disabled or hidden button is a courtesy, not a
guard), and every view is redrawn from the game's public state.  Errors in a
callback become a message in the page; the traceback goes to the kernel's log.

The app speaks the current language of :mod:`dragonkit.i18n` (a page opened
with ``?lang=it`` starts in Italian, preheated kernels included); the language
buttons at the top right switch it, and every view, button and message is
redrawn at once.

The whole game can be played with the keyboard alone: every control is a button, a list or a box
of the page's tab order, drawn with a clear focus outline (the stylesheet's ``:focus-visible``); when
the control just pressed hides itself (Reveal at the end of a turn, Start the game), the focus moves
on to the next control the player needs as soon as there is one.  What changes the board is said to
screen readers too: the events of each move, in a live region (:mod:`dragonkit.ui.announce`).

A page opened with ``?view=projector`` (:mod:`dragonkit.view`; a preheated kernel learns it with its visitor's
request, :mod:`dragonkit.ui.visitor`) is drawn large for a class's projector and plays one step at a time, so that
the class can talk over every card: beside the board, the latest move (its card, large, and what it did); the coach
hidden behind "Show the coach" until the teacher clicks it, and hidden again at the next move; and each bot's move
waiting for "Next bot move" (the bots never play by themselves there).

Where the kernel keeps the class's record (``dragonkit serve``), the app writes each human's decision to it (the
situation before the move, the action, the card a reveal turned up, the seconds since the page showed the decision,
and what the coach said of it) and each game that ends, without slowing a click: the page is updated first
(:class:`~dragonkit.ui.recorder.Recorder`). The bots' moves are not written.

There, the app also plays *rooms*: a table two to six students share, each from their own page. The rooms'
controller (:class:`~dragonkit.ui.room_controller.RoomController`, :attr:`PlayApp.rooms`) opens and joins them, and
keeps the page's table up to date with the record, reading it away from the kernel's event loop; the app draws the
room's game as it draws its own, and sends its player's moves.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import uuid
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from .. import i18n, view
from ..bots import Bot, BotKind, bot_seed
from ..coach.views import Coach
from ..engine import Event, Game, IllegalActionError
from ..i18n import Gems, tr
from ..plots.game import gems_over_game, gems_over_game_text
from ..record.room_settings import RoomCoach
from ..rules import Message
from ..style import CSS
from ..teach import language_picker
from ..teach.notes import close_widgets, mark_view
from ..turn import Action
from .announce import announcement_html, display_page, is_shown, live_region
from .board import render_board
from .coach_panel import render_coach
from .controls import MessageLine, click_time, guarded, is_double_click, running_loop
from .figures import FigureView
from .panels import render_log, render_move, render_players, render_status
from .recorder import Recorder
from .room_controller import RoomController
from .rooms import render_review
from .setup import GameConfig, SeatConfig, SetupForm
from .shown import count_views
from .visitor import follow_the_visitor

if TYPE_CHECKING:
    from ..topics.room_table import RoomTable

__all__ = ["PlayApp"]


class PlayApp(MessageLine):
    """The play app's controller; displaying it shows :attr:`widget` (Voilà renders it too).

    Parameters
    ----------
    bot_delay : float
        Seconds between two bot moves when bots play by themselves.
    autoplay : bool
        Whether bots play by themselves (needs a running event loop, as in Jupyter
        and Voilà); otherwise the "Next bot move" button steps them.
    config : GameConfig, optional
        Start this game at once instead of showing the setup form.
    language_switch : bool
        Show the English/Italian buttons (:func:`dragonkit.teach.language_picker`) at the top right;
        a lesson that has its own switch leaves them out, like the hand trainer's.

    The app follows the kernel's view (:data:`dragonkit.view.settings`): on the projector it plays one step at a time
    (see the module's docstring), whatever ``autoplay`` says.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The whole app.
    game : Game or None
        The game being played.
    game_id : str
        The game's id in the class's record (32 hex digits; ``""`` before the first game).
    buttons : dict of str to ipywidgets.Button
        ``reveal``, ``hold``, ``take_over``, ``decline``, ``next``, ``new_game``.
    language : ipywidgets.ToggleButtons or None
        The language switch (:func:`dragonkit.teach.language_picker`); None without one.
    announce : ipywidgets.HTML
        The live region (:func:`dragonkit.ui.announce.live_region`): the sentences of the latest events,
        for screen readers.
    move : ipywidgets.HTML
        The latest move (:func:`~dragonkit.ui.panels.render_move`), shown on the projector only.
    show_coach : ipywidgets.ToggleButton
        Shows the coach: "Coach", which stays as the player sets it; on the projector "Show the coach", released
        again at every move.
    rooms : RoomController
        The rooms: their form, their lobby, the table this page plays at (:attr:`table`).

    Raises
    ------
    TypeError
        If ``language_switch`` is not a bool.
    """

    def __init__(
        self,
        bot_delay: float = 0.9,
        autoplay: bool = True,
        config: GameConfig | None = None,
        language_switch: bool = True,
    ):
        if not isinstance(language_switch, bool):
            raise TypeError(f"language_switch must be True or False, not {language_switch!r}")
        self.game: Game | None = None
        self.seats: tuple[SeatConfig, ...] = ()
        self.bots: list[Bot | None] = []
        self.bot_delay = bot_delay
        self._pending: asyncio.TimerHandle | None = None
        self._estimating: asyncio.TimerHandle | None = None  # the coach's estimate, made once the page shows the move
        self._last_click: tuple[tuple[str, Action] | None, float] = (None, 0.0)  # ((game, action), when)
        self._refocus = False  # the control pressed hid itself: focus the next one the player needs
        self._about_rooms = False  # the message shown is about a room's code or address (see _say)
        self._latest = (0, 0)  # the latest move's events, in the live region (and on the projector): events[start:stop]
        self._quiet = False  # set while the app releases the coach's button itself: not the player's change
        self.setup_form = SetupForm(on_start=self._start_from_form)
        self.status, self.board, self.players = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.event_log, self.coach, self.message = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.move = widgets.HTML()
        self._coach = Coach()  # this app's: what it solved and estimated, for the next decisions
        self._recorder = Recorder("play", self._coach)  # the humans' decisions and the games, to the class's record
        self.game_id = ""
        self._end_written = False
        self.rooms = RoomController(self)
        self.announce = live_region()
        # the gems over the game, an SVG drawn without matplotlib, with its text alternative and its numbers
        self.result_plot = FigureView("420px", layout=widgets.Layout(width="420px", display="none"))
        self.buttons = {
            "reveal": widgets.Button(icon="eye", button_style="primary"),
            "hold": widgets.Button(icon="hand-paper-o", button_style="warning"),
            "take_over": widgets.Button(icon="exchange", button_style="success"),
            "decline": widgets.Button(icon="times"),
            "next": widgets.Button(icon="step-forward"),
            "new_game": widgets.Button(icon="refresh"),
        }
        for name, action in (
            ("reveal", Action.REVEAL),
            ("hold", Action.HOLD),
            ("take_over", Action.TAKE_OVER),
            ("decline", Action.DECLINE),
        ):
            self.buttons[name].on_click(functools.partial(self._on_action, action))
            self.buttons[name].layout.width = "190px"
        self.buttons["take_over"].layout.width = "auto"  # "Take over for 123 gems" is long in some languages
        self.buttons["take_over"].layout.min_width = "190px"
        self.buttons["next"].on_click(lambda _b: self._on_next())
        self.buttons["next"].layout.width = "auto"  # "Prossima mossa del bot" is long
        self.buttons["new_game"].on_click(lambda _b: self._on_new_game())
        self.autoplay = widgets.Checkbox(value=autoplay, indent=False, layout=widgets.Layout(width="200px"))
        self.autoplay.observe(self._on_option, names="value")
        self.show_coach = widgets.ToggleButton(value=True, icon="graduation-cap", layout=widgets.Layout(width="130px"))
        self.show_coach.observe(self._on_option, names="value")
        self.language = language_picker() if language_switch else None
        # every row wraps and no column is wider than the page: at 200 % zoom or on a phone the
        # columns stack and the buttons go to the next line, never off the screen
        action_bar = widgets.HBox(
            [self.buttons[n] for n in ("reveal", "hold", "take_over", "decline", "next")] + [self.autoplay],
            layout=widgets.Layout(flex_flow="row wrap"),
        )
        # the players and the event log side by side under the board; on the projector the log goes to the foot of
        # the coach's column, where the latest move and the coach are (the board's column then fits the screen)
        self._people = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        left = widgets.VBox(
            [self.rooms.room_line, self.status, self.board, action_bar, self.message, self._people],
            layout=widgets.Layout(width="830px", max_width="100%"),
        )
        self._coach_column = widgets.VBox(layout=widgets.Layout(width="430px", max_width="100%"))
        self._coach_bar = widgets.HBox(
            [self.rooms.play_again, self.show_coach, self.buttons["new_game"], self.rooms.estimate_button],
            layout=widgets.Layout(flex_flow="row wrap"),
        )
        self.game_view = widgets.HBox([left, self._coach_column], layout=widgets.Layout(display="none"))
        self.game_view.add_class("dk-columns")  # side by side; one under the other on a narrow page
        top = []
        if self.language is not None:
            self.language.style.button_width = "64px"
            top = [
                widgets.HBox(
                    [self.language],
                    layout=widgets.Layout(width="1250px", max_width="100%", justify_content="flex-end"),
                )
            ]
        form = [self.setup_form] + ([self.rooms.form] if self.rooms.form is not None else [])
        self.widget = widgets.VBox(
            [widgets.HTML(CSS), *top, *form, self.rooms.lobby_view, self.game_view, self.announce]
        )
        self.widget.add_class("dk-app")
        count_views(self.widget)  # a room's readings wait for the browser to draw the page (ui/shown.py)
        self._show_view()
        i18n.settings.observe(self._on_language, names="language")
        view.settings.observe(self._on_view, names="projector")
        self._closed = False
        follow_the_visitor(then=self.rooms.find_my_room if self.rooms.form is not None else None)
        if config is not None:
            self.start(config)

    @property
    def table(self) -> RoomTable | None:
        """The room this page plays in, if any (:attr:`RoomController.table
        <dragonkit.ui.room_controller.RoomController.table>`)."""
        return self.rooms.table

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        """IPython's display hook: the page's script for screen readers, then the app (:func:`display_page`)."""
        display_page(self.widget)

    def close(self) -> None:
        """Stop the bots' and the coach's timers and the room's readings, stop following the language and the view (the
        app's, its form's and its language switch's observers go) and close every widget of the app; closing twice is
        harmless."""
        if self._closed:
            return
        self._closed = True
        self._cancel_pending()
        self._cancel_estimate()
        self.rooms.close()
        self._recorder.close()
        i18n.settings.unobserve(self._on_language, names="language")
        view.settings.unobserve(self._on_view, names="projector")
        close_widgets(self.widget)

    # -- starting ----------------------------------------------------------------------

    @guarded
    def _start_from_form(self) -> None:
        if self.game is not None:  # the form is hidden during a game: a forged click
            raise IllegalActionError(Message("a game is running; press New game first"))
        self.start(self.setup_form.config())
        self._pressed(None)  # the form, and its Start button, are gone

    @guarded
    def _on_new_game(self) -> None:
        if self.table is not None:
            self.rooms.leave()
            return
        self.show_setup()
        self.setup_form.start.focus()  # the game, and its New game button, are gone: Enter starts another

    @guarded
    def _on_option(self, _change: object = None) -> None:
        if self._quiet:
            return
        self._refocus = False  # the player is on this option now: the focus stays with them
        self._after_change()

    def start(self, config: GameConfig) -> Game:
        """Start a game from ``config``; returns it.

        Raises
        ------
        ValueError
            For an invalid configuration (see :class:`~dragonkit.engine.Game`).
        """
        seed = config.seed if config.seed is not None else secrets.randbits(63)
        game = Game([s.name for s in config.seats], config.rules, seed=seed)
        self.rooms.forget()
        self.seats = config.seats
        self.bots = [s.make_bot(bot_seed(seed, seat)) for seat, s in enumerate(config.seats)]
        self.game = game
        self.game_id, self._end_written = uuid.uuid4().hex, False
        self._latest = (0, 0)
        self._show_form(False)
        self._say("")
        self._moved()
        self.game_view.layout.display = None  # drawn first, shown after
        return game

    def show_setup(self) -> None:
        """Back to the setup form (the current game is dropped)."""
        self._cancel_pending()
        self._cancel_estimate()
        self.game = None
        self._refocus = False
        self._say("")
        self.announce.value = announcement_html(())
        self.game_view.layout.display = "none"
        self.rooms.lobby_view.layout.display = "none"
        self._show_form(True)

    def _sit_at_table(self) -> None:
        """The page plays at the rooms' table (:attr:`table`) from now on: its game, seen from its start."""
        self._cancel_pending()
        self._cancel_estimate()
        self._follow_table()
        self._refocus = True  # a page opened again on the player's turn: the focus on their first button
        table = self.table
        assert table is not None
        self.game_id, self._end_written, self._latest = table.room.game_id, False, (0, 0)
        self._show_form(False)
        self._say("")

    def _follow_table(self) -> None:
        """Take the room's game and seats as the table read them (a refused move re-reads the whole game)."""
        table = self.table
        if table is None:
            return
        self.game = table.game
        self.seats = tuple(SeatConfig(s.name, s.kind) for s in table.room.seats)
        self.bots = [None] * len(self.seats)  # the room's bots move from the record, not from this app

    def _show_form(self, shown: bool) -> None:
        """Show or hide the setup form (and, under it, the rooms' form)."""
        for form in (self.setup_form, self.rooms.form):
            if form is not None:
                form.layout.display = None if shown else "none"

    # -- acting ------------------------------------------------------------------------

    @property
    def kinds(self) -> tuple[BotKind, ...]:
        """Who plays each seat: :attr:`BotKind.HUMAN <dragonkit.bots.BotKind.HUMAN>` or the bot's kind."""
        return tuple(s.kind for s in self.seats)

    @guarded
    def _on_action(self, action: Action, _button: object = None) -> None:
        key = (self.game_id, action)  # a click in a new game is never the second half of one in the old game
        when = click_time()
        if is_double_click(self._last_click, key, when):
            return  # the second half of a double click on the same button
        self.act(action)
        self._last_click = (key, when)
        self._pressed(self.buttons[action.value])

    def act(self, action: Action | str) -> None:
        """A human's action for the seat that is to move.

        Raises
        ------
        IllegalActionError
            If there is no game, the game is over, a bot is to move, or the
            action is not legal now; nothing changes.
        """
        game = self._require_game()
        seat = game.to_move
        if seat is not None and self.bots[seat] is not None:
            raise IllegalActionError(Message("it is {name}'s move (a bot), not a human's", name=game.players[seat]))
        before, seconds = game.state, self._recorder.seconds()
        if self.table is None:
            card = game.apply(action, by=seat)
        else:  # a room: the page's own seat only, and the record's say on the order of the moves
            try:
                card = self.table.act(action)
            finally:
                self._follow_table()
            game = self.table.game
        self._say("")
        self._moved()  # the page first; then the class's record
        self._recorder.decided(before, game.players, game.actions[-1], seconds, self.game_id, card)
        self._write_end()

    @guarded
    def _on_next(self) -> None:
        game = self._require_game()
        seat = game.to_move
        if seat is None:  # the game is over
            raise IllegalActionError(Message("the game is over; press New game to play again"))
        if self.bots[seat] is None:
            raise IllegalActionError(Message("it is {name}'s move, not a bot's", name=game.players[seat]))
        self.step()
        self._pressed(self.buttons["next"])

    @guarded
    def step(self) -> None:
        """Let the bot that is to move play one action (no-op when a human is to move)."""
        self._cancel_pending()
        game = self.game
        seat = None if game is None else game.to_move  # None too once the game is over
        bot = None if seat is None else self.bots[seat]
        if game is None or bot is None:
            return
        try:
            action = bot.choose(game)
        except Exception:
            self.autoplay.value = False
            raise
        game.apply(action, by=seat)
        self._moved()
        self._write_end()

    def _write_end(self) -> None:
        """Once the game is over, its row goes to the class's record (once)."""
        game = self.game
        if game is not None and game.is_over and not self._end_written:
            self._end_written = True
            kinds = [kind.value for kind in self.kinds]
            self._recorder.game_over(self.game_id, game.state, kinds, shared=self.table is not None)

    def _pressed(self, control: widgets.DOMWidget | None) -> None:
        """After a click on ``control`` (None: one that is gone with the setup form): if the keyboard
        cannot reach it any more, the focus moves on to the next control the player needs."""
        if control is None or not is_shown(control):
            self._refocus = True
            self._move_focus()

    def _move_focus(self) -> None:
        """Focus the first of the player's buttons shown (once the game is over, Play again at a room's table, else
        New game), if the control last pressed is gone; while bots move there is none yet, and the focus waits."""
        if not self._refocus or self.game is None:
            return
        if self.game.is_over:
            controls = [self.rooms.play_again, self.buttons["new_game"]]  # (Play again: in a room only)
        else:
            controls = [self.buttons[n] for n in ("reveal", "hold", "take_over", "decline", "next")]
        if self.table is not None and not self.game.is_over and not self.table.my_turn:
            return  # another player's move: the focus waits for this player's
        target = next((control for control in controls if is_shown(control)), None)
        if target is not None:
            self._refocus = False
            target.focus()

    def _require_game(self) -> Game:
        if self.game is None:
            raise IllegalActionError(Message("no game is running; start one first"))
        return self.game

    # -- redrawing ---------------------------------------------------------------------

    def _label(self) -> None:
        """Write the buttons' and options' words in the current language (the takeover button,
        which shows the bounty, is written by :meth:`_refresh`)."""
        for name, label in (
            ("reveal", tr("Reveal")),
            ("hold", tr("Hold")),
            ("decline", tr("Decline")),
            ("next", tr("Next bot move")),
            ("new_game", tr("New game") if self.table is None else tr("Leave the room")),
        ):
            self.buttons[name].description = label
        self.buttons["new_game"].icon = "refresh" if self.table is None else "sign-out"  # (Leave the room's)
        self.rooms.label()
        self.autoplay.description = tr("bots play by themselves")
        self.show_coach.description = tr("Show the coach") if view.settings.projector else tr("Coach")
        self.show_coach.tooltip = tr("show or hide the coach")

    @guarded
    def _on_language(self, _change: object = None) -> None:
        self._refocus = False  # the player is on the language switch now
        self._label()
        if self.game is None:  # the live region carries the page's language (with a game, _refresh writes it)
            self.announce.value = announcement_html(())
        self._refresh()
        self._show_message()

    # -- the view: a screen, or the projector ---------------------------------------------

    def _show_view(self) -> None:
        """Draw the app for the kernel's view (:func:`~dragonkit.teach.notes.mark_view`): on the projector, the
        latest move beside the board, the coach behind "Show the coach", the event log under the coach, no "bots play
        by themselves"."""
        projector = view.settings.projector
        mark_view(self.widget)
        coach = (self._coach_bar, self.coach, self.result_plot)
        self._people.children = (self.players,) if projector else (self.players, self.event_log)
        self._coach_column.children = (self.move, *coach, self.event_log) if projector else coach
        self.autoplay.layout.display = "none" if projector else None
        self.show_coach.layout.width = "auto" if projector else "130px"  # "Mostra l'allenatore" is long
        self._hide_coach()
        self._label()

    @guarded
    def _on_view(self, _change: object = None) -> None:
        self._show_view()
        self._after_change()

    def _hide_coach(self) -> None:
        """On the projector, release "Show the coach": the coach waits for the teacher's click (elsewhere it stays as
        the player set it)."""
        if view.settings.projector and self.show_coach.value:
            self._quiet = True
            try:
                self.show_coach.value = False
            finally:
                self._quiet = False

    def _moved(self) -> None:
        """The game moved on (a move, a new game): on the projector the coach hides until the teacher shows it for
        the new situation; then the views are drawn again and the next bot's move is planned."""
        self._hide_coach()
        self._after_change()

    def _after_change(self) -> None:
        self._schedule()  # Next, where a bot's move waits for it, with the other buttons: before the log (_refresh)
        self._refresh()
        self._move_focus()

    def _refresh(self) -> None:
        game = self.game
        if game is None:
            return
        kinds = self.kinds
        self._cancel_estimate()
        seat = game.to_move
        table = self.table
        human_to_move = seat is not None and self.bots[seat] is None if table is None else table.my_turn
        # the coach's Monte Carlo estimate of the chance of winning (more than two players, kali, drago-rosso)
        # takes up to 2 s: it is made for a human's choices only, once the page shows the move
        loop = running_loop()
        coach_setting = RoomCoach.ON if table is None else table.room.coach
        shown = self.show_coach.value and not game.is_over and coach_setting is RoomCoach.ON
        self.show_coach.layout.display = None if coach_setting is RoomCoach.ON else "none"
        self.autoplay.layout.display = "none" if table is not None or view.settings.projector else None
        self.rooms.draw_room_line()
        needed = shown and human_to_move and self._coach.estimate_needed(game)
        asked = table is None or self.rooms.asked == len(game.actions)  # in a room, the player's own request
        waiting = needed and loop is not None and asked
        self.rooms.estimate_button.layout.display = None if needed and not asked else "none"
        # compute everything first (the coach may take a moment), then update the page at once
        if shown and table is not None and not human_to_move:  # in a room the coach speaks of this player's moves
            coach = f'<div class="dk-coach dk-note">{escape(tr("The coach speaks when it is your move."))}</div>'
        else:
            estimate = human_to_move and asked
            coach = (
                render_coach(self._coach, game, estimate=estimate, waiting=waiting, on_request=table is not None)
                if shown
                else ""
            )
        # the buttons of the next decision first, then what reports the move (the board, the log, the announcement):
        # the browser applies the updates in order, and a page whose log shows the move never offers the buttons of
        # the decision before it (a click on them, taken for the second half of a double click, would be lost)
        legal = {a.value for a in game.legal_actions()} if human_to_move else set()
        self.buttons["take_over"].description = tr("Take over for {bounty}", bounty=Gems(game.bounty))
        for name in ("reveal", "hold", "take_over", "decline"):
            self.buttons[name].layout.display = None if name in legal else "none"
        again = game.is_over and table is not None and table.held
        self.rooms.play_again.layout.display = None if again else "none"
        self.status.value = render_status(game, kinds)
        self.board.value = render_board(game)
        self.players.value = render_players(game, kinds)
        self.event_log.value = render_log(game)
        latest = self._latest_move(game)
        self.announce.value = announcement_html(e.describe() for e in latest)
        self.move.value = render_move(latest) if view.settings.projector else ""
        if human_to_move and self._recorder.recording:  # the clock of the human's decision starts when it is shown
            self._recorder.shown((self.game_id, len(game.actions)))
        if game.is_over:
            self.coach.value = render_status(game, kinds)
            if table is not None and coach_setting is not RoomCoach.OFF:  # the coach on this player's own decisions
                self.coach.value += render_review(self.rooms.review())
            self.result_plot.show(gems_over_game(game), gems_over_game_text(game))
            self.result_plot.layout.display = None
        else:
            self.result_plot.layout.display = "none"
            self.coach.value = coach
        if waiting and loop is not None:
            self._estimating = loop.call_later(0.05, self._finish_estimate, game, len(game.actions))

    @guarded
    def _finish_estimate(self, game: Game, moves: int) -> None:
        """Make the coach's estimate for the situation shown, and show the coach with it (if the situation,
        the language aside, is still the one shown)."""
        self._estimating = None
        if self.game is game and len(game.actions) == moves and self.show_coach.value and not game.is_over:
            self.coach.value = render_coach(self._coach, game, estimate=True)

    def _cancel_estimate(self) -> None:
        if self._estimating is not None:
            self._estimating.cancel()
            self._estimating = None

    def _latest_move(self, game: Game) -> tuple[Event, ...]:
        """The events of the latest move: those since the page was last drawn after a move (the same ones again when
        it is drawn again, in a new language or for another view)."""
        start, stop = self._latest
        if len(game.events) > stop:
            start, stop = stop, len(game.events)
            self._latest = (start, stop)
        return game.events[start:stop]

    def _say(self, text: Message | str, level: str = "info", rooms: bool = False) -> None:
        """Show ``text`` (see :meth:`MessageLine._say`); ``rooms``: it is about a room's code or address, and goes
        under the rooms' form while the setup shows."""
        self._about_rooms = rooms
        super()._say(text, level)

    def _put_message(self, html: str) -> None:
        """Messages go where the user is looking: under the board, or under the setup form (the rooms' form for
        what is about a room)."""
        form = self.rooms.form
        rooms = self._about_rooms and self.game is None and form is not None
        self.message.value = html if self.game is not None else ""
        self.setup_form.message.value = html if self.game is None and not rooms else ""
        if form is not None:
            form.message.value = html if rooms else ""

    # -- bots playing by themselves ----------------------------------------------------

    def _cancel_pending(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def _schedule(self) -> None:
        """Plan the next bot move; where it cannot be planned, offer the Next button."""
        self._cancel_pending()
        game = self.game
        seat = None if game is None else game.to_move  # None too once the game is over
        bot_to_move = seat is not None and self.bots[seat] is not None and self.table is None  # a room's: its own
        if bot_to_move and self.autoplay.value and not view.settings.projector:  # the projector waits for Next
            loop = running_loop()  # None in a plain script or test: the Next button steps
            if loop is not None:
                self._pending = loop.call_later(self.bot_delay, self.step)
        self.buttons["next"].layout.display = None if bot_to_move and self._pending is None else "none"
