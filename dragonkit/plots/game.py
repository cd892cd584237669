"""The gems over a game: the figure the play app shows when a game ends, drawn as SVG.

Not a matplotlib figure but an SVG written as text, as the board is: a page shows it in an ``HTML``
widget, and a visitor's kernel draws it in a few milliseconds without loading matplotlib (about half a
CPU-second, as much as the rest of a whole game: ``benchmarks/bench_game_end.py``).  The chart is small
and fixed: a line per player, x the turns played, y the gems, integer ticks on both axes, the numbers
written as the language writes them.

Colour never tells the players apart alone: each line has its own dash and its own marker shape,
repeated in the legend, and the winner's line is thicker (and named so in the legend).  The SVG is an
image (``role="img"``) whose accessible name is the text alternative of :func:`gems_over_game_text`,
written from the same data.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from .. import palette
from ..engine import Game
from ..i18n import tr
from ..i18n.numbers import integer_text
from .text import FigureText

__all__ = ["DASHES", "MARKERS", "gems_over_game", "gems_over_game_text", "integer_ticks"]

WIDTH = 420
PLOT_TOP, PLOT_HEIGHT, PLOT_RIGHT = 40, 196, WIDTH - 16
FONT = "DejaVu Sans, Arial, sans-serif"
#: A character of the labels (12 px), on average, in pixels: to fit the legend and the tick labels.
CHAR_WIDTH = 7.0
LEGEND_ROW, LEGEND_GAP = 20, 18
#: The lines' widths and the markers' sizes (about twice this across), px: a winner's are larger.
LINE, WINNER_LINE, MARKER, WINNER_MARKER = 2, 3.5, 3.5, 4
#: The longest name the legend writes in full (the table under the figure has every name in full).
LEGEND_NAME = 24

#: The marker shape of each seat, in order (the legend shows it too).
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "plus")
#: The dash pattern of each seat's line (``stroke-dasharray``, px; "" is solid).
DASHES = ("", "8 4", "2 3", "10 3 2 3", "5 5", "12 3 2 3 2 3")


def integer_ticks(low: int, high: int, most: int = 6) -> tuple[int, ...]:
    """The ticks of an integer axis: multiples of a step of 1, 2 or 5 times a power of ten, the
    smallest step with at most ``most`` intervals from the last multiple at or below ``low`` to the
    first at or above ``high``.

    Examples
    --------
    >>> integer_ticks(0, 7)
    (0, 2, 4, 6, 8)
    >>> integer_ticks(0, 43)
    (0, 10, 20, 30, 40, 50)
    """
    power = 1
    while True:  # a step as long as the span fits (two intervals at most): the loop ends
        for unit in (1, 2, 5):
            step = unit * power
            first, last = math.floor(low / step) * step, math.ceil(high / step) * step
            if (last - first) // step <= max(most, 2):
                return tuple(range(first, max(last, first + step) + step, step))
        power *= 10


def _marker(shape: str, x: float, y: float, r: float) -> str:
    """A marker of ``shape`` centred on (x, y), about ``2 r`` across, as path data."""
    if shape == "circle":
        return f"M{x - r:.1f},{y:.1f}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z"
    if shape == "square":
        s = 0.9 * r
        return f"M{x - s:.1f},{y - s:.1f}h{2 * s:.1f}v{2 * s:.1f}h{-2 * s:.1f}Z"
    if shape in ("triangle", "triangle-down"):
        d = 1 if shape == "triangle" else -1
        return (
            f"M{x:.1f},{y - d * 1.25 * r:.1f}L{x + 1.15 * r:.1f},{y + d * 0.85 * r:.1f}"
            f"L{x - 1.15 * r:.1f},{y + d * 0.85 * r:.1f}Z"
        )
    if shape == "diamond":
        s = 1.3 * r
        return f"M{x:.1f},{y - s:.1f}L{x + s:.1f},{y:.1f}L{x:.1f},{y + s:.1f}L{x - s:.1f},{y:.1f}Z"
    a, b = 1.25 * r, 0.45 * r  # a plus: arms 2a long, 2b wide
    return (
        f"M{x - b:.1f},{y - a:.1f}h{2 * b:.1f}v{a - b:.1f}h{a - b:.1f}v{2 * b:.1f}h{b - a:.1f}v{a - b:.1f}"
        f"h{-2 * b:.1f}v{b - a:.1f}h{b - a:.1f}v{-2 * b:.1f}h{a - b:.1f}Z"
    )


def _text_width(text: str) -> float:
    return CHAR_WIDTH * len(text)


def _legend_label(name: str, winner: bool, lang: str | None) -> str:
    shown = name if len(name) <= LEGEND_NAME else name[: LEGEND_NAME - 1] + "…"
    return f"{shown} ({tr('winner', lang)})" if winner else shown


def _legend_width(label: str) -> float:
    """An entry of the legend: the line's sample, a space, the name, the gap before the next entry."""
    return 38 + _text_width(label) + LEGEND_GAP


