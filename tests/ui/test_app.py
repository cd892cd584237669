"""The play app's widgets, driven by clicks in-process (no browser)."""

from __future__ import annotations

import asyncio
import json
import re
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import matplotlib
import pytest

from dragonkit import Action, Game, Phase, i18n
from dragonkit.analysis import TurnState, fair_bounty, solve_turn, takeover_gain
from dragonkit.bots import BotKind, bot_seed
from dragonkit.i18n.numbers import decimal_text
from dragonkit.rules import Outcome, Ruleset
from dragonkit.style import CSS
from dragonkit.ui import GameConfig, PlayApp, SeatConfig
from dragonkit.ui.board import render_board
from dragonkit.ui.numbers import format_fraction, gems_html, number_html
from dragonkit.ui.setup import SetupForm

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def _config(*kinds: str, preset: str = "dragon-stripes", seed: int = 7) -> GameConfig:
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
    return GameConfig(seats=tuple(SeatConfig(names[i], k) for i, k in enumerate(kinds)), preset=preset, seed=seed)


def _click(app: PlayApp, name: str) -> None:
    app._last_click = (None, 0.0)  # clicks in a test are not double clicks
    app.buttons[name].click()


def _visible(app: PlayApp) -> set[str]:
    return {n for n, b in app.buttons.items() if b.layout.display != "none" and n != "new_game"}


def _snapshot(game: Game):
    return game.public_state(), game.events, game.actions, list(game._deck)


def test_the_setup_form_names_and_notes_follow_the_win_bot():
    form = SetupForm()
    assert form.note.value == ""
    form.kinds[1].value = BotKind.WIN
    assert form.names[1].value == "Victor"  # not "Coach"
    assert "more than two players" in form.note.value  # three players by default
    form.n_players.value = 2
    assert form.note.value == ""  # dragon-stripes: the race table
    form.preset.value = "drago-rosso"
    assert form.note.value == ""  # the gems table
    form.n_players.value = 3
    i18n.set_language("it")
    try:
        assert form.names[1].value == "Vittoria" and "più di due giocatori" in form.note.value
        form.kinds[1].value = "human"
        assert form.names[1].value == "Giocatore 2"
        form.names[1].value = "Bea"  # a name the user typed stays
        form.kinds[1].value = BotKind.COACH
        assert form.names[1].value == "Bea" and form.note.value == ""
    finally:
        i18n.set_language("en")
    form.n_players.value = 6
    form.names[3].value = "Coach"  # typed, even if it is the form's word: it stays
    form.kinds[3].value = BotKind.WIN
    form.kinds[4].value = BotKind.WIN  # a person's name stays too
    assert [n.value for n in form.names] == ["Alex", "Bea", "Tess", "Coach", "Ada", "Blaise"]


def test_setup_form_starts_a_game():
    app = PlayApp()
    form = app.setup_form
    form.n_players.value = 4
    form.preset.value = "kali"
    form.seed.value = "123"
    form.kinds[1].value = BotKind.RANDOM
    form.start.click()
    game = app.game
    # the name "Coach", left as the form wrote it, follows its seat's new kind
    assert game is not None and game.players == ("Alex", "Player 2", "Tess", "Randi")
    assert game.rules.name == "kali" and game.seed == 123
    assert app.kinds == (BotKind.HUMAN, BotKind.RANDOM, BotKind.THRESHOLD, BotKind.RANDOM)
    assert app.setup_form.layout.display == "none" and app.game_view.layout.display is None
    assert "<svg" in app.board.value and "Tess" in app.players.value


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda f: setattr(f.seed, "value", "abc"), "seed must be a whole number"),
        (lambda f: setattr(f.names[1], "value", "alex"), "different name"),
        (lambda f: setattr(f.names[0], "value", "  "), "Seat 1 needs a name"),
    ],
)
def test_setup_form_errors_show_a_message_and_start_nothing(edit, message):
    app = PlayApp()
    edit(app.setup_form)
    app.setup_form.start.click()
    assert app.game is None
    shown = app.setup_form.message.value  # under the form, which is what the user sees
    assert app.setup_form.layout.display != "none" and message in shown
    assert "Traceback" not in shown


def test_buttons_show_only_the_humans_legal_actions():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.HUMAN))
    game = app.game
    assert _visible(app) == {"reveal"}
    while game.phase is not Phase.CHOOSE:  # reveal until the human may hold
        _click(app, "reveal")
        assert not game.is_over
    assert _visible(app) == {"reveal", "hold"}
    _click(app, "hold")
    assert game.phase is Phase.OFFER
    assert _visible(app) == {"take_over", "decline"}
    assert app.buttons["take_over"].description == f"Take over for {game.bounty} gems"


