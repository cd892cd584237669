"""Accessibility of the apps' widgets, driven in-process (no browser): the live region that tells screen
readers what changed, the focus that moves on when the button pressed goes away, headings in order,
and colour never alone on the board and in the verdicts."""

from __future__ import annotations

import re
from html import unescape

import ipywidgets as widgets
import pytest

from dragonkit import Game, i18n, palette
from dragonkit.bots import BotKind
from dragonkit.coach.views import Coach
from dragonkit.style import CSS
from dragonkit.ui import GameConfig, HandTrainer, PlayApp, SeatConfig
from dragonkit.ui.announce import announcement_html
from dragonkit.ui.board import render_board
from dragonkit.ui.coach_panel import render_coach
from dragonkit.ui.trainer import render_score, render_situation, render_verdict

LIVE = re.compile(
    r'^<div class="dk-sr-only" role="status" aria-live="polite" aria-atomic="true" lang="(?P<lang>\w+)">'
    r"(?P<text>[^<]*)</div>$"
)


@pytest.fixture
def focused(monkeypatch):
    """The widgets the apps focus, in order (``DOMWidget.focus`` recorded instead of sent)."""
    calls: list[widgets.DOMWidget] = []
    monkeypatch.setattr(widgets.DOMWidget, "focus", lambda self: calls.append(self))
    return calls


def _said(region: widgets.HTML) -> str:
    """The live region's text (it must be one status element, visually hidden, read politely)."""
    match = LIVE.match(region.value)
    assert match is not None, region.value
    assert "dk-sr-only" in region._dom_classes
    return unescape(match["text"])


def _config(seed: int = 1) -> GameConfig:
    return GameConfig(seats=(SeatConfig("Ann", BotKind.HUMAN), SeatConfig("Bob", BotKind.COACH)), seed=seed)


def _human_move(game: Game) -> str:
    """Ann takes over whenever offered, holds on a pot of 8 gems or more, otherwise reveals."""
    legal = {a.value for a in game.legal_actions()}
    if "take_over" in legal:
        return "take_over"
    return "hold" if "hold" in legal and game.pot >= 8 else "reveal"


def _click(app, name: str) -> None:
    app._last_click = (None, 0.0)  # clicks in a test are not double clicks
    app.buttons[name].click()


def test_announcement_html_escapes_and_joins_whole_sentences():
    assert announcement_html(["Ann <b>wins</b>.", "  ", "The end."], "en") == (
        '<div class="dk-sr-only" role="status" aria-live="polite" aria-atomic="true" lang="en">'
        "Ann &lt;b&gt;wins&lt;/b&gt;. The end.</div>"
    )
    assert LIVE.match(announcement_html((), "it"))["lang"] == "it"  # the page's script makes it the document's


def test_the_live_region_says_the_events_of_every_move_to_the_end_of_the_game():
    """Each move's events, and only them: the cards revealed, the penalties and the pots lost, the
    takeovers, and the end of the game."""
    app = PlayApp(autoplay=False, config=_config())
    game = app.game
    assert app.announce in app.widget.children
    assert _said(app.announce) == " ".join(e.describe() for e in game.events)
    kinds = set()
    for _ in range(500):
        if game.is_over:
            break
        before = len(game.events)
        if app.bots[game.to_move] is None:
            _click(app, _human_move(game))
        else:
            _click(app, "next")
        new = game.events[before:]
        assert new and _said(app.announce) == " ".join(e.describe() for e in new)
        kinds |= {e.kind for e in new}
    assert game.is_over
    assert {"card_revealed", "stopped", "danger", "bounty_paid", "pot_collected", "game_over"} <= kinds
    over = next(e for e in reversed(game.events) if e.kind == "game_over")
    assert _said(app.announce).endswith(over.describe())


def test_the_live_region_speaks_the_page_s_language_and_empties_with_the_game():
    app = PlayApp(autoplay=False, config=_config())
    _click(app, "reveal")
    batch = app.game.events[1:]
    i18n.set_language("it")
    assert _said(app.announce) == " ".join(e.describe("it") for e in batch)
    assert "rivela" in _said(app.announce)
    i18n.set_language("en")
    assert _said(app.announce) == " ".join(e.describe("en") for e in batch)
    _click(app, "new_game")
    assert _said(app.announce) == ""


def test_the_focus_moves_on_when_the_button_pressed_hides_itself(focused):
    app = PlayApp(autoplay=False, config=_config())
    game = app.game
    _click(app, "reveal")  # Ann reveals: Reveal stays (or her turn ended and the Next button shows)
    for _ in range(500):
        if game.is_over:
            break
        name = _human_move(game) if app.bots[game.to_move] is None else "next"
        focused.clear()
        _click(app, name)
        pressed = app.buttons[name]
        shown = [n for n, b in app.buttons.items() if b.layout.display != "none" and n != "new_game"]
        if pressed.layout.display != "none" and not game.is_over:
            assert focused == []  # the focus is still on the button pressed: it stays there
        elif game.is_over:
            assert focused == [app.buttons["new_game"]]
        else:
            assert focused == [app.buttons[shown[0]]], (name, shown)
    assert game.is_over
    focused.clear()
    _click(app, "new_game")
    assert focused == [app.setup_form.start]
    app.setup_form.n_players.value = 2
    app.setup_form.start.click()
    assert focused[-1] is app.buttons["reveal"]  # Alex, a human, begins