def _legend_rows(labels: Sequence[str], width: float) -> list[list[int]]:
    """The legend's entries (indices of ``labels``) row by row, as many to a row as fit in ``width``."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, label in enumerate(labels):
        entry = _legend_width(label)
        if rows[-1] and used + entry - LEGEND_GAP > width:
            rows.append([])
            used = 0.0
        rows[-1].append(i)
        used += entry
    return rows


def gems_over_game(game: Game, lang: str | None = None) -> str:
    """A line per player: their gems at the start and after every turn, as an SVG image.

    Parameters
    ----------
    game : Game
        Its :attr:`~dragonkit.engine.Game.gem_history`, players and winners (the game need not be over).
    lang : str, optional
        The language of the title, the axes, the legend and the numbers (default: the current language).

    Returns
    -------
    str
        An ``<svg>`` element, 420 pixels wide (it shrinks with a narrower page): x the turns played, y the
        gems; each player's line in the palette's colour of their seat (:data:`dragonkit.palette.PLAYERS`)
        with its own dash (:data:`DASHES`) and marker (:data:`MARKERS`), the winners' thicker.  Its
        accessible name (``aria-label``, and its ``<title>``) is the text alternative of
        :func:`gems_over_game_text`.
    """
    history = game.gem_history
    turns = max(len(history) - 1, 1)
    values = [v for gems in history for v in gems]
    x_ticks = [t for t in integer_ticks(0, turns, 8) if t <= turns]
    y_ticks = integer_ticks(min(0, *values), max(1, *values))
    y_low, y_high = y_ticks[0], y_ticks[-1]
    y_labels = [integer_text(v, lang) for v in y_ticks]
    left = 30 + max(_text_width(label) for label in y_labels) * 11 / 12 + 8  # the y label, the tick labels, a gap
    bottom = PLOT_TOP + PLOT_HEIGHT

    def x_at(turn: float) -> float:
        return left + (PLOT_RIGHT - left) * turn / turns

    def y_at(gems: float) -> float:
        return bottom - PLOT_HEIGHT * (gems - y_low) / (y_high - y_low)

    alt = gems_over_game_text(game, lang).alt
    labels = [_legend_label(name, seat in game.winners, lang) for seat, name in enumerate(game.players)]
    rows = _legend_rows(labels, WIDTH - 24)
    legend_top = bottom + 54
    height = legend_top + LEGEND_ROW * len(rows) + 2
    text = f'font-size="11" fill="{palette.INK}"'
    out = [
        f'<svg class="dk-gems-over-game" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'aria-label="{escape(alt, quote=True)}" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
        f'style="max-width: 100%; height: auto" font-family="{FONT}">',
        f"<title>{escape(alt)}</title>",
        f'<rect width="{WIDTH}" height="{height}" fill="{palette.WHITE}"/>',
        f'<text x="{WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold" '
        f'fill="{palette.INK}">{escape(tr("Gems over the game", lang))}</text>',
    ]
    # the grid and the ticks' labels
    for value, label in zip(y_ticks, y_labels):
        y = y_at(value)
        out.append(f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{PLOT_RIGHT}" y2="{y:.1f}" stroke="{palette.RULE}"/>')
        out.append(f'<text x="{left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end" {text}>{escape(label)}</text>')
    for turn in x_ticks:
        x = x_at(turn)
        out.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" stroke="{palette.GRID}"/>')
        out.append(
            f'<text x="{x:.1f}" y="{bottom + 17}" text-anchor="middle" {text}>{escape(integer_text(turn, lang))}</text>'
        )
    out.append(
        f'<path d="M{left:.1f},{PLOT_TOP}V{bottom}H{PLOT_RIGHT}" fill="none" stroke="{palette.GRID}" stroke-width="1"/>'
    )
    out.append(
        f'<text x="{(left + PLOT_RIGHT) / 2:.1f}" y="{bottom + 36}" text-anchor="middle" font-size="12" '
        f'fill="{palette.INK}">{escape(tr("turns played", lang))}</text>'
    )
    out.append(
        f'<text transform="translate(16 {PLOT_TOP + PLOT_HEIGHT / 2}) rotate(-90)" text-anchor="middle" '
        f'font-size="12" fill="{palette.INK}">{escape(tr("gems", lang))}</text>'
    )
    # the lines, the winners' last (on top); a marker on every point, or every few where they would crowd
    every = math.ceil(10 / ((PLOT_RIGHT - left) / turns))
    for seat in sorted(range(len(game.players)), key=lambda seat: seat in game.winners):
        winner = seat in game.winners
        points = [(x_at(t), y_at(gems[seat])) for t, gems in enumerate(history)]
        marked = [p for t, p in enumerate(points) if t % every == 0 or t == len(points) - 1]
        out.append(
            f'<g class="dk-player" data-seat="{seat}" data-marker="{_style(seat)[1]}" '
            f'data-winner="{str(winner).lower()}">'
        )
        out.append(
            f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}" fill="none" '
            f'{_stroke(seat, winner)} stroke-linejoin="round"/>'
        )
        out.append(_markers(seat, winner, marked))
        out.append("</g>")
    # the legend: each line's sample (colour, dash, thickness, marker) and its player's name, rows centred
    for row_number, row in enumerate(rows):
        x = (WIDTH - sum(_legend_width(labels[seat]) for seat in row) + LEGEND_GAP) / 2
        y = legend_top + LEGEND_ROW * row_number
        for seat in row:
            winner = seat in game.winners
            out.append(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 32:.1f}" y2="{y:.1f}" {_stroke(seat, winner)}/>')
            out.append(_markers(seat, winner, [(x + 16, y)]))
            weight = ' font-weight="bold"' if winner else ""
            out.append(
                f'<text x="{x + 38:.1f}" y="{y + 4:.1f}" font-size="12" fill="{palette.INK}"{weight}>'
                f"{escape(labels[seat])}</text>"
            )
            x += _legend_width(labels[seat])
    out.append("</svg>")
    return "\n".join(out)


def _style(seat: int) -> tuple[str, str, str]:
    """A seat's colour, marker and dash."""
    return (
        palette.PLAYERS[seat % len(palette.PLAYERS)],
        MARKERS[seat % len(MARKERS)],
        DASHES[seat % len(DASHES)],
    )