def test_a_move_changes_the_buttons_before_the_log_reports_it():
    """The browser applies the kernel's updates in order: the next decision's buttons are drawn before the log (and
    the board, the announcement) shows the move, so that a page whose log shows the move never offers the buttons
    of the decision before it. (A room's test clicked Reveal again, the only button shown while Hold was on its
    way, and the click was lost.)"""
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.HUMAN))
    game = app.game
    changed: list[str] = []
    app.buttons["hold"].layout.observe(lambda _change: changed.append("hold button"), names="display")
    for name in ("event_log", "board", "announce"):
        getattr(app, name).observe(lambda _change, name=name: changed.append(name), names="value")
    while game.phase is not Phase.CHOOSE:  # reveal until the human may hold: the Hold button comes
        changed.clear()
        _click(app, "reveal")
        assert not game.is_over
    assert changed[0] == "hold button" and {"event_log", "board", "announce"} <= set(changed), changed


def test_next_comes_with_the_buttons_before_the_log():
    """Step by step (no autoplay), a bot's move waits for Next: after the human's move that hands the turn to a bot,
    Next is shown before the log reports the move, as the human's buttons are."""
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.THRESHOLD))
    game = app.game
    changed: list[str] = []
    app.buttons["next"].layout.observe(lambda _change: changed.append("next button"), names="display")
    app.event_log.observe(lambda _change: changed.append("event_log"), names="value")
    assert app.bots[game.to_move] is None  # Ann begins
    while app.bots[game.to_move] is None:  # Ann plays until the bot is to move
        changed.clear()
        _click(app, "hold" if "hold" in _visible(app) else sorted(_visible(app))[0])
        assert not game.is_over
    assert changed[0] == "next button" and "event_log" in changed, changed


def test_bot_turns_show_the_next_button_and_play_one_move_per_click():
    app = PlayApp(autoplay=False, config=_config(BotKind.THRESHOLD, BotKind.HUMAN))
    game = app.game
    assert game.to_move == 0 and _visible(app) == {"next"}
    before = len(game.actions)
    _click(app, "next")
    assert len(game.actions) == before + 1


def test_forged_and_early_clicks_change_nothing():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.COACH))
    game = app.game
    before = _snapshot(game)
    _click(app, "hold")  # a hidden button, clicked by a forged message: holding is illegal now
    assert _snapshot(game) == before
    assert "Not allowed" in app.message.value and "must reveal" in app.message.value
    _click(app, "take_over")
    assert _snapshot(game) == before
    # While the bot is to move, no human button may act for it.
    while game.to_move == 0 and not game.is_over:
        _click(app, "reveal")
        if game.phase is Phase.CHOOSE:
            _click(app, "hold")
    if not game.is_over and app.bots[game.to_move] is not None:
        before = _snapshot(game)
        _click(app, "reveal")
        assert _snapshot(game) == before
        assert "a bot" in app.message.value


def test_bots_play_by_themselves_on_the_event_loop():
    async def scenario():
        app = PlayApp(bot_delay=0.01, config=_config(BotKind.THRESHOLD, BotKind.RANDOM, preset="mini", seed=4))
        for _ in range(500):
            if app.game.is_over:
                break
            await asyncio.sleep(0.01)
        return app

    app = asyncio.run(scenario())
    assert app.game.is_over and len(app.game.actions) > 1
    assert "Game over" in app.status.value
    assert app.buttons["next"].layout.display == "none"


def test_a_double_click_applies_once():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.HUMAN))
    game = app.game
    app._last_click = (None, 0.0)
    app.buttons["reveal"].click()
    app.buttons["reveal"].click()  # arrives at once: the second half of a double click
    assert len(game.actions) == 1
    if game.phase is Phase.CHOOSE:  # a quick click on another button is meant, and counts
        app.buttons["hold"].click()
        assert game.actions[-1] is Action.HOLD


def test_the_first_click_of_a_new_game_is_never_taken_for_a_double_click():
    """Found by the new-user check: a reveal ended the game (the final danger), the student pressed New game, Start
    and Reveal within 0.35 s, and the new game's Reveal was dropped as the second half of the old game's."""
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.HUMAN))
    app.buttons["reveal"].click()  # the old game's last click
    app.start(_config(BotKind.HUMAN, BotKind.HUMAN))
    app.buttons["reveal"].click()  # at once, in the new game
    assert len(app.game.actions) == 1


