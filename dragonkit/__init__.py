"""dragonkit: Dragon Stripes, a push-your-luck card game, for probability classes.

Play hands in widget notebooks, then compute the exact expectation of pushing
versus holding with absorbing Markov chains and optimal stopping.
"""

from .engine import Event, Game, GameOverError, IllegalActionError, NotYourTurnError, SaveFormatError
from .game_state import Phase
from .rules import PRESETS, Card, CardKind, Composition, Ruleset, Stage
from .turn import Action

__all__ = [
    "PRESETS",
    "Action",
    "Card",
    "CardKind",
    "Composition",
    "Event",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "NotYourTurnError",
    "Phase",
    "Ruleset",
    "SaveFormatError",
    "Stage",
]

__version__ = "0.2.0"
