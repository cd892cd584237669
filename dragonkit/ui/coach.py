"""The coach panel: for each option, the turn's expected gems and the game's chance of winning; which option
each view prefers, and, where they differ, a flag and one sentence that says why; the next card's chances;
during a takeover offer, the fair bounty.

The expected gems come from :mod:`dragonkit.analysis` in exact ``Fraction`` arithmetic, shown as a decimal
and an exact fraction; the coach bot (:class:`~dragonkit.bots.CoachBot`) plays by them, so the panel and the
bot never disagree.  The chances of winning come from the race model's table in two-player games of
``dragon-stripes`` and ``mini``; in the other two-player games from the exact solution of the late game once
few cards are left and from the gems model's table before; with more players from a Monte Carlo estimate on
the public state, labelled as one, with its confidence interval (:mod:`dragonkit.ui.two_views`).  The words
are in the language asked for, and so are the numbers (``0.375`` / ``0,375``, ``51.4%`` / ``51,4%``); a
fraction is the same in every language.  What the panel means is said in words, never by colour alone: the best
options are marked "best choice", the disagreement is a sentence.
"""

from __future__ import annotations

from html import escape

from .. import i18n
from ..analysis import TurnState, fair_bounty, next_card_probabilities
from ..engine import VERBS, Game
from ..i18n import Gems, ntr, tr
from ..i18n.numbers import decimal_text, integer_text, interval_text, percent_interval_text, percent_text
from ..simulate.win_chance import ROLLOUT_THRESHOLD
from ..turn import Action
from .numbers import format_fraction, gems_html
from .two_views import ESTIMATE_SECONDS, Option, Reason, TwoViews, estimate_needed, two_views

__all__ = ["estimate_needed", "render_coach"]


def _verb(action: Action | str, lang: str | None) -> str:
    return tr(VERBS[Action(action).value], lang)


def _advice(action: Action | str, lang: str | None, compulsory: bool = False) -> str:
    """The action in capitals, e.g. ``REVEAL (compulsory)``."""
    text = _verb(action, lang).upper() + (tr(" (compulsory)", lang) if compulsory else "")
    return f'<span class="dk-advice">{escape(text)}</span>'


