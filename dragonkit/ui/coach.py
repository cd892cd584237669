"""The coach panel: exact next-card probabilities, push and hold values, the
optimal action and, during a takeover offer, the fair bounty.

Every number comes from :mod:`dragonkit.analysis` in exact ``Fraction``
arithmetic and is shown both as a decimal and as an exact fraction.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

from ..analysis import TurnState, fair_bounty, next_card_probabilities, solve_turn
from ..engine import Game, Phase

__all__ = ["render_coach", "format_fraction"]


def format_fraction(value: Fraction | int) -> str:
    """HTML for an exact number, e.g. ``<span class="dk-frac">13/47</span>`` (long ones wrap)."""
    return f'<span class="dk-frac">{Fraction(value)}</span>'


def _number(value: Fraction | int) -> str:
    """A value in gems: the decimal first, the exact fraction under it."""
    value = Fraction(value)
    exact = "" if value.denominator == 1 else f'<br><small>exact {format_fraction(value)}</small>'
    if value.denominator == 1:
        return f'<b>{format_fraction(value)}</b> gems'
    return f"<b>≈ {float(value):.4f}</b> gems{exact}"


def render_coach(game: Game) -> str:
    """The coach panel as HTML for the current situation of ``game``."""
    names = game.players
    if game.is_over:
        return '<div class="dk-coach"><h3>Coach</h3><p>The game is over.</p></div>'
    state = TurnState.from_game(game)
    parts = ['<div class="dk-coach">']
    if game.phase is Phase.OFFER:
        taker = game.offer_to
        fair = fair_bounty(state, game.gems[taker], exact=True)
        verdict = "TAKE OVER" if fair > game.bounty else "DECLINE"
        parts += [
            f"<h3>Coach for {escape(names[taker])} <small>({game.gems[taker]} gems)</small></h3>",
            f'<div class="dk-offer">Take over for a bounty of <b>{game.bounty}</b> gems?<br>'
            f"Fair bounty: {_number(fair)}<br>"
            f'Best: <span class="dk-advice">{verdict}</span></div>',
        ]
    else:
        solution = solve_turn(state, exact=True)
        advice = "REVEAL" + (" (compulsory)" if state.must_reveal else "") if solution.best_action == "reveal" \
            else "HOLD"
        hold = ("<i>not allowed yet</i>" if state.must_reveal else _number(solution.hold_value))
        parts += [
            f"<h3>Coach for {escape(names[game.active_player])} <small>({state.gems} gems)</small></h3>",
            f'<div class="dk-best">Best: <span class="dk-advice">{advice}</span></div>',
            '<table class="dk-values">',
            f"<tr><td>push value</td><td>{_number(solution.push_value)}</td></tr>",
            f"<tr><td>hold value</td><td>{hold}</td></tr>",
            "</table>",
        ]
    rows = "".join(
        f"<tr><td>{escape(card.label)}</td><td>{format_fraction(p)}</td><td>{float(p):.3f}</td></tr>"
        for card, p in next_card_probabilities(state).items()
    )
    parts += [
        f"<b>Next card</b> ({state.composition.total} cards left)",
        '<table class="dk-probs"><tr><th>card</th><th>chance</th><th>≈</th></tr>', rows, "</table>",
        '<p class="dk-note">Values are expected changes of the player\'s own gems to the end of the turn, '
        "with optimal play and no takeover (rules §7).</p></div>",
    ]
    return "".join(parts)
