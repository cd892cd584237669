"""The play app: a setup form, then the board, the action buttons, the players,
the event log and the coach; at the end, the winner and a plot of the gems.

The app is a controller: a click becomes an engine action, checked by the
engine's own legality rules (a disabled or hidden button is a courtesy, not a
guard), and every view is redrawn from the game's public state.  Errors in a
callback become a message in the page; the traceback goes to the kernel's log.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from html import escape

import ipywidgets as widgets

from ..engine import Action, Game, IllegalActionError
from .board import render_board
from .coach import render_coach
from .panels import render_log, render_players, render_status
from .setup import GameConfig, SeatConfig, SetupForm
from .style import CSS

__all__ = ["PlayApp"]

log = logging.getLogger("dragonkit.ui")

#: Clicks that arrive this soon after the previous one was handled are taken as
#: the second half of a double click and ignored (seconds).
DOUBLE_CLICK_SECONDS = 0.35


def _guarded(method):
    """Run a callback so that any error ends up as a message, never as a traceback."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except IllegalActionError as exc:
            self._say(f"Not allowed: {exc}.", "warning")
        except ValueError as exc:
            self._say(f"{exc}.", "warning")
        except Exception as exc:  # a bug must not freeze the page or show a traceback
            log.exception("error in the play app")
            self._say(f"Something went wrong ({type(exc).__name__}). The game is unchanged: try again, "
                      "or start a new game.", "danger")
        return None

    return wrapper