def render_coach(game: Game, lang: str | None = None, estimate: bool = True, waiting: bool = False) -> str:
    """The coach panel as HTML for the current situation of ``game``.

    Parameters
    ----------
    game : Game
    lang : str, optional
        The language (default: the current one).
    estimate : bool
        Where the chance of winning must be estimated by Monte Carlo (more than two players, or ``kali`` and
        ``drago-rosso``), whether to make the estimate now (up to 2 s) if this situation has none yet;
        if False the panel shows one made before, or says when one is made.
    waiting : bool
        Say that the estimate is being made (the app makes it right after showing the panel).

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
    views = two_views(game, estimate=estimate and not waiting)
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
        escape(_win_note(game, views, estimate, waiting, lang)),
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
        if views.source == "estimate"
        else tr("chance of winning the game", lang)
    )
    with_win = views.source not in (None, "preparing")  # no chance of winning yet: no column for it
    rows = []
    for option in views.options:
        mark = _mark(lang) if option.action in views.best_gems and not views.compulsory else ""
        win = _win_cell(option, views, lang) if with_win else ""
        value, br, exact = gems_html(option.gems, lang).partition("<br>")  # the mark next to the value, above
        rows.append(  # the exact fraction (which may wrap)
            f'<tr><th scope="row">{escape(_verb(option.action, lang))}</th><td>{value}{mark}{br}{exact}</td>{win}</tr>'
        )
    if views.compulsory:
        rows.append(
            f'<tr><th scope="row">{escape(_verb(Action.HOLD, lang))}</th>'
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
    if views.verdict in ("single", "none"):
        if views.verdict == "none":  # no chances of winning yet: the gems' advice alone
            (best, *_) = [o.action for o in views.options if o.action in views.best_gems]
            best_line = tr("Best for the expected gems: {action}", lang, action=_advice(best, lang))
            return f'<div class="dk-best">{best_line}</div>'
        return ""
    if views.verdict == "agree":
        (best, *_) = [o.action for o in views.options if o.action in views.best_gems and o.action in views.best_win]
        return f'<p class="dk-verdict">{tr("The two views agree: {action}.", lang, action=_advice(best, lang))}</p>'
    if views.verdict == "unclear":
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
        first=_verb(first, lang),
        second=_verb(second, lang),
        diff=_signed(100 * diff, lang),
        level=percent_text(found.level, 0, lang),
        interval=interval_text(100 * low, 100 * high, 1, lang),
    )
    return f'<p class="dk-note">{escape(text)}</p>'


def _signed(value: float, lang: str | None) -> str:
    """``+2.1`` or ``−0.4`` (a true minus sign), as ``lang`` writes decimals."""
    text = decimal_text(abs(value), 1, lang)
    return ("+" if value >= 0 else "−") + text


def reason_sentence(reason: Reason, lang: str | None = None) -> str:
    """The one sentence that says why the chance of winning prefers :attr:`Reason.action`.

    Parameters
    ----------
    reason : Reason
        From :func:`~dragonkit.ui.two_views.two_views`.
    lang : str, optional
        The language (default: the current one).
    """
    gems, pot, bounty = Gems(reason.gems), Gems(reason.pot), Gems(reason.bounty)
    someone = reason.name
    if reason.kind == "last_danger_pass":
        if reason.action is Action.HOLD:
            if someone is None:
                return tr(
                    "The last danger card is still in the deck: the expected gems count it as a loss of {gems}, "
                    "but for winning it is the loss of the game, and if you hold, another player reveals the next "
                    "card.",
                    lang,
                    gems=gems,
                )
            return tr(
                "The last danger card is still in the deck: the expected gems count it as a loss of {gems}, "
                "but for winning it is the loss of the game, and if you hold, {name} reveals the next card.",
                lang,
                gems=gems,
                name=someone,
            )
        if someone is None:
            return tr(
                "The last danger card is still in the deck: the expected gems count it as a loss of {gems}, "
                "but for winning it is the loss of the game, and if you decline, another player reveals the next card.",
                lang,
                gems=gems,
            )
        return tr(
            "The last danger card is still in the deck: the expected gems count it as a loss of {gems}, "
            "but for winning it is the loss of the game, and if you decline, {name} reveals the next card.",
            lang,
            gems=gems,
            name=someone,
        )
    if reason.kind == "last_danger_twice":
        if reason.action is Action.HOLD:
            return tr(
                "The last danger card is still in the deck: the expected gems count it as a loss of {gems}, "
                "but for winning it is the loss of the game, and the next turn is yours anyway, so every card you "
                "reveal now is one more chance of drawing it.",
                lang,
                gems=gems,
            )
        return tr(
            "The last danger card is still in the deck: the expected gems count it as a loss of {gems}, "
            "but for winning it is the loss of the game, and the next turn is yours anyway, so by taking over you "
            "would reveal now and again in that turn.",
            lang,
            gems=gems,
        )
    if reason.kind == "head_hold":
        if someone is None:
            return ntr(
                "For winning, a pot of {pot} counts for less than a chance at the head, {n} step away: if you "
                "hold, another player reveals the next card and has that chance instead.",
                "For winning, a pot of {pot} counts for less than a chance at the head, {n} steps away: if you "
                "hold, another player reveals the next card and has that chance instead.",
                reason.steps,
                lang,
                pot=pot,
                n=reason.steps,
            )
        if reason.takes_over:
            return ntr(
                "For winning, a pot of {pot} counts for less than a chance at the head, {n} step away: if you "
                "hold, {name} can pay the bounty of {bounty}, take the turn over and have that chance instead.",
                "For winning, a pot of {pot} counts for less than a chance at the head, {n} steps away: if you "
                "hold, {name} can pay the bounty of {bounty}, take the turn over and have that chance instead.",
                reason.steps,
                lang,
                pot=pot,
                n=reason.steps,
                name=someone,
                bounty=bounty,
            )
        return ntr(
            "For winning, a pot of {pot} counts for less than a chance at the head, {n} step away: if you hold, "
            "the next turn, and that chance, go to {name}.",
            "For winning, a pot of {pot} counts for less than a chance at the head, {n} steps away: if you hold, "
            "the next turn, and that chance, go to {name}.",
            reason.steps,
            lang,
            pot=pot,
            n=reason.steps,
            name=someone,
        )
    if reason.kind == "head_restart":
        return ntr(
            "For winning, a pot of {pot} counts for less than a chance at the head, {n} step away: if you hold, "
            "nobody can take over, and you start your next turn from the tail.",
            "For winning, a pot of {pot} counts for less than a chance at the head, {n} steps away: if you hold, "
            "nobody can take over, and you start your next turn from the tail.",
            reason.steps,
            lang,
            pot=pot,
            n=reason.steps,
        )
    if reason.kind == "head_decline":
        if someone is None:
            return ntr(
                "For winning, a bounty of {bounty} counts for less than a chance at the head, {n} step away: if "
                "you decline, another player reveals the next card, not you.",
                "For winning, a bounty of {bounty} counts for less than a chance at the head, {n} steps away: if "
                "you decline, another player reveals the next card, not you.",
                reason.steps,
                lang,
                bounty=bounty,
                n=reason.steps,
            )
        return ntr(
            "For winning, a bounty of {bounty} counts for less than a chance at the head, {n} step away: if you "
            "decline, {name} reveals the next card, not you.",
            "For winning, a bounty of {bounty} counts for less than a chance at the head, {n} steps away: if you "
            "decline, {name} reveals the next card, not you.",
            reason.steps,
            lang,
            bounty=bounty,
            n=reason.steps,
            name=someone,
        )
    if reason.kind == "lead_bank":
        return tr(
            "The last danger card ends the game on the gems, and holding puts you ahead, {banked} against "
            "{rival} with the pot banked, and ahead too if the turn is taken over: for winning, the lead counts "
            "for more than what the next cards could add.",
            lang,
            banked=Gems(reason.banked),
            rival=Gems(reason.rival),
        )
    if reason.kind == "lead_short":
        return tr(
            "The last danger card ends the game on the gems, and even with this pot you would be behind, {banked} "
            "against {rival}: for winning, holding is not enough, and the next cards may be.",
            lang,
            banked=Gems(reason.banked),
            rival=Gems(reason.rival),
        )
    return tr(
        "The expected gems count this turn's gems only, while winning depends on the whole game (who reaches the "
        "head, who reveals the last danger card, who ends with the most gems), and from here the better choice for "
        "winning is to {action}.",
        lang,
        action=_verb(reason.action, lang),
    )


def _win_note(game: Game, views: TwoViews, estimate: bool, waiting: bool, lang: str | None) -> str:
    """Where the chances of winning come from, in one or two sentences."""
    if views.source == "table":
        return tr(
            "Chance of winning: from a model of the two-player game, solved for every deck, in which whoever "
            "reaches the head wins and whoever reveals the last danger card loses, both players playing to win; "
            "the real gems count in the decision at hand only.",
            lang,
        )
    if views.source == "model":
        return tr(
            "Chance of winning: from a model of the two-player game, solved for every deck, which carries both "
            "players' gems (here the last danger card ends the game on the gems), both players playing to win; "
            "the decision at hand is read with the real deck, gems and pot.",
            lang,
        )
    if views.source == "exact":
        return ntr(
            "Chance of winning: exact, with {cards} card left, the real gems and pot, both players playing to win to "
            "the end of the game.",
            "Chance of winning: exact, over every order of the {cards} cards left, with the real gems and pot, both "
            "players playing to win to the end of the game.",
            game.remaining.total,
            lang,
            cards=game.remaining.total,
        )
    if views.source == "preparing":
        return tr(
            "Preparing the chance of winning: its model of the two-player game is being solved on this machine, "
            "once (about a minute). Meanwhile, the expected gems of this turn.",
            lang,
        )
    if views.source == "estimate":
        found = views.estimate
        assert found is not None
        return ntr(
            "Chance of winning: an estimate, not an exact value, from {n} game per option, each on a fresh "
            "shuffle of the {cards} cards left (the same shuffles for every option), played to the end by "
            "threshold bots holding at a pot of {threshold} gems in every seat; the brackets are {level} "
            "confidence intervals ({seconds} s).",
            "Chance of winning: an estimate, not an exact value, from {n} games per option, each on a fresh "
            "shuffle of the {cards} cards left (the same shuffles for every option), played to the end by "
            "threshold bots holding at a pot of {threshold} gems in every seat; the brackets are {level} "
            "confidence intervals ({seconds} s).",
            found.games,
            lang,
            n=integer_text(found.games, lang),
            cards=found.cards_left,
            threshold=ROLLOUT_THRESHOLD,
            level=percent_text(found.level, 0, lang),
            seconds=decimal_text(found.seconds, 1, lang),
        )
    if waiting:
        return tr("Estimating the chance of winning by simulation…", lang)
    if views.compulsory:
        return tr("The chance of winning is estimated by simulation when there is a choice to make.", lang)
    return tr(
        "The chance of winning is estimated by simulation (about {seconds} s) when a human player has a choice to "
        "make.",
        lang,
        seconds=decimal_text(ESTIMATE_SECONDS + 0.5, 0, lang),
    )
