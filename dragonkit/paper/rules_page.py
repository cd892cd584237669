"""The rules of Dragon Stripes on one A4 page, for the table: the pieces, a turn, the stages, the end.

The words are the kit's (msgids, translated in the catalogs); every number, the deck's cards, the dragon's stripes
and gems, the gems each player starts with, the treasure, the stages' penalties and multipliers, is the
``dragon-stripes`` edition's :class:`~dragonkit.rules.Ruleset`, drawn by :mod:`dragonkit.paper.pieces`.  The rules
in full, with every choice the original leaves open, are ``docs/RULES.md`` (``docs/RULES.it.md``).
"""

from __future__ import annotations

from html import escape

from ..i18n import tr
from ..lessons.base import edition_label
from ..rules import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from .document import Document, heading_html
from .pieces import PIECES_CSS, deck_html, dragon_html, stage_table, treasure_text

__all__ = ["RULES_CSS", "rules_page"]

#: The page's own rules, after the pieces'.
RULES_CSS = (
    PIECES_CSS
    + """
h2 { margin-top: 4mm; }
.dk-turn li { margin-bottom: 1.2mm; }
.dk-stages { width: 100%; }
"""
)


def rules_page(lang: str) -> Document:
    """The rules of the ``dragon-stripes`` edition on one page, in ``lang``."""
    rules = Ruleset.preset("dragon-stripes")
    game = edition_label(rules.name, lang=lang)
    title = tr("The rules of {game}", lang, game=game)
    turn = (
        tr(
            "The knight starts on the tail and the pot is empty. The player whose turn it is must reveal the top card "
            "of the deck.",
            lang,
        ),
        tr(
            "<b>Footprint</b> of n steps: the knight moves n stripes toward the head, and the gems of the stripe it "
            "lands on (times the stage's multiplier) go from the treasure into the pot. Then the player reveals "
            "again, or holds.",
            lang,
        ),
        tr(
            "<b>Stop</b>: the player pays the stage's penalty, a share of their own gems rounded down, to the "
            "treasure, and the pot goes back to the treasure. The turn ends.",
            lang,
        ),
        tr(
            "<b>Danger</b>: the stage goes up by one (the table below). A danger that is not the last one is a stop "
            "at the new stage's penalty; the last one ends the game.",
            lang,
        ),
        tr(
            "<b>Hold</b>: the other players, in seating order, may take the turn over by paying the holder the pot; "
            "the taker must reveal at least one card, and plays on. If nobody does, the holder takes the pot. The "
            "next turn belongs to the player after the one whose turn it was.",
            lang,
        ),
        tr(
            "<b>The end</b>: the last danger, or a footprint that carries the knight past the last stripe to the "
            "head, where the player takes the pot and the whole treasure. The most gems wins; a tie is a shared win.",
            lang,
        ),
    )
    headings = (
        tr("The deck: {total} cards, shuffled once and never again", lang, total=rules.deck_size),
        tr("The dragon: the gems of each stripe", lang),
        tr("A turn", lang),
        tr("The stages", lang),
    )
    deck, dragon, a_turn, stages = (f"<h2>{escape(text)}</h2>" for text in headings)
    body = (
        heading_html(game, title)
        + "<p>"
        + escape(
            tr(
                "A push-your-luck game for {low} to {high} players. A knight climbs the dragon's striped back one "
                "card at a time and collects gems in the pot, until the player holds, or a stop or a danger takes "
                "the pot away.",
                lang,
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
            )
        )
        + " "
        + escape(treasure_text(rules, lang))
        + "</p>"
        + deck
        + deck_html(rules, lang)
        + dragon
        + dragon_html(rules, lang)
        + a_turn
        + '<ul class="dk-turn">'
        + "".join(f"<li>{line}</li>" for line in turn)
        + "</ul>"
        + stages
        + stage_table(rules, lang)
    )
    return Document(name="rules", lang=lang, title=title, body=body, css=RULES_CSS)
