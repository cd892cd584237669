"""Why the coach's two views disagree, read from the game's public state.

Where the expected gems prefer one option and the chance of winning the other, :func:`disagreement` names the
situation that makes the difference: whether the last danger card is still in the deck, who reveals the next card
after each option (taking over, or owning the next turn), how far the head is, and, in an edition whose last danger
card ends the game on the gems, whether banking the pot puts the player ahead.  Every state after an option is the
model's own (:meth:`~dragonkit.game_state.GameState.child`): no rule is written twice.  The sentences are
:func:`dragonkit.coach.words.reason_sentence`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..analysis.win.solver import Probability
from ..game_state import GameState, Phase
from ..rules import FinalDanger
from ..turn import Action

__all__ = ["Reason", "ReasonKind", "Values", "disagreement", "shown"]

#: A source of chances of winning (a table's, or the late game's exact ones): the mover's after each legal action.
Values = Callable[[GameState], Mapping[Action, Probability]]


def shown(chance: float | Probability) -> int:
    """A chance of winning as the coach shows it, in tenths of a percentage point: two chances shown alike are equal
    for the coach (its best options, who would take over), two shown apart are not."""
    return round(1000 * float(chance))


class ReasonKind(StrEnum):
    """The situations :func:`disagreement` names."""

    #: The option that wins more makes someone else reveal the next card while the last danger card is in the deck.
    LAST_DANGER_PASS = "last_danger_pass"
    #: The next turn is the player's anyway: every card revealed now is one more draw at the last danger.
    LAST_DANGER_TWICE = "last_danger_twice"
    #: A chance at the head counts for more than the pot, and holding would give it away.
    HEAD_HOLD = "head_hold"
    #: A chance at the head counts for more than the bounty, and declining would give it away.
    HEAD_DECLINE = "head_decline"
    #: A chance at the head counts for more than the pot, and holding would start the next turn from the tail.
    HEAD_RESTART = "head_restart"
    #: The last danger card ends the game on the gems: banking the pot puts the player ahead.
    LEAD_BANK = "lead_bank"
    #: The last danger card ends the game on the gems: even with the pot banked the player is behind.
    LEAD_SHORT = "lead_short"
    #: None of the above: the whole game against this turn.
    GENERAL = "general"


@dataclass(frozen=True)
class Reason:
    """Why the views disagree: a kind and the facts its sentence names.

    Attributes
    ----------
    kind : ReasonKind
        The situation that makes the difference.
    action : Action
        The option of the better chance of winning.
    name : str or None
        The one player who would reveal the next card instead (taking over, or owning the next turn), where
        only one can; None where several might (more than two players).
    gems, pot, bounty, steps : int
        The mover's gems, the pot, the bounty and the knight's distance to the head.
    takes_over : bool
        Whether the player named would get there by taking the turn over.
    banked, rival : int
        For the ``"lead_*"`` kinds, the mover's gems with the pot banked and the most gems of another player then
        (the engine's own states after the hold); 0 for the other kinds.
    """

    kind: ReasonKind
    action: Action
    name: str | None = None
    gems: int = 0
    pot: int = 0
    bounty: int = 0
    steps: int = 0
    takes_over: bool = False
    banked: int = 0
    rival: int = 0


def _next_revealers(after: GameState, solved: Values | None) -> list[tuple[int, bool]]:
    """Who may reveal the next card from ``after`` (a hold or a decline just made), as ``(seat, takes_over)``
    pairs: each player asked who would or might take over (the exact chances say which, for two players;
    without them, anyone able to pay might), then the owner of the next turn if nobody does."""
    found: list[tuple[int, bool]] = []
    while after.phase is Phase.OFFER:
        taker = after.offer_to
        assert taker is not None
        if solved is not None:
            values = solved(after)
            take, decline = shown(values[Action.TAKE_OVER]), shown(values[Action.DECLINE])
            if take > decline:
                return [*found, (taker, True)]  # they take over: nobody after them is asked
            if take < decline:
                after = after.child(Action.DECLINE)
                continue
        found.append((taker, True))  # they might
        after = after.child(Action.DECLINE)
    if not after.is_terminal():
        found.append((after.active, False))
    return found


def _hold_endings(state: GameState) -> list[GameState]:
    """The states a hold in ``state`` can lead to: a takeover by each player asked in turn, then the pot banked."""
    endings = []
    after = state.child(Action.HOLD)
    while after.phase is Phase.OFFER:
        endings.append(after.child(Action.TAKE_OVER))
        after = after.child(Action.DECLINE)
    return [*endings, after]


def _mover_and_rival(state: GameState, mover: int) -> tuple[int, int]:
    """``mover``'s gems in ``state`` and the most gems of another player."""
    return state.gems[mover], max(g for seat, g in enumerate(state.gems) if seat != mover)


def disagreement(state: GameState, players: Sequence[str], winner: Action, solved: Values | None) -> Reason:
    """Why the chance of winning prefers ``winner`` in ``state`` where the expected gems prefer the other option.

    Parameters
    ----------
    state : GameState
        A game going on, whose player to move has two options.
    players : sequence of str
        The players' names, by seat.
    winner : Action
        The option of the better chance of winning.
    solved : callable or None
        The chances of winning after each option of a public state (two players), to tell who would take over;
        None where they are estimated (then anyone able to pay might).

    Returns
    -------
    Reason
    """
    rules, mover = state.rules, state.current_player()
    assert mover is not None

    def reason(kind: ReasonKind, seats: list[tuple[int, bool]] | None = None) -> Reason:
        who = {seat for seat, _ in seats or ()}
        one = who.pop() if len(who) == 1 else None  # the one player who reveals next, whichever way
        return Reason(
            kind,
            winner,
            name=None if one is None else players[one],
            gems=state.gems[mover],
            pot=state.pot,
            bounty=state.bounty,
            steps=rules.head - state.position,
            takes_over=one is not None and all(takes for _, takes in seats or ()),
            banked=banked,
            rival=rival,
        )

    last_danger = state.last_danger_in_deck and rules.final_danger is FinalDanger.ALL_GEMS
    banked, rival = 0, 0
    if state.last_danger_in_deck and rules.final_danger is FinalDanger.POT_ONLY and state.phase is Phase.CHOOSE:
        # the last danger card ends the game on the gems: the gems after a hold, by the engine, whoever takes over
        endings = _hold_endings(state)
        banked, rival = _mover_and_rival(endings[-1], mover)  # the pot banked
        ahead = all(a > r for a, r in (_mover_and_rival(e, mover) for e in endings))
        if winner is Action.HOLD and ahead:
            return reason(ReasonKind.LEAD_BANK)
        if winner is Action.REVEAL and banked <= rival:
            return reason(ReasonKind.LEAD_SHORT)
    if winner in (Action.HOLD, Action.DECLINE):  # the chance of winning prefers to let the turn go
        seats = _next_revealers(state.child(winner), solved)
        if last_danger and seats and all(seat != mover for seat, _ in seats):
            return reason(ReasonKind.LAST_DANGER_PASS, seats)
        if last_danger and seats and seats[-1] == (mover, False):  # whoever may take over, the next turn is theirs
            return reason(ReasonKind.LAST_DANGER_TWICE)
        return reason(ReasonKind.GENERAL)
    # the chance of winning prefers to go on: to reveal, or to take over
    seats = _next_revealers(state.child(Action.HOLD if winner is Action.REVEAL else Action.DECLINE), solved)
    if seats and all(seat != mover for seat, _ in seats):
        return reason(ReasonKind.HEAD_HOLD if winner is Action.REVEAL else ReasonKind.HEAD_DECLINE, seats)
    if winner is Action.REVEAL and seats == [(mover, False)]:  # nobody can take over, the next turn is theirs
        return reason(ReasonKind.HEAD_RESTART)
    return reason(ReasonKind.GENERAL)
