"""The value of revealing exactly one more card and then holding.

From a decision point, revealing one card and holding at once (unless the card
ended the turn) is one way to push, so its value is a lower bound of the push
value of :func:`~dragonkit.analysis.solve_turn`: where it beats the pot, revealing
is optimal without solving anything.  It is the expected gain of the policy
``HoldAfterReveals(1)`` (:func:`~dragonkit.analysis.evaluate_policy` gives the
same number through an absorbing chain), read off the next card's law alone:

.. math:: V_1 = \\sum_c P(c)\\, r(c),

where :math:`P(c)` is the chance of card :math:`c` (count / cards left) and
:math:`r(c)` the gems the turn earns if :math:`c` comes: the turn's
:meth:`~dragonkit.turn.TurnState.returns` where the card ends it, else the pot
held after it.  This costs one step per kind of card left, where the chain
builds every reachable decision point.
"""

from __future__ import annotations

from fractions import Fraction

from ...turn import Action, TurnState
from .state import check_state

__all__ = ["one_card_value"]


def one_card_value(state: TurnState) -> Fraction:
    """Expected gem change of revealing exactly one card from ``state`` and then holding (gems).

    Each card of :meth:`TurnState.chance_outcomes <dragonkit.turn.TurnState.chance_outcomes>`
    is stepped with :meth:`TurnState.child <dragonkit.turn.TurnState.child>`; where the
    turn goes on, the child holds.  ``state.must_reveal`` is ignored: the card is revealed
    either way.  Equal to ``evaluate_policy(state, HoldAfterReveals(1), exact=True).expected_gain``.

    Parameters
    ----------
    state : TurnState
        A decision point of a turn that goes on.

    Returns
    -------
    Fraction
        Gems; at most the push value of :func:`~dragonkit.analysis.solve_turn`.

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState, the turn has ended, or the deck is empty.

    Examples
    --------
    >>> from dragonkit.rules import Ruleset
    >>> one_card_value(TurnState.fresh(Ruleset.preset("mini")))
    Fraction(-11, 8)
    """
    outcomes = check_state(state).chance_outcomes()
    if not outcomes:
        raise ValueError("the turn has ended or the deck is empty: no card can be revealed")
    value = Fraction(0)
    for card, p in outcomes:
        child = state.child(card)
        end = child if child.is_terminal() else child.child(Action.HOLD)
        value += p * end.returns()
    return value
