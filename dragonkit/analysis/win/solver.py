r"""Win the game, not only the turn: exact win probabilities of a two-player game.

The model
---------
The states are the public states of a two-player game, :class:`~dragonkit.game_state.GameState`:
both players' gems, the treasure, the composition of the deck (never its order),
the stage, the turn owner, the active player, the phase, the offer queue, the
knight and the pot.  In a state :math:`s` the player to move :math:`m(s)` takes one
of the legal actions; a reveal shows the next card :math:`c` with probability
:math:`p_s(c) = n_c / N` (:math:`n_c` copies of it among the :math:`N` cards left,
:meth:`~dragonkit.game_state.GameState.chance_outcomes`), and the state moves to
``s.child(c)``; a hold, a takeover or a decline moves it to ``s.child(a)``.  Once the
game is over each seat has its share of the win, :math:`u_i(s)` (:math:`1` for the
player with more gems, :math:`\tfrac12` each on a tie,
:meth:`~dragonkit.game_state.GameState.returns`).  Every state is known to both
players, so this is a two-player zero-sum stochastic game of perfect *public*
information: no player knows more than the table.

The recursion
-------------
Let :math:`W(s)` be the probability that seat 0 wins (a shared win counted one
half) when both players maximise their own probability of winning.  Seat 1's is
:math:`1 - W(s)`, since the shares of every ending sum to one: maximising one's own
chance is minimising the other's.  Backward induction over the game tree,

.. math::

    Q(s, \text{reveal}) = \sum_c p_s(c)\, W(s.\text{child}(c)), \qquad
    Q(s, a) = W(s.\text{child}(a)) \quad (a = \text{hold, take over, decline}),

.. math::

    W(s) = u_0(s) \text{ if the game is over, else }
    \max_a Q(s, a) \text{ if } m(s) = 0, \quad \min_a Q(s, a) \text{ if } m(s) = 1,

memoised on the state, so that each state is solved once however many paths reach
it.  The mover's own win probability is :math:`V(s) = W(s)` for seat 0 and
:math:`1 - W(s)` for seat 1; an action's value for the mover is :math:`Q` read the
same way.  A seat given a fixed policy plays it instead of maximising: with both
seats fixed the recursion is the exact evaluation of a pair of policies, with one
fixed it is the other's best reply.

Why it terminates
-----------------
The states form a finite acyclic graph.  Every turn starts, and every takeover
resumes, with a compulsory reveal, and a revealed card never goes back into the
deck; between two reveals come at most two other moves (a hold, then a takeover or
a decline: with two players the held turn is offered to one player).  So a game
with :math:`N` cards left ends within :math:`3N` moves, which bounds the depth of
the recursion, and no state can be its own descendant.

Cost
----
From a fresh 2-player ``mini`` game (8 cards, 12 gems each, treasure 20) the
optimal solution visits 28,440 distinct states, in about 3 s on one core with
``Fraction``\ s or floats alike (most of it spent building the states; the
arithmetic is cheap).  The first player wins exactly **1/2** there: unless
the compulsory first reveal shows the danger (probability 1/8, a lost game), the
first player's chance is then 4/7 (holding the footprint's pot, or having paid the
stop's penalty and passed the compulsory reveal on), and
:math:`\tfrac78 \cdot \tfrac47 = \tfrac12`.  The number of states
grows with the gems the players and the treasure can hold: the full decks of 51
cards are far out of reach of this plain recursion (the gems must be carried in
the state, since they decide the winner).

The result
----------
A :class:`WinSolver` answers, for any state of a two-player game:

* :meth:`WinSolver.win_probabilities` — :math:`(W(s), 1 - W(s))`, both seats' chances;
* :meth:`WinSolver.win_probability` — :math:`V(s)`, the mover's chance;
* :meth:`WinSolver.action_values` — the mover's chance after each legal action;
* :meth:`WinSolver.best_action` — the optimal policy (the first legal action of the
  best value).

References
----------
T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig",
*The UMAP Journal* 25(1), 2004, 25–47.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TypeAlias

from ...game_state import GameState
from ...rules import Ruleset
from ...turn import Action

__all__ = ["Probability", "WinPolicy", "WinSolver"]

#: A probability: a ``Fraction`` on the exact path, a ``float`` on the fast one.
Probability: TypeAlias = Fraction | float
#: A fixed policy: the action a seat takes in a state where it is to move (one of the legal actions).
WinPolicy: TypeAlias = Callable[[GameState], Action]


class TwoPlayerWinSolver:
    """What every two-player win solver answers, given its :meth:`win_probabilities` and
    :meth:`_action_value`: the mover's chance, each action's chance, the optimal action."""

    exact: bool
    #: The ruleset a solver is bound to, or None for one that answers every ruleset.
    rules: Ruleset | None = None

    def win_probabilities(self, state: GameState) -> tuple[Probability, Probability]:
        """Each seat's probability of winning from ``state`` (a shared win counts one half): the ending's shares
        once the game is over, else the mover's best action value (the solvers that memoise a value per state
        answer from it instead).

        Returns
        -------
        tuple of two probabilities
            For seats 0 and 1.

        Raises
        ------
        ValueError
            If ``state`` is not a game the solver answers (:meth:`_check`).
        """
        self._check(state)
        if state.is_terminal():
            first = self._number(state.returns()[0])
        else:
            mover = self._mover(state)
            best = max(self._action_value(state, mover, a) for a in state.legal_actions())
            first = best if mover == 0 else 1 - best
        return first, 1 - first

    def _action_value(self, state: GameState, mover: int, action: Action) -> Probability:
        """``mover``'s win probability after ``action`` in ``state``."""
        raise NotImplementedError

    def win_probability(self, state: GameState) -> Probability:
        """The probability that the player to move wins: :math:`V(s)`.

        Raises
        ------
        ValueError
            If the game is over (nobody is to move), or as :meth:`win_probabilities`.
        """
        return self.win_probabilities(state)[self._mover(state)]

    def action_values(self, state: GameState) -> dict[Action, Probability]:
        """The mover's win probability after each legal action, in the order of ``state.legal_actions()``.

        Raises
        ------
        ValueError
            If the game is over, or as :meth:`win_probabilities`.
        """
        self._check(state)
        mover = self._mover(state)
        return {action: self._action_value(state, mover, action) for action in state.legal_actions()}

    def _check(self, state: GameState) -> None:
        """Raise ``ValueError`` unless ``state`` is a two-player :class:`GameState` (of :attr:`rules`, for a
        solver bound to one ruleset)."""
        rules = self.rules
        of = "" if rules is None else f" of {rules.name!r}"
        if not isinstance(state, GameState):
            raise ValueError(f"this solver answers two-player GameStates{of}, not {state!r:.80}")
        if state.n_players != 2:
            raise ValueError(f"this solver answers two-player GameStates{of}, not a {state.n_players}-player game")
        if rules is not None and state.rules != rules:
            raise ValueError(
                f"this solver answers two-player GameStates{of}, not a game of another ruleset ({state.rules.name!r})"
            )

    def best_action(self, state: GameState) -> Action:
        """The optimal policy: the legal action of the highest :meth:`action_values` (the first one on a tie).

        Raises
        ------
        ValueError
            If the game is over, or as :meth:`win_probabilities`.
        """
        values = self.action_values(state)
        return max(values, key=values.__getitem__)

    def _number(self, p: Fraction) -> Probability:
        return p if self.exact else float(p)

    @staticmethod
    def _mover(state: GameState) -> int:
        mover = state.current_player()
        if mover is None:
            raise ValueError("the game is over: nobody is to move")
        return mover


