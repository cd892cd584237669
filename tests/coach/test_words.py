"""The coach's words: where its chances of winning come from, one note per source."""

from __future__ import annotations

import pytest

from dragonkit import Game
from dragonkit.analysis.win.model import WinModel
from dragonkit.coach.views import Source, TwoViews, Verdict
from dragonkit.coach.words import source_note
from dragonkit.rules import Ruleset


@pytest.mark.parametrize(
    ("source", "says"),
    [
        (WinModel.RACE, "whoever reaches the head wins"),
        (WinModel.GEMS, "carries both players' gems"),
        (WinModel.LATE, "Chance of winning: exact, over every order of the"),
        (Source.PREPARING, "Preparing the chance of winning"),
    ],
)
def test_each_source_of_the_chances_of_winning_has_its_own_note(source, says):
    """The coach's source is the win model that gives its chances (WinModel), or what it does without one (Source):
    each has its note, in English and in Italian."""
    game = Game(["Ann", "Bo"], Ruleset.preset("kali"))
    views = TwoViews(0, (), source, None, frozenset(), frozenset(), Verdict.NONE)
    english, italian = source_note(game, views, lang="en"), source_note(game, views, lang="it")
    assert says in english and italian and italian != english
    others = {
        source_note(game, TwoViews(0, (), s, None, frozenset(), frozenset(), Verdict.NONE), lang="en")
        for s in (*WinModel, Source.PREPARING)
        if s is not source
    }
    assert english not in others
