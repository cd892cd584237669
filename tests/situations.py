"""Game situations that the tests of more than one part of the kit set up."""

from __future__ import annotations

from dragonkit import Game, Phase
from dragonkit.rules import Ruleset


def _three_players_at_a_choice(preset: str = "dragon-stripes", seed: int = 5) -> Game:
    game = Game(["Ann", "Bob", "Cy"], Ruleset.preset(preset), seed=seed)
    while game.phase is not Phase.CHOOSE:
        game.reveal()
    return game
