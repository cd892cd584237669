"""What the coach said of a decision, as a row of the class's record (:class:`~dragonkit.record.rows.DecisionRow`).

The play app and the hand trainer write their learners' decisions through :func:`decision_row`: the public situation,
the action, and the coach's two views of it (:class:`~dragonkit.coach.views.TwoViews`) — each option's expected gems,
exact, and its chance of winning where the coach had one, the best options of the second view and the verdict.
"""

from __future__ import annotations

from ..game_state import GameState
from ..record.rows import DecisionRow
from ..rules import Card
from ..turn import Action
from .views import TwoViews

__all__ = ["decision_row"]


def decision_row(
    views: TwoViews,
    state: GameState,
    action: Action | str,
    *,
    app: str,
    seconds: float,
    game_id: str | None = None,
    card: Card | str | None = None,
) -> DecisionRow:
    """The decision to play ``action`` in ``state``, with what the coach's ``views`` said of it.

    Parameters
    ----------
    views : TwoViews
        The coach's two views of ``state`` (:meth:`Coach.views_of <dragonkit.coach.views.Coach.views_of>`).
    state : GameState
        The public situation the learner saw, before the action.
    action : Action or str
    app : str
        ``"play"`` or ``"trainer"``.
    seconds : float
        From the situation shown to the click (seconds, ≥ 0).
    game_id : str, optional
        The game's id in the record (the play app's games).
    card : Card or str, optional
        The card a reveal turned up, or its name in the record (:func:`~dragonkit.record.rows.card_name`); None
        for another action, or where it is not known.

    Returns
    -------
    DecisionRow

    Raises
    ------
    ValueError
        If ``action`` is not one of the options of ``views``, ``seconds`` is negative, or ``views`` is not of
        ``state``'s player to move.
    """
    if views.mover != state.current_player():
        raise ValueError(f"the views are seat {views.mover}'s, the decision seat {state.current_player()}'s")
    return DecisionRow.of(
        state,
        action,
        app=app,
        seconds=seconds,
        gems={o.action: o.gems for o in views.options},
        win={o.action: o.win for o in views.options if o.win is not None},
        win_source=None if views.source is None else views.source.value,
        best_win=views.best_win,
        verdict=views.verdict.value,
        game_id=game_id,
        card=card,
    )
