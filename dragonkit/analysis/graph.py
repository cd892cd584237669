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
:meth:`TurnState.child` gives it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from ..rules import DANGER_CARD, STOP_CARD, Ruleset
from ..turn import TurnState, footprint_children, pot_bound

__all__ = ["CONTINUES", "DECK_EMPTY", "HEAD", "NO_CARD", "DecisionGraph", "Layer"]

#: The edges of a layer not expanded yet (the deepest one): no decision point, no card.
_EMPTY_EDGES = np.zeros((0, 0), dtype=np.int64)

#: The most (position, pot) pairs stepped all at once, as a table (see ``DecisionGraph._step``).
_TABLE = 2**16

#: Codes of :attr:`Layer.ends`: what drawing a footprint kind does.
CONTINUES, HEAD, DECK_EMPTY, NO_CARD = 0, 1, 2, -1


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
        ``NO_CARD`` when no such card is left.
    child : ndarray of int, shape (m, k)
        Index of the next decision point in the following layer (-1 where the
        card ends the turn or is missing).
    end_reward : ndarray of int, shape (m, k)
        Gem change of the active player when the card ends the turn (gems); 0 where it does not.
    """

    depth: int
    cards_left: int
    counts: np.ndarray
    position: np.ndarray
    pot: np.ndarray
    ends: np.ndarray = field(default_factory=lambda: _EMPTY_EDGES)
    child: np.ndarray = field(default_factory=lambda: _EMPTY_EDGES)
    end_reward: np.ndarray = field(default_factory=lambda: _EMPTY_EDGES)

    def __len__(self) -> int:
        return len(self.pot)


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
        self.stop_reward = tail.child(STOP_CARD).returns() if stops else 0
        danger = tail.child(DANGER_CARD) if dangers else None
        self.danger_reward = danger.returns() if danger else 0
        self.danger_outcome = danger.outcome if danger else None
        positions = np.atleast_1d(np.asarray(positions, dtype=np.int64))
        pots = np.atleast_1d(np.asarray(pots, dtype=np.int64))
        root_counts = np.tile(np.asarray(counts, dtype=np.int64), (len(positions), 1))
        total = int(root_counts[0].sum()) + stops + dangers
        if total == 0:
            raise ValueError("the deck is empty: there is no card to reveal")
        # A (position, pot) pair is one int, its *pair code*: the pairs a turn can reach
        # numbered in order, position by position (``_offset[position] + pot``).
        self._bound = pot_bound(rules, dangers_revealed, bank, int(pots.max()))
        self._offset = np.concatenate([[0], np.cumsum(self._bound + 1)[:-1]])
        pairs = int(self._bound.sum()) + len(self._bound)
        self._tables: dict[bool, np.ndarray] | None = {} if pairs <= _TABLE else None
        # One int64 key per decision point: footprint counts (mixed radix) and pair code.
        self._sizes = root_counts[0] + 1
        self._eye = np.eye(len(self.steps), dtype=np.int64)
        # The key is ``base + pair``, where ``base`` is the counts' mixed-radix code times the number of pairs.
        width = int(np.prod(self._sizes.astype(object))) * pairs
        weights = np.cumprod(np.concatenate([[1], self._sizes[:0:-1]]))[::-1] * pairs
        self._radix = weights[:, None] if width < 2**62 else None
        # ``weights`` has wrapped around past int64 where ``_radix`` is None: the bases are then unused.
        self.layers: list[Layer] = []
        layer = Layer(0, total, root_counts, positions, pots)
        base = root_counts @ weights
        pair = self._offset[positions] + pots
        while len(layer):
            self.layers.append(layer)
            layer, base, pair = self._expand(layer, base, pair)

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

    def _step(self, layer: Layer, pair: np.ndarray) -> np.ndarray:
        """What each footprint kind does at each point of the layer: an array of shape (3, k, m)
        of the pair code afterwards (-1 where the turn ends), the gain, and the :attr:`Layer.ends` code.

        Within a turn a card's effect depends on the position, the pot, and whether it is
        the deck's last card, nothing else; so where the pairs are few, every kind steps
        every pair once per graph (a table, :func:`~dragonkit.turn.footprint_children` on
        all pairs) and a layer looks its points up.  Otherwise each layer is stepped.
        """
        if self._tables is None:
            return self._children(layer.position, layer.pot, layer.cards_left)
        last = layer.cards_left == 1
        if last not in self._tables:
            position, pot = self._pair(np.arange(self._offset[-1] + self._bound[-1] + 1))
            self._tables[last] = self._children(position, pot, layer.cards_left)
        return np.take(self._tables[last], pair, axis=2)

    def _children(self, position: np.ndarray, pot: np.ndarray, cards_left: int) -> np.ndarray:
        """:meth:`_step` for the given pairs.  The child of a pair of the graph is within
        :func:`~dragonkit.turn.pot_bound`: only the codes of children of pairs no point has may be wrong."""
        step = footprint_children(self.rules, self.steps, position, pot, self.bank, self.dangers_revealed, cards_left)
        code = np.where(step.goes_on, self._offset.take(step.position, mode="clip") + step.pot, -1)
        return np.stack([code, step.gain, HEAD * step.at_head + DECK_EMPTY * step.deck_empty])

    def _pair(self, code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The knight positions and pots of pair codes."""
        position = np.searchsorted(self._offset[1:], code, side="right")
        return position, code - self._offset[position]

    def _expand(self, layer: Layer, base: np.ndarray, pair: np.ndarray) -> tuple[Layer, np.ndarray, np.ndarray]:
        """Fill in the layer's edges; return the next layer with the bases of its keys and its
        pair codes (``base`` and ``pair``: the same for this layer).

        The edges are laid out kind by kind (arrays of shape (k, m), exposed transposed).
        A decision point of the next layer is identified by one int64 key (footprint counts
        in mixed radix, then the pair code), so duplicates are found by sorting integers;
        keys too wide for int64 fall back to sorting rows.
        """
        m, k = layer.counts.shape
        pair, gain, ends = self._step(layer, pair)
        have = layer.counts.T > 0
        go = have & (pair >= 0)
        layer.ends = np.where(have, ends, NO_CARD).T
        layer.end_reward = (gain * have).T
        child = np.full((k, m), -1, dtype=np.int64)
        layer.child = child.T
        edges = np.flatnonzero(go)
        if not edges.size:
            empty = np.zeros(0, dtype=np.int64)
            following = Layer(layer.depth + 1, layer.cards_left - 1, np.zeros((0, k), dtype=np.int64), empty, empty)
            return following, empty, empty
        if self._radix is None:
            counts = layer.counts[edges % m] - self._eye[edges // m]
            unique, inverse = np.unique(np.column_stack([counts, pair.ravel()[edges]]), axis=0, return_inverse=True)
            child[go] = inverse.ravel()
            position, pot = self._pair(unique[:, k])
            return Layer(layer.depth + 1, layer.cards_left - 1, unique[:, :k], position, pot), base, unique[:, k]
        # Sorted by key (a stable sort, a timsort, merges the kinds' runs, each sorted already),
        # the first edge of each run of equal keys is a new decision point.
        keys = (base - self._radix + pair).ravel()[edges]
        order = np.argsort(keys, kind="stable")
        keys, edges = keys[order], edges[order]
        first = np.empty(len(keys), dtype=bool)
        first[:1] = True
        np.not_equal(keys[1:], keys[:-1], out=first[1:])
        rank = np.zeros(len(keys), dtype=np.int64)
        np.cumsum(first[1:], out=rank[1:])
        child.ravel()[edges] = rank
        edges, keys = np.compress(first, edges), np.compress(first, keys)
        kind = edges // m
        parent = edges - kind * m
        pair = pair.ravel()[edges]
        position, pot = self._pair(pair)
        counts = (np.take(layer.counts.T, parent, axis=1) - np.take(self._eye, kind, axis=1)).T  # laid out kind by kind
        following = Layer(layer.depth + 1, layer.cards_left - 1, counts, position, pot)
        return following, keys - pair, pair

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
