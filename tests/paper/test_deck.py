"""The mini deck to cut out (dragonkit/paper/deck.py): one page, every card of the edition once, and its dragon."""

from __future__ import annotations

from dragonkit.i18n import LANGUAGES, tr
from dragonkit.rules import Ruleset

from .pdfs import pages


def test_the_mini_deck_is_one_page_with_its_8_cards_and_its_dragon(paper):
    rules = Ruleset.preset("mini")
    assert rules.deck_size == 8
    for lang in LANGUAGES:
        read = pages(paper.folder / lang / "mini-deck.pdf")
        assert len(read) == 1
        page = read[0].upper()  # the cards write their words in capitals
        for card, count in rules.composition.counts():
            assert page.count(f" {card.describe(lang).upper()} ") >= count, (lang, card)
        dragon = tr("the tail", lang).upper() + " " + " ".join(map(str, rules.stripe_values))
        assert dragon + " " + tr("HEAD", lang).upper() in page
