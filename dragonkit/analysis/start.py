"""The situation the lessons start from, and the ranges of the sliders that set it.

* :func:`fresh_turn` — the first decision of a turn with a full deck but for the danger cards
  revealed in earlier turns (the stage);
* :class:`SliderRange` — a slider's bounds and step;
* :func:`stage_range`, :func:`situation_ranges` — the stages of a ruleset, and the gems, the
  treasure and the stage a learner may set for a situation.
"""

from __future__ import annotations

import numbers
from typing import NamedTuple

from ..rules import Ruleset
from ..turn import TurnState

__all__ = ["SliderRange", "fresh_turn", "situation_ranges", "stage_range"]

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


def fresh_turn(rules: Ruleset | str, stage: int = 0, gems: int | None = None, treasure: int | None = None) -> TurnState:
    """The first decision of a turn with a full deck but for the dangers of earlier stages.

    With the defaults it is the first decision of a game (:meth:`TurnState.fresh
    <dragonkit.turn.TurnState.fresh>`): stage 0, the starting gems, the whole treasure,
    the knight on the tail, a compulsory reveal.

    Parameters
    ----------
    rules : Ruleset or str
        A ruleset or a preset name.
    stage : int
        Danger cards already revealed (in earlier turns); they are missing from the deck.
    gems : int, optional
        The active player's gems (gems; default: the ruleset's starting gems).
    treasure : int, optional
        Gems in the dragon's treasure (gems; default: the ruleset's whole treasure).

    Returns
    -------
    TurnState
        Knight on the tail, empty pot, compulsory reveal; ``rules.danger_cards - stage``
        danger cards in the deck.

    Raises
    ------
    ValueError
        For an unknown preset or something else than a ruleset, a stage outside
        ``0 .. len(rules.stages) - 1``, or gems or a treasure the ruleset does not allow.

    Examples
    --------
    >>> fresh_turn("dragon-stripes", stage=2).dangers
    1
    """
    rules = Ruleset.preset(rules) if isinstance(rules, str) else rules
    if not isinstance(rules, Ruleset):
        raise ValueError(f"rules must be a Ruleset or a preset name, not {type(rules).__name__}")
    if isinstance(stage, bool) or not isinstance(stage, numbers.Integral) or not 0 <= stage < len(rules.stages):
        raise ValueError(f"stage must be a whole number from 0 to {len(rules.stages) - 1}, not {stage!r}")
    start = TurnState.fresh(rules, gems=gems, treasure=treasure)
    return start.replace(dangers=rules.danger_cards - int(stage), dangers_revealed=int(stage))