def test_the_focus_waits_while_bots_move_and_stays_on_an_option_chosen(focused):
    """With bots playing by themselves (a running event loop) nothing can be focused until Ann's turn; a
    player who moved to another control meanwhile keeps the focus there."""
    app = PlayApp(autoplay=False, config=_config(seed=4))
    game = app.game
    while app.bots[game.to_move] is None:  # Ann plays until her turn ends
        _click(app, "reveal")
    assert app._refocus is False and focused[-1] is app.buttons["next"]
    focused.clear()
    app._refocus = True  # as if the Next button had gone (bots playing by themselves)
    app.autoplay.value = True  # the player is on the option now
    assert app._refocus is False and focused == []


def test_the_trainer_announces_the_hand_then_the_verdict_and_the_card(focused):
    trainer = HandTrainer(seed=3)
    assert trainer.announce in trainer.widget.children
    said = _said(trainer.announce)
    assert said == f"Hand 1: you are {trainer.hand.player}, the active player. Reveal or hold?"
    trainer._last_click = (None, 0.0)
    trainer.buttons["hold"].click()
    said = _said(trainer.announce)
    card = trainer.verdict.next_card.describe("en")
    assert said.startswith("Hand 1: you chose to hold. ")
    assert ("✓ " if trainer.verdict.optimal else "✗ ") in said
    assert f"The card that followed: {card}." in said and "Had you revealed it instead" in said
    assert focused == [trainer.buttons["next"]]  # Reveal and Hold are disabled now
    i18n.set_language("it")
    assert _said(trainer.announce).startswith("Mano 1:")
    i18n.set_language("en")
    trainer.buttons["next"].click()
    assert _said(trainer.announce).startswith("Hand 2: you are")


def test_after_a_reveal_that_keeps_the_turn_the_focus_goes_to_play_on_then_back_to_reveal(focused):
    for seed in range(40):
        trainer = HandTrainer(seed=seed)
        trainer.buttons["reveal"].click()
        if trainer.buttons["play_on"].layout.display != "none":
            break
    else:
        pytest.fail("no hand of 40 kept the turn going after a reveal")
    assert focused[-1] is trainer.buttons["play_on"]
    trainer.buttons["play_on"].click()
    assert focused[-1] is trainer.buttons["reveal"] and not trainer.buttons["reveal"].disabled


def test_the_trainer_s_headings_follow_its_title():
    """The page's title is an h1 and the panels under it h2 (axe: heading-order)."""
    trainer = HandTrainer(seed=5)
    assert trainer.title is not None and trainer.title.value.startswith("<h1>")
    trainer.decide("reveal")
    panels = (
        render_situation(trainer.hand) + render_verdict(trainer.hand, trainer.verdict) + render_score(trainer.score)
    )
    assert re.findall(r"<h(\d)", panels) == ["2", "2", "2"]


def test_the_info_button_and_the_focus_outline_are_in_the_stylesheet():
    assert f"background-color: {palette.INFO}; color: {palette.WHITE};" in CSS
    outline = re.search(r"\.dk-app :focus-visible([^{]*)\{\s*outline: 3px solid " + palette.FOCUS + " !important;", CSS)
    assert outline and ".dk-exercise input:focus-visible" in outline.group(1)  # the lessons' fields too
    trainer = HandTrainer(seed=5)
    assert trainer.buttons["next"].button_style == "info"  # the button the rule restyles


def test_stage_markers_tell_revealed_dangers_by_shape_not_only_by_colour():
    game = Game(["Ann", "Bob"], seed=1)
    for _ in range(200):
        if game.stage >= 1 or game.is_over:
            break
        game.apply(game.legal_actions()[0])
    assert game.stage >= 1
    svg = render_board(game)
    markers = re.findall(r'<circle class="dk-stage-marker" data-revealed="(true|false)"', svg)
    assert markers.count("true") == game.stage and len(markers) == game.rules.danger_cards
    crosses = re.findall(rf'<path d="M[^"]*" stroke="{palette.WHITE}"', svg)
    assert len(crosses) == game.stage  # a cross in each revealed marker
    assert f"{game.stage} of {game.rules.danger_cards} dangers" in svg


def test_every_deck_meter_is_labelled_with_its_card_in_words():
    """A meter's colour is its card's kind; the card's name is written beside it."""
    game = Game(["Ann", "Bob"], seed=2)
    svg = render_board(game)
    meters = re.findall(r'<rect class="dk-meter" data-kind="(\w+)" x="(\d+)"[^>]*fill="([^"]+)"', svg)
    cards = [card for card, _count in game.remaining.counts()]
    assert len(meters) == len(cards) == 6
    for card, (kind, x, fill) in zip(cards, meters):
        assert kind == card.kind and fill == palette.CARD[card.kind]
        assert f'<text x="{int(x) + 21}" y="287" font-size="12" fill="{palette.INK}">{card.describe()}</text>' in svg


def test_the_coach_s_best_move_and_the_trainer_s_verdict_are_words_and_marks():
    game = Game(["Ann", "Bob"], seed=2)
    assert re.search(r'<span class="dk-advice">REVEAL \(compulsory\)</span>', render_coach(Coach(), game))
    for action in ("reveal", "hold"):
        trainer = HandTrainer(seed=9)
        verdict = trainer.decide(action)
        html = render_verdict(trainer.hand, verdict)
        headline = re.search(r'<div class="dk-message dk-(success|danger) dk-verdict">(.)', html)
        assert headline is not None and headline[2] == ("✓" if verdict.optimal else "✗")
        assert (
            headline[1] == "success"
        ) == verdict.optimal or verdict.solution.push_value == verdict.solution.hold_value
