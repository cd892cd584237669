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
    """The expected gems of each option of the player to move, exact; the turn solved last is kept for the next
    decisions of the same turn (one solve a turn, not one a decision).

    Examples
    --------
    >>> from dragonkit.rules import Ruleset
    >>> start = GameState.fresh(Ruleset.preset("mini"))
    >>> TurnOptions().values(start)  # a compulsory reveal: RULES.md's worked example
    {<Action.REVEAL: 'reveal'>: Fraction(-11, 8)}
    """

    def __init__(self) -> None:
        self._last_turn: SolvedTurn | None = None

    def solution(self, state: TurnState) -> TurnSolution:
        """The exact solution at ``state``, read from the turn solved last if ``state`` is one of its decisions, else
        from the turn solved anew from it.

        Raises
        ------
        ValueError
            If the deck is empty.
        """
        found = self._last_turn.solution(state) if self._last_turn is not None else None
        if found is None:  # a new turn: solve it once (exact arithmetic)
            self._last_turn = SolvedTurn(state, exact=True)
            found = self._last_turn.solution(state)
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
