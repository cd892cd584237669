"""ipywidgets views and controllers: the play app and the hand trainer, composed from them.

The names load on first use (PEP 562), so that importing a small part such as
:mod:`dragonkit.ui.style` does not build the apps.
"""

from importlib import import_module

__all__ = ["GameConfig", "HandTrainer", "PlayApp", "SeatConfig", "SetupForm"]

_HOMES = {
    "PlayApp": ".app",
    "HandTrainer": ".trainer",
    "GameConfig": ".setup",
    "SeatConfig": ".setup",
    "SetupForm": ".setup",
}


def __getattr__(name: str):
    if name in _HOMES:
        return getattr(import_module(_HOMES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
