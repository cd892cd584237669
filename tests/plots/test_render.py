"""Figures as PNG (dragonkit.plots.render): as many more pixels as the kernel's view draws the page larger."""

from __future__ import annotations

import struct

from matplotlib.figure import Figure

from dragonkit import view
from dragonkit.plots.render import figure_png


def _size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height in pixels (its header's IHDR chunk)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def test_a_figure_has_twice_the_pixels_each_way_on_the_projector():
    fig = Figure(figsize=(3.0, 2.0), dpi=100)
    fig.add_subplot().plot([0, 1], [1, 0])
    assert _size(figure_png(fig)) == (300, 200)
    view.settings.projector = True
    try:
        assert _size(figure_png(fig)) == (600, 400)
    finally:
        view.settings.projector = False
    assert fig.dpi == 100  # the figure itself is unchanged
