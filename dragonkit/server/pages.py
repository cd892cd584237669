"""The server's own short pages, in the visitor's language: the one skeleton (:func:`html_page`) and the page a visitor
gets instead of the app when the kernel budget is spent (:mod:`.budget`).

A refusal is a short, complete HTML page in the visitor's language (``?lang=`` of the address, else the language
the server was started in): what happened, what to do, a link that tries again, and the page tries
again by itself after ``retry`` seconds.  It is served with status 503 (the class is full) or 429
(this visitor has too many pages) and a ``Retry-After`` header, so a script backs off too.  The join page
(:mod:`.join`) and the teacher's page (:mod:`.teacher`) are built on the same skeleton.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from html import escape

from ..i18n import N_, initial_language, tr
from ..palette import FOCUS, INK, RED, SURFACE, WHITE

__all__ = ["STATUS", "html_page", "refusal_page", "visitor_environ"]

#: The HTTP status of each refusal (:meth:`.budget.KernelBudget.refusal`).
STATUS = {"full": 503, "client": 429}

_TITLE = {"full": N_("The class is full"), "client": N_("Too many pages at once")}
_TEXT = {
    "full": N_(
        "Every place on this server is taken. Wait a minute, then try again: a place frees itself "
        "when someone closes a page."
    ),
    "client": N_(
        "This computer has too many pages of the kit open or loading. Close the pages you no "
        "longer use, wait a minute, then try again."
    ),
}

_STYLE = f"""
body {{ font-family: system-ui, sans-serif; color: {INK}; background: {SURFACE}; margin: 0; }}
main {{ max-width: 34rem; margin: 15vh auto; padding: 0 1.5rem; font-size: 1.15rem; line-height: 1.5; }}
a, button {{ font-weight: bold; }}
a:focus-visible, input:focus-visible, button:focus-visible {{ outline: 3px solid {FOCUS}; outline-offset: 3px; }}
label {{ display: block; font-weight: bold; }}
input, button {{ font: inherit; margin: 0.4rem 0; padding: 0.4rem 0.6rem; }}
input {{ width: 100%; box-sizing: border-box; border: 2px solid {INK}; border-radius: 4px; }}
button {{ color: {WHITE}; background: {FOCUS}; border: none; border-radius: 4px; cursor: pointer; }}
.error {{ color: {RED}; font-weight: bold; }}
"""


def visitor_environ(query: str) -> dict[str, str]:
    """What decides the language of a page of the server (:func:`dragonkit.i18n.initial_language`), as a kernel's
    environment holds it: the request's query (its ``?lang=``) as ``QUERY_STRING``, and the server's language."""
    return {"QUERY_STRING": query, "DRAGONKIT_LANG": os.environ.get("DRAGONKIT_LANG", "")}


def html_page(lang: str, title: str, body: str, head: str = "") -> str:
    """A whole, short HTML page of the server in ``lang``: the title as its ``<title>`` and its ``<h1>``, then
    ``body``, in a ``<main>``; nothing fetched from outside.

    Parameters
    ----------
    lang : str
        The page's language (its ``<html lang>``).
    title : str
        Plain text (escaped here).
    body : str
        HTML, already escaped where it holds text.
    head : str
        More HTML for the ``<head>`` (a ``<meta http-equiv="refresh">``).

    Returns
    -------
    str
        A whole HTML document.
    """
    return f"""<!DOCTYPE html>
<html lang="{escape(lang, quote=True)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">{head}
<title>{escape(title)} — Dragon Stripes</title>
<style>{_STYLE}</style>
</head>
<body>
<main>
<h1>{escape(title)}</h1>
{body}
</main>
</body>
</html>
"""


def refusal_page(reason: str, environ: Mapping[str, str], retry: int = 60) -> str:
    """The page for a refused visitor.

    Parameters
    ----------
    reason : str
        ``"full"`` or ``"client"`` (:meth:`.budget.KernelBudget.refusal`).
    environ : mapping of str to str
        ``QUERY_STRING`` (the page's ``?lang=``) and ``DRAGONKIT_LANG`` (the server's language), as
        :func:`dragonkit.i18n.initial_language` reads them.
    retry : int
        Seconds after which the page reloads itself (and the ``Retry-After`` the server sends).

    Returns
    -------
    str
        A whole HTML document.

    Raises
    ------
    KeyError
        For an unknown ``reason``.
    """
    lang = initial_language(environ)
    title, text = tr(_TITLE[reason], lang), tr(_TEXT[reason], lang)
    again = tr("Try again", lang)
    body = f'<p>{escape(text)}</p>\n<p><a href="">{escape(again)}</a></p>'
    return html_page(lang, title, body, f'\n<meta http-equiv="refresh" content="{int(retry)}">')
