"""The coach panel: exact next-card probabilities, push and hold values, the
optimal action and, during a takeover offer, the fair bounty.

Every number comes from :mod:`dragonkit.analysis` in exact ``Fraction``
arithmetic and is shown both as a fraction and as a decimal.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

from ..analysis import TurnState, fair_bounty, next_card_probabilities, solve_turn
from ..engine import Game, Phase

__all__ = ["render_coach", "format_fraction"]

_LONG = 28


def format_fraction(value: Fraction | int) -> str:
    """HTML for an exact number: ``"13/47"``; a long fraction is abbreviated, the
    whole of it kept in the tooltip."""
    value = Fraction(value)
    text = str(value)
    if len(text) <= _LONG:
        return f'<span class="dk-frac">{text}</span>'
    num, den = str(value.numerator), str(value.denominator)
    short = f"{num[:6]}…/{den[:6]}… ({len(num)}/{len(den)} digits)"
    return f'<span class="dk-frac" title="{text}">{short}</span>'


def _number(value: Fraction | int, unit: str = "") -> str:
    return f'{format_fraction(value)} <span class="dk-dec">≈ {float(value):.4f}{unit}</span>'


def render_coach(game: Game, names: tuple[str, ...] | None = None) -> str:
    """The coach panel as HTML for the current situation of ``game``."""
    names = names or game.players
    if game.is_over:
        return '<div class="dk-coach"><h3>Coach</h3><p>The game is over.</p></div>'
    state = TurnState.from_game(game)
    active = names[game.active_player]
    rows = "".join(
        f"<tr><td>{escape(card.label)}</td><td>{format_fraction(p)}</td><td>{float(p):.3f}</td></tr>"
        for card, p in next_card_probabilities(state).items()
    )
    solution = solve_turn(state, exact=True)
    hold = ("<i>not allowed: a reveal is compulsory</i>" if state.must_reveal
            else f"{_number(solution.hold_value)} gems")
    if solution.best_action == "reveal":
        advice = "REVEAL" + (" (compulsory)" if state.must_reveal else "")
    else:
        advice = "HOLD"
    parts = [
        '<div class="dk-coach">',
        f"<h3>Coach for {escape(active)} <small>({state.gems} gems)</small></h3>",
        f"<b>Next card</b> ({state.composition.total} cards left)",
        '<table class="dk-probs"><tr><th>card</th><th>chance</th><th>≈</th></tr>', rows, "</table>",
        '<table class="dk-values">',
        f"<tr><td>push value</td><td>{_number(solution.push_value)} gems</td></tr>",
        f"<tr><td>hold value</td><td>{hold}</td></tr>",
        f'<tr><td>optimal action</td><td class="dk-advice">{advice}</td></tr>',
        "</table>",
    ]
    if game.phase is Phase.OFFER:
        taker = game.offer_to
        fair = fair_bounty(state, game.gems[taker], exact=True)
        verdict = "take over" if fair > game.bounty else "decline"
        parts += [
            '<div class="dk-offer">',
            f"<b>Takeover offer to {escape(names[taker])}</b> ({game.gems[taker]} gems)<br>",
            f"fair bounty {_number(fair)} gems vs bounty <b>{game.bounty}</b> → <b>{verdict}</b>",
            "</div>",
        ]
    parts.append('<p class="dk-note">Values are expected changes of the player\'s own gems to the end of the '
                 "turn, with optimal play and no takeover (RULES.md §7).</p></div>")
    return "".join(parts)
