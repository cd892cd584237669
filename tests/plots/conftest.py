"""The figures' tests start and end in English; lesson 1's guess, solved once per module."""

from __future__ import annotations

import pytest

from dragonkit import i18n
from dragonkit.lessons.base import fresh_turn, largest_pot
from dragonkit.topics.first_guess import GuessResult


@pytest.fixture(autouse=True)
def english_after():
    """Every test starts and ends in English."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(scope="module")
def guess() -> GuessResult:
    state = fresh_turn("mini")
    return GuessResult(state, 3, largest_pot(state))
