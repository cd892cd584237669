"""A classroom's worth of distrust: hidden cards stay hidden, forged widget messages
change nothing illegally, bad saves and rulesets are refused, errors stay polite,
and memory stays flat."""

from __future__ import annotations

import gc
import json
import random
import tracemalloc
from fractions import Fraction

import ipywidgets as widgets
import matplotlib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dragonkit import Game, SaveFormatError
from dragonkit.analysis import HoldAtPot, TurnState, evaluate_policy, next_card_probabilities
from dragonkit.bots import BotKind
from dragonkit.cli import ServeOptions, voila_command
from dragonkit.rules import PRESETS
from dragonkit.ui import GameConfig, PlayApp, SeatConfig
from dragonkit.ui import app as app_module

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def _tree(root: widgets.Widget) -> list[widgets.Widget]:
    out, stack = [], [root]
    while stack:
        w = stack.pop()
        out.append(w)
        stack.extend(getattr(w, "children", ()))
        stack.extend(x for x in (getattr(w, "layout", None), getattr(w, "style", None)) if x is not None)
    return out


def _synced(app: PlayApp) -> str:
    """Everything the browser receives: every widget's synced state (HTML included)."""
    return json.dumps([w.get_state() for w in _tree(app.widget)], default=str)


def _app(kinds=(BotKind.HUMAN, BotKind.RANDOM), preset="dragon-stripes", seed=None) -> PlayApp:
    names = ["Ann", "Bob", "Cy"]
    seats = tuple(SeatConfig(names[i], k) for i, k in enumerate(kinds))
    return PlayApp(autoplay=False, config=GameConfig(seats=seats, preset=preset, seed=seed))


def _play(app: PlayApp, rng: random.Random) -> None:
    game = app.game
    app._last_click = (None, 0.0)
    if app.bots[game.to_move] is None:
        app.buttons[rng.choice(game.legal_actions()).value].click()
    else:
        app.buttons["next"].click()


def _snapshot(game: Game):
    return game.public_state(), game.events, game.actions, list(game._deck)


# -- hidden information -------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.slow
def test_the_undealt_order_and_the_seed_never_reach_the_browser(preset):
    app = _app(preset=preset)  # a random seed, drawn in the kernel
    game, rng = app.game, random.Random(1)
    for _ in range(1500):
        state = _synced(app)
        undealt = game._deck[::-1]  # top first
        assert str(game.seed) not in state
        if len(undealt) >= 8:
            assert json.dumps([c.to_json() for c in undealt]) not in state
            for sep in (", ", ",", " ", "", "|", "\n"):
                assert sep.join(c.label for c in undealt) not in state
                assert sep.join(c.to_json() for c in undealt) not in state
        if game.is_over:
            break
        _play(app, rng)
    assert game.is_over


# -- forged widget messages ---------------------------------------------------------


def _forge_click(button: widgets.Button) -> None:
    """What the browser sends for a click, even on a hidden or disabled button."""
    button._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "click"}}}, "buffers": []})


