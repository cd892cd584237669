"""ipywidgets views and controllers: the play app and the hand trainer, composed from them; the teacher's dashboard
(:mod:`dragonkit.ui.dashboard`, which loads pandas) is imported from its module."""

from .app import PlayApp
from .setup import GameConfig, SeatConfig, SetupForm
from .trainer import HandTrainer

__all__ = ["GameConfig", "HandTrainer", "PlayApp", "SeatConfig", "SetupForm"]
