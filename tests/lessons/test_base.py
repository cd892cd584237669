"""What every lesson widget is built on (dragonkit.lessons.base): the fresh turn and its helpers, a widget
that follows the language until it is closed, a live figure that redraws its text with its picture."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from dragonkit import Game, Ruleset, i18n
from dragonkit.analysis import HoldAtPot, TurnState
from dragonkit.i18n.numbers import integer_text
from dragonkit.lessons import base
from dragonkit.lessons import chain as L4
from dragonkit.plots.text import FigureText


def test_fresh_turn_and_helpers():
    state = base.fresh_turn("dragon-stripes", gems=7, treasure=99, stage=2)
    assert (state.gems, state.treasure, state.dangers_revealed, state.dangers, state.must_reveal) == (7, 99, 2, 1, True)
    with pytest.raises(ValueError, match="stage"):
        base.fresh_turn("mini", stage=1)
    with pytest.raises(ValueError, match="preset"):
        base.fresh_turn("nope")
    assert base.policy_name(HoldAtPot(4), "it") == "fermati a 4"
    assert L4.state_name("held 5", "it") == "si ferma con 5"
    sliders = base.situation_sliders(Ruleset.preset("dragon-stripes"), gems=200, treasure=10, stage=1)
    assert [(s.value, s.min <= s.value <= s.max) for s in sliders.values()] == [(200, True), (10, True), (1, True)]


def test_a_fresh_turn_is_the_engines_first_decision():
    for name in ("mini", "dragon-stripes", "kali", "drago-rosso"):
        rules = Ruleset.preset(name)
        engine = TurnState.from_game(Game(["A", "B"], rules=rules, seed=0))
        assert base.fresh_turn(name) == base.fresh_turn(rules) == engine
    with pytest.raises(ValueError, match="Ruleset"):
        base.fresh_turn(3)


def test_a_lesson_widget_follows_the_language_until_closed():
    drawn = []

    def make():
        drawn.append(i18n.get_language())
        fig = Figure(figsize=(2, 1))
        fig.subplots().set_title(i18n.tr("optimal policy"))
        return fig, FigureText(i18n.tr("optimal policy"))

    figure = base.LiveFigure(make, width="200px")
    first = figure.widget.value
    i18n.set_language("it")
    assert drawn == ["en", "it"] and figure.widget.value != first  # "politica ottima" drawn anew
    figure.close()
    i18n.set_language("en")
    assert drawn == ["en", "it"] and figure.widget.comm is None
    figure.close()  # closing twice is harmless


def test_a_live_figure_redraws_its_text_with_the_picture():
    from matplotlib.figure import Figure

    def make():
        fig = Figure(figsize=(2, 1))
        fig.subplots().set_title(i18n.tr("stage {d}", d=1))
        return fig, FigureText(i18n.tr("stage {d}", d=1), (i18n.tr("stage"),), ((integer_text(1000),),))

    live = base.LiveFigure(make, width="300px")
    assert 'alt="stage 1"' in live.widget.value and "<td>1,000</td>" in live.widget.value
    i18n.set_language("it")
    assert 'alt="fase 1"' in live.widget.value and "<td>1.000</td>" in live.widget.value
    live.close()
