"""The view a page is drawn for: a screen at arm's length, or the projector of a class with one machine.

A page opened with ``?view=projector`` (with a language too: ``?lang=it&view=projector``) is drawn for an interactive
whiteboard or a projector, to be read from the back of a classroom: the stylesheet (:mod:`dragonkit.style`) draws it
:data:`PROJECTOR_ZOOM` times larger and lays the apps out over the full width, figures are drawn with as many more
pixels (:func:`zoom`), and the play app plays one step at a time: a card, then the coach on a click, each bot's move
on a click (:mod:`dragonkit.ui.app`).

The view is one setting per kernel (in Voilà: per visitor), :data:`settings`, as the language is
(:data:`dragonkit.i18n.settings`): a widget marks itself with the view's class and the apps observe it, so that a
preheated kernel, which ran its page before its visitor's request arrived, switches to the projector when it does
(:mod:`dragonkit.ui.visitor`).  This module knows nothing of the game.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import traitlets

from .address import query_values

__all__ = ["PROJECTOR", "PROJECTOR_ZOOM", "requested_projector", "settings", "zoom"]

#: The value of ``?view=`` that asks for the projector.
PROJECTOR = "projector"

#: How many times larger the projector draws a page: the kit's text of 14 px is 28 px on a 1920-pixel-wide board.
PROJECTOR_ZOOM = 2


def requested_projector(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the Voilà page's address asks for the projector (``?view=projector``)."""
    return PROJECTOR in query_values("view", environ)


class ViewSetting(traitlets.HasTraits):
    """The kernel's view; observe ``projector`` to redraw when it changes."""

    projector = traitlets.Bool(False)


#: The view of this kernel's page: the projector if its address asked for it.
settings = ViewSetting(projector=requested_projector())


def zoom() -> int:
    """How many times larger this kernel's page is drawn: :data:`PROJECTOR_ZOOM` on the projector, else 1 (a
    picture drawn with as many pixels per CSS pixel stays sharp)."""
    return PROJECTOR_ZOOM if settings.projector else 1
