"""The coach's words, in the page's language: why its two views disagree, and where its chances of winning come from.

Plain text, one sentence or two each, with the numbers as the language writes them (``0.375`` / ``0,375``); the panel
that shows them is :mod:`dragonkit.ui.coach_panel`.
"""

from __future__ import annotations

from ..analysis.win.model import WinModel
from ..engine import VERBS, Game
from ..i18n import N_, Gems, ntr, tr
from ..i18n.numbers import decimal_text, integer_text, percent_text
from ..simulate.win_chance import ROLLOUT_THRESHOLD
from ..turn import Action
from .reasons import Reason, ReasonKind
from .views import ESTIMATE_SECONDS, Source, TwoViews

__all__ = ["ESTIMATE_BUTTON", "reason_sentence", "source_note", "verb"]

#: The button that asks the coach for its estimate of the chance of winning, where it is made on request (a msgid).
ESTIMATE_BUTTON = N_("Estimate the chance of winning")


def verb(action: Action, lang: str | None = None) -> str:
    """The action's verb in ``lang`` (``reveal`` / ``scopri``)."""
    return tr(VERBS[action], lang)


def reason_sentence(reason: Reason, lang: str | None = None) -> str:
    """The one sentence that says why the chance of winning prefers :attr:`Reason.action`.

    Parameters
    ----------
    reason : Reason
        From :meth:`Coach.views <dragonkit.coach.views.Coach.views>`.
    lang : str, optional
        The language (default: the current one).
    """
    gems, pot, bounty = Gems(reason.gems), Gems(reason.pot), Gems(reason.bounty)
    someone = reason.name
    if reason.kind is ReasonKind.LAST_DANGER_PASS:
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
    if reason.kind is ReasonKind.LAST_DANGER_TWICE:
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
    if reason.kind is ReasonKind.HEAD_HOLD:
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
    if reason.kind is ReasonKind.HEAD_RESTART:
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
    if reason.kind is ReasonKind.HEAD_DECLINE:
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
    if reason.kind is ReasonKind.LEAD_BANK:
        return tr(
            "The last danger card ends the game on the gems, and holding puts you ahead, {banked} against "
            "{rival} with the pot banked, and ahead too if the turn is taken over: for winning, the lead counts "
            "for more than what the next cards could add.",
            lang,
            banked=Gems(reason.banked),
            rival=Gems(reason.rival),
        )
    if reason.kind is ReasonKind.LEAD_SHORT:
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
        action=verb(reason.action, lang),
    )


def source_note(
    game: Game, views: TwoViews, waiting: bool = False, lang: str | None = None, on_request: bool = False
) -> str:
    """Where the chances of winning of ``views`` come from, in one or two sentences.

    Parameters
    ----------
    game : Game
        The game of ``views``.
    views : TwoViews
    waiting : bool
        Whether an estimate is being made (the app makes it right after showing the panel).
    lang : str, optional
        The language (default: the current one).
    on_request : bool
        The estimate is made when the player asks for it (in a room, whose server the whole class shares), not at
        every decision.
    """
    if views.source is WinModel.RACE:
        return tr(
            "Chance of winning: from a model of the two-player game, solved for every deck, in which whoever "
            "reaches the head wins and whoever reveals the last danger card loses, both players playing to win; "
            "the real gems count in the decision at hand only.",
            lang,
        )
    if views.source is WinModel.GEMS:
        return tr(
            "Chance of winning: from a model of the two-player game, solved for every deck, which carries both "
            "players' gems (here the last danger card ends the game on the gems), both players playing to win; "
            "the decision at hand is read with the real deck, gems and pot.",
            lang,
        )
    if views.source is WinModel.LATE:
        return ntr(
            "Chance of winning: exact, with {cards} card left, the real gems and pot, both players playing to win to "
            "the end of the game.",
            "Chance of winning: exact, over every order of the {cards} cards left, with the real gems and pot, both "
            "players playing to win to the end of the game.",
            game.remaining.total,
            lang,
            cards=game.remaining.total,
        )
    if views.source is Source.PREPARING:
        return tr(
            "Preparing the chance of winning: its model of the two-player game is being solved on this machine, "
            "once (about a minute). Meanwhile, the expected gems of this turn.",
            lang,
        )
    if views.source is Source.ESTIMATE:
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
    if on_request:
        return tr(
            "The chance of winning is estimated by simulation (about {seconds} s) when you press “{button}”.",
            lang,
            seconds=decimal_text(ESTIMATE_SECONDS + 0.5, 0, lang),
            button=tr(ESTIMATE_BUTTON, lang),
        )
    return tr(
        "The chance of winning is estimated by simulation (about {seconds} s) when a human player has a choice to "
        "make.",
        lang,
        seconds=decimal_text(ESTIMATE_SECONDS + 0.5, 0, lang),
    )