def test_a_full_game_against_bots_ends_with_winner_and_plot():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.COACH, BotKind.THRESHOLD, seed=11))
    game = app.game
    for _ in range(2000):
        if game.is_over:
            break
        if app.bots[game.to_move] is None:
            legal = game.legal_actions()
            # the human plays a simple rule: reveal while the pot is small, decline offers
            if Action.DECLINE in legal:
                _click(app, "decline")
            elif Action.HOLD in legal and game.pot >= 10:
                _click(app, "hold")
            else:
                _click(app, "reveal")
        else:
            _click(app, "next")
        assert "dk-danger" not in app.message.value and "dk-warning" not in app.message.value
    assert game.is_over
    winners = " and ".join(game.players[i] for i in game.winners)
    assert "Game over" in app.status.value and winners in app.status.value
    assert "winner" in app.players.value
    assert app.result_plot.layout.display is None
    shown = app.result_plot.value
    assert '<svg class="dk-gems-over-game"' in shown  # an SVG image
    assert f'role="img" aria-label="Gems over the game, after {len(game.gem_history) - 1} turns: ' in shown
    assert "<summary>The figure&#x27;s numbers</summary>" in shown  # and its numbers as a table
    assert _visible(app) == set()
    assert plt.get_fignums() == []  # figures are built outside pyplot: nothing piles up


def test_a_failing_bot_shows_a_message_and_the_game_goes_on():
    app = PlayApp(autoplay=False, config=_config(BotKind.THRESHOLD, BotKind.HUMAN))
    game = app.game

    class Broken:
        def choose(self, game):
            raise RuntimeError("boom")

    good = app.bots[0]
    app.bots[0] = Broken()
    before = _snapshot(game)
    _click(app, "next")
    assert _snapshot(game) == before
    assert "Something went wrong" in app.message.value
    assert "boom" not in app.message.value and "Traceback" not in app.message.value
    assert app.autoplay.value is False
    app.bots[0] = good
    _click(app, "next")
    assert len(game.actions) == 1


def _fractions_in(html: str) -> list[Fraction]:
    """Every exact number the coach shows (full values kept in tooltips)."""
    return [Fraction(text) for text in re.findall(r'<span class="dk-frac">([^<]+)</span>', html)]


def _advice(html: str) -> list[str]:
    """The coach's advice in capitals: the option both views prefer, or the expected gems' and then the chance
    of winning's."""
    return re.findall(r'<span class="dk-advice">([^<]+)</span>', html)


def test_coach_numbers_are_the_exact_analysis():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.HUMAN, seed=5))
    game = app.game
    _click(app, "reveal")
    while game.phase is not Phase.CHOOSE:
        _click(app, "reveal")
    state = TurnState.from_game(game)
    solution = solve_turn(state, exact=True)
    shown = _fractions_in(app.coach.value)
    probs = [p for _, p in game.chance_outcomes()]
    assert shown == [solution.push_value, solution.hold_value] + probs
    assert f"≈ {float(solution.push_value):.4f}" in app.coach.value
    assert _advice(app.coach.value)[0] == solution.best_action.upper()  # the expected gems' best comes first
    _click(app, "hold")
    shown = _fractions_in(app.coach.value)
    taker_gems = game.gems[game.offer_to]
    gain = takeover_gain(state, taker_gems, game.bounty, exact=True)
    assert shown == [fair_bounty(state, taker_gems, exact=True), gain, 0] + probs  # declining: 0 gems
    assert _advice(app.coach.value)[0] == ("TAKE OVER" if gain > 0 else "DECLINE")
    assert f"Coach for {game.players[game.offer_to]}" in app.coach.value
    assert f"bounty of <b>{game.bounty}</b>" in app.coach.value


def test_coach_can_be_hidden():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.HUMAN))
    app.show_coach.value = False
    assert app.coach.value == ""
    app.show_coach.value = True
    assert "Coach for Ann" in app.coach.value


