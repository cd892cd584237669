r"""Exact win chances late in a two-player game: the editions the race table does not model.

:class:`~dragonkit.analysis.win.race.WinTable` closes the gems' doors, which it may do where the final
danger costs all the revealer's gems (``dragon-stripes``, ``mini``): there the gems change the winner only
through three thresholds.  In ``kali`` and ``drago-rosso`` the final danger costs its revealer the pot
only, and the game then ends *on the gems*: the player with more wins.  Every pot banked, every bounty
paid and every penalty (:math:`\lfloor r\,g \rfloor`, a rate of the player's own gems) can change that
winner, so both players' gems and the pot must be carried, and
:class:`~dragonkit.analysis.win.reduced.ReducedWinSolver` shows that no smaller state is exact (its
module's text).  Its reduced space grows about six-fold per card left
(``benchmarks/bench_win_reduced.py``: ``kali`` 583,863 states with 9 cards left in 90–115 s, ``drago-rosso``
27,919 with 7 in 4–6 s): the whole game, bounded by 10\ :sup:`16` reduced states, is out of reach, and no
reduction of it with a bounded error is known (``docs/win.md`` says what was tried).

So this module answers a situation **exactly** once at most :data:`LATE_CARDS` cards are left
(:class:`LateGame`) — with the same recursion as every win solver of the package, over the real gems and the real
pot, both players maximising their chance (a shared win counts one half) — and says it cannot before.  Earlier,
the coach and the win bot read the gems model (:class:`~dragonkit.analysis.win.gems.GemsWinTable`, whose
departures from the game cost most where one card changes the deck, at the end).

One solver serves the rest of a game: the later decisions of the same game are reduced states it has
already solved, so they are looked up, not solved again; a situation of another ruleset, or with more
cards left than the last one asked (a new game), starts a fresh solver, so that the memo holds one game's
end at a time.
"""

from __future__ import annotations

from ...game_state import GameState
from ...turn import Action
from .reduced import ReducedWinSolver
from .solver import Probability

__all__ = ["LATE_CARDS", "LateGame", "is_late"]

#: The most cards left at which :class:`LateGame` solves a situation (``benchmarks/bench_win_late.py``, coach
#: games): a game's first late decision takes a median of about 33 ms and at most 0.09 s on one core (at most
#: 2,681 reduced states in ``kali`` and ``drago-rosso``), the later ones 0.1 ms; with 6 cards, about ten times more.
LATE_CARDS = 5


def is_late(state: GameState) -> bool:
    """Whether :class:`LateGame` answers ``state``: a two-player game going on, at most :data:`LATE_CARDS` cards left.

    Parameters
    ----------
    state : GameState

    Returns
    -------
    bool
    """
    return state.n_players == 2 and not state.is_terminal() and state.deck.total <= LATE_CARDS


class LateGame:
    """Exact win chances of the late situations of two-player games, one game at a time.

    Parameters
    ----------
    exact : bool
        ``Fraction`` arithmetic if True, ``float`` otherwise.

    Examples
    --------
    >>> from dragonkit.rules import Ruleset
    >>> late = LateGame(exact=True)
    >>> state = GameState.fresh(Ruleset.preset("mini"))  # a deck of 8 cards: too many
    >>> is_late(state)
    False
    """

    def __init__(self, exact: bool = False):
        self.exact = exact
        self._solver: ReducedWinSolver | None = None
        self._cards_left = 0

    @property
    def states_visited(self) -> int:
        """The reduced states solved for the current game so far (0 before the first late situation)."""
        return 0 if self._solver is None else self._solver.states_visited

    def action_values(self, state: GameState) -> dict[Action, Probability]:
        """The mover's probability of winning the game after each legal action, both players playing to win.

        Parameters
        ----------
        state : GameState
            A late situation (:func:`is_late`).

        Returns
        -------
        dict
            Action to probability, in the order of ``state.legal_actions()``: exact
            (:class:`~dragonkit.analysis.win.reduced.ReducedWinSolver`'s backward induction over every
            card order left, gems and pot carried).

        Raises
        ------
        ValueError
            If ``state`` is not late: more than :data:`LATE_CARDS` cards left, not two players, or over.
        """
        if not isinstance(state, GameState) or not is_late(state):
            raise ValueError(
                f"a late situation of a two-player game going on has at most {LATE_CARDS} cards left; not {state!r:.80}"
            )
        solver = self._solver
        if solver is None or solver.rules != state.rules or state.deck.total > self._cards_left:
            solver = self._solver = ReducedWinSolver(state.rules, exact=self.exact)
        self._cards_left = state.deck.total
        return solver.action_values(state)

    def __repr__(self) -> str:
        return f"LateGame(exact={self.exact})"
