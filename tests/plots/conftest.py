"""Lesson 1's guess, solved once per module."""

from __future__ import annotations

import pytest

from dragonkit.lessons.base import fresh_turn, largest_pot
from dragonkit.topics.first_guess import GuessResult


@pytest.fixture(scope="module")
def guess() -> GuessResult:
    state = fresh_turn("mini")
    return GuessResult(state, 3, largest_pot(state))
