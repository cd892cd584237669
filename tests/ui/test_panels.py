"""The latest move and a card as labels (dragonkit.ui.panels): what the projector shows beside the board."""

from __future__ import annotations

from html import escape

from dragonkit import Game, Ruleset, palette
from dragonkit.rules import Card, CardKind
from dragonkit.ui.panels import card_label, render_move


def test_a_card_is_labelled_in_its_colour_and_in_words():
    danger = next(card for card in Ruleset().composition.cards() if card.kind is CardKind.DANGER)
    label = card_label(danger, "it")
    assert label == (
        f'<span class="dk-card" style="background:{palette.CARD["danger"]};color:{palette.CARD_TEXT["danger"]}">'
        f"{escape(danger.describe('it'))}</span>"
    )
    assert ">pericolo<" in label


def test_the_latest_move_shows_the_card_it_revealed_then_what_happened():
    game = Game(["Ann", "Bo"], seed=3)
    start = len(game.events)
    game.apply("reveal", by=0)
    move = game.events[start:]
    html = render_move(move, "en")
    card = game.last_card
    assert isinstance(card, Card)
    assert html.startswith(f'<div class="dk-move"><p class="dk-move-card">{card_label(card, "en")}</p>')
    assert [f'<p class="dk-ev-{e.kind}">{escape(e.describe("en"))}</p>' in html for e in move] == [True] * len(move)
    assert html.count("<p") == len(move) + 1


def test_a_move_without_a_card_is_its_sentences_alone():
    game = Game(["Ann", "Bo"], seed=3)
    game.apply("reveal", by=0)
    start = len(game.events)
    game.apply("hold", by=0)
    html = render_move(game.events[start:], "it")
    assert "dk-card" not in html and "Ann si ferma" in html
    assert render_move(()) == '<div class="dk-move"></div>'