def test_format_fraction_shows_the_whole_exact_value():
    assert format_fraction(Fraction(3, 4)) == '<span class="dk-frac">3/4</span>'
    long = Fraction(10**30 + 1, 10**29 + 7)
    assert str(long) in format_fraction(long)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_exact_numbers_read_the_same_in_every_language(lang):
    """One way to show a number: the fraction, the same in every language, then the decimal as the
    language writes it (a decimal point in English, a decimal comma in Italian)."""
    point = {"en": ".", "it": ","}[lang]
    i18n.set_language(lang)
    try:
        assert number_html(Fraction(3, 8)) == (
            f'<span class="dk-frac">3/8</span> <span class="dk-dec">≈ 0{point}375</span>'
        )
        assert number_html(Fraction(-7, 3), 4) == (
            f'<span class="dk-frac">−7/3</span> <span class="dk-dec">≈ −2{point}3333</span>'
        )
        assert number_html(6) == number_html(Fraction(12, 2)) == '<span class="dk-frac">6</span>'
        assert number_html(0.1 + 0.2) == f"0{point}300"  # an estimate has no exact value: its decimal only
        assert decimal_text(Fraction(2, 3), 2) == f"0{point}67"
        whole, part = gems_html(1), gems_html(Fraction(5, 2))
        assert "<b>" + format_fraction(1) + "</b>" in whole and ("gem" if lang == "en" else "gemma") in whole
        assert f"≈ 2{point}5000" in part and format_fraction(Fraction(5, 2)) in part
        estimate = gems_html(2.5)  # a float has no exact value: its decimal only
        assert f"≈ 2{point}5000" in estimate and "dk-frac" not in estimate
    finally:
        i18n.set_language("en")


def _all_widget_state(root: widgets.Widget) -> str:
    """The synced state of every widget in the app's tree, as the browser receives it."""
    states, stack = [], [root]
    while stack:
        widget = stack.pop()
        states.append(widget.get_state())
        stack.extend(getattr(widget, "children", ()))
        stack.extend(w for w in (getattr(widget, "layout", None), getattr(widget, "style", None)) if w is not None)
    return json.dumps(states, default=str)


def test_the_apps_random_bots_are_seeded_from_the_game_and_their_seat():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.RANDOM, BotKind.RANDOM, seed=3))
    assert [bot.seed for bot in app.bots[1:]] == [bot_seed(3, 1), bot_seed(3, 2)] == [4, 5]


def test_the_deck_order_never_reaches_a_widget():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.RANDOM, seed=3))
    game = app.game
    for _ in range(30):
        if game.is_over:
            break
        undealt = game._deck[::-1]  # top first
        if len(undealt) >= 6:
            order = [c.label for c in undealt[:6]]
            state = _all_widget_state(app.widget)
            # the next six cards, in order, must appear in no synced trait
            assert not re.search(r".{0,40}".join(map(re.escape, order)), state)
            assert json.dumps([c.to_json() for c in undealt]) not in state
        if app.bots[game.to_move] is None:
            _click(app, game.legal_actions()[0].value)
        else:
            _click(app, "next")


def test_after_the_final_danger_the_board_keeps_the_last_stages_stripes_and_no_stage_line():
    game, rules = Game(["a", "b"], seed=1), Ruleset.preset("dragon-stripes")
    before = None
    while not game.is_over:
        if game.stage == rules.last_stage and before is None:
            before = render_board(game)  # the last stage in force: its penalty and multiplier are shown
        game.apply(Action.DECLINE if game.phase is Phase.OFFER else Action.REVEAL)
    assert game.ending is Outcome.FINAL_DANGER and game.stage == rules.danger_cards == 3
    svg = render_board(game)
    stripes = [int(v) for v in re.findall(r'font-size="15" font-weight="bold" fill="[^"]+">([0-9]+)</text>', svg)]
    assert stripes == [rules.stripe_value(k, rules.last_stage) for k in range(1, rules.n_stripes + 1)]
    assert "3 of 3 dangers" in svg and "stop penalty" not in svg
    assert before is not None and "stop penalty <tspan" in before and "x2</tspan>" in before


def test_board_marks_knight_pot_stage_and_last_card():
    game = Game(["a", "b"], seed=1)
    while game.phase is not Phase.CHOOSE:
        game.reveal()
    svg = render_board(game)
    assert f'data-position="{game.position}"' in svg
    assert f"pot {game.pot}" in svg
    assert f"{game.treasure} gems" in svg
    assert f"{game.stage} of 3 dangers" in svg
    assert f"Deck: {game.remaining.total} of 51 cards left" in svg
    assert svg.count('class="stripe"') == 17


def test_new_game_returns_to_the_form():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.HUMAN))
    app.buttons["new_game"].click()
    assert app.game is None and app.setup_form.layout.display is None
    _click(app, "reveal")  # a stale click after leaving the game
    assert "no game is running" in app.setup_form.message.value