class PlayApp:
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

    Attributes
    ----------
    widget : ipywidgets.VBox
        The whole app.
    game : Game or None
        The game being played.
    buttons : dict of str to ipywidgets.Button
        ``reveal``, ``hold``, ``take_over``, ``decline``, ``next``, ``new_game``.
    """

    def __init__(self, bot_delay: float = 0.9, autoplay: bool = True, config: GameConfig | None = None):
        self.game: Game | None = None
        self.seats: tuple[SeatConfig, ...] = ()
        self.bots: list = []
        self.bot_delay = bot_delay
        self._pending = None
        self._last_click: tuple[Action | None, float] = (None, 0.0)
        self.setup_form = SetupForm(on_start=self._start_from_form)
        self.status, self.board, self.players = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.event_log, self.coach, self.message = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.result_plot = widgets.Image(format="png", layout=widgets.Layout(width="420px", display="none"))
        self.buttons = {
            "reveal": widgets.Button(description="Reveal", icon="eye", button_style="primary"),
            "hold": widgets.Button(description="Hold", icon="hand-paper-o", button_style="warning"),
            "take_over": widgets.Button(description="Take over", icon="exchange", button_style="success"),
            "decline": widgets.Button(description="Decline", icon="times"),
            "next": widgets.Button(description="Next bot move", icon="step-forward"),
            "new_game": widgets.Button(description="New game", icon="refresh"),
        }
        for name, action in (("reveal", Action.REVEAL), ("hold", Action.HOLD), ("take_over", Action.TAKE_OVER),
                             ("decline", Action.DECLINE)):
            self.buttons[name].on_click(functools.partial(self._on_action, action))
            self.buttons[name].layout.width = "190px"
        self.buttons["next"].on_click(lambda _b: self._on_next())
        self.buttons["new_game"].on_click(lambda _b: self.show_setup())
        self.autoplay = widgets.Checkbox(value=autoplay, description="bots play by themselves", indent=False,
                                         layout=widgets.Layout(width="200px"))
        self.autoplay.observe(self._on_option, names="value")
        self.show_coach = widgets.ToggleButton(value=True, description="Coach", icon="graduation-cap",
                                               tooltip="show or hide the coach", layout=widgets.Layout(width="110px"))
        self.show_coach.observe(self._on_option, names="value")
        action_bar = widgets.HBox([self.buttons[n] for n in ("reveal", "hold", "take_over", "decline", "next")]
                                  + [self.autoplay])
        left = widgets.VBox([self.status, self.board, action_bar, self.message,
                             widgets.HBox([self.players, self.event_log])], layout=widgets.Layout(width="830px"))
        right = widgets.VBox([widgets.HBox([self.show_coach, self.buttons["new_game"]]), self.coach,
                              self.result_plot], layout=widgets.Layout(width="430px"))
        self.game_view = widgets.HBox([left, right], layout=widgets.Layout(display="none"))
        self.widget = widgets.VBox([widgets.HTML(CSS), self.setup_form, self.game_view])
        self.widget.add_class("dk-app")
        if config is not None:
            self.start(config)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    # -- starting ----------------------------------------------------------------------

    @_guarded
    def _start_from_form(self) -> None:
        if self.game is not None:  # the form is hidden during a game: a forged click
            raise IllegalActionError("a game is running; press New game first")
        self.start(self.setup_form.config())

    @_guarded
    def _on_option(self, _change=None) -> None:
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
        self.seats = config.seats
        self.bots = [s.make_bot(seed + seat) for seat, s in enumerate(config.seats)]
        self.game = game
        self.setup_form.layout.display = "none"
        self.game_view.layout.display = None
        self._say("")
        self._after_change()
        return game

    def show_setup(self) -> None:
        """Back to the setup form (the current game is dropped)."""
        self._cancel_pending()
        self.game = None
        self._say("")
        self.game_view.layout.display = "none"
        self.setup_form.layout.display = None

    # -- acting ------------------------------------------------------------------------

    @property
    def kinds(self) -> tuple[str, ...]:
        """The label of each seat: ``"human"`` or the bot's kind."""
        return tuple(s.kind if s.is_human else s.kind.split(" (")[0] for s in self.seats)

    @_guarded
    def _on_action(self, action: Action, _button=None) -> None:
        last_action, last_time = self._last_click
        if action is last_action and time.monotonic() - last_time < DOUBLE_CLICK_SECONDS:
            return  # the second half of a double click on the same button
        self.act(action)
        self._last_click = (action, time.monotonic())

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
            raise IllegalActionError(f"it is {game.players[seat]}'s move (a bot), not a human's")
        game.apply(action, by=seat)
        self._say("")
        self._after_change()

    @_guarded
    def _on_next(self) -> None:
        game = self._require_game()
        if game.is_over:
            raise IllegalActionError("the game is over; press New game to play again")
        if self.bots[game.to_move] is None:
            raise IllegalActionError(f"it is {game.players[game.to_move]}'s move, not a bot's")
        self.step()

    @_guarded
    def step(self) -> None:
        """Let the bot that is to move play one action (no-op when a human is to move)."""
        self._cancel_pending()
        game = self.game
        if game is None or game.is_over or self.bots[game.to_move] is None:
            return
        seat = game.to_move
        try:
            action = self.bots[seat].choose(game)
        except Exception:
            self.autoplay.value = False
            raise
        game.apply(action, by=seat)
        self._after_change()

    def _require_game(self) -> Game:
        if self.game is None:
            raise IllegalActionError("no game is running; start one first")
        return self.game

    # -- redrawing ---------------------------------------------------------------------

    def _after_change(self) -> None:
        self._refresh()
        self._schedule()

    def _refresh(self) -> None:
        game = self.game
        if game is None:
            return
        kinds = self.kinds
        # compute everything first (the coach may take a moment), then update the page at once
        coach = "" if game.is_over or not self.show_coach.value else render_coach(game)
        self.status.value = render_status(game, kinds)
        self.board.value = render_board(game)
        self.players.value = render_players(game, kinds)
        self.event_log.value = render_log(game)
        human_to_move = game.to_move is not None and self.bots[game.to_move] is None
        legal = {a.value for a in game.legal_actions()} if human_to_move else set()
        for name in ("reveal", "hold", "take_over", "decline"):
            self.buttons[name].layout.display = None if name in legal else "none"
        self.buttons["take_over"].description = f"Take over for {game.bounty} gems"
        if game.is_over:
            self.coach.value = render_status(game, kinds)
            from ..plots import figure_png, gems_over_game  # matplotlib loads only when a game ends

            self.result_plot.value = figure_png(gems_over_game(game))
            self.result_plot.layout.display = None
        else:
            self.result_plot.layout.display = "none"
            self.coach.value = coach

    def _say(self, text: str, level: str = "info") -> None:
        """Show a message where the user is looking: under the form, or under the board."""
        html = f'<div class="dk-message dk-{level}">{escape(text, quote=False)}</div>' if text else ""
        self.message.value = html if self.game is not None else ""
        self.setup_form.message.value = html if self.game is None else ""

    # -- bots playing by themselves ----------------------------------------------------

    def _cancel_pending(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def _schedule(self) -> None:
        """Plan the next bot move; where it cannot be planned, offer the Next button."""
        self._cancel_pending()
        game = self.game
        bot_to_move = game is not None and not game.is_over and self.bots[game.to_move] is not None
        if bot_to_move and self.autoplay.value:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no event loop (a plain script or test): the Next button steps
                loop = None
            if loop is not None:
                self._pending = loop.call_later(self.bot_delay, self.step)
        self.buttons["next"].layout.display = None if bot_to_move and self._pending is None else "none"
