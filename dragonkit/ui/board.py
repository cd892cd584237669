"""The board view: the dragon's striped back, the knight, the pot, the treasure,
the stage, the deck composition and the last card, drawn as one SVG.

A pure function of the game's public state and a language: it reads the game,
changes nothing, and never sees the order of the undealt cards.
"""

from __future__ import annotations

import math
from html import escape

from .. import palette
from ..engine import Game
from ..i18n import gems, ntr, tr
from ..rules import Card, CardKind, Outcome, Ruleset
from ..topics.deck import shares_left

__all__ = ["render_board"]

WIDTH, HEIGHT = 820, 330
BAND_LEFT, BAND_RIGHT, BAND_MID, BAND_HALF = 70, 690, 165, 34


def _wave(x: float) -> float:
    return BAND_MID + 22 * math.sin((x - BAND_LEFT) / (BAND_RIGHT - BAND_LEFT) * 2.2 * math.pi)


def _stripe_x(rules: Ruleset, position: int) -> float:
    """Centre x of a position: 0 the tail, 1..n the stripes, n+1 the head."""
    width = (BAND_RIGHT - BAND_LEFT) / rules.n_stripes
    if position <= 0:
        return BAND_LEFT - 28
    if position > rules.n_stripes:
        return BAND_RIGHT + 55
    return BAND_LEFT + (position - 0.5) * width


def _dragon(game: Game, stage: int, lang: str | None) -> list[str]:
    rules = game.rules
    n = rules.n_stripes
    width = (BAND_RIGHT - BAND_LEFT) / n
    out = []
    # tail
    y0 = _wave(BAND_LEFT)
    out.append(
        f'<polygon points="{BAND_LEFT},{y0 - BAND_HALF} {BAND_LEFT - 58},{y0 + 8} {BAND_LEFT},{y0 + BAND_HALF}" '
        f'fill="{palette.DRAGON_BODY}" stroke="{palette.DRAGON_OUTLINE}" stroke-width="1.5"/>'
    )
    label_size = 15 if n <= 18 else 12
    for k in range(1, n + 1):
        xa, xb = BAND_LEFT + (k - 1) * width, BAND_LEFT + k * width
        ya, yb = _wave(xa), _wave(xb)
        fill = palette.KNIGHT_STRIPE if k == game.position else palette.DRAGON_STRIPES[(k - 1) % 2]
        out.append(
            f'<polygon class="stripe" data-stripe="{k}" points="{xa:.1f},{ya - BAND_HALF:.1f} {xb:.1f},'
            f'{yb - BAND_HALF:.1f} {xb:.1f},{yb + BAND_HALF:.1f} {xa:.1f},{ya + BAND_HALF:.1f}" '
            f'fill="{fill}" stroke="{palette.DRAGON_OUTLINE}" stroke-width="1"/>'
        )
        xm, ym = (xa + xb) / 2, (ya + yb) / 2
        value = rules.stripe_value(k, stage)
        colour = palette.INK if k == game.position else palette.WHITE
        out.append(
            f'<text x="{xm:.1f}" y="{ym + 5:.1f}" text-anchor="middle" font-size="{label_size}" '
            f'font-weight="bold" fill="{colour}">{value}</text>'
        )
        if value != k:  # the stripe's number, where its gems differ from it
            out.append(
                f'<text x="{xm:.1f}" y="{ym + BAND_HALF - 4:.1f}" text-anchor="middle" font-size="9" '
                f'fill="{colour}">#{k}</text>'
            )
    # head
    yh = _wave(BAND_RIGHT)
    hx = BAND_RIGHT
    out.append(
        f'<polygon points="{hx},{yh - BAND_HALF - 6} {hx + 60},{yh - 30} {hx + 100},{yh - 8} {hx + 104},{yh + 10} '
        f'{hx + 60},{yh + 22} {hx},{yh + BAND_HALF + 6}" fill="{palette.DRAGON_HEAD}" '
        f'stroke="{palette.DRAGON_OUTLINE}" stroke-width="1.5"/>'
    )
    out.append(
        f'<polygon points="{hx + 20},{yh - BAND_HALF - 4} {hx + 34},{yh - 62} {hx + 42},{yh - 34}" '
        f'fill="{palette.DRAGON_HORN}"/>'
    )
    out.append(
        f'<circle cx="{hx + 62}" cy="{yh - 14}" r="6" fill="{palette.DRAGON_EYE}" stroke="{palette.DRAGON_OUTLINE}"/>'
    )
    out.append(f'<circle cx="{hx + 63}" cy="{yh - 14}" r="2.2" fill="{palette.INK}"/>')
    head = tr("HEAD", lang)
    out.append(
        f'<text x="{hx + 36}" y="{yh + 10}" text-anchor="middle" font-size="{_fit(head, 12, 62)}" '
        f'font-weight="bold" fill="{palette.WHITE}">{escape(head)}</text>'
    )
    return out


