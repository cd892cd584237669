"""Every lesson test starts and ends in English, with the lesson widgets it opened closed."""

from __future__ import annotations

import matplotlib
import pytest

from dragonkit import i18n

from .helpers import OPENED

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def english_after():
    """Every test starts and ends in English, whatever it switched to, with its widgets closed."""
    i18n.set_language("en")
    yield
    while OPENED:
        OPENED.pop().close()
    i18n.set_language("en")
