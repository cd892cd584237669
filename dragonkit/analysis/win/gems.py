r"""Win probabilities of the whole game where the gems decide it: ``kali`` and ``drago-rosso``.

In these editions the final danger costs its revealer only the pot, and the game then ends *on the
gems*: the player with more wins (RULES.md sections 4 and 6).  Every pot banked, every bounty paid and
every penalty can change that winner, so no state without both players' gems is exact
(:mod:`~dragonkit.analysis.win.reduced`'s text), and the exact reduced space, bounded by 10\ :sup:`16`
states, is out of reach.  This module solves a **model** of the two-player game over the whole deck, by
backward induction over the cards left as :mod:`~dragonkit.analysis.win.race` does for the race editions,
with the gems carried on a grid, and reads a real decision with the real deck, gems and pot.

The model
---------
Its state is :math:`(F, s, d, x, P, o, t, \delta)`:

* the deck **reduced to its counts**: :math:`F` footprints, :math:`s` stops, :math:`d` dangers left (the
  stage is the dangers dealt); (G1) a footprint's steps follow the split of the full deck (``kali``:
  14 : 12 : 8 : 4 for 1 to 4 steps) whatever footprints are gone;
* the knight's position :math:`x`, and the pot :math:`P` on a grid of pots (:attr:`GemsWinTable.pots`);
* :math:`o = 1` when the active player owns the turn;
* the gems of the active player :math:`g_a` and of the other :math:`g_o` as their **total**
  :math:`t = g_a + g_o` and the active player's **lead** :math:`\delta = g_a - g_o`, on a grid
  (:attr:`GemsWinTable.totals`, :attr:`GemsWinTable.leads`) that holds every lead of at most
  :data:`FINE_LEAD` gems: the lead is what the final danger reads (whoever leads wins), and a bounty moves
  it by twice the pot while the total stays;
* (G2) the treasure never runs short of a stripe's gems (the stripes pay their full value; the real game
  differs only when the treasure holds fewer gems than a stripe pays, at most 36 in ``kali``).

At a grid point every rule is the rules' own, on whole gems: a stop's or a danger's penalty, and the final
danger's winner, are the game's own step (:meth:`GameState.child <dragonkit.game_state.GameState.child>`, through
:meth:`Ruleset.apply_card <dragonkit.rules.Ruleset.apply_card>`); where a footprint
takes the knight and what it places (:meth:`Ruleset.footprint_effect
<dragonkit.rules.Ruleset.footprint_effect>`), who may pay a bounty (:meth:`Ruleset.may_take_over
<dragonkit.rules.Ruleset.may_take_over>`, :meth:`Ruleset.bounty <dragonkit.rules.Ruleset.bounty>`), what
paying it and banking the pot do to the gems (the game's own payments, :func:`~dragonkit.turn.takeover_step` and
:func:`~dragonkit.turn.hold_step`), the winner on the gems (:func:`~dragonkit.game_state.win_shares`; the head
pays the pot and the whole treasure, :meth:`Ruleset.footprint_effect <dragonkit.rules.Ruleset.footprint_effect>`,
so its reacher ends with :math:`S - g_o` gems, :math:`S` the gems of the game), who owns the next turn
(:func:`~dragonkit.game_state.next_turn_owner`).  (G3) Between grid points the value is read by linear
interpolation: in the pot, and in the total and the lead (exact in the lead within :data:`FINE_LEAD`).

The recursion is :mod:`~dragonkit.analysis.win.race`'s with the gems: :math:`R` when the active player
must reveal, :math:`C = \max(R, H)` at a choice, the hold :math:`H = \min(\text{bank}, \text{take over})`
when the other player may pay the bounty and the bank otherwise, :math:`E_o` when the turn ends; each
layer :math:`(F, s, d)` from the layers with one card fewer, vectorised over positions, pots, owners and
gems (backward induction over the deck).  Only the turn-start values
:math:`U(F, s, d, t, \delta) = R(F, s, d, 0, 0, 1, t, \delta)` are kept (:attr:`GemsWinTable.start`).

Where the model is the game
---------------------------
(G1)–(G3) are the model's only departures: with one kind of footprint, a treasure that never runs short and
gems and pots that stay on grid points (a small deck), the model *is* the game, and
``tests/analysis/win/test_gems.py`` finds it equal to :class:`~dragonkit.analysis.win.reduced.ReducedWinSolver`'s
exact values at every decision of seeded games.  What the departures cost on the real decks is measured,
not assumed (``benchmarks/bench_win_gems.py``; the figures are in ``docs/win.md``): against the exact
solver from situations of real games with a few cards left, and by games against the coach.  (G1) costs
most at the end of a game, where one card changes the split; the win bot and the coach answer those
situations exactly (:class:`~dragonkit.analysis.win.late.LateGame`, at most
:data:`~dragonkit.analysis.win.late.LATE_CARDS` cards left).

Answering a real decision
-------------------------
:meth:`GemsWinTable.action_values` reads the decision at hand with the real deck, gems and pot: every card of
the real deck with its real chance (the hypergeometric law of the next card), every step the engine's
:meth:`GameState.child <dragonkit.game_state.GameState.child>`, and each situation a step leads to is worth
the model's value there: :math:`U` at the start of a turn, :math:`C` at a choice, :math:`R` at the reveal
after a takeover.  A turn's reveals and takeovers keep the players' total (a bounty moves gems from one to
the other), so the within-turn values of a decision are needed at one total only: the same backward
induction at the leads of that total (:math:`U` read on the grid where a turn ends), solved at a turn's first
decision and kept for its later ones.

Cost
----
``kali``: 2.3 million entries of :math:`U` (19 MB), built in about a minute on one core (peak 190 MB);
``drago-rosso`` alike.  :func:`gems_win_table` builds a table once per machine and keeps it in the user's
cache.  A turn's first decision takes a few tens of milliseconds, its later ones about one.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ...cache import SavedArray
from ...game_state import GameState, Phase, next_turn_owner, win_shares
from ...rules import DANGER_CARD, STOP_CARD, FinalDanger, Ruleset
from ...turn import Action, hold_step, takeover_step
from .solver import Probability, TwoPlayerWinSolver

if TYPE_CHECKING:  # scipy.sparse is heavy: loaded when a table is built or asked, not with the play app
    from scipy import sparse

__all__ = ["FINE_LEAD", "GemsWinTable", "gems_win_table", "models", "saved_gems_win_table"]

_Floats = npt.NDArray[np.float64]
_Ints = npt.NDArray[np.int64]
_Singles = npt.NDArray[np.float32]

#: Every lead of at most this many gems is a point of the grid (gems): the final danger's winner is exact there.
FINE_LEAD = 16
#: The grid, by axis: every point up to the first number (gems; every other one for the totals), then points
#: growing by the second (the leads' first number is :data:`FINE_LEAD`).
GRID = {"totals": (16, 1.25), "leads": (FINE_LEAD, 1.3), "pots": (12, 1.25)}


def models(rules: Ruleset, players: int) -> bool:
    """Whether :class:`GemsWinTable` answers games of ``players`` players of ``rules``: two players and a final
    danger that costs only the pot (``kali``, ``drago-rosso``).

    Parameters
    ----------
    rules : Ruleset
    players : int

    Returns
    -------
    bool
        False for a custom ruleset without danger cards (its game ends on an empty deck).
    """
    return players == 2 and rules.final_danger is FinalDanger.POT_ONLY and rules.danger_cards > 0


def _spread(fine: int, top: int, ratio: float, even: bool) -> _Ints:
    """Grid points 0, 1 (or 2), ... ``fine`` every gem (every other one if ``even``), then growing by ``ratio``
    up to ``top`` (at least ``top``)."""
    step = 2 if even else 1
    points = list(range(0, fine + 1, step))
    while points[-1] < top:
        nxt = max(points[-1] + step, int(points[-1] * ratio))
        points.append(min(nxt + nxt % step, top + top % step))
    return np.array(points, dtype=np.int64)


def _bracket(nodes: _Ints, query: Any) -> tuple[_Ints, _Ints, _Floats]:
    """For each ``query``: the indices of the grid points below and above it and the weight of the upper one
    (linear between them, flat outside the grid)."""
    q = np.clip(np.asarray(query, dtype=np.float64), nodes[0], nodes[-1])
    low = np.clip(np.searchsorted(nodes, q, side="right") - 1, 0, max(0, len(nodes) - 2))
    up = np.minimum(low + 1, len(nodes) - 1)
    span = np.maximum(nodes[up] - nodes[low], 1)
    return low, up, (q - nodes[low]) / span


def _reading(index: list[_Ints], weight: list[_Floats], size: int) -> sparse.csr_array:
    """The linear map from values at ``size`` points to values at the queries: row ``i`` weighs point
    ``index[k][i]`` by ``weight[k][i]``."""
    from scipy import sparse

    at, w = np.stack([i.ravel() for i in index], axis=-1), np.stack([x.ravel() for x in weight], axis=-1)
    rows = np.repeat(np.arange(at.shape[0]), at.shape[1])
    return sparse.csr_array((w.ravel(), (rows, at.ravel())), shape=(at.shape[0], size))


@dataclass(frozen=True)
class _Points:
    """The gems at which a sweep computes the within-turn values, and what each card or offer makes of them
    (filled by :meth:`GemsWinTable._points`): ``active``, ``other`` are each point's whole gems; ``take`` reads the
    gems after a bounty among these same points (a takeover keeps the players' total), ``bank`` and ``ended`` read
    the gems after a turn's end on the grid of the next turn's start."""

    active: _Ints
    other: _Ints
    head_share: _Floats  # the active player's share of the win at the head: S - g_o against g_o
    may_take: npt.NDArray[np.bool_]  # (pots, points): whether the other player may pay the bounty
    take: sparse.csr_array  # (pots × points) rows: the taker's gems after the bounty, read among these points
    bank: sparse.csr_array  # (pots × points) rows: the holder's gems with the pot banked, read on the grid
    ended: dict[int, dict[str, _Floats | sparse.csr_array]]  # by stage, stop and danger: see GemsWinTable._points


#: Within-turn values of one total: its points, then :math:`R` and :math:`C` by footprints left (float32).
_Column = tuple[_Points, list[_Singles], list[_Singles]]


class GemsWinTable(TwoPlayerWinSolver):
    """The gems model of a two-player ruleset whose final danger costs only the pot (see the module's text).

    Parameters
    ----------
    rules : Ruleset
        A ruleset whose final danger costs its revealer only the pot.
    start : ndarray, optional
        A table built before (:attr:`start`, as :func:`gems_win_table` loads it), instead of building one.

    Attributes
    ----------
    totals, leads, pots : ndarray of int
        The grid: both players' gems :math:`t` (even numbers), the active player's lead :math:`\\delta` (every
        lead within :data:`FINE_LEAD`), the pot :math:`P` (gems).
    start : ndarray, shape (F + 1, s + 1, d + 1, len(totals), len(leads))
        :math:`U`: the active player's probability of winning at the start of their own turn, by footprints,
        stops and dangers left, total and lead (float64; 0 where no danger is left).  ``kali``: 2.3 million
        entries, 18 MiB.

    Raises
    ------
    ValueError
        If the ruleset's final danger costs all the revealer's gems
        (:class:`~dragonkit.analysis.win.race.WinTable` answers those) or it has no danger card, or ``start`` has
        the wrong shape or type.

    Examples
    --------
    >>> from dragonkit.rules import Ruleset
    >>> table = gems_win_table(Ruleset.preset("kali"))  # built in about a minute, or loaded
    >>> round(table.win_probability(GameState.fresh(Ruleset.preset("kali"))), 2)
    0.5
    """

    exact = False
    rules: Ruleset

    def __init__(self, rules: Ruleset, start: _Floats | None = None):
        if not isinstance(rules, Ruleset):
            raise ValueError(f"rules must be a Ruleset, not {type(rules).__name__}")
        if rules.final_danger is not FinalDanger.POT_ONLY:
            raise ValueError(
                f"{rules.name!r}: its final danger costs all the revealer's gems, which the race model "
                "(WinTable) solves; the gems model solves rulesets whose final danger costs only the pot"
            )
        if rules.danger_cards == 0:
            raise ValueError(f"{rules.name!r} has no danger card: the gems model's games end on the last danger card")
        self.rules = rules
        deck = rules.composition
        self._gems = rules.starting_gems * 2 + rules.treasure  # S: the players', the treasure's and the pot's
        most_pot = sum(rules.stripe_values) * max(stage.multiplier for stage in rules.stages)
        self.totals = _spread(GRID["totals"][0], self._gems, GRID["totals"][1], even=True)
        coarse = _spread(FINE_LEAD, self._gems, GRID["leads"][1], even=True)
        self.leads = np.unique(np.concatenate([-coarse, np.arange(-FINE_LEAD, FINE_LEAD + 1), coarse]))
        self.pots = _spread(GRID["pots"][0], most_pot, GRID["pots"][1], even=False)
        footprints = sum(n for _, n in deck.footprints)
        self._split = np.array([n for _, n in deck.footprints], dtype=np.float64) / max(1, footprints)
        self._columns: OrderedDict[tuple[int, int, int], _Column] = OrderedDict()
        self._moves = [self._footprints(stage) for stage in range(rules.danger_cards)]
        shape = (footprints + 1, deck.stops + 1, deck.dangers + 1, len(self.totals), len(self.leads))
        if start is None:
            self.start = np.zeros(shape)
            grid = self._grid_points()
            for dangers in range(1, deck.dangers + 1):
                for stops in range(deck.stops + 1):
                    for _ in self._sweep(grid, stops, dangers, footprints, build=True):
                        pass
        elif start.shape != shape or start.dtype != np.float64:
            raise ValueError(
                f"a table of {rules.name!r} holds float64 of shape {shape}, not {start.dtype} of shape {start.shape}"
            )
        else:
            self.start = start

    # -- the points --------------------------------------------------------------------------------------

    def _on_grid(self, active: Any, other: Any) -> sparse.csr_array:
        """Where whole gems ``(g_a, g_o)`` fall on the grid of :attr:`start`: linear in the lead, then in the
        total within each of the two leads' columns (a column of odd leads stands for totals one gem above the
        grid's, so that its points own whole gems)."""
        active, other = np.asarray(active), np.asarray(other)
        n_leads = len(self.leads)
        low, up, toward = _bracket(self.leads, active - other)
        index, weight = [], []
        for column, share in ((low, 1 - toward), (up, toward)):
            below, above, higher = _bracket(self.totals, active + other - self.leads[column] % 2)
            index += [below * n_leads + column, above * n_leads + column]
            weight += [share * (1 - higher), share * higher]
        return _reading(index, weight, len(self.totals) * n_leads)

    def _grid_points(self) -> _Points:
        """The grid's own points (flat over total and lead): what the build computes at; gems beyond what a
        player can own are read as the nearest possible ones."""
        total = self.totals[:, None] + self.leads[None, :] % 2
        active = np.clip((total + self.leads) // 2, 0, self._gems).ravel()
        other = np.clip((total - self.leads) // 2, 0, self._gems).ravel()
        return self._points(active, other, self._on_grid, range(self.rules.danger_cards))

    def _total_points(self, total: int, stage: int) -> _Points:
        """The leads of one total ``total`` (those of the grid, of the total's parity, at most ``total``) at one
        ``stage``: what a decision is computed at, since a turn's reveals and takeovers keep the players' total."""
        leads = np.concatenate([self.leads, self.leads + 1, [-total, total]])
        leads = np.unique(leads[(leads % 2 == total % 2) & (np.abs(leads) <= total)])
        active, other = (total + leads) // 2, (total - leads) // 2

        def among(a: Any, o: Any) -> sparse.csr_array:
            low, up, toward = _bracket(leads, np.asarray(a) - np.asarray(o))
            return _reading([low, up], [1 - toward, toward], leads.size)

        return self._points(active, other, among, range(stage, stage + 1))

    def _points(
        self, active: _Ints, other: _Ints, into: Callable[[Any, Any], sparse.csr_array], stages: range
    ) -> _Points:
        """Everything a sweep at ``stages`` needs at the points ``(active, other)``, each step the game's own
        (:meth:`GameState.child <dragonkit.game_state.GameState.child>`, the rules' arithmetic) at whole gems: by
        stage, what a stop and a danger make of the points (``ended``: the final danger's win shares, or the
        reading of the next turn's start at the gems left)."""
        from scipy import sparse

        rules, deck = self.rules, self.rules.composition
        treasure = np.maximum(self._gems - active - other, 0)
        ended: dict[int, dict[str, _Floats | sparse.csr_array]] = {}
        for stage in stages:
            start = GameState(rules, (0, 0), 0, replace(deck, dangers=rules.danger_cards - stage), stage)
            ended[stage] = {}
            for card in (STOP_CARD, DANGER_CARD):
                if not start.deck.count(card):
                    continue  # a custom deck without stops: never drawn
                after = [
                    replace(start, gems=(int(a), int(o)), treasure=int(t)).child(card)
                    for a, o, t in zip(active, other, treasure, strict=True)
                ]
                if after[0].is_terminal():  # the final danger: the gems decide
                    ended[stage][card.kind] = np.array([float(state.returns()[0]) for state in after])
                else:
                    ended[stage][card.kind] = self._on_grid([state.gems[0] for state in after], other)
        bounties = [rules.bounty(int(p)) for p in self.pots]
        # a footprint from the last stripe: the head pays the pot and the treasure, every gem no player owns (how
        # the two share them makes no difference), so its reacher ends with S - g_o
        last_stripe, no_pot = np.full_like(active, rules.n_stripes), np.zeros_like(active)
        head = rules.footprint_effect(deck.footprints[0][0], last_stripe, no_pot, self._gems - active - other, 0, 1)
        return _Points(
            active=active,
            other=other,
            head_share=np.array(
                [float(win_shares((a, o))[0]) for a, o in zip(active + head.gems_change, other, strict=True)]
            ),
            may_take=np.array([[rules.may_take_over(int(o), int(p)) for o in other] for p in self.pots]),
            take=sparse.block_diag([into(*takeover_step(other, active, b)) for b in bounties], format="csr"),
            bank=self._on_grid(
                hold_step(active[None, :], self.pots[:, None])[0], np.broadcast_to(other, (self.pots.size, active.size))
            ),
            ended=ended,
        )

    def _ended_values(self, start: _Floats) -> _Floats:
        """:math:`E_o` at every grid point, shape (2, gems): the active player's chance when the turn ends and the
        next starts with the values ``start`` (flat over the grid), by ``o``."""
        mirror = np.arange(len(self.totals))[:, None] * len(self.leads) + np.searchsorted(self.leads, -self.leads)
        seen_by_other = 1 - start[mirror.ravel()]
        owns_next = [next_turn_owner(0 if o else 1, 2, 1) == 0 for o in (0, 1)]
        return np.stack([start if owns else seen_by_other for owns in owns_next])

    # -- the backward induction ------------------------------------------------------------------------

    def _footprints(self, stage: int) -> tuple[sparse.csr_array, _Floats]:
        """What the next card does to the (position, pot) rows of a layer if it is a footprint, at ``stage``: the
        map to the rows of the layer with one footprint fewer (each kind weighted by its share of the footprints,
        linear between pots), and by row the chance that it reaches the head instead."""
        from scipy import sparse

        rules, head, n_pots = self.rules, self.rules.head, self.pots.size
        rows, columns, weights = [], [], []
        to_head = np.zeros(head * n_pots)
        for split, (step, _) in zip(self._split, rules.composition.footprints, strict=True):
            effect = rules.footprint_effect(step, np.arange(head)[:, None], self.pots[None, :], self._gems, stage, 1)
            new, pot, at_head = effect.position, effect.pot, effect.at_head
            reaches = np.broadcast_to(at_head, pot.shape).astype(bool).ravel()
            to_head += split * reaches
            position, at = np.divmod(np.flatnonzero(~reaches), n_pots)
            low, up, toward = _bracket(self.pots, pot[position, at])
            landing = np.broadcast_to(new, pot.shape)[position, at] * n_pots
            rows += [position * n_pots + at] * 2
            columns += [landing + low, landing + up]
            weights += [split * (1 - toward), split * toward]
        size = head * n_pots
        moves = sparse.csr_array(
            (np.concatenate(weights), (np.concatenate(rows), np.concatenate(columns))), (size, size)
        )
        return moves, to_head

    def _sweep(
        self, points: _Points, stops: int, dangers: int, top: int, build: bool = False
    ) -> Iterator[tuple[_Floats, _Floats]]:
        """:math:`R` and :math:`C` of the layers of ``stops`` stops and ``dangers`` dangers left, from no
        footprint to ``top`` footprints, each of shape (positions, pots, o, points).  ``build``: the points are
        the grid's, and each layer's :math:`U` is written into :attr:`start` as it is found."""
        rules, head, n_pots, n = self.rules, self.rules.head, self.pots.size, points.active.size
        stage = rules.danger_cards - dangers
        moves, to_head = self._moves[stage]
        head_share = np.tile(points.head_share, 2)  # by (o, point), as a row of a layer flattened
        # a hold's values are made where the bounty's reading puts them, by (pots, points, position, o): there the
        # holder's bank and whether the other may pay are by (pots, points), read straight along the rows
        may_not_take = ~points.may_take[:, :, None, None]
        choice = np.zeros((head, n_pots, 2, n))
        for footprints in range(top + 1):
            cards = footprints + stops + dangers
            flat = moves @ choice.reshape(head * n_pots, 2 * n)
            flat += to_head[:, None] * head_share
            flat *= footprints / cards
            reveal = flat.reshape(choice.shape)
            for card, left in ((STOP_CARD, stops), (DANGER_CARD, dangers)):
                ending = points.ended[stage][card.kind]
                if left and isinstance(ending, np.ndarray):  # the final danger: the gems decide
                    reveal += left / cards * ending
                elif left:
                    later = (footprints, stops - (card is STOP_CARD), dangers - (card is DANGER_CARD))
                    reveal += left / cards * (ending @ self._ended_values(self.start[later].ravel()).T).T
            if build:
                self.start[footprints, stops, dangers] = reveal[0, 0, 1].reshape(self.start.shape[3:])
            here = self._ended_values(self.start[footprints, stops, dangers].ravel())
            banked = (points.bank @ here.T).reshape(n_pots, n, 1, 2)  # (pots, points, -, o)
            taker = reveal[:, :, ::-1, :].transpose(1, 3, 0, 2).reshape(n_pots * n, head * 2)  # o: the holder's other
            hold = (points.take @ taker).reshape(n_pots, n, head, 2)
            np.subtract(1, hold, out=hold)  # the taker's chance read, the holder's left
            np.minimum(hold, banked, out=hold)  # the worse of the two for the holder, where the other may pay
            np.copyto(hold, banked, where=may_not_take)  # else the bank
            choice = np.empty_like(reveal)
            np.maximum(reveal, hold.transpose(2, 0, 3, 1), out=choice)
            yield reveal, choice

    # -- answering --------------------------------------------------------------------------------------

    def _check(self, state: GameState) -> None:
        """Refuse a state the model cannot be asked about: not a two-player game of its ruleset, or one made up by
        hand that no game reaches (a stage that disagrees with the dangers left, gems that do not add up to the
        game's, RULES.md section 1)."""
        super()._check(state)
        if state.is_terminal():
            return
        rules, deck = self.rules, state.deck
        if deck.dangers != rules.danger_cards - state.stage:
            raise ValueError(
                f"a game of {rules.name!r} at stage {state.stage} has {rules.danger_cards - state.stage} danger "
                f"card(s) left in its deck, not {deck.dangers}"
            )
        total = sum(state.gems) + state.treasure + state.pot
        if total != self._gems:
            raise ValueError(
                f"the gems of a two-player game of {rules.name!r} (the players', the treasure's and the pot's) add "
                f"up to {self._gems}, not {total}"
            )

    def turn_start_value(self, state: GameState) -> float:
        """:math:`U`: the active player's chance at the start of their turn in ``state``, read off the grid.

        Parameters
        ----------
        state : GameState
            The start of a turn (no card of it revealed yet) of a two-player game of the table's ruleset.

        Returns
        -------
        float

        Raises
        ------
        ValueError
            If ``state`` is not the start of a turn of a two-player game of the table's ruleset.
        """
        self._check(state)
        if not _turn_starts(state):
            raise ValueError(f"the model's table holds the starts of turns, not {state!r:.80}")
        deck = state.deck
        footprints = sum(n for _, n in deck.footprints)
        reading = self._on_grid(state.gems[state.active], state.gems[1 - state.active])
        return float((reading @ self.start[footprints, deck.stops, deck.dangers].ravel())[0])

    def _action_value(self, state: GameState, mover: int, action: Action) -> Probability:
        if action is Action.REVEAL:
            return sum(float(p) * self._seen_by(mover, state.child(card)) for card, p in state.chance_outcomes())
        return self._seen_by(mover, state.child(action))

    def _seen_by(self, seat: int, state: GameState) -> float:
        """``seat``'s chance in ``state``: the ending's share, or the model's value of the active player."""
        if state.is_terminal():
            return float(state.returns()[seat])
        if state.phase is Phase.OFFER:  # the other player chooses: the worse of the two for the holder
            holder = min(self._seen_by(state.active, state.child(a)) for a in (Action.TAKE_OVER, Action.DECLINE))
            return holder if seat == state.active else 1 - holder
        value = self.turn_start_value(state) if _turn_starts(state) else self._within_turn(state)
        return value if seat == state.active else 1 - value

    def _within_turn(self, state: GameState) -> float:
        """:math:`C` at a choice, :math:`R` at the compulsory reveal after a takeover: from the layers of the
        state's total, read at its pot and lead."""
        deck, active = state.deck, state.active
        footprints = sum(n for _, n in deck.footprints)
        gems, other = state.gems[active], state.gems[1 - active]
        points, reveals, choices = self._column(deck.stops, deck.dangers, gems + other, footprints)
        values = (choices if state.phase is Phase.CHOOSE else reveals)[footprints]
        at_pots = _bracket(self.pots, state.pot)
        at_leads = _bracket(points.active - points.other, gems - other)
        row = values[state.position, :, int(state.owner == active), :]
        (low, up, toward), (left, right, ahead) = at_pots, at_leads
        by_pot = row[low] * (1 - toward) + row[up] * toward
        return float(by_pot[left] * (1 - ahead) + by_pot[right] * ahead)

    def _column(self, stops: int, dangers: int, total: int, top: int) -> _Column:
        """:math:`R` and :math:`C` of the layers of ``stops`` and ``dangers`` left at the players' total ``total``,
        up to ``top`` footprints left: solved once (a few tens of milliseconds) and kept for the rest of the turn
        (its reveals and takeovers keep all three); the last :data:`_KEEP_COLUMNS` are kept."""
        key = (stops, dangers, total)
        found = self._columns.get(key)
        if found is None or len(found[1]) <= top:
            points = self._total_points(total, self.rules.danger_cards - dangers)
            reveals: list[_Singles] = []
            choices: list[_Singles] = []
            for reveal, choice in self._sweep(points, stops, dangers, top):
                reveals.append(reveal.astype(np.float32))
                choices.append(choice.astype(np.float32))
            found = self._columns[key] = (points, reveals, choices)
            while len(self._columns) > _KEEP_COLUMNS:
                self._columns.popitem(last=False)
        self._columns.move_to_end(key)
        return found


#: How many columns of within-turn values :class:`GemsWinTable` keeps (about 5 MB each): a turn needs one.
_KEEP_COLUMNS = 2


def _turn_starts(state: GameState) -> bool:
    """Whether ``state`` is the start of a turn: a compulsory reveal with the knight on the tail and no pot."""
    return state.phase is Phase.MUST_REVEAL and state.position == 0 and state.pot == 0


def saved_gems_win_table(rules: Ruleset) -> SavedArray[GemsWinTable]:
    """The :class:`GemsWinTable` of ``rules`` as the kit's cache keeps it (:class:`~dragonkit.cache.SavedArray`:
    a ``.npy`` file named by a digest of the ruleset and of this module's code)."""
    return SavedArray(
        f"gems-win-table-{rules.name}",
        rules.to_dict(),
        __name__,
        build=lambda: GemsWinTable(rules),
        array=lambda table: table.start,
        rebuild=lambda start: GemsWinTable(rules, start=start),
    )


@functools.cache
def gems_win_table(rules: Ruleset) -> GemsWinTable:
    """The :class:`GemsWinTable` of ``rules``, built once per machine and kept in the user's cache
    (:func:`saved_gems_win_table`; as :func:`~dragonkit.analysis.win.race.win_table`: one process builds it,
    about a minute on one core, while the others wait for its file; memory-mapped).

    Raises
    ------
    ValueError
        As :class:`GemsWinTable`.
    """
    return saved_gems_win_table(rules).computed_once()
