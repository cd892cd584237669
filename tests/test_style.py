"""The stylesheet (dragonkit.style): the projector's view and the page's script for toggle buttons."""

from __future__ import annotations

from dragonkit.style import CSS, PROJECTOR_CLASS, page_script
from dragonkit.view import PROJECTOR_ZOOM


def test_a_page_marked_for_the_projector_is_drawn_larger_with_no_text_under_14px():
    assert PROJECTOR_CLASS == "dk-projector"
    assert f"body:has(.dk-projector) .jp-Cell {{ zoom: {PROJECTOR_ZOOM}; }}" in CSS
    assert "body:has(.dk-projector) { --jp-widgets-font-size: 14px;" in CSS
    projector_rules = [line for line in CSS.splitlines() if "dk-projector" in line]
    assert len(projector_rules) >= 10
    assert "$" not in CSS  # every placeholder filled in


def test_the_page_script_says_whether_a_toggle_button_is_pressed():
    script = page_script("it")
    assert "setAttribute('aria-pressed', pressed)" in script
    assert "attributeFilter: ['class']" in script  # again whenever ipywidgets changes the button's class
