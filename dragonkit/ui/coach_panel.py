"""The coach panel: for each option, the turn's expected gems and the game's chance of winning; which option
each view prefers, and, where they differ, a flag and one sentence that says why; the next card's chances;
during a takeover offer, the fair bounty.

The expected gems come from :mod:`dragonkit.analysis` in exact ``Fraction`` arithmetic, shown as a decimal
and an exact fraction; the coach bot (:class:`~dragonkit.bots.CoachBot`) plays by them, so the panel and the
bot never disagree.  The chances of winning come from the race model's table in two-player games of
``dragon-stripes`` and ``mini``; in the other two-player games from the exact solution of the late game once
few cards are left and from the gems model's table before; with more players from a Monte Carlo estimate on
the public state, labelled as one, with its confidence interval (:mod:`dragonkit.coach`).  The words
are in the language asked for, and so are the numbers (``0.375`` / ``0,375``, ``51.4%`` / ``51,4%``); a
fraction is the same in every language.  What the panel means is said in words, never by colour alone: the best
options are marked "best choice", the disagreement is a sentence.
"""

from __future__ import annotations

from html import escape

from .. import i18n
from ..analysis import TurnState, fair_bounty, next_card_probabilities
from ..coach.views import Coach, Option, Source, TwoViews, Verdict
from ..coach.words import reason_sentence, source_note, verb
from ..engine import Game
from ..i18n import ntr, tr
from ..i18n.numbers import decimal_text, integer_text, interval_text, percent_interval_text, percent_text
from ..turn import Action
from .numbers import format_fraction, gems_html

__all__ = ["render_coach"]


def _advice(action: Action, lang: str | None, compulsory: bool = False) -> str:
    """The action in capitals, e.g. ``REVEAL (compulsory)``."""
    text = verb(action, lang).upper() + (tr(" (compulsory)", lang) if compulsory else "")
    return f'<span class="dk-advice">{escape(text)}</span>'


def render_coach(
    coach: Coach,
    game: Game,
    lang: str | None = None,
    estimate: bool = True,
    waiting: bool = False,
    on_request: bool = False,
) -> str:
    """The coach panel as HTML for the current situation of ``game``.

    Parameters
    ----------
    coach : Coach
        The app's coach (it keeps what it solved and estimated, for the next decisions).
    game : Game
    lang : str, optional
        The language (default: the current one).
    estimate : bool
        Where the chance of winning must be estimated by Monte Carlo (more than two players, or ``kali`` and
        ``drago-rosso``), whether to make the estimate now (up to 2 s) if this situation has none yet;
        if False the panel shows one made before, or says when one is made.
    waiting : bool
        Say that the estimate is being made (the app makes it right after showing the panel).
    on_request : bool
        The estimate is made when the player presses the button for it (a room), not at every decision: the
        panel says so while there is none.

    Returns
    -------
    str
        HTML: a ``<div class="dk-coach">``.
    """
    names = game.players
    if game.is_over:
        return (
            f'<div class="dk-coach"><h3>{escape(tr("Coach", lang))}</h3>'
            f"<p>{escape(tr('The game is over.', lang))}</p></div>"
        )
    views = coach.views(game, estimate=estimate and not waiting)
    state = TurnState.from_game(game)
    parts = ['<div class="dk-coach">']
    taker = game.offer_to
    if taker is not None:  # a takeover offer (offer_to is None outside one)
        fair = fair_bounty(state, game.gems[taker], exact=True)
        question = ntr(
            "Take over for a bounty of {bounty} gem?",
            "Take over for a bounty of {bounty} gems?",
            game.bounty,
            lang,
            bounty=f"<b>{integer_text(game.bounty, lang)}</b>",
        )
        below = (  # a price below nothing: the turn costs its taker more than it brings, even for free
            "<br>" + escape(tr("Below zero: even for free, taking this turn over would lose gems on average.", lang))
            if fair < 0
            else ""
        )
        parts += [
            _heading(names[taker], game.gems[taker], lang),
            f'<div class="dk-offer">{question}<br>'
            f"{tr('Fair bounty: {value}', lang, value=gems_html(fair, lang))}{below}</div>",
        ]
    else:
        parts.append(_heading(names[game.active_player], state.gems, lang))
    if views.compulsory:
        advice = _advice(Action.REVEAL, lang, compulsory=True)
        parts.append(f'<div class="dk-best">{tr("Best: {action}", lang, action=advice)}</div>')
    parts += [_options_table(views, lang), _difference(views, lang), _verdict(views, lang)]
    rows = "".join(
        f'<tr><th scope="row">{escape(card.describe(lang))}</th><td>{format_fraction(p)}</td>'
        f"<td>{decimal_text(p, 3, lang)}</td></tr>"
        for card, p in next_card_probabilities(state).items()
    )
    left = state.composition.total
    parts += [
        f"<b>{escape(tr('Next card', lang))}</b> ",
        escape(ntr("({n} card left)", "({n} cards left)", left, lang, n=left)),
        f'<table class="dk-probs"><tr><th scope="col">{escape(tr("card", lang))}</th>'
        f'<th scope="col">{escape(tr("chance", lang))}</th><th scope="col">≈</th></tr>',
        rows,
        "</table>",
        '<p class="dk-note">',
        escape(
            tr(
                "Expected gems: the change of the player's own gems to the end of the turn, with optimal play and "
                "no takeover (rules §7).",
                lang,
            )
        ),
        " ",
        escape(source_note(game, views, waiting, lang, on_request)),
        "</p></div>",
    ]
    return "".join(parts)


