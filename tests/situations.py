"""Game situations that the tests of more than one part of the kit set up."""

from __future__ import annotations

from collections.abc import Sequence

from dragonkit import Game, Phase
from dragonkit.rules import Card, Ruleset
from dragonkit.turn import TurnState


def fresh_state(name: str, **changes: object) -> TurnState:
    """The first turn of a game of preset ``name`` (:meth:`TurnState.fresh <dragonkit.turn.TurnState.fresh>`), with
    ``changes`` to its fields (validated like a new state)."""
    return TurnState.fresh(Ruleset.preset(name)).replace(**changes)


def _three_players_at_a_choice(preset: str = "dragon-stripes", seed: int = 5) -> Game:
    game = Game(["Ann", "Bob", "Cy"], Ruleset.preset(preset), seed=seed)
    while game.phase is not Phase.CHOOSE:
        game.reveal()
    return game


def _stacked(game: Game, top: Sequence[Card]) -> Game:
    """``game`` with the cards ``top`` on top of the deck, in this order (the rest in the order it had)."""
    rest = game.remaining.cards()
    for card in top:
        rest.remove(card)
    return game.redealt(rest + list(reversed(top)))  # the top card is the end of the list


def _mini_disagreement() -> Game:
    """Two players of ``mini``: Ann and Bob each reveal a stop (9 gems each), then Ann reveals 1 step.  Five cards are
    left, the one danger among them: revealing is worth more gems (71/30 against a pot of 1), but holding wins more
    often (3/5 against 2/5: exactly, by the exact solver too), because Bob then reveals the next card."""
    game = _stacked(
        Game(["Ann", "Bob"], Ruleset.preset("mini"), seed=1), [Card("stop"), Card("stop"), Card.footprint(1)]
    )
    for _ in range(3):
        game.reveal()
    assert game.phase is Phase.CHOOSE and game.gems == (9, 9) and game.pot == 1
    return game
