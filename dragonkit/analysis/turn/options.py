"""Each option of the player to move, valued in expected gems for the turn: what the coach's first view says and
what the class's record keeps of every decision.

The options are the legal actions of the public state (:class:`~dragonkit.game_state.GameState`): reveal and hold
for the active player, valued by backward induction (:class:`~.optimal.SolvedTurn`: the push value, and the pot as
the hold value, RULES.md section 7); take over and decline for the player a held turn is offered to
(:func:`~.optimal.takeover_gain`, and 0 for declining). :class:`TurnOptions` solves a turn once, at its first
decision, and looks its later decisions up, as :class:`~dragonkit.bots.CoachBot` does.
"""

from __future__ import annotations

from fractions import Fraction

from ...game_state import GameState
from ...turn import Action, TurnState
from .optimal import SolvedTurn, TurnSolution, takeover_gain

__all__ = ["TurnOptions"]


class TurnOptions:
    """The expected gems of each option of the player to move, exact; the last ``keep`` turns solved are kept for the
    next decisions of the same turns (one solve a turn, not one a decision).

    Parameters
    ----------
    keep : int
        How many solved turns to keep (the coach keeps two: the page's, and the one before, which the class's record
        asks about once the page has moved on).

    Raises
    ------
    ValueError
        If ``keep`` is below 1.

    Examples
    --------
    >>> from dragonkit.rules import Ruleset
    >>> start = GameState.fresh(Ruleset.preset("mini"))
    >>> TurnOptions().values(start)  # a compulsory reveal: RULES.md's worked example
    {<Action.REVEAL: 'reveal'>: Fraction(-11, 8)}
    """

    def __init__(self, keep: int = 1) -> None:
        if keep < 1:
            raise ValueError(f"keep must be at least 1, not {keep}")
        self.keep = keep
        self._turns: list[SolvedTurn] = []  # the latest used last

    def solution(self, state: TurnState) -> TurnSolution:
        """The exact solution at ``state``, read from a turn kept if ``state`` is one of its decisions, else from the
        turn solved anew from it.

        Raises
        ------
        ValueError
            If the deck is empty.
        """
        for solved in reversed(self._turns):
            found = solved.solution(state)
            if found is not None:
                self._turns.remove(solved)
                self._turns.append(solved)  # the latest used last
                return found
        solved = SolvedTurn(state, exact=True)  # a new turn: solve it once (exact arithmetic)
        self._turns.append(solved)
        del self._turns[: -self.keep]
        found = solved.solution(state)
        assert found is not None  # the state is its own graph's root
        return found

    def values(self, state: GameState) -> dict[Action, Fraction]:
        """Each legal action's expected change of the mover's gems to the end of the turn (gems), in the order of
        ``state.legal_actions()``.

        Parameters
        ----------
        state : GameState
            A game going on.

        Returns
        -------
        dict of Action to Fraction
            ``reveal`` (and ``hold`` where it is allowed): the push value and the pot; during an offer, ``take_over``
            (the taker's gain, bounty paid) and ``decline`` (0).

        Raises
        ------
        ValueError
            If the game is over.
        """
        if state.is_terminal():
            raise ValueError("the game is over: there is no decision")
        turn = state.turn()
        taker = state.offer_to
        if taker is not None:
            gain = Fraction(takeover_gain(turn, state.gems[taker], state.bounty, exact=True))
            return {Action.TAKE_OVER: gain, Action.DECLINE: Fraction(0)}
        solved = self.solution(turn)
        values = {Action.REVEAL: Fraction(solved.push_value)}
        if Action.HOLD in state.legal_actions():
            values[Action.HOLD] = Fraction(solved.hold_value)
        return values