def _stroke(seat: int, winner: bool) -> str:
    """The attributes of a seat's line: its colour, its width (a winner's is thicker) and its dash."""
    colour, _marker_shape, dash = _style(seat)
    width = WINNER_LINE if winner else LINE
    return f'stroke="{colour}" stroke-width="{width}"' + (f' stroke-dasharray="{dash}"' if dash else "")


def _markers(seat: int, winner: bool, points: Sequence[tuple[float, float]]) -> str:
    """A seat's markers at ``points``, one path, outlined in white where lines cross."""
    colour, shape, _dash = _style(seat)
    r = WINNER_MARKER if winner else MARKER
    return (
        f'<path d="{"".join(_marker(shape, x, y, r) for x, y in points)}" fill="{colour}" '
        f'stroke="{palette.WHITE}" stroke-width="0.8"/>'
    )


def gems_over_game_text(game: Game, lang: str | None = None) -> FigureText:
    """What :func:`gems_over_game` shows, from the same data: the number of turns and each player's final gems
    (the text alternative), and per player the gems at the start, the fewest, the most and at the end (the table).
    """
    history = game.gem_history
    scores = ", ".join(f"{name} {integer_text(gems, lang)}" for name, gems in zip(game.players, game.gems))
    alt = tr("Gems over the game, after {turns} turns: {scores}", lang, turns=len(history) - 1, scores=scores)
    columns = (
        tr("player", lang),
        tr("at the start", lang),
        tr("fewest", lang),
        tr("most", lang),
        tr("at the end", lang),
    )
    rows = tuple(
        (name, *(integer_text(v, lang) for v in (h[0], min(h), max(h), h[-1])))
        for name, h in ((name, [turn[seat] for turn in history]) for seat, name in enumerate(game.players))
    )
    return FigureText(alt, columns, rows)
