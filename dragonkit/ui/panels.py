"""Small HTML views of the game: the players, the event log, the status line, the latest move, a card.

Each view is written in the language asked for (default: the current one of
:mod:`dragonkit.i18n`), its numbers too (``1,200`` / ``1.200``: :mod:`dragonkit.i18n.numbers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from html import escape

from .. import palette
from ..bots import BotKind
from ..engine import Event, Game
from ..game_state import Phase
from ..i18n import Gems, get_language, tr
from ..i18n.numbers import integer_text
from ..rules import Card
from .setup import kind_label

__all__ = ["card_label", "render_log", "render_move", "render_players", "render_status"]


def card_label(card: Card, lang: str | None = None) -> str:
    """A card as a label in its kind's colour, its name written in it (the colour never says it alone)."""
    style = f"background:{palette.CARD[card.kind]};color:{palette.CARD_TEXT[card.kind]}"
    return f'<span class="dk-card" style="{style}">{escape(card.describe(lang))}</span>'


def render_players(game: Game, kinds: tuple[BotKind, ...], lang: str | None = None) -> str:
    """A table of the players' gems, marking the turn owner, the active player,
    the player offered the turn and, at the end, the winners.  ``kinds`` says who
    plays each seat, labelled here (``"human"``, ``"coach bot"`` ..., translated)."""
    rows = []
    for seat, (name, gems) in enumerate(zip(game.players, game.gems)):
        badges = []
        if seat == game.turn_owner and not game.is_over:
            badges.append(f'<span class="dk-badge dk-owner">{escape(tr("turn", lang))}</span>')
        if seat == game.active_player and not game.is_over:
            badges.append(f'<span class="dk-badge dk-active">{escape(tr("knight", lang))}</span>')
        if seat == game.offer_to:
            badges.append(f'<span class="dk-badge dk-offer-badge">{escape(tr("offered", lang))}</span>')
        if seat in game.winners:
            badges.append(f'<span class="dk-badge dk-winner">{escape(tr("winner", lang))}</span>')
        current = " dk-current" if seat == game.to_move else ""
        rows.append(
            f'<tr class="dk-player{current}" data-seat="{seat}"><td>{escape(name)} '
            f'<small style="white-space: nowrap">({escape(tr(kind_label(kinds[seat]), lang))})</small></td>'
            f'<td class="dk-gems">{integer_text(gems, lang)}</td>'
            f'<td style="white-space: nowrap">{"".join(badges)}</td></tr>'
        )
    # wider than the stylesheet's 330px (the log is narrower): Italian kinds and badges are longer
    return (
        f'<table class="dk-players" style="width: 360px"><tr><th>{escape(tr("player", lang))}</th>'
        f"<th>{escape(tr('gems', lang))}</th>"
        f'<th><span class="dk-sr-only">{escape(tr("role", lang))}</span></th></tr>' + "".join(rows) + "</table>"
    )


@lru_cache(maxsize=256)
def _log_item(event: Event, lang: str) -> str:
    """One line of the log (an event is written once per language, not at every redraw)."""
    return f'<li class="dk-ev-{event.kind}">{escape(event.describe(lang))}</li>'


def render_log(game: Game, limit: int = 60, lang: str | None = None) -> str:
    """The latest events, newest first.

    The title stays put above a scrolling list whose height is a whole number of lines and whose
    items snap to a line's top (the stylesheet's ``.dk-log-lines``), so no line is shown cut in half,
    however the events wrap in either language."""
    lang = lang or get_language()
    items = [_log_item(e, lang) for e in reversed(game.events[-limit:])]
    return (
        f'<div class="dk-log" style="width: 410px" data-events="{len(game.events)}">'
        f"<b>{escape(tr('Events', lang))}</b>"
        # focusable, so that the keyboard scrolls it too
        f'<div class="dk-log-lines" tabindex="0" role="region" aria-label="{escape(tr("Events", lang))}">'
        f'<ol reversed start="{len(game.events)}">' + "".join(items) + "</ol></div></div>"
    )


def render_move(events: Sequence[Event], lang: str | None = None) -> str:
    """The latest move, as the projector shows it beside the board: the card it revealed, if any, as a large
    :func:`card_label`, and what happened, a sentence a line.

    Parameters
    ----------
    events : sequence of Event
        The move's events (those since the move before it), oldest first.
    lang : str, optional
        The language (default: the current one).
    """
    card = next((dict(e.fields)["card"] for e in events if e.kind == "card_revealed"), None)
    shown = f'<p class="dk-move-card">{card_label(card, lang)}</p>' if isinstance(card, Card) else ""
    lines = "".join(f'<p class="dk-ev-{e.kind}">{escape(e.describe(lang))}</p>' for e in events)
    return f'<div class="dk-move">{shown}{lines}</div>'


def render_status(game: Game, kinds: tuple[BotKind, ...], lang: str | None = None) -> str:
    """One line: whose turn, who holds the knight, and what is expected of whom;
    at the end, how the game ended and who won (the engine's last event, names in bold)."""
    names = game.players
    mover = game.to_move
    if mover is None:  # the game is over
        over = next(e for e in reversed(game.events) if e.kind == "game_over")
        bold = tuple(f"<b>{escape(names[seat])}</b>" for seat in game.winners)  # the event's names, bold
        return f'<div class="dk-status dk-over">{over.describe(lang, names=bold)}</div>'
    who = escape(names[mover])
    if kinds[mover] is not BotKind.HUMAN:
        who += f" ({escape(tr(kind_label(kinds[mover]), lang))})"
    if game.phase is Phase.OFFER:
        prompt = tr("may take over for {bounty}, or decline", lang, bounty=Gems(game.bounty))
    elif game.phase is Phase.CHOOSE:
        prompt = tr("may reveal another card or hold", lang)
    else:
        prompt = tr("must reveal a card", lang)
    turn = tr("Turn {number} (owner: {owner})", lang, number=game.turn_number, owner=names[game.turn_owner])
    return f'<div class="dk-status">{escape(turn)} · <b>{who}</b> {escape(prompt)}.</div>'
