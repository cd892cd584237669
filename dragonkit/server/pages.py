"""The server's own short pages, in the visitor's language: Jinja2 templates rendered with escaping on
(:func:`render`, from ``dragonkit/server/templates/``: ``page.html``, the one skeleton, and the pages built on it), and
the page a visitor gets instead of the app when the kernel budget is spent (:mod:`.budget`).

A refusal is a short, complete HTML page in the visitor's language (``?lang=`` of the address, else the language
the server was started in): what happened, what to do, a link that tries again, and the page tries
again by itself after ``retry`` seconds.  It is served with status 503 (the class is full) or 429
(this visitor has too many pages) and a ``Retry-After`` header, so a script backs off too.  The join page
(:mod:`.join`), the rooms' door (:mod:`.rooms`) and the teacher's page (:mod:`.teacher`) are built on the same skeleton.

Every value a page shows reaches its template as plain text (a sentence of the catalogs, a nickname or a room's code
as typed) and is escaped by the environment (``autoescape``): no page is written as HTML by hand.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from typing import Any

import jinja2
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from tornado import web

from ..i18n import N_, initial_language, tr
from ..palette import FOCUS, INK, RED, SURFACE, WHITE

__all__ = [
    "STATUS",
    "TEMPLATES",
    "ErrorPage",
    "error_page",
    "message_page",
    "refusal_page",
    "render",
    "visitor_environ",
    "with_error_page",
]

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

#: A form sent without the ``_xsrf`` field of its page, or with another (its cookie gone): Tornado refuses it (403).
_EXPIRED_TITLE = N_("This form has expired")
_EXPIRED = N_("Go back, load the page again, then send the form again.")
#: An address this server has nothing at (404).
_MISSING_TITLE = N_("This page does not exist")
_MISSING = N_("Check the address, or go back and follow the link again.")
#: Any other error.
_ERROR_TITLE = N_("Something went wrong")
_ERROR = N_("Go back and try again. If it happens again, tell your teacher.")

#: The server's pages' templates (``dragonkit/server/templates/``), every value escaped; a name a template uses and the
#: page does not give raises :class:`jinja2.UndefinedError` instead of showing nothing.
TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("dragonkit.server", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
TEMPLATES.globals["colours"] = {"ink": INK, "surface": SURFACE, "focus": FOCUS, "red": RED, "white": WHITE}


def visitor_environ(query: str) -> dict[str, str]:
    """What decides the language of a page of the server (:func:`dragonkit.i18n.initial_language`), as a kernel's
    environment holds it: the request's query (its ``?lang=``) as ``QUERY_STRING``, and the server's language."""
    return {"QUERY_STRING": query, "DRAGONKIT_LANG": os.environ.get("DRAGONKIT_LANG", "")}


def render(template: str, lang: str, title: str, **values: str | int) -> str:
    """A whole, short HTML page of the server in ``lang``, from one of its templates (``page.html`` extended): the title
    as its ``<title>`` and its ``<h1>``, then the template's ``<main>``.

    Parameters
    ----------
    template : str
        The template's file name in ``dragonkit/server/templates/`` (``"join.html"``).
    lang : str
        The page's language (its ``<html lang>``).
    title : str
        Plain text.
    **values
        What the template shows: plain text, or a whole number (a field's length, a refusal's seconds); escaped by
        the environment.

    Returns
    -------
    str
        A whole HTML document.

    Raises
    ------
    jinja2.TemplateNotFound
        For a template the server does not have.
    jinja2.UndefinedError
        If the template uses a value not given.
    """
    return TEMPLATES.get_template(template).render(lang=lang, title=title, **values)


def message_page(lang: str, title: str, text: str) -> str:
    """A page of the server that says one thing: ``title``, then the sentence ``text`` (plain text, both)."""
    return render("message.html", lang, title, text=text)


def error_page(failure: BaseException | None, environ: Mapping[str, str], status: int = 500) -> str:
    """The page of an error of the server (:class:`ErrorPage`: the kit's own pages and jupyter_server's), in the
    visitor's language: a form that has expired
    (Tornado's ``_xsrf`` check refused it), an address with nothing at it (404), or something that went wrong.

    Parameters
    ----------
    failure : BaseException or None
        The error, as Tornado gives it to ``write_error`` (``exc_info``), if any.
    environ : mapping of str to str
        :func:`visitor_environ` of the request.
    status : int
        The HTTP status of the answer.
    """
    lang = initial_language(environ)
    expired = isinstance(failure, web.HTTPError) and "xsrf" in (failure.log_message or "").lower()
    if expired:
        title, text = _EXPIRED_TITLE, _EXPIRED
    else:
        title, text = (_MISSING_TITLE, _MISSING) if status == 404 else (_ERROR_TITLE, _ERROR)
    return message_page(lang, tr(title, lang), tr(text, lang))


class ErrorPage(web.RequestHandler):
    """A handler whose errors are answered with :func:`error_page`, with their status.

    jupyter_server's own error page cannot be drawn by this server (it has no ``static_path``): its handlers answered
    an error with an empty page and three tracebacks in the server's log (a form sent without its ``_xsrf`` field, a
    page's websocket to a kernel that was shut down). :func:`with_error_page` gives every such handler this one."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        failure = kwargs["exc_info"][1] if "exc_info" in kwargs else None
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(error_page(failure, visitor_environ(self.request.query), status_code))


@functools.cache
def with_error_page(handler: type[web.RequestHandler]) -> type[web.RequestHandler]:
    """``handler``, or where jupyter_server would draw its error page for it (a :class:`JupyterHandler` that is not an
    :class:`APIHandler`, whose errors are JSON, and reads jupyter_server's templates, as Voilà's pages do not), a
    subclass of it with :class:`ErrorPage`'s.

    Parameters
    ----------
    handler : type
        A handler class of the server's routes.
    """
    draws_jupyter_servers_page = (
        issubclass(handler, JupyterHandler)
        and not issubclass(handler, (APIHandler, ErrorPage))
        and handler.get_template is JupyterHandler.get_template
        and handler.write_error is JupyterHandler.write_error
    )
    if not draws_jupyter_servers_page:
        return handler
    return type(handler.__name__, (ErrorPage, handler), {"__module__": handler.__module__, "__doc__": handler.__doc__})


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
    title, text, again = tr(_TITLE[reason], lang), tr(_TEXT[reason], lang), tr("Try again", lang)
    return render("refusal.html", lang, title, text=text, again=again, retry=int(retry))
