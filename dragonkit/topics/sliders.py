"""The ranges of the lessons' sliders: what a learner may set, around the situation shown first.

* :class:`SliderRange` — a slider's bounds and step;
* :func:`stage_range`, :func:`situation_ranges` — the stages of a ruleset, and the gems, the treasure and the stage a
  learner may set for a situation;
* :func:`takeover_sliders` — the gems of a takeover's holder and taker (lesson 8).
"""

from __future__ import annotations

from typing import NamedTuple

from ..rules import Ruleset
from ..turn import TurnState

__all__ = ["SliderRange", "TakeoverSliders", "situation_ranges", "stage_range", "takeover_sliders"]

#: :func:`situation_ranges`: the gems slider reaches this many times the starting gems.
GEM_STARTS = 3
#: :func:`situation_ranges`: the gems slider moves by this share of the starting gems (at least 1 gem).
GEM_STEPS = 8
#: :func:`situation_ranges`: the treasure slider starts at this share of the ruleset's treasure (at least 1 gem).
TREASURE_LOW = 16
#: :func:`situation_ranges`: the treasure slider moves by this share of the ruleset's treasure (at least 1 gem).
TREASURE_STEPS = 40


class SliderRange(NamedTuple):
    """The bounds and the step of a slider (gems, a stage ...), both bounds included."""

    low: int
    high: int
    step: int = 1

    def values(self) -> range:
        """Every value the slider can take, from ``low`` to ``high``.

        Examples
        --------
        >>> list(SliderRange(0, 6, 2).values())
        [0, 2, 4, 6]
        """
        return range(self.low, self.high + 1, self.step)


def stage_range(rules: Ruleset) -> SliderRange:
    """The stages of ``rules``: 0 to the number of danger cards that may be revealed before
    the last one ends the game, ``len(rules.stages) - 1``.

    Examples
    --------
    >>> stage_range(Ruleset.preset("dragon-stripes"))
    SliderRange(low=0, high=2, step=1)
    """
    return SliderRange(0, len(rules.stages) - 1)


def situation_ranges(state: TurnState) -> dict[str, SliderRange]:
    """The ranges of the sliders that set a situation's gems, treasure and stage, around ``state``.

    Parameters
    ----------
    state : TurnState
        The situation the sliders show first (their values).

    Returns
    -------
    dict of SliderRange
        ``"gems"``: 0 to :data:`GEM_STARTS` times the starting gems (or ``state.gems`` if more),
        in steps of 1/:data:`GEM_STEPS` of the starting gems; ``"treasure"``: 1/:data:`TREASURE_LOW`
        of the ruleset's treasure (or ``state.treasure`` if less) to all of it (or ``state.treasure``
        if more), in steps of 1/:data:`TREASURE_STEPS` of it; ``"stage"``: :func:`stage_range`.
        Steps and the lowest treasure are at least 1 gem.

    Examples
    --------
    >>> from dragonkit.analysis import fresh_turn
    >>> situation_ranges(fresh_turn("dragon-stripes"))["gems"]
    SliderRange(low=0, high=120, step=5)
    """
    start, full = state.rules.starting_gems, state.rules.treasure
    return {
        "gems": SliderRange(0, max(GEM_STARTS * start, state.gems), max(1, start // GEM_STEPS)),
        "treasure": SliderRange(
            min(max(1, full // TREASURE_LOW), state.treasure), max(full, state.treasure), max(1, full // TREASURE_STEPS)
        ),
        "stage": stage_range(state.rules),
    }


#: :func:`takeover_sliders`: the richest taker shown has at least this many gems.
LEAST_TOP_GEMS = 24
#: :func:`takeover_sliders`: the richest taker shown has this many times the starting gems (if more).
TOP_STARTS = 2
#: :func:`takeover_sliders`: the taker shown first has this share of the starting gems.
TAKER_SHARE = 3


class TakeoverSliders(NamedTuple):
    """The gems a takeover's holder and taker may have, and the gems they have first.

    Attributes
    ----------
    gems : SliderRange
        Both players' gems (gems); its ``high`` is the richest taker of the takeover curve.
    holder, taker : int
        The gems shown first (gems).
    """

    gems: SliderRange
    holder: int
    taker: int


def takeover_sliders(rules: Ruleset) -> TakeoverSliders:
    """The players' gems a takeover is shown for under ``rules``.

    Returns
    -------
    TakeoverSliders
        Gems 0 to :data:`TOP_STARTS` times the starting gems, at least :data:`LEAST_TOP_GEMS`;
        the holder first with the starting gems, the taker with 1/:data:`TAKER_SHARE` of them
        (rounded down).

    Examples
    --------
    >>> takeover_sliders(Ruleset.preset("mini"))
    TakeoverSliders(gems=SliderRange(low=0, high=24, step=1), holder=12, taker=4)
    """
    start = rules.starting_gems
    return TakeoverSliders(SliderRange(0, max(LEAST_TOP_GEMS, TOP_STARTS * start)), start, start // TAKER_SHARE)
