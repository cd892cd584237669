"""The rules on one page (dragonkit/paper/rules_page.py, pieces.py): one page, its numbers the edition's."""

from __future__ import annotations

from dragonkit.i18n import LANGUAGES, gems, tr
from dragonkit.rules import Ruleset

from .pdfs import pages


def test_the_rules_fit_one_page_and_take_their_numbers_from_the_ruleset(paper):
    rules = Ruleset.preset("dragon-stripes")
    for lang in LANGUAGES:
        read = pages(paper.folder / lang / "rules.pdf")
        assert len(read) == 1
        page = read[0]
        assert tr("The rules of {game}", lang, game="Dragon Stripes") in page
        assert tr("The deck: {total} cards, shuffled once and never again", lang, total=rules.deck_size) in page
        for card, count in rules.composition.counts():
            assert f"{card.describe(lang)} ×{count}" in page
        assert " ".join(str(value) for value in rules.stripe_values) in page
        assert gems(rules.starting_gems, lang) in page and gems(rules.treasure, lang) in page
        for d, stage in enumerate(rules.stages):
            assert f"{d} {stage.rate} ×{stage.multiplier}" in page
