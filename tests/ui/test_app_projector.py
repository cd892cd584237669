"""The play app on the projector (``?view=projector``): one step at a time. The latest move beside the board, the
coach behind "Show the coach" until the teacher clicks it, again at every move, and each bot's move waiting for
"Next bot move", whatever "bots play by themselves" says; driven in-process (no browser)."""

from __future__ import annotations

import asyncio

from dragonkit import i18n, view
from dragonkit.bots import BotKind
from dragonkit.style import PROJECTOR_CLASS
from dragonkit.ui import GameConfig, PlayApp, SeatConfig
from dragonkit.ui.panels import render_move


def _config(*kinds: BotKind, seed: int = 1) -> GameConfig:
    names = ("Ann", "Bob", "Cy")
    return GameConfig(seats=tuple(SeatConfig(names[i], kind) for i, kind in enumerate(kinds)), seed=seed)


def _click(app: PlayApp, name: str) -> None:
    app._last_click = (None, 0.0)  # clicks in a test are not double clicks
    app.buttons[name].click()


def _shown(app: PlayApp) -> list[str]:
    return [name for name, button in app.buttons.items() if button.layout.display != "none"]


def test_the_coach_waits_for_the_teacher_s_click_at_every_move(projector):
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.COACH))
    assert app.show_coach.description == "Show the coach" and app.show_coach.value is False
    assert app.coach.value == ""
    app.show_coach.value = True  # the teacher clicks "Show the coach"
    assert "Coach for Ann" in app.coach.value
    _click(app, "reveal")  # the next card: the coach hides again
    assert app.show_coach.value is False and app.coach.value == ""
    app.show_coach.value = True
    assert "Coach for Ann" in app.coach.value
    app.show_coach.value = False  # and hides on a second click
    assert app.coach.value == ""
    i18n.set_language("it")
    assert app.show_coach.description == "Mostra l'allenatore" and app.coach.value == ""


def test_on_a_screen_the_coach_stays_as_the_player_set_it():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.COACH))
    assert app.show_coach.description == "Coach" and app.show_coach.value is True
    _click(app, "reveal")
    assert app.show_coach.value is True and "Coach for Ann" in app.coach.value
    assert app.move.value == "" and PROJECTOR_CLASS not in app.widget._dom_classes


def test_each_bot_move_waits_for_next_even_when_bots_play_by_themselves(projector):
    """With a running event loop (Voilà's) and "bots play by themselves" on, a bot that is to move still waits:
    one click on Next, one move."""

    async def scenario():
        app = PlayApp(bot_delay=0.01, autoplay=True, config=_config(BotKind.COACH, BotKind.THRESHOLD, BotKind.HUMAN))
        await asyncio.sleep(0.3)  # thirty times the bots' delay
        return app

    app = asyncio.run(scenario())
    game = app.game
    assert game.actions == () and app._pending is None
    assert _shown(app) == ["next", "new_game"] and app.autoplay.layout.display == "none"
    for _ in range(200):
        if app.bots[game.to_move] is None:
            break
        before = len(game.actions)
        _click(app, "next")
        assert len(game.actions) == before + 1  # one click, one move
    assert app.bots[game.to_move] is None and "next" not in _shown(app)


def test_on_a_screen_bots_play_by_themselves():
    async def scenario():
        app = PlayApp(bot_delay=0.01, autoplay=True, config=_config(BotKind.COACH, BotKind.HUMAN))
        await asyncio.sleep(0.3)
        return app

    app = asyncio.run(scenario())
    assert len(app.game.actions) > 0


def test_the_latest_move_shows_its_card_and_what_it_did(projector):
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.COACH))
    game = app.game
    assert app.move.value == render_move(game.events)  # the game's start: Ann begins
    _click(app, "reveal")
    move = game.events[1:]
    assert move[0].kind == "card_revealed"
    assert app.move.value == render_move(move)
    assert f">{game.last_card.describe()}</span>" in app.move.value
    i18n.set_language("it")
    assert app.move.value == render_move(move, "it")  # the same move, in Italian
    while app.bots[game.to_move] is None:
        before = len(game.events)
        _click(app, "hold" if "hold" in _shown(app) else "reveal")
    assert app.move.value == render_move(game.events[before:], "it")


def test_the_app_switches_to_the_projector_when_its_visitor_asks_for_it():
    """A preheated kernel's app is built before its visitor's ``?view=projector`` arrives (dragonkit.ui.visitor)."""
    app = PlayApp(autoplay=True, config=_config(BotKind.HUMAN, BotKind.COACH))
    assert app.event_log in app._people.children and app.move not in app._coach_column.children
    view.settings.projector = True
    try:
        assert PROJECTOR_CLASS in app.widget._dom_classes
        assert app.show_coach.description == "Show the coach" and app.show_coach.value is False
        assert app.autoplay.layout.display == "none"
        assert app._people.children == (app.players,)  # the log goes to the foot of the coach's column
        assert app._coach_column.children[0] is app.move and app._coach_column.children[-1] is app.event_log
        assert app.move.value == render_move(app.game.events)
    finally:
        view.settings.projector = False
    assert PROJECTOR_CLASS not in app.widget._dom_classes and app.autoplay.layout.display is None
    assert app.show_coach.description == "Coach" and app.event_log in app._people.children


def test_a_closed_app_stops_following_the_view(projector):
    app = PlayApp()
    app.close()
    view.settings.projector = False  # no error from the closed app
    assert PROJECTOR_CLASS in app.widget._dom_classes