def _heading(name: str, gems: int, lang: str | None) -> str:
    """``Coach for Ann (40 gems)``."""
    return (
        f"<h3>{escape(tr('Coach for {name}', lang, name=name))} <small>({escape(i18n.gems(gems, lang))})</small></h3>"
    )


# -- the options in both views ---------------------------------------------------------------------------------


def _mark(lang: str | None) -> str:
    """The best option's mark: a word (a screen reader reads it; the tick is drawn only)."""
    return f' <strong class="dk-mark"><span aria-hidden="true">✓ </span>{escape(tr("best choice", lang))}</strong>'


def _win_cell(option: Option, views: TwoViews, lang: str | None) -> str:
    if option.win is None:
        return "<td>—</td>"
    every = len(views.best_win) == len(views.options)  # all alike (a game already lost, say): nothing to mark
    mark = _mark(lang) if option.action in views.best_win and not (views.compulsory or every) else ""
    if option.ci is None:  # the model's value
        return f"<td><b>{percent_text(option.win, 1, lang)}</b>{mark}</td>"
    interval = percent_interval_text(*option.ci, 1, lang)
    return f'<td><b>≈ {percent_text(option.win, 1, lang)}</b>{mark}<br><small class="dk-ci">{interval}</small></td>'


def _options_table(views: TwoViews, lang: str | None) -> str:
    win_heading = (
        tr("chance of winning the game (estimate)", lang)
        if views.source is Source.ESTIMATE
        else tr("chance of winning the game", lang)
    )
    with_win = views.source not in (None, Source.PREPARING)  # no chance of winning yet: no column for it
    rows = []
    for option in views.options:
        mark = _mark(lang) if option.action in views.best_gems and not views.compulsory else ""
        win = _win_cell(option, views, lang) if with_win else ""
        value, br, exact = gems_html(option.gems, lang).partition("<br>")  # the mark next to the value, above
        rows.append(  # the exact fraction (which may wrap)
            f'<tr><th scope="row">{escape(verb(option.action, lang))}</th><td>{value}{mark}{br}{exact}</td>{win}</tr>'
        )
    if views.compulsory:
        rows.append(
            f'<tr><th scope="row">{escape(verb(Action.HOLD, lang))}</th>'
            f'<td colspan="{2 if with_win else 1}"><i>{escape(tr("not allowed yet", lang))}</i></td></tr>'
        )
    win_column = f'<th scope="col">{escape(win_heading)}</th>' if with_win else ""
    return (
        '<table class="dk-values dk-views"><tr>'
        f'<th scope="col">{escape(tr("option", lang))}</th>'
        f'<th scope="col">{escape(tr("expected gems, this turn", lang))}</th>'
        f"{win_column}</tr>" + "".join(rows) + "</table>"
    )


# -- agree or not, and why -----------------------------------------------------------------------------------


def _verdict(views: TwoViews, lang: str | None) -> str:
    if views.verdict in (Verdict.SINGLE, Verdict.NONE):
        if views.verdict is Verdict.NONE:  # no chances of winning yet: the gems' advice alone
            (best, *_) = [o.action for o in views.options if o.action in views.best_gems]
            best_line = tr("Best for the expected gems: {action}", lang, action=_advice(best, lang))
            return f'<div class="dk-best">{best_line}</div>'
        return ""
    if views.verdict is Verdict.AGREE:
        (best, *_) = [o.action for o in views.options if o.action in views.best_gems and o.action in views.best_win]
        return f'<p class="dk-verdict">{tr("The two views agree: {action}.", lang, action=_advice(best, lang))}</p>'
    if views.verdict is Verdict.UNCLEAR:
        (gems_best, *_) = [o.action for o in views.options if o.action in views.best_gems]
        text = tr(
            "The estimate cannot tell the options apart: the confidence interval of their difference includes 0.",
            lang,
        )
        best_line = tr("Best for the expected gems: {action}", lang, action=_advice(gems_best, lang))
        return f'<div class="dk-best">{best_line}</div><p class="dk-verdict">{escape(text)}</p>'
    (gems_best, *_) = [o.action for o in views.options if o.action in views.best_gems]
    (win_best,) = views.best_win
    flag = tr(
        "The two views disagree: {gems} for the expected gems, {win} for winning the game.",
        lang,
        gems=_advice(gems_best, lang),
        win=_advice(win_best, lang),
    )
    assert views.reason is not None
    return (
        '<div class="dk-verdict dk-disagree" role="note">'
        f'<p><strong><span aria-hidden="true">⚠ </span>{flag}</strong></p>'
        f"<p>{escape(tr('Why: {reason}', lang, reason=reason_sentence(views.reason, lang)))}</p></div>"
    )


def _difference(views: TwoViews, lang: str | None) -> str:
    """The estimated difference between the two options' chances, from the same shuffles, with its interval."""
    found = views.estimate
    if found is None or len(views.options) != 2:
        return ""
    first, second = (o.action for o in views.options)
    diff, low, high = found.difference(first, second)
    text = tr(
        "Difference on the same shuffles: {first} − {second} = {diff} percentage points, {level} confidence "
        "interval {interval}.",
        lang,
        first=verb(first, lang),
        second=verb(second, lang),
        diff=_signed(100 * diff, lang),
        level=percent_text(found.level, 0, lang),
        interval=interval_text(100 * low, 100 * high, 1, lang),
    )
    return f'<p class="dk-note">{escape(text)}</p>'


def _signed(value: float, lang: str | None) -> str:
    """``+2.1`` or ``−0.4`` (a true minus sign), as ``lang`` writes decimals."""
    text = decimal_text(abs(value), 1, lang)
    return ("+" if value >= 0 else "−") + text