class WinSolver(TwoPlayerWinSolver):
    """Win probabilities of two-player games by memoised backward induction (see the module's text).

    Parameters
    ----------
    exact : bool
        ``Fraction`` arithmetic (exact) if True, ``float`` otherwise.
    policies : mapping of int to callable, optional
        Fixed policies by seat (0 or 1): ``policy(state) -> Action``, one of the state's
        legal actions; a seat without one maximises its own win probability.

    Examples
    --------
    >>> from dragonkit.rules import Ruleset
    >>> solver = WinSolver(exact=True)
    >>> solver.win_probability(GameState.fresh(Ruleset.preset("mini")))
    Fraction(1, 2)
    """

    def __init__(self, exact: bool = False, policies: Mapping[int, WinPolicy] | None = None):
        self.exact = exact
        self.policies = dict(policies or {})
        if not set(self.policies) <= {0, 1}:
            raise ValueError(f"policies are given by seat, 0 or 1, not {sorted(self.policies)}")
        self._wins: dict[GameState, Probability] = {}

    @property
    def states_visited(self) -> int:
        """The number of distinct states solved so far (the memo's size)."""
        return len(self._wins)

    def win_probabilities(self, state: GameState) -> tuple[Probability, Probability]:
        """Each seat's probability of winning from ``state`` (a shared win counts one half).

        Returns
        -------
        tuple of two probabilities
            ``(W, 1 - W)`` for seats 0 and 1; each seat's share of the win once the game is over.

        Raises
        ------
        ValueError
            If ``state`` is not a two-player game, or a fixed policy picks an illegal action.
        """
        self._check(state)
        first = self._win(state)
        return first, 1 - first

    # -- the recursion ---------------------------------------------------------------------------

    def _win(self, state: GameState) -> Probability:
        """:math:`W(s)`, memoised."""
        known = self._wins.get(state)
        if known is not None:
            return known
        if state.is_terminal():
            win = self._number(state.returns()[0])
        else:
            mover = self._mover(state)
            policy = self.policies.get(mover)
            if policy is None:
                values = [self._after(state, a) for a in state.legal_actions()]
                win = max(values) if mover == 0 else min(values)
            else:
                action = policy(state)
                if action not in state.legal_actions():
                    raise ValueError(f"seat {mover}'s policy chose {action!r}, not one of {state.legal_actions()}")
                win = self._after(state, action)
        self._wins[state] = win
        return win

    def _after(self, state: GameState, action: Action) -> Probability:
        """:math:`Q(s, a)`: seat 0's win probability after ``action``."""
        if action is Action.REVEAL:
            return sum((self._number(p) * self._win(state.child(card)) for card, p in state.chance_outcomes()), 0)
        return self._win(state.child(action))

    def _action_value(self, state: GameState, mover: int, action: Action) -> Probability:
        after = self._after(state, action)
        return after if mover == 0 else 1 - after
