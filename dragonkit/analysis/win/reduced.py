r"""Win probabilities of the real decks: the two-player game reduced to what can change the winner.

:class:`~dragonkit.analysis.win.solver.WinSolver` memoises on the whole public state, the
ruleset included.  This module solves the same recursion (same :math:`W`, same
optimal actions) on a smaller state space, and says which parts of the state can
be dropped exactly and which cannot.

What can change the winner
--------------------------
Two players, gems :math:`g_a` (the active player) and :math:`g_o` (the other), the
treasure :math:`T` and the pot :math:`P`.  The sum :math:`S = g_a + g_o + T + P` never
changes (RULES.md section 1), so the treasure is a function of the rest.  The stage
too: it is the number of dangers dealt minus those left in the deck.  A game ends in
one of three ways, and its winner is then:

* **the head**: the active player ends with :math:`g_a + P + T = S - g_o` against
  :math:`g_o`: they win unless :math:`g_o \ge S/2` (a tie at :math:`g_o = S/2`).  With
  :math:`S = 880` in ``dragon-stripes`` the other player would need 440 gems;
* **the final danger**, ``all_gems`` (``dragon-stripes``, ``mini``): the revealer ends
  with 0, so the other player wins unless they have 0 too (a tie);
* **the final danger**, ``pot_only`` (``kali``, ``drago-rosso``): the pot goes back and
  the player with more gems wins: here the gems decide directly.

So the gems enter the ending through the thresholds :math:`g_o \gtrless S/2` and
:math:`g_o > 0` (``all_gems``) or through :math:`g_a \gtrless g_o` (``pot_only``).  They
enter the play on the way through three more doors, each of which needs the
gems themselves, not a difference or a bucket:

* a stop or a non-final danger costs :math:`\lfloor r\,g_a \rfloor` (the rounding depends
  on :math:`g_a` itself: 13 and 14 gems pay 3 at the rate 1/4);
* only a player owning at least the bounty may take a held turn over
  (:meth:`Ruleset.may_take_over <dragonkit.rules.Ruleset.may_take_over>`), and the
  bounty moves gems between the players;
* the treasure limits what a stripe places, and :math:`T = S - g_a - g_o - P`.

Hence there is no exact reduction of the gems to their difference, nor a lead at
which the game is decided: the head pays the whole treasure (hundreds of gems)
to whoever reaches it, and in ``dragon-stripes`` whoever reveals the last danger
loses whatever the score, so while a danger and enough footprints to reach the
head are left, every score can still go either way.

The reduced state
-----------------
What is kept is therefore exactly what can change the winner:

.. math::

    (\text{deck composition},\ \text{phase},\ [\text{owner} = \text{active}],\
     g_a,\ g_o,\ \text{position},\ P)

and what is dropped is dropped exactly:

* the **ruleset** (a solver is bound to one), the **treasure** and the **stage** are
  functions of the rest within one game (the key keeps the stage and the treasure
  anyway, so that situations made up by hand with another sum are never confused;
  within a game they add no state);
* the **seats**: the rules treat both seats alike (with two players a held turn is
  offered to the other player, and the next turn belongs to the player after the
  owner), so a state and the state with the seats swapped have the same winner up
  to the swap.  The key is written from the active player's side (their gems first,
  and whether they own the turn: after a takeover the next turn is theirs again) and
  the memo stores *the active player's* probability of winning :math:`V_a`; a state
  and its mirror image share one entry;
* the **offer queue** is the other player during an offer and empty otherwise;
* **ended games** are not stored: their win shares are read off at once.

The recursion is :class:`~dragonkit.analysis.win.solver.WinSolver`'s, written for
:math:`V_a`: with :math:`V_a(t)` read from the active player :math:`a` of the state
:math:`s` as :math:`V_{a}(t)` if :math:`t` has the same active player and
:math:`1 - V_{a'}(t)` otherwise,

.. math::

    V_a(s) = \sum_c p_s(c)\,V_a(s.\text{child}(c))
    \quad\text{(a compulsory reveal)},\qquad
    \max\bigl(\text{reveal},\ V_a(s.\text{child}(\text{hold}))\bigr)
    \quad\text{(a choice)},

.. math::

    V_a(s) = \min\bigl(V_a(s.\text{child}(\text{take over})),\ V_a(s.\text{child}(\text{decline}))\bigr)
    \quad\text{(an offer: the other player chooses)}.

Every step is :meth:`GameState.child <dragonkit.game_state.GameState.child>`: a card
through :meth:`TurnState.child <dragonkit.turn.TurnState.child>` (the rules' one
:meth:`~dragonkit.rules.Ruleset.apply_card`), an offer through the engine's shared
functions.  No rule is written here.

What it costs, and what is left
-------------------------------
The symmetry merges the states whose seats are mirror images (``mini``: 19,390
reduced states against the 28,440 of the full-state solver); it does not change
how the count grows.  The count grows about six-fold per card left, since every
reveal branches on the card kinds and every turn branches the gems.  Measured by
``benchmarks/bench_win_reduced.py`` from late situations of seeded games (floats,
one core): ``dragon-stripes`` 28,578 states in 3 s with 7 cards left and 169,293 in
22 s with 8; ``kali`` 583,863 states in 87 s with 9; ``drago-rosso`` 27,919 in 4 s
with 7.  So the exact win probability is within minutes from any situation with
about 8 cards left, and no further.  The full 51-card game is out of reach of a
memoised recursion in Python on two cores: its reduced space is bounded by the deck
compositions (386,100 for ``dragon-stripes``) times the knight positions times the
pots and both players' gems, and the measured growth gives no reason to expect the
reachable part to be small.  What is left is a reduction of the gems that the
rules above do not forbid: e.g. in ``dragon-stripes`` once the head cannot be
reached any more (the footprints left sum to fewer steps than the stripes) the
winner is whoever does not reveal the last danger, and the gems matter only
through who may take a turn over.
"""

