"""ipywidgets views and controllers: the play app and the hand trainer, composed from them."""

from .app import PlayApp
from .setup import GameConfig, SeatConfig, SetupForm
from .trainer import HandTrainer

__all__ = ["GameConfig", "HandTrainer", "PlayApp", "SeatConfig", "SetupForm"]