def test_odd_names_reach_the_end_of_the_game():
    config = GameConfig(
        seats=(SeatConfig("$x^$", BotKind.RANDOM), SeatConfig("_hidden", BotKind.RANDOM)), preset="mini", seed=2
    )
    app = PlayApp(autoplay=False, config=config)
    for _ in range(200):
        if app.game.is_over:
            break
        _click(app, "next")
    assert app.game.is_over and "<title>Gems over the game, after " in app.result_plot.value
    legend = app.result_plot.value
    assert ">$x^$" in legend and ">_hidden" in legend and "\u200b" not in legend  # the names as typed
    assert app.message.value == ""
    app.show_coach.value = False  # options still work after the end
    app.autoplay.value = True
    assert app.message.value == ""


def test_forged_start_and_next_clicks_are_refused():
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.RANDOM))
    game = app.game
    app.setup_form.start.click()  # hidden during a game
    assert app.game is game and "New game first" in app.message.value
    before = _snapshot(game)
    _click(app, "next")  # the human is to move
    assert _snapshot(game) == before and "not a bot's" in app.message.value


def test_forged_form_values_give_a_message():
    app = PlayApp(autoplay=False)
    app.setup_form.kinds[1].index = None  # a value the browser could forge
    app.setup_form.start.click()
    assert app.game is None and "Choose who plays seat 2" in app.setup_form.message.value


def _descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _descendants(child)


def _pickers(app: PlayApp) -> list:
    return [w for w in _descendants(app.widget) if "dk-language" in getattr(w, "_dom_classes", ())]


def test_the_language_switch_can_be_left_out_for_a_lesson_that_has_its_own():
    assert len(_pickers(PlayApp())) == 1 and PlayApp().language is not None  # the default keeps it
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.HUMAN), language_switch=False)
    assert _pickers(app) == [] and app.language is None
    i18n.set_language("it")  # the lesson's own switch: the app still follows the kernel's language
    try:
        assert app.buttons["reveal"].description == "Rivela" and "Mazzo" in app.board.value
    finally:
        i18n.set_language("en")
    assert app.buttons["reveal"].description == "Reveal"


@pytest.mark.parametrize("switch", [0, "False", None])
def test_language_switch_must_be_a_bool(switch):
    with pytest.raises(TypeError, match="language_switch must be True or False"):
        PlayApp(language_switch=switch)


def test_lesson_1_embeds_the_play_app_without_a_second_language_switch():
    notebook = json.loads((Path(__file__).parents[2] / "notebooks" / "01-play-and-observe.ipynb").read_text())
    cells = ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]
    apps = [c for c in cells if "PlayApp(" in c]
    assert apps == ["PlayApp(language_switch=False)"]
    assert any('lesson_page("01-play-and-observe.ipynb", "en")' in c for c in cells)  # the lesson's own links


def test_the_event_log_scrolls_whole_lines_under_a_fixed_title():
    """The list scrolls under the title, its height is a whole number of lines and its items snap to a
    line's top: at rest no line is cut (the browser test measures it in Chromium)."""
    app = PlayApp(autoplay=False, config=_config(BotKind.HUMAN, BotKind.HUMAN))
    for _ in range(12):
        _click(app, "reveal" if Action.REVEAL in app.game.legal_actions() else "decline")
    log = app.event_log.value
    title, rest = log.split('<div class="dk-log-lines" tabindex="0" role="region" aria-label="Events">')
    assert "<b>Events</b>" in title and rest.startswith("<ol") and rest.count("<li") == len(app.game.events)

    def rule(selector):
        return dict(re.findall(r"([\w-]+):\s*([^;]+);", re.search(re.escape(selector) + r" \{([^}]*)\}", CSS)[1]))

    lines, items, ol = rule(".dk-log-lines"), rule(".dk-log li"), rule(".dk-log ol")
    line = int(items["line-height"].removesuffix("px"))
    height = int(lines["height"].removesuffix("px"))
    assert height % line == 0 and height // line >= 8 and lines["overflow-y"] == "auto"
    assert ol["margin"] == "0" and ol["line-height"] == items["line-height"]  # no offset before the first line
    assert lines["scroll-snap-type"] == "y mandatory" and items["scroll-snap-align"] == "start"
    assert "height" not in rule(".dk-log")  # the box grows with the title, never clipping the list