from __future__ import annotations

from typing import Any

from ...game_state import GameState, Phase
from ...rules import Ruleset
from ...turn import Action
from .solver import Probability, TwoPlayerWinSolver

__all__ = ["ReducedWinSolver"]


class ReducedWinSolver(TwoPlayerWinSolver):
    """Exact win probabilities of two-player games of one ruleset, on the reduced state (see the module's text).

    Parameters
    ----------
    rules : Ruleset
        The ruleset of every state the solver is asked about.
    exact : bool
        ``Fraction`` arithmetic (exact) if True, ``float`` otherwise.

    Examples
    --------
    >>> solver = ReducedWinSolver(Ruleset.preset("mini"), exact=True)
    >>> solver.win_probability(GameState.fresh(Ruleset.preset("mini")))
    Fraction(1, 2)
    >>> solver.states_visited  # WinSolver visits 28,440 states
    19390
    """

    rules: Ruleset

    def __init__(self, rules: Ruleset, exact: bool = False):
        if not isinstance(rules, Ruleset):
            raise ValueError(f"rules must be a Ruleset, not {type(rules).__name__}")
        self.rules = rules
        self.exact = exact
        self._values: dict[tuple[Any, ...], Probability] = {}

    @property
    def states_visited(self) -> int:
        """The number of distinct reduced states solved so far (the memo's size)."""
        return len(self._values)

    def win_probabilities(self, state: GameState) -> tuple[Probability, Probability]:
        """Each seat's probability of winning from ``state`` under optimal play (a shared win counts one half).

        Returns
        -------
        tuple of two probabilities
            For seats 0 and 1; each seat's share of the win once the game is over.

        Raises
        ------
        ValueError
            If ``state`` is not a two-player game of the solver's ruleset.
        """
        self._check(state)
        active = self._seen_by(state.active, state)
        return (active, 1 - active) if state.active == 0 else (1 - active, active)

    # -- the recursion ---------------------------------------------------------------------------

    def _seen_by(self, seat: int, state: GameState) -> Probability:
        """``seat``'s probability of winning from ``state``: the stored :math:`V_a`, or its complement."""
        if state.is_terminal():
            return self._number(state.returns()[seat])
        value = self._value(state)
        return value if state.active == seat else 1 - value

    def _value(self, state: GameState) -> Probability:
        """:math:`V_a(s)`, the active player's chance, memoised on the reduced key."""
        active = state.active
        key = (
            state.deck,
            state.stage,
            state.phase,
            state.owner == active,
            state.gems[active],
            state.gems[1 - active],
            state.treasure,
            state.position,
            state.pot,
        )
        known = self._values.get(key)
        if known is not None:
            return known
        if state.phase is Phase.OFFER:
            value = min(self._after(active, state, a) for a in (Action.TAKE_OVER, Action.DECLINE))
        else:
            value = max(self._after(active, state, a) for a in state.legal_actions())
        self._values[key] = value
        return value

    def _after(self, seat: int, state: GameState, action: Action) -> Probability:
        """``seat``'s chance after ``action`` in ``state``: a reveal averages over the cards."""
        if action is Action.REVEAL:
            outcomes = state.chance_outcomes()
            return sum((self._number(p) * self._seen_by(seat, state.child(card)) for card, p in outcomes), 0)
        return self._seen_by(seat, state.child(action))

    def _action_value(self, state: GameState, mover: int, action: Action) -> Probability:
        return self._after(mover, state, action)
