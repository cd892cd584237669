"""The rows a page writes to the class's record, as plain values (gems as exact ``"p/q"`` text): a decision, an
exercise attempt, a game that ended.

The apps build them from the game's public state (:meth:`DecisionRow.of`) and from what their coach said; nothing here
sees the order of the deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..game_state import GameState

__all__ = ["AttemptRow", "DecisionRow", "GameRow", "card_name", "situation_fields"]


def situation_fields(state: GameState) -> dict[str, Any]:
    """The public situation of ``state`` as JSON-ready values: every player's gems, the treasure, the cards left by
    kind (``{"1": 12, …, "stop": 5, "danger": 4}``), the stage, the turn's owner and revealer, the offer's queue, the
    knight's position and the pot."""
    deck = state.deck
    return {
        "gems": list(state.gems),
        "treasure": state.treasure,
        "deck": {**{str(steps): count for steps, count in deck.footprints}, "stop": deck.stops, "danger": deck.dangers},
        "stage": state.stage,
        "owner": state.owner,
        "active": state.active,
        "offer_queue": list(state.offer_queue),
        "position": state.position,
        "pot": state.pot,
    }


def card_name(card: Any) -> str:
    """A card as the record names it: a footprint by its steps (``"3"``), else ``"stop"`` or ``"danger"``."""
    if isinstance(card, str):
        return card
    steps = getattr(card, "steps", None)
    if steps:
        return str(steps)
    kind = getattr(card, "kind", card)
    return str(getattr(kind, "value", kind))


def _names(actions: Iterable[Any]) -> list[str]:
    return sorted(str(getattr(a, "value", a)) for a in actions)


@dataclass(frozen=True)
class DecisionRow:
    """A decision: see :class:`dragonkit.record.schema.Decision` for each field's meaning.

    Build it with :meth:`of`.
    """

    app: str
    game_id: str | None
    edition: str
    players: int
    stage: int
    position: int
    pot: int
    cards_left: int
    phase: str
    situation: dict[str, Any]
    action: str
    card: str | None
    seconds: float
    gems: dict[str, str]
    win: dict[str, float] | None
    win_source: str | None
    best_gems: list[str]
    best_win: list[str]
    verdict: str
    gems_given_up: float

    @classmethod
    def of(
        cls,
        state: GameState,
        action: Any,
        *,
        app: str,
        seconds: float,
        gems: Mapping[Any, Fraction],
        win: Mapping[Any, float] | None = None,
        win_source: str | None = None,
        best_win: Iterable[Any] = (),
        verdict: str = "none",
        game_id: str | None = None,
        card: Any = None,
    ) -> DecisionRow:
        """The decision to play ``action`` in the public situation ``state``.

        Parameters
        ----------
        state : GameState
            The situation the student saw (before the action).
        action : Action or str
        app : str
            ``"play"`` or ``"trainer"``.
        seconds : float
            From the situation shown to the click (seconds).
        gems : mapping of Action to Fraction
            Each legal action's expected gems for the turn (the coach's first view, gems).
        win : mapping of Action to float, optional
            Each action's chance of winning the game after it (the coach's second view), where it had one.
        win_source : str, optional
            Where those chances came from: a value of :class:`dragonkit.analysis.win.model.WinModel` or of
            :class:`dragonkit.coach.views.Source`.
        best_win : iterable of Action
            The options the second view marks best.
        verdict : str
            What the two views said together (:class:`dragonkit.coach.views.Verdict`).
        game_id : str, optional
            The game's id in the record (the play app's games), None for the trainer's hands.
        card : Card or str, optional
            The card a reveal turned up (public once revealed): a footprint's steps (``"3"``), ``"stop"`` or
            ``"danger"``; None for another action, or where it is not known.

        Raises
        ------
        ValueError
            If ``action`` is not one of ``gems``' actions (not legal in ``state``), or ``seconds`` is negative.
        """
        name = str(getattr(action, "value", action))
        values = {str(getattr(a, "value", a)): Fraction(v) for a, v in gems.items()}
        if name not in values:
            raise ValueError(f"{name!r} is not an option of this decision ({', '.join(values)})")
        if seconds < 0:
            raise ValueError(f"seconds must be >= 0, not {seconds}")
        best = max(values.values())
        return cls(
            app=app,
            game_id=game_id,
            edition=state.rules.name,
            players=state.n_players,
            stage=state.stage,
            position=state.position,
            pot=state.pot,
            cards_left=state.deck.total,
            phase=str(state.phase.value),
            situation=situation_fields(state),
            action=name,
            card=None if card is None else card_name(card),
            seconds=round(float(seconds), 3),
            gems={a: str(v) for a, v in values.items()},
            win=None if not win else {str(getattr(a, "value", a)): float(p) for a, p in win.items()},
            win_source=win_source,
            best_gems=sorted(a for a, v in values.items() if v == best),
            best_win=_names(best_win),
            verdict=verdict,
            gems_given_up=float(best - values[name]),
        )


@dataclass(frozen=True)
class AttemptRow:
    """An exercise attempt: see :class:`dragonkit.record.schema.Attempt`."""

    lesson: str
    exercise: str
    answer: str
    correct: bool
    hints: int = 0
    language: str = ""


@dataclass(frozen=True)
class GameRow:
    """A game that ended: see :class:`dragonkit.record.schema.GamePlayed`.

    Attributes
    ----------
    seats : list of str
        ``"human"`` or the bot's kind, by seat.
    """

    game_id: str
    edition: str
    seats: list[str]
    gems: list[int]
    winners: list[int]
    ending: str

    @classmethod
    def of(cls, game_id: str, state: GameState, seats: Sequence[str]) -> GameRow:
        """The game that ended in ``state``, played by ``seats`` (``"human"`` or a bot's kind, by seat).

        Raises
        ------
        ValueError
            If the game is not over, or ``seats`` does not give one entry a player.
        """
        if not state.is_terminal():
            raise ValueError("the game is not over")
        if len(seats) != state.n_players:
            raise ValueError(f"{len(seats)} seats for {state.n_players} players")
        ending = state.ending
        return cls(
            game_id=game_id,
            edition=state.rules.name,
            seats=list(seats),
            gems=list(state.gems),
            winners=list(state.winners),
            ending=str(getattr(ending, "value", ending)),
        )
