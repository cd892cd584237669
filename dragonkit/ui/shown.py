"""When a browser has drawn a page: what a page that changes itself waits for before it starts.

A Voilà page's kernel runs the notebook, then the browser loads the page's scripts and fetches every widget's state
from the kernel (ipywidgets' front end asks on its control comm and, when the kernel has not answered in 4 s, asks
again widget by widget). A page that keeps changing its widgets, or keeps its kernel's event loop busy, during that
handshake races it, and the browser may be left with stale widgets or none ("Error displaying widget: model not
found"). So a page that updates itself (the teacher's dashboard, a room's table) starts only once the browser has
drawn it: ipywidgets' front end counts the views it draws of a widget whose ``_view_count`` is a number (an
experimental trait of ipywidgets 8) and sends the count back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

__all__ = ["count_views", "is_drawn", "when_drawn"]


def count_views(widget: widgets.Widget) -> None:
    """Have ipywidgets' front end count the views it draws of ``widget`` (its ``_view_count``, from 0); call it before
    ``widget`` is displayed: a view drawn before is not counted."""
    if widget._view_count is None:
        widget._view_count = 0


def is_drawn(widget: widgets.Widget) -> bool:
    """Whether a browser has drawn ``widget`` (which :func:`count_views` has made count its views)."""
    return bool(widget._view_count)


def when_drawn(widget: widgets.Widget, then: Callable[[], None]) -> None:
    """Call ``then`` once a browser has drawn ``widget``: at once if one has, else when the front end says so (on the
    kernel's event loop, as a widget's message is handled). ``widget`` counts its views (:func:`count_views`).

    Parameters
    ----------
    widget : ipywidgets.Widget
        The page's widget, displayed by the notebook.
    then : callable
        Called once, with no argument.
    """
    if is_drawn(widget):
        then()
        return

    def drawn(change: dict[str, Any]) -> None:
        if change["new"]:
            widget.unobserve(drawn, names="_view_count")
            then()

    widget.observe(drawn, names="_view_count")