def _knight(game: Game, lang: str | None) -> list[str]:
    rules = game.rules
    x = _stripe_x(rules, game.position)
    y = _wave(min(max(x, BAND_LEFT), BAND_RIGHT)) - BAND_HALF - 30
    label = tr("pot {pot}", lang, pot=game.pot)
    width = max(66, 9 * len(label))  # 13px bold: about 8.5px a character
    px = x + 16 if x < BAND_RIGHT else x - 16 - width  # the bubble goes left of the knight at the head
    pot = (
        f'<g class="pot"><rect x="{px:.1f}" y="{y - 26:.1f}" width="{width}" height="22" rx="11" '
        f'fill="{palette.GOLD_TINT}" stroke="{palette.POT}"/>'
        f'<text x="{px + width / 2:.1f}" y="{y - 10:.1f}" text-anchor="middle" '
        f'font-size="13" font-weight="bold" fill="{palette.AMBER}">{escape(label)}</text></g>'
    )
    if game.is_over:
        pot = ""  # the pot has been paid out or returned
    cross = f'stroke="{palette.WHITE}" stroke-width="3"'
    return [
        f'<g class="knight" data-position="{game.position}">',
        f'<polygon points="{x - 13:.1f},{y - 12:.1f} {x + 13:.1f},{y - 12:.1f} {x + 13:.1f},{y + 6:.1f} '
        f'{x:.1f},{y + 22:.1f} {x - 13:.1f},{y + 6:.1f}" fill="{palette.KNIGHT}" '
        f'stroke="{palette.KNIGHT_OUTLINE}" stroke-width="2"/>',
        f'<line x1="{x:.1f}" y1="{y - 8:.1f}" x2="{x:.1f}" y2="{y + 14:.1f}" {cross}/>',
        f'<line x1="{x - 8:.1f}" y1="{y:.1f}" x2="{x + 8:.1f}" y2="{y:.1f}" {cross}/>',
        "</g>",
        pot,
    ]


def _stage(game: Game, rules: Ruleset, lang: str | None) -> list[str]:
    out = [
        f'<text x="12" y="22" font-size="13" font-weight="bold" fill="{palette.INK}">{escape(tr("Stage", lang))}</text>'
    ]
    # a danger revealed is a filled marker with a cross in it, one still in the deck an empty ring: the
    # shape tells them apart without the colour (and the words after them count them)
    for i in range(rules.danger_cards):
        revealed = i < game.stage
        cx = 70 + 22 * i
        out.append(
            f'<circle class="dk-stage-marker" data-revealed="{str(revealed).lower()}" cx="{cx}" cy="17" r="8" '
            f'fill="{palette.DANGER if revealed else palette.WHITE}" stroke="{palette.DANGER}" stroke-width="2"/>'
        )
        if revealed:
            out.append(
                f'<path d="M{cx - 4},13 L{cx + 4},21 M{cx + 4},13 L{cx - 4},21" stroke="{palette.WHITE}" '
                'stroke-width="2" stroke-linecap="round"/>'
            )
    x = 78 + 22 * max(rules.danger_cards, 1)
    dangers = ntr(
        "{stage} of {n} danger",
        "{stage} of {n} dangers",
        rules.danger_cards,
        lang,
        stage=game.stage,
        n=rules.danger_cards,
    )
    out.append(f'<text x="{x}" y="22" font-size="13" fill="{palette.INK}">{escape(dangers)}</text>')
    if game.ending is not Outcome.FINAL_DANGER:  # after the final danger no stage is in force
        stage = rules.stage(game.stage)
        line = tr(
            "stop penalty {rate} of your gems · stripe gems {multiplier}",
            lang,
            rate=f'<tspan font-weight="bold">{stage.rate}</tspan>',
            multiplier=f'<tspan font-weight="bold">x{stage.multiplier}</tspan>',
        )
        out.append(f'<text x="12" y="44" font-size="13" fill="{palette.INK}">{line}</text>')
    return out


def _treasure(game: Game, lang: str | None) -> list[str]:
    x = WIDTH - 170
    title = tr("dragon's treasure", lang)
    return [
        f'<rect x="{x}" y="6" width="158" height="44" rx="8" fill="{palette.TREASURE_TINT}" stroke="{palette.POT}"/>',
        f'<text x="{x + 12}" y="24" font-size="12" fill="{palette.AMBER}">{escape(title)}</text>',
        f'<text x="{x + 12}" y="43" font-size="18" font-weight="bold" fill="{palette.AMBER}">'
        f"{escape(gems(game.treasure, lang))}</text>",
    ]


