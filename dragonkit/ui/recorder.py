"""An app's decisions in the class's record, written without slowing a click.

The play app and the hand trainer each own a :class:`Recorder`: the app's visit to the record
(:func:`dragonkit.record.visit`), the clock of the decision on the page (from the moment the page showed it to the
click), and the rows of the decisions and games. A decision's row carries what the app's own coach says of the
situation before the move (:meth:`Coach.views_of <dragonkit.coach.views.Coach.views_of>`, never a new Monte Carlo
estimate; :func:`dragonkit.coach.rows.decision_row`): that is worked out after the page's update, on the kernel's event
loop once the click's callback has returned (``loop.call_soon``), and at once where no loop runs (a script, a test).
The rows then go to the record's queue (:class:`~dragonkit.record.writer.Writer`): nothing waits for the database.

In a kernel without a record a recorder does nothing: no thread, no clock, no views.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .. import i18n
from ..coach.rows import decision_row
from ..coach.views import Coach
from ..game_state import GameState
from ..record import DecisionRow, GameRow, visit
from ..turn import Action
from .controls import running_loop

__all__ = ["Recorder"]

log = logging.getLogger("dragonkit.record")


class Recorder:
    """What an app writes to the class's record: its visit, its learners' decisions, its games that end.

    Parameters
    ----------
    app : {"play", "trainer"}
        The app: the visit's page, and every decision's ``app``.
    coach : Coach
        The app's coach: what it solved and estimated for the page is what the record says (no estimate is made for
        the record).

    Attributes
    ----------
    visit : dragonkit.record.Visit
        The app's visit, in the language of the moment it opened; kept seen while the kernel's event loop runs.
    decisions : list of DecisionRow
        The rows written so far, in order (a room's review after the game reads its own).

    Raises
    ------
    ValueError
        If ``$DRAGONKIT_RECORD`` is not a database URL (:func:`dragonkit.record.visit`).
    """

    def __init__(self, app: str, coach: Coach) -> None:
        self.app = app
        self.visit = visit(app, i18n.get_language())
        self._coach = coach
        self._shown: tuple[Hashable, float] | None = None  # the decision on the page, and when it was shown
        self.decisions: list[DecisionRow] = []
        if self.visit.recording and running_loop() is not None:
            self.visit.keep_alive()

    @property
    def recording(self) -> bool:
        """Whether anything is written (the kernel has a record)."""
        return self.visit.recording

    def shown(self, key: Hashable) -> None:
        """A learner's decision is on the page now: its clock starts, unless ``key`` (what tells the decision apart)
        is the decision shown already (a redraw, in another language, say, keeps the clock)."""
        if self.visit.recording and (self._shown is None or self._shown[0] != key):
            self._shown = (key, time.monotonic())

    def seconds(self) -> float:
        """Seconds since the decision on the page was shown (0 before any, and without a record): read at the
        click."""
        if self._shown is None:
            return 0.0
        return time.monotonic() - self._shown[1]

    def decided(
        self,
        state: GameState,
        players: Sequence[str],
        action: Action,
        seconds: float,
        game_id: str | None = None,
        card: Any = None,
    ) -> None:
        """A learner played ``action`` in ``state``: its row, with the coach's views of ``state``, is written after
        the page's update (see the module's notes). Call it once the page shows the move.

        Parameters
        ----------
        state : GameState
            The situation before the action, as the learner saw it.
        players : sequence of str
            The players' names, by seat.
        action : Action
        seconds : float
            :meth:`seconds`, read at the click.
        game_id : str, optional
            The play app's game.
        card : Card, optional
            The card a reveal turned up.
        """
        if self.visit.recording:
            self._later(self._write_decision, state, tuple(players), action, seconds, game_id, card)

    def game_over(self, game_id: str, state: GameState, seats: Sequence[str], shared: bool = False) -> None:
        """The game ``game_id`` ended in ``state``, played by ``seats`` (``"human"`` or a bot's kind, by seat): its
        row is written after the decisions before it; a ``shared`` game (a room's: every page of the table writes it)
        is stored once, its row's ``event_id`` being the game's id."""
        if self.visit.recording:
            once = game_id if shared else None
            self._later(lambda: self.visit.game(GameRow.of(game_id, state, seats), event_id=once))

    def close(self) -> None:
        """The app is closed: its visit's heartbeat stops (the rows on their way are still written)."""
        self.visit.end()

    def _write_decision(
        self, state: GameState, players: tuple[str, ...], action: Action, seconds: float, game_id: str | None, card: Any
    ) -> None:
        views = self._coach.views_of(state, players)
        row = decision_row(views, state, action, app=self.app, seconds=seconds, game_id=game_id, card=card)
        self.decisions.append(row)
        self.visit.decision(row)

    def _later(self, write: Callable[..., None], *args: Any) -> None:
        """``write(*args)`` once the click's callback has returned (on the kernel's event loop), or now without a
        loop; an error is logged (the record never breaks a page)."""
        loop = running_loop()
        if loop is None:
            _logged(write, *args)
        else:
            loop.call_soon(_logged, write, *args)


def _logged(write: Callable[..., None], *args: Any) -> None:
    """``write(*args)``, an error logged instead of raised."""
    try:
        write(*args)
    except Exception:  # a row the record cannot take must not break the page
        log.exception("dragonkit: a row of the class's record could not be made")
