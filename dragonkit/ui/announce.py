"""What the play app and the hand trainer say to screen readers: a live region and the focus.

A screen reader reads a change of the page only where it is told to.  The apps keep one visually
hidden *live region* each (``role="status"``, ``aria-live="polite"``, the stylesheet's
``.dk-sr-only``): its text is the latest events' sentences, in the page's language, and a screen
reader reads them out when it is idle (WCAG 2.1, success criterion 4.1.3, status messages).  An HTML
widget replaces its whole HTML on each change, so the status element is drawn anew with its text: the
widget itself, which stays, cannot carry ``role`` or ``aria-live`` (ipywidgets gives it classes only).
Screen readers that read only changes inside a region already on the page would stay silent, so the
page's script (:func:`dragonkit.style.page_script`, shown with each app by :func:`display_page`)
marks the widget's own box as the live region.

A control that hides or disables itself when pressed (Reveal at the end of a turn, Start the game)
would leave the keyboard's focus nowhere: :func:`is_shown` tells an app when to move the focus on
to the control that comes next (:meth:`ipywidgets.DOMWidget.focus`).
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

import ipywidgets as widgets

from .. import i18n
from ..style import page_script

__all__ = ["announcement_html", "display_page", "is_shown", "live_region"]


def live_region() -> widgets.HTML:
    """An empty live region: an HTML widget, visually hidden, for :func:`announcement_html`."""
    region = widgets.HTML()
    region.add_class("dk-sr-only")
    region.add_class("dk-announce")
    return region


def announcement_html(sentences: Iterable[str], lang: str | None = None) -> str:
    """The live region's HTML: the ``sentences`` (plain text, escaped here), read as one message.

    Parameters
    ----------
    sentences : iterable of str
        Whole sentences in the page's language, oldest first; none gives an empty region.
    lang : str, optional
        Their language (default: the current one), written as the region's ``lang``: the page's script
        (:func:`dragonkit.style.page_script`) makes it the document's, so a switch of language in the app
        changes the language a screen reader speaks.
    """
    text = " ".join(s.strip() for s in sentences if s.strip())
    lang = lang or i18n.get_language()
    return (
        f'<div class="dk-sr-only" role="status" aria-live="polite" aria-atomic="true" lang="{escape(lang)}">'
        f"{escape(text)}</div>"
    )


def is_shown(widget: widgets.DOMWidget) -> bool:
    """Whether the keyboard can still reach ``widget``: shown and, where it can be, enabled."""
    return widget.layout.display != "none" and not getattr(widget, "disabled", False)


def display_page(widget: widgets.Widget) -> None:
    """Show an app: first the page's script for screen readers (:func:`dragonkit.style.page_script`, in the
    kernel's language: the document's language, its main landmark, the live regions), then ``widget``."""
    from IPython.display import HTML, display

    display(HTML(page_script(i18n.get_language())))
    display(widget)
