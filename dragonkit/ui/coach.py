"""The coach panel: exact next-card probabilities, push and hold values, the
optimal action and, during a takeover offer, the fair bounty.

Every number comes from :mod:`dragonkit.analysis` in exact ``Fraction``
arithmetic and is shown both as a decimal and as an exact fraction; the advice
during an offer is the coach bot's own choice (:class:`~dragonkit.bots.CoachBot`),
so the panel and the bot never disagree.  The words are in the language asked for, and
so are the decimals (``0.375`` / ``0,375``); a fraction is the same in every language.
"""

from __future__ import annotations

from html import escape

from .. import i18n
from ..analysis import SolvedTurn, TurnSolution, TurnState, fair_bounty, next_card_probabilities, takeover_gain
from ..bots import CoachBot
from ..engine import VERBS, Game
from ..i18n import ntr, tr
from ..i18n.numbers import decimal_text, integer_text
from .numbers import format_fraction, gems_html

__all__ = ["render_coach"]


def _advice(action: str, lang: str | None, compulsory: bool = False) -> str:
    """The best action in capitals, e.g. ``REVEAL (compulsory)``."""
    text = tr(VERBS[action], lang).upper() + (tr(" (compulsory)", lang) if compulsory else "")
    return f'<span class="dk-advice">{escape(text)}</span>'


#: The turn the coach solved last: later decisions of the same turn are looked up in it, not solved again.
_last_turn: list[SolvedTurn] = []


def _solution(state: TurnState) -> TurnSolution:
    """The exact solution at ``state``, from the turn solved last if ``state`` is one of its decisions."""
    solution = _last_turn[0].solution(state) if _last_turn else None
    if solution is None:  # a new turn: solve it once (exact arithmetic)
        _last_turn[:] = [SolvedTurn(state, exact=True)]
        solution = _last_turn[0].solution(state)
        assert solution is not None  # the state is its own graph's root
    return solution


def render_coach(game: Game, lang: str | None = None) -> str:
    """The coach panel as HTML for the current situation of ``game``, in ``lang``
    (default: the current language)."""
    names = game.players
    if game.is_over:
        return (
            f'<div class="dk-coach"><h3>{escape(tr("Coach", lang))}</h3>'
            f"<p>{escape(tr('The game is over.', lang))}</p></div>"
        )
    state = TurnState.from_game(game)
    parts = ['<div class="dk-coach">']
    taker = game.offer_to
    if taker is not None:  # a takeover offer (offer_to is None outside one)
        fair = fair_bounty(state, game.gems[taker], exact=True)
        gain = takeover_gain(state, game.gems[taker], game.bounty, exact=True)
        question = ntr(
            "Take over for a bounty of {bounty} gem?",
            "Take over for a bounty of {bounty} gems?",
            game.bounty,
            lang,
            bounty=f"<b>{integer_text(game.bounty, lang)}</b>",
        )
        parts += [
            _heading(names[taker], game.gems[taker], lang),
            f'<div class="dk-offer">{question}<br>'
            f"{tr('Fair bounty: {value}', lang, value=gems_html(fair, lang))}<br>"
            f"{tr('Expected gain of taking over: {value}', lang, value=gems_html(gain, lang))}<br>"
            f"{tr('Best: {action}', lang, action=_advice(CoachBot(exact=True).choose(game).value, lang))}"
            "</div>",
        ]
    else:
        solution = _solution(state)
        advice = _advice(solution.best_action, lang, compulsory=state.must_reveal)
        hold = (
            f"<i>{escape(tr('not allowed yet', lang))}</i>"
            if state.must_reveal
            else gems_html(solution.hold_value, lang)
        )
        parts += [
            _heading(names[game.active_player], state.gems, lang),
            f'<div class="dk-best">{tr("Best: {action}", lang, action=advice)}</div>',
            '<table class="dk-values">',
            f"<tr><td>{escape(tr('push value', lang))}</td><td>{gems_html(solution.push_value, lang)}</td></tr>",
            f"<tr><td>{escape(tr('hold value', lang))}</td><td>{hold}</td></tr>",
            "</table>",
        ]
    rows = "".join(
        f"<tr><td>{escape(card.describe(lang))}</td><td>{format_fraction(p)}</td>"
        f"<td>{decimal_text(p, 3, lang)}</td></tr>"
        for card, p in next_card_probabilities(state).items()
    )
    left = state.composition.total
    parts += [
        f"<b>{escape(tr('Next card', lang))}</b> ",
        escape(ntr("({n} card left)", "({n} cards left)", left, lang, n=left)),
        f'<table class="dk-probs"><tr><th>{escape(tr("card", lang))}</th><th>{escape(tr("chance", lang))}</th>'
        "<th>≈</th></tr>",
        rows,
        "</table>",
        '<p class="dk-note">',
        escape(
            tr(
                "Values are expected changes of the player's own gems to the end of the turn, with optimal play "
                "and no takeover (rules §7).",
                lang,
            )
        ),
        "</p></div>",
    ]
    return "".join(parts)


def _heading(name: str, gems: int, lang: str | None) -> str:
    """``Coach for Ann (40 gems)``."""
    return (
        f"<h3>{escape(tr('Coach for {name}', lang, name=name))} <small>({escape(i18n.gems(gems, lang))})</small></h3>"
    )
