"""The ``mini`` edition to cut out: its cards and its dragon on one A4 page, to play without a device.

Every card of the edition's :class:`~dragonkit.rules.Ruleset` is drawn once, in a box with dashed cut lines: its
symbol, its word and (a footprint) its number of steps, big; then the dragon, a strip of its stripes with their
gems between the tail and the head, and the edition's stages.  The rules are those of the rules' page
(:mod:`dragonkit.paper.rules_page`), with this deck and this dragon.
"""

from __future__ import annotations

from html import escape

from .. import palette
from ..i18n import tr
from ..lessons.base import edition_label
from ..rules import Card, CardKind, Ruleset
from .document import Document, heading_html
from .pieces import PIECES_CSS, card_symbol, dragon_html, stage_table, treasure_text

__all__ = ["DECK_CSS", "card_html", "mini_deck"]

#: The cards: 44 x 68 mm (the "mini euro" size), four in a row, each inside its own dashed cut line.
DECK_CSS = (
    PIECES_CSS
    + f"""
.dk-cards {{ display: grid; grid-template-columns: repeat(4, 44mm); grid-auto-rows: 68mm; gap: 0;
             justify-content: center; margin: 3mm 0 4mm 0; }}
.dk-card {{ border: 0.3mm dashed {palette.PRINT_CUT}; box-sizing: border-box; padding: 3mm; display: flex;
            flex-direction: column; align-items: center; justify-content: space-between; break-inside: avoid; }}
.dk-card .dk-frame {{ border: 1.2mm solid var(--kind); border-radius: 3mm; width: 100%; height: 100%;
                     box-sizing: border-box; display: flex; flex-direction: column; align-items: center;
                     justify-content: space-between; padding: 2mm 1mm; }}
.dk-card .dk-big {{ font-size: 26pt; font-weight: bold; line-height: 1; }}
.dk-card svg {{ width: 22mm; height: 22mm; }}
.dk-card .dk-word {{ font-size: 11pt; font-weight: bold; text-transform: uppercase; text-align: center; }}
.dk-strip {{ border: 0.3mm dashed {palette.PRINT_CUT}; padding: 2mm 3mm; break-inside: avoid; }}
.dk-strip h2 {{ margin: 0 0 1mm 0; font-size: 10pt; }}
.dk-strip .dk-dragon td {{ height: 24mm; font-size: 26pt; }}
.dk-strip .dk-dragon td.dk-end {{ font-size: 10pt; }}
.dk-kinds {{ {" ".join(f"--{kind}: {colour};" for kind, colour in palette.CARD.items())} }}
"""
)


def card_html(card: Card, lang: str) -> str:
    """One card to cut out, framed in its kind's colour: a footprint's number of steps, big; its symbol; its word."""
    big = str(card.steps) if card.kind is CardKind.FOOTPRINT else ""
    return (
        f'<div class="dk-card"><div class="dk-frame" style="--kind: var(--{card.kind})">'
        f'<div class="dk-big">{big}</div>{card_symbol(card)}'
        f'<div class="dk-word">{escape(card.describe(lang))}</div></div></div>'
    )


def mini_deck(lang: str) -> Document:
    """The ``mini`` edition's cards and dragon to cut out, in ``lang``."""
    rules = Ruleset.preset("mini")
    title = tr("The mini deck to cut out", lang)
    cards = "".join(card_html(card, lang) for card in rules.composition.cards())
    how = tr(
        "Print on thick paper and cut along the dashed lines. The rules are those of the rules' page, with these "
        "{cards} cards and this dragon.",
        lang,
        cards=rules.deck_size,
    )
    dragon = tr("The dragon: the gems of each stripe", lang)
    body = (
        heading_html(edition_label(rules.name, lang=lang), title)
        + f"<p>{escape(how)} {escape(treasure_text(rules, lang))}</p>"
        + f'<div class="dk-cards dk-kinds">{cards}</div>'
        + f'<div class="dk-strip"><h2>{escape(dragon)}</h2>{dragon_html(rules, lang)}</div>'
        + stage_table(rules, lang)
    )
    return Document(name="mini-deck", lang=lang, title=title, body=body, css=DECK_CSS)
