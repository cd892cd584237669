"""An independent second method for a turn's value: a plain expectimax over the deck, built on the rules' own card
arithmetic; the turn value and the fair bounty it gives (the takeover market, lessons 5 and 7, the record's stopping
choices)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from dragonkit import Ruleset
from dragonkit.analysis import TurnState


@cache
def expectimax(
    rules: Ruleset, deck, position: int, pot: int, gems: int, treasure: int, stage: int, must_reveal: bool
) -> Fraction:
    """The turn value by plain recursion over every card order (rules section 7), with the rules' card effects."""
    push = Fraction(0)
    for card, p in deck.outcomes():
        effect = rules.apply_card(
            card,
            position=position,
            pot=pot,
            gems=gems,
            treasure=treasure,
            dangers_revealed=stage,
            cards_left=deck.total - 1,
        )
        if effect.ends_turn:
            push += p * effect.gems_change
        else:
            push += p * expectimax(
                rules, deck.without(card), effect.position, effect.pot, gems, effect.treasure, stage, False
            )
    return push if must_reveal else max(Fraction(pot), push)


def turn_value(state: TurnState) -> Fraction:
    """The value of ``state`` by :func:`expectimax`: the optimal turn's expected gems, its push value when a reveal is
    compulsory."""
    return expectimax(
        state.rules,
        state.composition,
        state.position,
        state.pot,
        state.gems,
        state.treasure,
        state.dangers_revealed,
        state.must_reveal,
    )


def brute_fair_bounty(state: TurnState, gems: int) -> Fraction:
    return expectimax(
        state.rules, state.composition, state.position, state.pot, gems, state.treasure, state.dangers_revealed, True
    )
