r"""Win probabilities of the whole game: the race to the head, tabulated over every deck.

:class:`~dragonkit.analysis.win.solver.WinSolver` and
:class:`~dragonkit.analysis.win.reduced.ReducedWinSolver` are exact but must carry
both players' gems, and reach about 8 cards left of a real deck.  This module
solves a *model* of the two-player game over the whole deck, from the first card,
by backward induction over the cards left, and says exactly what the model drops.

What decides the winner (``final_danger = "all_gems"``: ``dragon-stripes``, ``mini``)
----------------------------------------------------------------------------------
A game ends in one of two ways (RULES.md section 4):

* **the head**: the active player takes the pot and the whole treasure, and ends
  with :math:`S - g_o` gems against the other's :math:`g_o` (:math:`S` the gems of
  the game, 880 in ``dragon-stripes``): the one who reaches the head wins, unless the
  other already owns half of all the gems (440);
* **the final danger**: its revealer loses all their gems, so the other player wins
  (unless they too own none: a shared win).

So the winner is decided by *who* reaches the head or reveals the last danger, and
the gems enter only at three doors: the two thresholds above (a player owning
half of the game's gems; a player owning none) and **who may take a held turn
over** (a player owning at least the bounty, :meth:`Ruleset.may_take_over
<dragonkit.rules.Ruleset.may_take_over>`).  Penalties, the stripes' gems and the
treasure change the gems only; they change the winner only through those doors.

The model
---------
The model keeps everything else exactly — the deck's composition (never its
order), the stage (the dangers left), the knight's position, whose turn it is and
who reveals — and closes the three doors:

* (M1) whoever reaches the head wins;
* (M2) whoever reveals the final danger loses;
* (M3) the other player may always take a held turn over.

Its state is :math:`(c, x, o)`: the deck composition :math:`c`, the knight's
position :math:`x`, and :math:`o = 1` when the active player owns the turn (after
a takeover the next turn is the taker's own: :func:`~dragonkit.game_state.next_turn_owner`).
Let :math:`R(c, x, o)` be the active player's probability of winning when they
must reveal now (a turn's first card, :math:`x = 0, o = 1`; or the first card after
a takeover), both players maximising their own chance.  With :math:`p_k = n_k / N`
the hypergeometric law of the next card,

.. math::

    R(c, x, o) = \sum_{s} p_s\,\bigl[\text{head}\,?\,1 : C(c - s, x + s, o)\bigr]
    + p_{\text{stop}}\,E_o(c - \text{stop})
    + p_{\text{danger}}\,\bigl[\text{final}\,?\,0 : E_o(c - \text{danger})\bigr],

where :math:`E_o(c) = R(c, 0, 1)` if the active player owns the next turn and
:math:`1 - R(c, 0, 1)` if the other does; at a choice (after a footprint),

.. math::

    C(c, x, o) = \max\bigl(R(c, x, o),\ H(c, x, o)\bigr), \qquad
    H(c, x, o) = \min\bigl(E_o(c),\ 1 - R(c, x, 1 - o)\bigr),

the hold being offered to the other player, who takes it over (and must reveal
from :math:`x`) or lets the holder bank the pot (the next turn starts).  Every
step is the rules' own: where a footprint takes the knight is
:meth:`Ruleset.footprint_effect <dragonkit.rules.Ruleset.footprint_effect>` (on
arrays of positions), whether a danger is the last is
:meth:`Ruleset.is_final_danger <dragonkit.rules.Ruleset.is_final_danger>`, who owns
the next turn is :func:`~dragonkit.game_state.next_turn_owner`.

Every card drawn lowers :math:`N`, and a hold reaches a state of the same deck
whose value needs only :math:`R` of that deck; so the table is filled deck by
deck, in order of the cards left (:math:`R` of a deck from the decks with one card
fewer, then :math:`H` and :math:`C`): backward induction over the deck, each layer
vectorised over all its compositions, positions and owners.  It is exact *for the
model*: with ``exact=True`` every entry is a ``Fraction``.

Where the real game is the model, and where it is not
----------------------------------------------------
* When no door can open the model *is* the game: with gems far above every pot
  and below half of all the gems, the table equals the exact solvers'
  :math:`W` entry for entry; ``tests/analysis/win/test_race.py`` checks it in
  ``Fraction``\ s against :class:`~dragonkit.analysis.win.solver.WinSolver` by brute force
  over whole small decks.
* **The decision at hand uses the real gems**: :class:`WinTable` answers for a real
  :class:`~dragonkit.game_state.GameState`, and a hold is worth the bank alone
  when the other player cannot pay the bounty (door M3 closed for real); the
  head's and the final danger's thresholds are read off the real gems for a card
  that ends the game now.  Only the *later* decisions are the model's.
* What that costs is measured, not assumed: against the exact
  :class:`~dragonkit.analysis.win.solver.WinSolver` over every state of a real ``mini``
  game (12 gems each, where the bounty often exceeds a player's gems), and against
  :class:`~dragonkit.analysis.win.reduced.ReducedWinSolver` and Monte Carlo games on
  ``dragon-stripes`` (``benchmarks/bench_win_table.py``; the figures are in
  ``docs/win.md``).

Rulesets whose final danger costs only the pot (``kali``, ``drago-rosso``) end
that game on the *gems*: the model cannot decide them, and :class:`WinTable`
refuses them.

Cost
----
One entry per composition, position and owner: ``dragon-stripes`` has 386,100
compositions (15 · 13 · 9 · 5 footprint counts, 11 stop counts, 4 danger counts) ×
18 positions × 2, 13.9 million entries of :math:`R` (111 MB as float64), built in
seconds; a decision is then a few lookups.  :func:`win_table` keeps one table per
ruleset and process, and shares it between processes through a file in the user's
cache (memory-mapped: a class's kernels read one copy).

References
----------
T. W. Neller and C. G. M. Presser, "Optimal Play of the Dice Game Pig",
*The UMAP Journal* 25(1), 2004, 25–47 (the same backward induction for Pig).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ...cache import SavedArray
from ...game_state import GameState, Phase, next_turn_owner
from ...rules import Composition, FinalDanger, Ruleset
from ...turn import Action
from .solver import Probability, TwoPlayerWinSolver

__all__ = ["MAX_ENTRIES", "WinTable", "models", "saved_win_table", "win_table"]

_Table: TypeAlias = npt.NDArray[Any]  # float64, or object (Fractions) on the exact path

#: The largest table :func:`models` accepts (entries): about twice ``dragon-stripes``'s 13.9 million, 240 MB of floats.
MAX_ENTRIES = 30_000_000


def models(rules: Ruleset, players: int) -> bool:
    """Whether the race model's table answers games of ``players`` players of ``rules``: two players, a
    final danger that costs all the revealer's gems, and a table of at most :data:`MAX_ENTRIES` entries
    (compositions × positions × 2; a custom deck may be far larger).

    Parameters
    ----------
    rules : Ruleset
    players : int

    Returns
    -------
    bool
        True for two-player ``dragon-stripes`` and ``mini``; False for more players, ``kali`` and ``drago-rosso``.
    """
    entries = math.prod(count + 1 for _, count in rules.composition.counts()) * rules.head * 2
    return players == 2 and rules.final_danger is FinalDanger.ALL_GEMS and entries <= MAX_ENTRIES


class WinTable(TwoPlayerWinSolver):
    """The race model's value function over every deck of a ruleset (see the module's text).

    Parameters
    ----------
    rules : Ruleset
        A ruleset whose final danger costs its revealer all their gems.
    exact : bool
        ``Fraction`` entries (exact) if True, float64 otherwise.  The exact table is
        meant for small decks (``mini``): it is a numpy array of Python objects.
    reveal : ndarray, optional
        A table built before (:attr:`reveal`, as :func:`win_table` loads it), instead of building one.

    Attributes
    ----------
    reveal : ndarray, shape (compositions, head, 2)
        :math:`R(c, x, o)`: the active player's probability of winning when they must reveal,
        by composition index (:meth:`composition_index`), position ``x`` (0 to the last stripe)
        and ``o`` (1 if the active player owns the turn).  Entries of compositions without a
        danger left are 0 (the game is over before).

    Raises
    ------
    ValueError
        If the ruleset's final danger does not take all the revealer's gems, or ``reveal``
        has the wrong shape.

    Examples
    --------
    >>> from dragonkit.rules import Ruleset
    >>> table = WinTable(Ruleset.preset("mini"), exact=True)
    >>> table.win_probability(GameState.fresh(Ruleset.preset("mini")))
    Fraction(1, 2)
    """

    rules: Ruleset

    def __init__(self, rules: Ruleset, exact: bool = False, reveal: _Table | None = None):
        if not isinstance(rules, Ruleset):
            raise ValueError(f"rules must be a Ruleset, not {type(rules).__name__}")
        if rules.final_danger is not FinalDanger.ALL_GEMS:
            raise ValueError(
                f"{rules.name!r}: its final danger costs only the pot, so the gems decide that ending; "
                "the race model solves rulesets whose final danger costs all the revealer's gems"
            )
        self.rules = rules
        self.exact = exact
        self._dims = tuple(count + 1 for _, count in rules.composition.counts())
        self._strides = tuple(int(s) for s in np.cumprod((1,) + self._dims[:0:-1])[::-1])
        shape = (int(np.prod(self._dims)), rules.head, 2)
        if reveal is None:
            reveal = self._build()
        elif reveal.shape != shape or reveal.dtype != np.float64:
            raise ValueError(
                f"a table of {rules.name!r} holds float64 of shape {shape}, not {reveal.dtype} of shape {reveal.shape}"
            )
        self.reveal = reveal

    # -- building ------------------------------------------------------------------------------

    def _owns_next(self) -> tuple[bool, bool]:
        """By ``o``: whether the active player owns the turn after this one (seat 0 active)."""
        return tuple(next_turn_owner(0 if o else 1, 2, 1) == 0 for o in (0, 1))  # type: ignore[return-value]

    def _build(self) -> _Table:
        rules, head = self.rules, self.rules.head
        counts = np.indices(self._dims).reshape(len(self._dims), -1)
        total = counts.sum(axis=0)
        dtype: Any = object if self.exact else np.float64
        reveal = np.zeros((counts.shape[1], head, 2), dtype=dtype)
        choice = np.zeros_like(reveal)
        owns_next = np.array(self._owns_next())
        positions = np.arange(head)
        nothing = np.zeros_like(positions)  # the pot: where the knight goes does not depend on it
        steps = [s for s, _ in rules.composition.footprints]
        stop, danger = len(steps), len(steps) + 1
        one = np.array(Fraction(1) if self.exact else 1.0, dtype=dtype)
        for n in range(1, int(total.max()) + 1):
            for dangers_left in range(1, rules.danger_cards + 1):
                layer = np.flatnonzero((total == n) & (counts[danger] == dangers_left))
                if layer.size == 0:
                    continue
                stage = rules.danger_cards - dangers_left
                value = np.zeros((layer.size, head, 2), dtype=dtype)
                for kind in range(len(self._dims)):
                    left = counts[kind, layer]
                    drawn = np.flatnonzero(left > 0)
                    if drawn.size == 0 or (kind == danger and rules.is_final_danger(stage + 1)):
                        continue  # the final danger: the revealer loses (M2), worth 0
                    p = self._probabilities(left[drawn], n)[:, None, None]
                    child = layer[drawn] - self._strides[kind]
                    if kind < stop:
                        step = rules.footprint_effect(steps[kind], positions, nothing, 0, stage, n - 1)
                        onward = choice[child][:, np.minimum(step.position, head - 1), :]
                        value[drawn] += p * np.where(step.at_head.astype(bool)[None, :, None], one, onward)  # M1
                    else:
                        value[drawn] += p * self._ended(reveal[child, 0, 1], owns_next)[:, None, :]
                reveal[layer] = value
                bank = self._ended(value[:, 0, 1], owns_next)[:, None, :]
                hold = np.minimum(bank, 1 - value[:, :, ::-1])  # M3: the other may take over
                choice[layer] = np.maximum(value, hold)
        return reveal

    def _probabilities(self, left: npt.NDArray[np.int64], n: int) -> _Table:
        if self.exact:
            return np.array([Fraction(int(k), n) for k in left], dtype=object)
        return left / n

    @staticmethod
    def _ended(start: _Table, owns_next: npt.NDArray[np.bool_]) -> _Table:
        """:math:`E_o`: the active player's chance when the turn ends, by ``o`` (last axis)."""
        return np.where(owns_next[None, :], start[:, None], 1 - start[:, None])

    # -- answering -----------------------------------------------------------------------------

    def composition_index(self, deck: Composition) -> int:
        """The row of :attr:`reveal` that holds the deck composition ``deck``."""
        counts = [count for _, count in deck.counts()]
        return sum(c * s for c, s in zip(counts, self._strides, strict=True))

    def _action_value(self, state: GameState, mover: int, action: Action) -> Probability:
        active = state.active
        seen = self._reveal_value(state) if action is Action.REVEAL else self._after_offer(state, action)
        return seen if mover == active else 1 - seen

    def _entry(self, deck: Composition, position: int, owner_active: bool) -> Probability:
        value = self.reveal[self.composition_index(deck), position, int(owner_active)]
        return value if self.exact else float(value)

    def _reveal_value(self, state: GameState) -> Probability:
        """The active player's chance if they reveal now: every card that ends the game now is
        scored with the real gems, the others with the model's values."""
        total: Probability = 0
        for card, p in state.chance_outcomes():
            after = state.child(card)
            if after.is_terminal():
                value: Probability = self._number(after.returns()[state.active])
            elif after.phase is Phase.CHOOSE:
                value = self._choice_value(after)
            else:  # a stop or a danger ended the turn
                value = self._entry(after.deck, 0, True)
                value = value if after.active == state.active else 1 - value
            total += self._number(p) * value
        return total

    def _choice_value(self, state: GameState) -> Probability:
        """The active player's chance at a choice: :math:`C`, its hold read with the real gems."""
        reveal = self._entry(state.deck, state.position, state.owner == state.active)
        return max(reveal, self._after_offer(state, Action.HOLD))

    def _bank_value(self, state: GameState) -> Probability:
        """The holder's chance when the pot is banked and the next turn starts: :math:`E_o`."""
        start = self._entry(state.deck, 0, True)
        owns_next = self._owns_next()[int(state.owner == state.active)]
        return start if owns_next else 1 - start

    def _after_offer(self, state: GameState, action: Action) -> Probability:
        """The active (holding) player's chance after a hold, a takeover or a decline, read with
        the real gems: a hold nobody can pay for is banked."""
        other = 1 - state.active
        take_over = 1 - self._entry(state.deck, state.position, state.owner == other)
        if action is Action.TAKE_OVER:
            return take_over
        if action is Action.DECLINE:
            return self._bank_value(state)
        if self.rules.may_take_over(state.gems[other], state.pot):  # a hold: the other chooses
            return min(self._bank_value(state), take_over)
        return self._bank_value(state)


def saved_win_table(rules: Ruleset) -> SavedArray[WinTable]:
    """The float :class:`WinTable` of ``rules`` as the kit's cache keeps it (:class:`~dragonkit.cache.SavedArray`:
    a ``.npy`` file named by a digest of the ruleset and of this module's code)."""
    return SavedArray(
        f"win-table-{rules.name}",
        rules.to_dict(),
        __name__,
        build=lambda: WinTable(rules),
        array=lambda table: table.reveal,
        rebuild=lambda reveal: WinTable(rules, reveal=reveal),
    )


@functools.cache
def win_table(rules: Ruleset) -> WinTable:
    """The float :class:`WinTable` of ``rules``, built once per machine and kept in the user's cache.

    The table is saved as a ``.npy`` file in the kit's cache (:func:`saved_win_table`), and loaded memory-mapped,
    so that the kernels of a class share one copy; a kernel that finds another building it waits for its file
    rather than building a second copy (a build peaks at about 400 MB); where the cache cannot be written the table
    stays in this process's memory.

    Raises
    ------
    ValueError
        As :class:`WinTable`.
    """
    return saved_win_table(rules).computed_once()
