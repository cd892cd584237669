"""The situation a turn starts from: :func:`fresh_turn`, the first decision of a turn with a full deck but for the
danger cards revealed in earlier turns (the stage)."""

from __future__ import annotations

from ...rules import Ruleset, whole_number
from ...turn import TurnState

__all__ = ["fresh_turn"]


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
    stage = whole_number(stage, "stage", minimum=0, maximum=len(rules.stages) - 1)
    start = TurnState.fresh(rules, gems=gems, treasure=treasure)
    return start.replace(dangers=rules.danger_cards - stage, dangers_revealed=stage)
