"""The game's pieces on paper, drawn from a :class:`~dragonkit.rules.Ruleset`: a card's symbol, the dragon's stripes
with their gems, the stages' table.  The rules' page and the mini deck both draw them; no number of the game is
written here, every one is the ruleset's.

A card says what it is three ways, so that colour is never the only cue: its word (``2 steps``, ``stop``), its shape
(footprints, one for each step; an octagon; a triangle with ``!``) and its colour (the kit's, :data:`palette.CARD`).
"""

from __future__ import annotations

from html import escape

from .. import palette
from ..i18n import N_, gems, tr
from ..rules import Card, CardKind, FinalDanger, Ruleset

__all__ = ["PIECES_CSS", "card_symbol", "deck_html", "dragon_html", "stage_table", "treasure_text"]

#: The stages' table's header.
_STAGE_COLUMNS = (
    N_("dangers revealed (the stage)"),
    N_("a stop costs, of your gems (rounded down)"),
    N_("stripes pay"),
)

#: The pieces' rules, after the paper's stylesheet.
PIECES_CSS = f"""
.dk-dragon {{ border-collapse: collapse; width: 100%; table-layout: fixed; margin: 1mm 0 2mm 0; }}
.dk-dragon td {{ border: 0.3mm solid {palette.INK}; text-align: center; vertical-align: middle; padding: 2mm 0.5mm;
                font-size: 13pt; font-weight: bold; }}
.dk-dragon td.dk-end {{ background: {palette.PRINT_FILL}; font-size: 8pt; width: 9%; }}
.dk-deck {{ display: flex; flex-wrap: wrap; gap: 2mm 4mm; margin: 1mm 0 2mm 0; padding: 0; list-style: none; }}
.dk-deck li {{ display: flex; align-items: center; gap: 1.5mm; }}
.dk-deck svg {{ width: 7mm; height: 7mm; }}
"""

#: A footprint, a sole and four toes, centred on (0, 0) and about 12 x 20 units.
_FOOT = (
    '<g transform="translate({x:.1f} {y:.1f}) rotate({turn}) scale({scale})" fill="{fill}">'
    '<ellipse cx="0" cy="3" rx="4.2" ry="6"/><circle cx="-3.6" cy="-6" r="1.5"/><circle cx="-1.2" cy="-7.6" r="1.6"/>'
    '<circle cx="1.6" cy="-7.6" r="1.6"/><circle cx="4" cy="-6" r="1.5"/></g>'
)


def card_symbol(card: Card) -> str:
    """A card's symbol as an SVG on a 60 x 60 grid: a footprint for each step, going up the card, an octagon for a
    stop, a triangle with ``!`` for a danger, in the card's colour.  It is decoration (``aria-hidden``): the card's
    word says what it is."""
    colour = palette.CARD[card.kind]
    if card.kind is CardKind.FOOTPRINT:  # left and right feet in turn, up the card; one foot alone in the middle
        steps = card.steps
        gap = 48 / steps
        scale = 2.4 if steps == 1 else min(1.9, gap / 10)
        shape = "".join(
            _FOOT.format(
                x=30 if steps == 1 else (21 if i % 2 == 0 else 39),
                y=54 - gap * (i + 0.5),
                turn=0 if steps == 1 else 12,
                scale=f"{scale:.2f}",
                fill=colour,
            )
            for i in range(steps)
        )
    elif card.kind is CardKind.STOP:
        points = "20,4 40,4 56,20 56,40 40,56 20,56 4,40 4,20"
        shape = (
            f'<polygon points="{points}" fill="{colour}" stroke="{palette.INK}" stroke-width="2"/>'
            f'<rect x="14" y="26" width="32" height="8" fill="{palette.WHITE}"/>'
        )
    else:
        shape = (
            f'<polygon points="30,4 57,54 3,54" fill="{colour}" stroke="{palette.INK}" stroke-width="2" '
            'stroke-linejoin="round"/>'
            f'<rect x="27" y="20" width="6" height="19" rx="2" fill="{palette.WHITE}"/>'
            f'<circle cx="30" cy="46" r="3.5" fill="{palette.WHITE}"/>'
        )
    return f'<svg aria-hidden="true" viewBox="0 0 60 60" xmlns="http://www.w3.org/2000/svg">{shape}</svg>'


def deck_html(rules: Ruleset, lang: str) -> str:
    """The deck's cards by kind, each with its symbol, its word and how many: ``1 step ×14``."""
    items = "".join(
        f"<li>{card_symbol(card)}<span>{escape(card.describe(lang))} ×{count}</span></li>"
        for card, count in rules.composition.counts()
    )
    return f'<ul class="dk-deck">{items}</ul>'


def dragon_html(rules: Ruleset, lang: str) -> str:
    """The dragon from its tail to its head, one box per stripe with the stripe's gems."""
    stripes = "".join(f"<td>{value}</td>" for value in rules.stripe_values)
    tail, head = escape(tr("the tail", lang)), escape(tr("HEAD", lang))
    row = f'<td class="dk-end">{tail}</td>{stripes}<td class="dk-end">{head}</td>'
    return f'<table class="dk-dragon"><tr>{row}</tr></table>'


def stage_table(rules: Ruleset, lang: str) -> str:
    """The stages: for each number of dangers revealed, what a stop costs and what the stripes pay; then what the
    last danger does."""
    head = "".join(f"<th>{escape(tr(text, lang))}</th>" for text in _STAGE_COLUMNS)
    rows = "".join(
        f"<tr><td>{d}</td><td>{stage.rate}</td><td>×{stage.multiplier}</td></tr>"
        for d, stage in enumerate(rules.stages)
    )
    last = (
        tr("the last danger ends the game: its revealer loses all their gems", lang)
        if rules.final_danger is FinalDanger.ALL_GEMS
        else tr("the last danger ends the game: the pot goes back to the treasure, no penalty", lang)
    )
    rows += f'<tr><td>{rules.danger_cards}</td><td colspan="2">{escape(last)}</td></tr>'
    return f'<table class="dk-stages"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def treasure_text(rules: Ruleset, lang: str) -> str:
    """What each player starts with and what the treasure holds, in words."""
    return tr(
        "Each player starts with {gems}; the dragon's treasure holds {treasure}.",
        lang,
        gems=gems(rules.starting_gems, lang),
        treasure=gems(rules.treasure, lang),
    )
