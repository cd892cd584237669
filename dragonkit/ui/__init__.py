"""ipywidgets views and controllers; the play app composed from them."""

from .app import PlayApp
from .setup import GameConfig, SeatConfig, SetupForm

__all__ = ["PlayApp", "GameConfig", "SeatConfig", "SetupForm"]