def _deck(game: Game, lang: str | None) -> list[str]:
    comp = game.remaining
    full = game.rules.composition
    left = tr("Deck: {left} of {total} cards left", lang, left=comp.total, total=full.total)
    out = [f'<text x="12" y="262" font-size="13" font-weight="bold" fill="{palette.INK}">{escape(left)}</text>']
    shares = shares_left(comp, full)
    for col, (card, count) in enumerate(comp.counts()):
        total = full.count(card)
        x = 12 + col * 96
        colour = palette.CARD[card.kind]
        h = 34 * float(shares[card])  # the meter's height, in pixels
        # the meter's colour is the card's kind, whose word is written beside it
        out.append(f'<rect x="{x}" y="272" width="16" height="34" fill="{palette.SURFACE}" stroke="{palette.BORDER}"/>')
        out.append(
            f'<rect class="dk-meter" data-kind="{card.kind}" x="{x}" y="{306 - h:.1f}" width="16" height="{h:.1f}" '
            f'fill="{colour}"/>'
        )
        out.append(
            f'<text x="{x + 21}" y="287" font-size="12" fill="{palette.INK}">{escape(card.describe(lang))}</text>'
        )
        out.append(
            f'<text x="{x + 21}" y="303" font-size="13" font-weight="bold" fill="{palette.INK}">{count}/{total}</text>'
        )
    return out


def _last_card(game: Game, lang: str | None) -> list[str]:
    card: Card | None = game.last_card
    x, y = WIDTH - 120, 240
    out = [
        f'<text x="{x - 8}" y="{y + 6}" text-anchor="end" font-size="12" fill="{palette.TEXT_MUTED}">'
        f"{escape(tr('last card', lang))}</text>"
    ]
    if card is None:
        out.append(
            f'<rect x="{x}" y="{y - 8}" width="100" height="80" rx="8" fill="{palette.SURFACE}" '
            f'stroke="{palette.BORDER}" stroke-dasharray="4 3"/>'
        )
        out.append(
            f'<text x="{x + 50}" y="{y + 36}" text-anchor="middle" font-size="12" fill="{palette.TEXT_MUTED}">'
            f"{escape(tr('none yet', lang))}</text>"
        )
        return out
    colour, text = palette.CARD[card.kind], palette.CARD_TEXT[card.kind]
    if card.kind is CardKind.FOOTPRINT:  # the number of steps, big, and the word under it
        big, size = str(card.steps), 34
        small = ntr("step", "steps", card.steps, lang)
    else:
        big, small = card.describe(lang).upper(), ""
        size = _fit(big, 18, 90)
    out.append(
        f'<rect class="last-card" x="{x}" y="{y - 8}" width="100" height="80" rx="8" fill="{colour}" '
        f'stroke="{palette.INK}" stroke-width="1.5"/>'
    )
    out.append(
        f'<text x="{x + 50}" y="{y + 36}" text-anchor="middle" font-size="{size}" font-weight="bold" '
        f'fill="{text}">{escape(big)}</text>'
    )
    out.append(
        f'<text x="{x + 50}" y="{y + 58}" text-anchor="middle" font-size="12" fill="{text}">{escape(small)}</text>'
    )
    return out


def _fit(text: str, size: int, width: float) -> int:
    """The largest font size up to ``size`` at which bold capitals ``text`` fit in ``width`` pixels
    (a bold capital is about 0.75 of the font size wide)."""
    return max(8, min(size, int(width / (0.75 * max(len(text), 1)))))


def render_board(game: Game, lang: str | None = None) -> str:
    """The board as an SVG string, ``WIDTH x HEIGHT`` pixels (820 x 330), its words in ``lang``
    (default: the current language of :mod:`dragonkit.i18n`)."""
    rules = game.rules
    # after the final danger the stripes keep the last stage's values
    stage = rules.last_stage if game.ending is Outcome.FINAL_DANGER else game.stage
    parts = [
        f'<svg class="dk-board" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="10" fill="{palette.PAPER}"/>',
    ]
    parts += _stage(game, rules, lang)
    parts += _treasure(game, lang)
    parts += _dragon(game, stage, lang)
    parts += _knight(game, lang)
    parts += _deck(game, lang)
    parts += _last_card(game, lang)
    parts.append("</svg>")
    return "\n".join(parts)
