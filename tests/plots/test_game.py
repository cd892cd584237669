"""The gems over a game, the figure at the end of the play app's games: an SVG image drawn from the game's history,
named by its text alternative, its players told apart by more than their colour, its words and numbers in the page's
language; and its text alternative and table, written from the same history."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from types import SimpleNamespace

from dragonkit import Game, Ruleset, i18n, palette
from dragonkit.bots import BotKind, make_bot
from dragonkit.plots.game import DASHES, MARKERS, gems_over_game, gems_over_game_text, integer_ticks
from dragonkit.ui import GameConfig, PlayApp, SeatConfig

SVG = "{http://www.w3.org/2000/svg}"


def _played(names: list[str], preset: str = "dragon-stripes", seed: int = 5) -> Game:
    """A whole game of threshold and random bots, seeded."""
    game = Game(names, Ruleset.preset(preset), seed=seed)
    bots = [
        make_bot("threshold", threshold=8 + 3 * seat) if seat % 2 == 0 else make_bot("random", seed=seed + seat)
        for seat in range(len(names))
    ]
    while not game.is_over:
        game.apply(bots[game.to_move].choose(game), by=game.to_move)
    return game


def _history(players: list[str], history: list[tuple[int, ...]], winners: tuple[int, ...]) -> SimpleNamespace:
    """What the figure reads of a game, for histories no short game gives."""
    return SimpleNamespace(players=tuple(players), gem_history=tuple(history), gems=history[-1], winners=winners)


def _svg(game, lang: str | None = None) -> ET.Element:
    return ET.fromstring(gems_over_game(game, lang))  # well-formed XML, or this raises


def _texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def _ticks(root: ET.Element, anchor: str) -> list[str]:
    """The y tick labels (written right-aligned) or the x tick labels (centred, under the axis, numbers only)."""
    found = [("".join(t.itertext()), t) for t in root.iter(f"{SVG}text") if t.get("text-anchor") == anchor]
    return [text for text, t in found if re.fullmatch(r"[\d.,−-]+", text) and "transform" not in t.attrib]


def test_the_figure_is_an_image_named_by_its_text_alternative():
    game = _played(["Ann", "Bo", "Cy"])
    root = _svg(game)
    alt = gems_over_game_text(game).alt
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("aria-label") == alt and root.find(f"{SVG}title").text == alt
    assert "width" in root.get("style") and root.get("viewBox").startswith("0 0 420 ")


def test_each_player_has_a_line_with_a_colour_a_dash_and_a_marker_of_their_own():
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    game = _played(names)
    groups = {int(g.get("data-seat")): g for g in _svg(game).iter(f"{SVG}g") if g.get("class") == "dk-player"}
    assert sorted(groups) == list(range(6))
    lines = {seat: g.find(f"{SVG}polyline") for seat, g in groups.items()}
    assert [lines[seat].get("stroke") for seat in range(6)] == list(palette.PLAYERS)
    assert [lines[seat].get("stroke-dasharray", "") for seat in range(6)] == list(DASHES)
    assert [groups[seat].get("data-marker") for seat in range(6)] == list(MARKERS)
    assert len(set(DASHES)) == len(set(MARKERS)) == 6  # colour never tells two players apart alone
    for seat, line in lines.items():  # a point per entry of the history, higher for more gems
        points = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
        assert len(points) == len(game.gem_history)
        xs, ys = zip(*points)
        assert list(xs) == sorted(xs)
        gems = [h[seat] for h in game.gem_history]
        assert all((a < b) == (ya > yb) for a, b, ya, yb in zip(gems, gems[1:], ys, ys[1:]) if a != b)
        assert groups[seat].find(f"{SVG}path").get("fill") == palette.PLAYERS[seat]


def test_the_winners_line_is_thicker_and_the_legend_names_the_winner():
    game = _played(["Ann", "Bo", "Cy"])
    root = _svg(game)
    (winner,) = game.winners
    widths = {
        int(g.get("data-seat")): float(g.find(f"{SVG}polyline").get("stroke-width"))
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "dk-player"
    }
    assert widths[winner] > max(w for seat, w in widths.items() if seat != winner)
    texts = _texts(root)
    assert f"{game.players[winner]} (winner)" in texts
    assert all(name in texts for seat, name in enumerate(game.players) if seat != winner)
    i18n.set_language("it")
    assert f"{game.players[winner]} (vincitore)" in _texts(_svg(game))


def test_title_axes_and_numbers_follow_the_language():
    game = _history(["Ann", "Bo"], [(40, 40), (1250, 0), (2400, 30), (2500, 10)], winners=(0,))
    english, italian = _svg(game, "en"), _svg(game, "it")
    assert {"Gems over the game", "turns played", "gems"} <= set(_texts(english))
    assert {"Gemme durante la partita", "turni giocati", "gemme"} <= set(_texts(italian))
    assert _ticks(english, "end") == ["0", "500", "1,000", "1,500", "2,000", "2,500"]  # integers, written
    assert _ticks(italian, "end") == ["0", "500", "1.000", "1.500", "2.000", "2.500"]  # as the language writes them
    assert _ticks(english, "middle") == ["0", "1", "2", "3"]
    assert italian.get("aria-label") == gems_over_game_text(game, "it").alt
    i18n.set_language("it")
    assert gems_over_game(game) == gems_over_game(game, "it")  # the current language by default


def test_long_games_keep_few_ticks_and_markers():
    game = _history(["Ann", "Bo"], [(40 + t, 40 - t % 7) for t in range(61)], winners=(0,))
    root = _svg(game)
    assert _ticks(root, "middle") == ["0", "10", "20", "30", "40", "50", "60"]
    marks = next(g for g in root.iter(f"{SVG}g") if g.get("data-seat") == "0").find(f"{SVG}path").get("d")
    assert 10 <= marks.count("M") < 61  # a marker every few turns, the last turn's included


def test_names_are_written_as_typed():
    names = ['<b>Ann</b> & "Bo"', "$x^$", "_hidden", "A very long name that does not fit in the legend"]
    game = _history(names, [(40, 40, 40, 40), (50, 30, 40, 45)], winners=(0,))
    root = _svg(game)
    texts = _texts(root)
    # escaped (the SVG parses, and says the name, not markup); shortened in the legend only
    assert '<b>Ann</b> & "Bo" (winner)' in texts and "$x^$" in texts and "_hidden" in texts
    assert "A very long name that d…" in texts
    assert names[3] in root.get("aria-label") and (names[3], "40", "40", "45", "45") in gems_over_game_text(game).rows


def test_integer_ticks_are_steps_of_one_two_or_five():
    assert integer_ticks(0, 7) == (0, 2, 4, 6, 8)
    assert integer_ticks(0, 7, most=8) == tuple(range(8))
    assert integer_ticks(0, 43) == (0, 10, 20, 30, 40, 50)
    assert integer_ticks(0, 0) == (0, 1) and integer_ticks(5, 5) == (5, 6)
    assert integer_ticks(-3, 12) == (-5, 0, 5, 10, 15)
    assert integer_ticks(0, 1234) == (0, 500, 1000, 1500)


def test_the_text_alternative_and_table_come_from_the_history():
    game = _history(["Ann", "Bo"], [(40, 40), (1250, 0), (2400, 30), (2500, 10)], winners=(0,))
    text = gems_over_game_text(game)
    assert text.alt == "Gems over the game, after 3 turns: Ann 2,500, Bo 10"
    assert text.columns == ("player", "at the start", "fewest", "most", "at the end")
    assert text.rows == (("Ann", "40", "40", "2,500", "2,500"), ("Bo", "40", "0", "40", "10"))
    italian = gems_over_game_text(game, "it")
    assert italian.alt == "Gemme durante la partita, dopo 3 turni: Ann 2.500, Bo 10"
    assert italian.rows[0] == ("Ann", "40", "40", "2.500", "2.500")


def test_the_play_app_shows_the_svg_with_its_numbers_and_redraws_it_in_another_language():
    config = GameConfig(
        seats=(SeatConfig("Ann", BotKind.THRESHOLD), SeatConfig("Bo", BotKind.RANDOM)), preset="mini", seed=4
    )
    app = PlayApp(autoplay=False, config=config)
    while not app.game.is_over:
        app._last_click = (None, 0.0)
        app.buttons["next"].click()
    shown = app.result_plot.value
    assert app.result_plot.layout.display is None and "<img" not in shown
    assert gems_over_game(app.game) in shown and "<summary>The figure&#x27;s numbers</summary>" in shown
    assert shown.count("<tr>") == 1 + len(app.game.players)  # the header and a row per player
    i18n.set_language("it")
    assert gems_over_game(app.game, "it") in app.result_plot.value
    assert "<summary>I numeri della figura</summary>" in app.result_plot.value