def _forge_update(widget: widgets.Widget, **state) -> None:
    """What the browser sends when it sets a synced trait."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}}, "buffers": []})


def test_forged_clicks_on_hidden_buttons_change_nothing():
    app = _app()
    game = app.game
    for name in ("hold", "take_over", "decline"):  # at the start only a reveal is legal
        before = _snapshot(game)
        app._last_click = (None, 0.0)
        _forge_click(app.buttons[name])
        assert _snapshot(game) == before
        assert "Not allowed" in app.message.value
    app.buttons["reveal"].disabled = True  # even a disabled button is no guard: the engine is
    app._last_click = (None, 0.0)
    _forge_click(app.buttons["reveal"])
    assert len(game.actions) == 1


def test_forged_trait_values_are_refused_or_harmless():
    app = _app()
    game, form = app.game, app.setup_form
    before = _snapshot(game)
    for widget, state in [
        (form.n_players, {"index": 99}),
        (form.kinds[0], {"index": -5}),
        (app.show_coach, {"value": "yes"}),
        (form.thresholds[0], {"value": "lots"}),
    ]:
        try:
            _forge_update(widget, **state)
        except Exception as exc:  # traitlets refuses the value (in Jupyter, the comm logs it)
            assert "Traceback" not in str(exc)
    _forge_update(app.board, value="<b>forged</b>")  # a view only: the next redraw replaces it
    assert _snapshot(game) == before
    app._last_click = (None, 0.0)
    app.buttons["reveal"].click()
    assert "forged" not in app.board.value and len(game.actions) == 1
    _forge_update(form.seed, value="1; import os")  # the form is refused, with a message
    _forge_click(form.start)  # hidden during a game
    assert app.game is game and "New game first" in app.message.value


def test_a_page_never_gets_tracebacks_or_sources():
    command = " ".join(voila_command(ServeOptions(), app_module.__file__))
    assert "--VoilaConfiguration.show_tracebacks=False" in command
    assert "--VoilaConfiguration.strip_sources=True" in command
    assert "--VoilaConfiguration.file_denylist=.*" in command


def test_an_analysis_error_shows_a_message_and_the_game_goes_on(monkeypatch):
    app = _app(kinds=(BotKind.HUMAN, BotKind.HUMAN))
    game = app.game

    def broken(*args, **kwargs):
        raise ZeroDivisionError("secret internals")

    monkeypatch.setattr(app_module, "render_coach", broken)
    app._last_click = (None, 0.0)
    app.buttons["reveal"].click()
    assert "Something went wrong" in app.message.value
    assert "secret" not in app.message.value and "Traceback" not in app.message.value
    monkeypatch.undo()
    app._last_click = (None, 0.0)
    if not game.is_over:
        app.buttons[game.legal_actions()[0].value].click()
        assert "Coach for" in app.coach.value and app.message.value == ""
    app.buttons["new_game"].click()  # and a new game can always start
    app.setup_form.start.click()
    assert app.game is not None and app.game is not game


# -- bad saves and rulesets -----------------------------------------------------------


def _save() -> dict:
    game = Game(["a", "b"], seed=5)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    return json.loads(game.to_json())


@pytest.mark.parametrize(
    "mangle, words",
    [
        (lambda d: json.dumps(d)[:-20], "not valid JSON"),
        (lambda d: json.dumps({**d, "seed": "five"}), "seed"),
        (lambda d: json.dumps({**d, "players": "ab"}), "players"),
        (lambda d: json.dumps({**d, "actions": {"0": "reveal"}}), "actions"),
        (
            lambda d: json.dumps(
                {**d, "state": {**d["state"], "gems": [d["state"]["gems"][0] + 5, d["state"]["gems"][1]]}}
            ),
            "does not match",
        ),
        (lambda d: json.dumps({**d, "rules": {**d["rules"], "footprints": {}}}), "at least one card"),
        (lambda d: json.dumps({**d, "rules": {**d["rules"], "footprints": {"1": 10**9}}}), "footprints[1]"),
        (lambda d: json.dumps({**d, "rules": {**d["rules"], "bounty_rate": "1e100000000"}}), "bounty_rate"),
        (lambda d: json.dumps({**d, "actions": d["actions"] + ["take_over"]}), "cannot"),
        (lambda d: "[" * 100_000, "not valid JSON"),
    ],
)
def test_malformed_saves_are_refused_with_a_reason(mangle, words):
    text = mangle(_save())
    with pytest.raises(SaveFormatError) as info:
        Game.from_json(text)
    assert words in str(info.value)


# -- the analysis never leaves [0, 1] ---------------------------------------------------


@st.composite
def situations(draw):
    rules = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    stage = draw(st.integers(0, len(rules.stages) - 1))
    return TurnState(
        rules=rules,
        footprints={s: draw(st.integers(0, min(c, 3))) for s, c in rules.footprints},
        stops=draw(st.integers(0, rules.stop_cards)),
        dangers=draw(st.integers(0, max(0, rules.danger_cards - stage))),
        dangers_revealed=stage,
        gems=draw(st.integers(0, 200)),
        treasure=draw(st.integers(0, 60)),
        position=draw(st.integers(max(0, rules.n_stripes - 8), rules.n_stripes)),
        pot=draw(st.integers(0, 30)),
        must_reveal=draw(st.booleans()),
    )


@settings(max_examples=60, derandomize=True)
@given(situations(), st.integers(0, 40))
def test_probabilities_stay_in_the_unit_interval_and_sum_to_one(state, threshold):
    if state.composition.total == 0:
        with pytest.raises(ValueError):
            next_card_probabilities(state) or evaluate_policy(state, HoldAtPot(threshold))
        return
    probs = next_card_probabilities(state)
    assert all(0 <= p <= 1 for p in probs.values()) and sum(probs.values()) == 1
    e = evaluate_policy(state, HoldAtPot(threshold), exact=True)
    for p in [e.p_stopped, e.p_danger, e.p_head, e.p_loss, *e.outcomes, *e.distribution]:
        assert isinstance(p, Fraction) and 0 <= p <= 1
    assert sum(e.outcomes) == 1 and sum(e.distribution) == 1


# -- memory stays flat --------------------------------------------------------------------


@pytest.mark.load
def test_two_hundred_actions_leak_no_figures_and_no_memory():
    app = _app(kinds=(BotKind.HUMAN, BotKind.RANDOM), preset="mini", seed=3)
    rng = random.Random(2)

    def play(n: int) -> None:
        for _ in range(n):
            if app.game.is_over:  # a full game ends with a plot: start the next one
                app.buttons["new_game"].click()
                app.setup_form.seed.value = str(rng.randrange(10**6))
                app.setup_form.n_players.value = 2
                app.setup_form.kinds[1].value = BotKind.RANDOM
                app.setup_form.start.click()
            _play(app, rng)

    play(50)  # warm up caches
    tracemalloc.start()
    gc.collect()  # a drawn figure is a reference cycle: count what is kept, not what awaits the collector
    first = tracemalloc.take_snapshot()
    play(200)
    gc.collect()
    second = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in second.compare_to(first, "filename"))
    assert plt.get_fignums() == []
    assert grown < 3 * 1024 * 1024, f"{grown / 1024:.0f} KiB kept after 200 actions"
