"""The lesson widgets of lessons 5 to 7 show every figure with its text and its table, in both languages
(each figure's own text: test_stopping.py, test_risk.py, test_market.py)."""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest

from dragonkit import i18n
from dragonkit.lessons import market as L7
from dragonkit.lessons import risk as L6
from dragonkit.lessons import stopping as L5
from dragonkit.ui.figures import FigureView

pytestmark = pytest.mark.usefixtures("lesson_widgets_closed")


def _figures(widget) -> list:
    found, queue = [], [widget]
    while queue:
        w = queue.pop(0)
        queue.extend(getattr(w, "children", ()))
        found.append(w)
    assert not [w for w in found if isinstance(w, widgets.Image)]
    return [w for w in found if isinstance(w, FigureView)]


def _stepper():
    stepper = L5.InductionStepper(gems=12)
    stepper.go(2)
    return stepper


def _auction():
    sheet = L7.AuctionSheet(seed=7)
    sheet.reveal("Ann 10\nBo 30", "first")
    return sheet


@pytest.mark.parametrize(
    "make, count",
    [
        (_stepper, 1),
        (lambda: L5.PolicyMapExplorer(treasure=100), 2),
        (lambda: L5.ThresholdExplorer("mini"), 1),
        (lambda: L6.OutcomeExplorer(threshold=4), 1),
        (lambda: L6.RiskReturnExplorer(treasure=400, thresholds=(1, 10, 40)), 1),
        (lambda: L6.CatchUpExplorer(needed=5), 1),
        (lambda: L7.TakeoverExplorer(edition="mini", drawn="1+2"), 1),
        (_auction, 1),
    ],
)
@pytest.mark.slow
def test_every_lesson_figure_has_its_text_and_its_table_in_both_languages(make, count):
    lesson = make()
    views = _figures(lesson.widget)
    assert len(views) == count
    english = [view.value for view in views]
    for html in english:
        assert re.search(r'<img src="data:image/png;base64,[^"]+" alt="[^"]{40,}"', html)
        assert "<table" in html and "<summary>The figure&#x27;s numbers</summary>" in html
    i18n.set_language("it")
    for before, view in zip(english, views):
        assert view.value != before and "I numeri della figura" in view.value and "<table" in view.value
    alts = [re.search(r'alt="([^"]*)"', view.value).group(1) for view in views]
    assert all(not re.search(r"\d\.\d", alt) for alt in alts), alts  # decimals with a comma (no thousands here)
