"""Small HTML views of the game: the players, the event log, the status line."""

from __future__ import annotations

from html import escape

from ..engine import Game, Phase

__all__ = ["render_players", "render_log", "render_status"]


def render_players(game: Game, kinds: tuple[str, ...]) -> str:
    """A table of the players' gems, marking the turn owner, the active player,
    the player offered the turn and, at the end, the winners.  ``kinds`` labels
    each seat (``"human"``, ``"coach bot"`` ...)."""
    rows = []
    for seat, (name, gems) in enumerate(zip(game.players, game.gems)):
        badges = []
        if seat == game.turn_owner and not game.is_over:
            badges.append('<span class="dk-badge dk-owner">turn</span>')
        if seat == game.active_player and not game.is_over:
            badges.append('<span class="dk-badge dk-active">knight</span>')
        if seat == game.offer_to:
            badges.append('<span class="dk-badge dk-offer-badge">offered</span>')
        if seat in game.winners:
            badges.append('<span class="dk-badge dk-winner">winner</span>')
        current = " dk-current" if seat == game.to_move else ""
        rows.append(
            f'<tr class="dk-player{current}" data-seat="{seat}"><td>{escape(name)} '
            f'<small>{escape(kinds[seat])}</small></td><td class="dk-gems">{gems}</td>'
            f'<td>{"".join(badges)}</td></tr>'
        )
    return '<table class="dk-players"><tr><th>player</th><th>gems</th><th></th></tr>' + "".join(rows) + "</table>"


def render_log(game: Game, limit: int = 60) -> str:
    """The latest events, newest first."""
    items = [
        f'<li class="dk-ev-{e.kind}">{escape(e.text)}</li>' for e in reversed(game.events[-limit:])
    ]
    return (f'<div class="dk-log" data-events="{len(game.events)}"><b>Events</b>'
            f'<ol reversed start="{len(game.events)}">' + "".join(items) + "</ol></div>")


def render_status(game: Game, kinds: tuple[str, ...]) -> str:
    """One line: whose turn, who holds the knight, and what is expected of whom."""
    names = game.players
    if game.is_over:
        winners = " and ".join(names[i] for i in game.winners)
        verb = "win" if len(game.winners) > 1 else "wins"
        return (f'<div class="dk-status dk-over">Game over ({escape(game.ending.replace("_", " "))}): '
                f"<b>{escape(winners)}</b> {verb} with {max(game.gems)} gems.</div>")
    mover = game.to_move
    who = escape(names[mover]) + ("" if kinds[mover] == "human" else f" ({escape(kinds[mover])})")
    prompt = {
        Phase.MUST_REVEAL: "must reveal a card",
        Phase.CHOOSE: "may reveal another card or hold",
        Phase.OFFER: f"may take over for {game.bounty} gems, or decline",
    }[game.phase]
    return (f'<div class="dk-status">Turn {game.turn_number} (owner: {escape(names[game.turn_owner])}) · '
            f"<b>{who}</b> {prompt}.</div>")
