"""The page a visitor gets instead of the app when the kernel budget is spent (:mod:`.budget`).

A short, complete HTML page in the visitor's language (``?lang=`` of the address, else the language
the server was started in): what happened, what to do, a link that tries again, and the page tries
again by itself after ``retry`` seconds.  It is served with status 503 (the class is full) or 429
(this visitor has too many pages) and a ``Retry-After`` header, so a script backs off too.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from ..i18n import N_, initial_language, tr
from ..palette import INK, SURFACE

__all__ = ["STATUS", "refusal_page"]

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
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="{int(retry)}">
<title>{escape(title)} — Dragon Stripes</title>
<style>
body {{ font-family: system-ui, sans-serif; color: {INK}; background: {SURFACE}; margin: 0; }}
main {{ max-width: 34rem; margin: 15vh auto; padding: 0 1.5rem; font-size: 1.15rem; line-height: 1.5; }}
a {{ font-weight: bold; }}
a:focus-visible {{ outline: 3px solid currentColor; outline-offset: 3px; }}
</style>
</head>
<body>
<main>
<h1>{escape(title)}</h1>
<p>{escape(text)}</p>
<p><a href="">{escape(again)}</a></p>
</main>
</body>
</html>
"""
