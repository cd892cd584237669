"""The decision graph of a turn: every decision point reachable from a situation.

Within a turn only footprint cards can be drawn without ending it, so after
``L`` more cards every decision point has exactly ``n - L`` cards left: the
graph falls into *layers* by depth, each edge goes from one layer to the next,
and the graph is acyclic.  A decision point is identified by its remaining
footprint counts, the knight's position and the pot; the stage, the active
player's gems, the stop and danger counts and ``treasure + pot`` (the *bank*)
are the same throughout.

Layers are built breadth first with numpy.  What a footprint card does depends,
within a turn, only on the knight's position and the pot (and on whether it is
the deck's last card), so every footprint kind steps every (position, pot) pair
the turn can reach (:func:`dragonkit.turn.pot_bound`) once, through
:func:`dragonkit.turn.footprint_children`, the array form of
:meth:`TurnState.child <dragonkit.turn.TurnState.child>`, and each layer looks
its points up in that table (where the pairs are too many, each layer is
stepped instead); a stop or a danger ends the turn with the reward
:meth:`TurnState.effect` gives it.

The footprints drawn since a root fix the knight's position, so the points that
share a draw and a root (a *group*) differ by their pot alone.  Each group owns a
block of *slots*, one per pot the turn can reach there, numbered before the first
layer is built; a layer finds its children by marking their slots in an array and
reading the marks back in order, with no sort.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, partial

import numpy as np
from numpy.typing import ArrayLike

from ...rules import DANGER_CARD, STOP_CARD, Ruleset
from ...turn import TurnState, footprint_children, pot_bound

__all__ = ["CONTINUES", "DECK_EMPTY", "HEAD", "NO_CARD", "DecisionGraph", "Layer"]

#: The edges of a layer not expanded yet (the deepest one): no decision point, no card.
_EMPTY_EDGES = np.zeros((0, 0), dtype=np.int64)

#: The most (position, pot) pairs stepped all at once, as a table (see ``_Steps``).
_TABLE = 2**16

#: The most draws (every count of every kind up to the knight's reach) coded in int64; beyond, in Python ints.
_WIDE = 2**62

#: The most draws coded all at once (every count of every kind up to the knight's reach), as a box.
_BOX = 2**16

#: Far below any slot or pot: a slot plus it, or it plus a pot, is still negative (no decision point).
_GONE = -(2**61)

#: Codes of :attr:`Layer.ends`: what drawing a footprint kind does.
CONTINUES, HEAD, DECK_EMPTY, NO_CARD = 0, 1, 2, -1

#: What a ``_Steps`` gives: the pot after the card, the gain, the :attr:`Layer.ends` code.
_AFTER, _GAIN, _ENDS = 0, 1, 2


@dataclass
class Layer:
    """The decision points ``depth`` footprint cards after the root(s).

    Attributes
    ----------
    depth : int
        Cards revealed since the root (cards).
    cards_left : int
        Cards in the deck at every point of the layer (cards).
    counts : ndarray of int, shape (m, k)
        Footprint cards left, by kind (columns follow ``DecisionGraph.steps``).
    position, pot : ndarray of int, shape (m,)
        Knight position and gems in the pot (gems).
    ends : ndarray of int, shape (m, k)
        For each footprint kind: ``CONTINUES``, ``HEAD``, ``DECK_EMPTY``, or
        ``NO_CARD`` when no such card is left (worked out when first read).
    child : ndarray of int, shape (m, k)
        Index of the next decision point in the following layer (-1 where the
        card ends the turn or is missing).
    gain : ndarray of int, shape (m, k)
        Gem change of the active player when a card of the kind ends the turn (gems), 0 where
        it does not, also where no such card is left (what one would do): weighed by ``counts``.
    end_reward : ndarray of int, shape (m, k)
        ``gain`` where such a card is left, else 0 (worked out when first read).
    """

    depth: int
    cards_left: int
    counts: np.ndarray
    position: np.ndarray
    pot: np.ndarray
    child: np.ndarray = field(default_factory=lambda: _EMPTY_EDGES)
    gain: np.ndarray = field(default_factory=lambda: _EMPTY_EDGES)
    #: What works :attr:`ends` out (the graph's), until it is first read; backward induction never reads it.
    _ends_of: Callable[[Layer], np.ndarray] | None = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.pot)

    @cached_property
    def ends(self) -> np.ndarray:  # documented above
        return _EMPTY_EDGES if self._ends_of is None else self._ends_of(self)

    @cached_property
    def end_reward(self) -> np.ndarray:  # documented above
        return np.where(self.counts > 0, self.gain, 0) if self.gain.size else self.gain


class _Steps:
    """What each footprint kind does at the points of one turn's graph, apart from the graph (a
    layer keeps it to work its end codes out later without keeping the graph: no reference cycle).

    Within a turn a card's effect depends on the position, the pot, and whether it is the deck's
    last card, nothing else; so where the pairs are few, every kind steps every (position, pot)
    pair the turn can reach once (a table, :func:`~dragonkit.turn.footprint_children` on all
    pairs) and the points look theirs up.  Otherwise the points are stepped.

    Parameters
    ----------
    rules : Ruleset
    steps : tuple of int
        The footprint kinds.
    bank, dangers_revealed : int
        ``treasure + pot`` (gems), and the stage.
    bound : ndarray of int, shape (rules.head,)
        The largest pot at each position (:func:`~dragonkit.turn.pot_bound`; gems).
    """

    def __init__(self, rules: Ruleset, steps: tuple[int, ...], bank: int, dangers_revealed: int, bound: np.ndarray):
        self.rules, self.steps, self.bank, self.dangers_revealed = rules, steps, bank, dangers_revealed
        # A (position, pot) pair is one int, its *pair code*: the pairs a turn can reach
        # numbered in order, position by position (``offset[position] + pot``).
        self.offset = np.concatenate([[0], np.cumsum(bound + 1)[:-1]])
        self.pairs = int(bound.sum()) + len(bound)
        self.tables: dict[bool, tuple[np.ndarray, ...]] | None = {} if self.pairs <= _TABLE else None

    def __call__(self, layer: Layer, *parts: int) -> list[np.ndarray]:
        """What each footprint kind does at each point of ``layer``: arrays of shape (m, k) of the
        pot afterwards (``_GONE`` where the turn ends; part ``_AFTER``), the gain (``_GAIN``) and
        the :attr:`Layer.ends` code (``_ENDS``), those of ``parts``."""
        if self.tables is None:
            stepped = self._children(layer.position, layer.pot, layer.cards_left)
            return [stepped[part] for part in parts]
        last = layer.cards_left == 1
        if last not in self.tables:
            code = np.arange(self.pairs)
            position = self.offset[1:].searchsorted(code, side="right")
            self.tables[last] = self._children(position, code - self.offset[position], layer.cards_left)
        pair = self.offset[layer.position] + layer.pot
        return [self.tables[last][part].take(pair, axis=0) for part in parts]

    def ends(self, layer: Layer) -> np.ndarray:
        """:attr:`Layer.ends` of a layer of the graph."""
        (ends,) = self(layer, _ENDS)
        return np.where(layer.counts > 0, ends, NO_CARD)

    def _children(self, position: np.ndarray, pot: np.ndarray, cards_left: int) -> tuple[np.ndarray, ...]:
        """What each kind does at the given pairs (the arrays :meth:`__call__` gives, all three)."""
        step = footprint_children(self.rules, self.steps, position, pot, self.bank, self.dangers_revealed, cards_left)
        ends = HEAD * step.at_head + DECK_EMPTY * step.deck_empty
        return tuple(np.ascontiguousarray(a.T) for a in (np.where(step.goes_on, step.pot, _GONE), step.gain, ends))


def _draws(counts: np.ndarray, steps: tuple[int, ...], room: int) -> tuple[np.ndarray, np.ndarray]:
    """Every draw of footprint cards that takes the knight ``room`` steps or fewer.

    Parameters
    ----------
    counts : ndarray of int, shape (k,)
        The cards of each kind that may be drawn (cards).
    steps : tuple of int
        The steps of each kind.
    room : int
        The most steps the draws may take.

    Returns
    -------
    drawn : ndarray of int, shape (k, n)
        The cards taken of each kind, the draws in lexicographic order (the first kind most significant).
    more : ndarray of int, shape (k, n)
        The draw with one more card of each kind, -1 where there is none.
    """
    sizes = [min(c, room // s) + 1 for c, s in zip(counts.tolist(), steps)]  # a box around the draws
    weights = [math.prod(sizes[i + 1 :]) for i in range(len(sizes))]  # each draw is coded by its place in it
    walked = np.zeros(1, dtype=np.int64)
    if math.prod(sizes) <= _BOX:  # the whole box at once, a draw found by its code
        for size, step in zip(sizes, steps):
            walked = (walked[:, None] + np.arange(0, size * step, step)).ravel()
        code = (walked <= room).nonzero()[0]
        drawn, walked = np.array(np.unravel_index(code, sizes)), walked[code]
        index = np.full(math.prod(sizes), -1)
        index[code] = np.arange(len(code))
        find: Callable[[np.ndarray], np.ndarray] = partial(index.take, mode="clip")
    else:  # kind by kind, keeping the draws that fit; a draw found by searching for its code
        code = np.zeros(1, dtype=np.int64 if math.prod(sizes) < _WIDE else object)
        for size, step in zip(sizes, steps):
            walked = (walked[:, None] + np.arange(0, size * step, step)).ravel()
            code = (code[:, None] * size + np.arange(size)).ravel()
            keep = walked <= room
            walked, code = walked[keep], code[keep]
        drawn = np.empty((len(sizes), len(code)), dtype=np.int64)
        rest = code
        for i in range(len(sizes) - 1, -1, -1):
            rest, drawn[i] = rest // sizes[i], rest % sizes[i]
        find = code.searchsorted
    fits = (drawn < counts[:, None]) & (walked + np.asarray(steps)[:, None] <= room)
    return drawn, np.where(fits, find(code + np.array(weights, dtype=code.dtype)[:, None]), -1)


class DecisionGraph:
    """Every decision point reachable from one or more roots with the same deck.

    Parameters
    ----------
    rules : Ruleset
    counts : sequence of int
        Footprint cards left, by kind in ``rules.footprints`` order (cards).
    stops, dangers : int
        Stop and danger cards left (cards).
    dangers_revealed, gems : int
        The stage and the active player's gems (gems).
    bank : int
        ``treasure + pot``, constant through a turn (gems).
    positions, pots : array_like of int
        The roots' knight positions and pots; several roots share one graph.

    Attributes
    ----------
    layers : list of Layer
    steps : tuple of int
        The footprint kinds, in column order.
    stop_reward, danger_reward : int
        Gem change when a stop or a danger card is revealed (gems).
    danger_outcome : Outcome or None
        ``Outcome.DANGER`` or ``Outcome.FINAL_DANGER``: what the next danger card does
        (``None`` when no danger card is left).
    end_bound : int
        At least the absolute value of every footprint card's end reward and of every pot
        in the graph (gems): the scale of the numbers backward induction adds up.
    """

    def __init__(
        self,
        rules: Ruleset,
        counts: ArrayLike,
        stops: int,
        dangers: int,
        dangers_revealed: int,
        gems: int,
        bank: int,
        positions: ArrayLike,
        pots: ArrayLike,
    ) -> None:
        self.rules, self.stops, self.dangers = rules, stops, dangers
        self.dangers_revealed, self.gems, self.bank = dangers_revealed, gems, bank
        self.steps = tuple(s for s, _ in rules.footprints)
        # A stop or danger ends the turn with a reward that depends only on the gems and the stage.
        tail = TurnState(rules, dict.fromkeys(self.steps, 0), stops, dangers, dangers_revealed, gems, bank)
        self.stop_reward = tail.effect(STOP_CARD).gems_change if stops else 0
        danger = tail.effect(DANGER_CARD) if dangers else None
        self.danger_reward = danger.gems_change if danger else 0
        self.danger_outcome = danger.outcome if danger else None
        positions = np.atleast_1d(np.asarray(positions, dtype=np.int64))
        pots = np.atleast_1d(np.asarray(pots, dtype=np.int64))
        root_counts = np.tile(np.asarray(counts, dtype=np.int64), (len(positions), 1))
        total = int(root_counts[0].sum()) + stops + dangers
        if total == 0:
            raise ValueError("the deck is empty: there is no card to reveal")
        self._bound = pot_bound(rules, dangers_revealed, bank, int(pots.max()))
        self._step = _Steps(rules, self.steps, bank, dangers_revealed, self._bound)
        self._tables = self._step.tables
        roots = np.unique(positions)
        group = self._number_groups(root_counts[0], roots)[np.searchsorted(roots, positions)]
        self.layers: list[Layer] = []
        layer = Layer(0, total, root_counts, positions, pots, _ends_of=self._step.ends)
        while len(layer):
            self.layers.append(layer)
            layer, group = self._expand(layer, group)

    def _number_groups(self, counts: np.ndarray, roots: np.ndarray) -> np.ndarray:
        """Number the *groups* of decision points: a group is the footprint cards drawn since a
        root and that root's knight position, hence the footprints left and the position.

        The knight moves by the steps drawn, so the points of a group differ by their pot
        alone, which :func:`~dragonkit.turn.pot_bound` bounds at the group's position: each
        group owns a block of *slots*, one per pot, and a decision point is a slot.  Groups
        are numbered by depth, then footprints left (the first kind most significant), then
        position, so that a layer's points in slot order are sorted like the layers' keys.

        Parameters
        ----------
        counts : ndarray of int, shape (k,)
            The roots' footprint cards, by kind (cards).
        roots : ndarray of int, shape (r,)
            The roots' knight positions, sorted, distinct.

        Returns
        -------
        ndarray of int, shape (r,)
            The group of each root (no card drawn).
        """
        head, r, steps = self.rules.head, len(roots), np.asarray(self.steps)
        room = head - 1 - int(roots[0])  # the most steps the knight can take and stay on the dragon
        drawn, more = _draws(counts, self.steps, room)
        walked = steps @ drawn
        # The groups: (draw, root) pairs left on the dragon, the draws taken backwards (footprints left
        # increasing), the roots backwards too (so that the product taken backwards has them increasing).
        position = (walked[:, None] + roots[::-1]).ravel()
        depth = np.repeat(drawn.sum(axis=0), r)
        member = (position < head).nonzero()[0][::-1]
        member = member[np.argsort(depth[member], kind="stable")]
        group_of = np.full(len(position) + 1, -1, dtype=np.int64)  # ... and -1 past the head or the end
        group_of[member] = np.arange(len(member))
        draw, root = np.divmod(member, r)
        self._group_counts = counts - drawn.take(draw, axis=1).T
        self._group_position = position[member]
        self._start = np.concatenate([[0], np.cumsum(self._bound[self._group_position] + 1)])
        depth = depth[member]
        self._layer_start = self._start[depth.searchsorted(np.arange(int(depth[-1]) + 3))].tolist()
        more = more.take(draw, axis=1).T
        child = group_of[np.where(more >= 0, more * r + root[:, None], -1)]
        next_start = self._start[depth.searchsorted(depth + 1)]
        self._child_slot = np.where(child >= 0, self._start[child] - next_start[:, None], _GONE)
        return group_of[np.arange(r)[::-1]]  # no card drawn: the first draw

    @classmethod
    def from_state(
        cls, state: TurnState, positions: ArrayLike | None = None, pots: ArrayLike | None = None
    ) -> DecisionGraph:
        """The graph whose single root is ``state``; or, given ``positions`` and ``pots`` (shape (m,)),
        whose roots are those knight positions and pots with ``state``'s deck, stage, gems and bank."""
        return cls(
            state.rules,
            list(state.footprints.values()),
            state.stops,
            state.dangers,
            state.dangers_revealed,
            state.gems,
            state.bank,
            state.position if positions is None else positions,
            state.pot if pots is None else pots,
        )

    def _expand(self, layer: Layer, group: np.ndarray) -> tuple[Layer, np.ndarray]:
        """Fill in the layer's edges; return the next layer and the groups of its points
        (``group``: the same for this layer, see :meth:`_number_groups`)."""
        after, layer.gain = self._step(layer, _AFTER, _GAIN)
        # The slot each card leads to, counted from the next layer's first; -1 where none.
        slot = self._child_slot.take(group, axis=0)
        slot += after
        np.maximum(slot, -1, out=slot)
        low, high = self._layer_start[layer.depth + 1 : layer.depth + 3]
        found, layer.child = self._number(slot, high - low)
        found += low
        group = self._start[1:].searchsorted(found, side="right")
        counts, pot = self._group_counts.take(group, axis=0), found - self._start[group]
        position = self._group_position[group]
        return Layer(layer.depth + 1, layer.cards_left - 1, counts, position, pot, _ends_of=self._step.ends), group

    @staticmethod
    def _number(slot: np.ndarray, slots: int) -> tuple[np.ndarray, np.ndarray]:
        """The distinct slots ``slot`` holds (-1 is none), in order, and each entry's rank
        among them (-1 for none).  Where the slots, 0 to ``slots``, are not many more than
        the entries, those taken are marked in one array and read back in order; otherwise
        they are sorted."""
        if slots > 16 * slot.size:
            go = slot >= 0
            found, inverse = np.unique(slot[go], return_inverse=True)
            child = np.full(slot.shape, -1, dtype=np.int64)
            child[go] = inverse
            return found, child
        taken = np.zeros(slots + 1, dtype=bool)
        taken[slot] = True
        found = taken[:-1].nonzero()[0]
        rank = np.empty(slots + 1, dtype=np.int64)
        rank[found] = np.arange(len(found))
        rank[-1] = -1
        return found, rank[slot]

    @cached_property
    def end_bound(self) -> int:  # documented in the class
        # Every pair's gains where the pairs were stepped all at once (a few more than the graph's), else the graph's.
        tables = self._tables.values() if self._tables is not None else []
        gains = [gain for _, gain, _ in tables] or [layer.gain for layer in self.layers]
        return max(int(self._bound.max()), *(int(np.abs(gain).max(initial=0)) for gain in gains))

    @property
    def size(self) -> int:
        """Number of decision points (the roots included)."""
        return sum(len(layer) for layer in self.layers)

    def drawn(self, depth: int, rows: np.ndarray) -> list[str]:
        """The footprint cards drawn since the root(s) at some decision points of a
        layer, e.g. ``"1+2+2"`` (steps, sorted; ``""`` at a root)."""
        taken, which = np.unique(
            self.layers[0].counts[0] - self.layers[depth].counts[rows], axis=0, return_inverse=True
        )
        names = ["+".join(str(s) for s, n in zip(self.steps, t) for _ in range(n)) for t in taken.tolist()]
        return [names[w] for w in which.ravel().tolist()]

    def state(self, depth: int, index: int, must_reveal: bool = False) -> TurnState:
        """The :class:`TurnState` of one decision point."""
        layer = self.layers[depth]
        return TurnState(
            rules=self.rules,
            footprints=dict(zip(self.steps, layer.counts[index].tolist())),
            stops=self.stops,
            dangers=self.dangers,
            dangers_revealed=self.dangers_revealed,
            gems=self.gems,
            treasure=self.bank - int(layer.pot[index]),
            position=int(layer.position[index]),
            pot=int(layer.pot[index]),
            must_reveal=must_reveal,
        )
