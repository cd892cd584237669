"""The join page: a student gives a nickname once, and every page they open writes it to the class's record.

Where the server keeps a record (``dragonkit serve`` for a class, :func:`dragonkit.cli.serves_a_class`, without
``--no-record``; one learner's server keeps none and asks nothing), a notebook page asked for with no
nickname, neither ``?nickname=`` in its address nor the cookie this page leaves, is answered with the join page,
whose form goes to ``/dragonkit/join?next=<the page's address>`` (:func:`ask_nickname`): a short page in the visitor's
language (``templates/join.html``) with
one field, the nickname (1 to 24 characters, :mod:`dragonkit.record.nicknames`), a sentence saying
that only the nickname is kept and that the teacher sees it, and a button. Sent (with Tornado's ``_xsrf`` check), it
sets the cookie :data:`NICKNAME_COOKIE` for 12 hours and sends the browser back to ``next``, a path of this server
only (:func:`same_server`: never an open redirection).

A page asked for with the cookie gets ``nickname=<it>`` added to its request's query before Voilà reads it
(:func:`add_to_query`): a kernel started with its page finds it in ``QUERY_STRING`` at once, and a preheated kernel
when Voilà sends it its visitor's request (the request-info socket carries the same query,
:mod:`dragonkit.ui.visitor`). A ``?nickname=`` in the address wins over the cookie; an address whose nickname is
refused (two of them, or a character a nickname may not hold) is answered with the join page saying why (400), its
form sending the student back to the address without it: the kernel never reads a nickname the server did not.
"""

from __future__ import annotations

from urllib.parse import quote, unquote, urlencode, urlsplit

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import httputil, web

from ..address import query_values, query_without
from ..i18n import N_, initial_language, requested_language, tr
from ..record.nicknames import NICKNAME_LENGTH, NicknameError, NicknameProblem, nickname, query_nickname
from .pages import message_page, render, visitor_environ

__all__ = [
    "JOIN_PATH",
    "NICKNAME_COOKIE",
    "JoinHandler",
    "add_to_query",
    "ask_nickname",
    "join_page",
    "same_server",
]

#: The join page's path, under the server's base URL.
JOIN_PATH = "dragonkit/join"
#: The cookie that remembers a student's nickname, and for how long (days).
NICKNAME_COOKIE = "dragonkit_nickname"
COOKIE_DAYS = 0.5

_TITLE = N_("Join the class")
_LABEL = N_("Your nickname")
_RULE = N_("1 to 24 characters: letters, digits, spaces and . ' - _")
_KEPT = N_("Only your nickname is kept, and your teacher sees it: nothing else about you.")
_BUTTON = N_("Join")
#: What the join page says of a nickname refused, by why.
_REFUSED = {
    NicknameProblem.EMPTY: N_("Write a nickname of 1 to 24 characters."),
    NicknameProblem.TOO_LONG: N_("Write a nickname of 1 to 24 characters."),
    NicknameProblem.CHARACTER: N_("A nickname cannot hold “{character}”: use letters, digits, spaces and . ' - _"),
    NicknameProblem.REPEATED: N_("This address gives more than one nickname: write yours here."),
}
_ELSEWHERE_TITLE = N_("This link does not lead to the kit")
_ELSEWHERE = N_("Open the kit from the address your teacher gave you.")


def same_server(target: str) -> str:
    """``target`` if it is a path of this server (``/voila/render/play.ipynb?lang=it``).

    Raises
    ------
    ValueError
        For anything a browser could read as another server's address (``https://…``, ``//host/…``, ``/\\host``),
        a relative path, or a control character.
    """
    parts = urlsplit(target)
    if (
        parts.scheme
        or parts.netloc
        or not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or any(ord(c) < 32 or ord(c) == 127 for c in target)
    ):
        raise ValueError(f"{target!r} is not a path of this server")
    return target


def add_to_query(request: httputil.HTTPServerRequest, name: str, value: str) -> None:
    """Add ``name=value`` to the end of ``request``'s query, its address and its arguments, as if the browser had
    asked for it (Voilà reads the query, ``request.query``, and the address, ``request.full_url()``)."""
    pair = urlencode({name: value})
    request.query = f"{request.query}&{pair}" if request.query else pair
    request.uri = f"{request.path}?{request.query}"
    for arguments in (request.query_arguments, request.arguments):
        arguments.setdefault(name, []).append(value.encode())


def ask_nickname(handler: JupyterHandler) -> bool:
    """Whether ``handler``'s page has been answered with the join page, for want of a nickname.

    A ``?nickname=`` of the address is kept as it is; else the cookie's nickname is added to the request's query
    (:func:`add_to_query`); else the page's address answers with the join page itself (status 200, in the visitor's
    language: the page the student asked for asks their nickname first), whose form goes to :data:`JOIN_PATH` with
    ``next`` the page's address (and ``lang`` its ``?lang=``, if any), and comes back. An address whose nickname is
    refused (:func:`~dragonkit.record.nicknames.query_nickname`) is answered with the join page saying why (status
    400), ``next`` the address without its ``?nickname=``.

    Parameters
    ----------
    handler : jupyter_server.base.handlers.JupyterHandler
        A notebook page's handler, before Voilà reads its request.

    Returns
    -------
    bool
        True: answered (the join page); False: serve the page.
    """
    request = handler.request
    given = query_values("nickname", visitor_environ(request.query))
    try:
        if query_nickname(given) is not None:
            return False
    except NicknameError as refused:
        return _answer_with_join_page(handler, given[0][: NICKNAME_LENGTH * 2], refused)
    try:
        remembered = nickname(unquote(handler.get_cookie(NICKNAME_COOKIE) or ""))
    except NicknameError:  # no cookie, or one this server did not write
        return _answer_with_join_page(handler)
    add_to_query(request, "nickname", remembered)
    return False


def _answer_with_join_page(handler: JupyterHandler, given: str = "", refused: NicknameError | None = None) -> bool:
    """Answer ``handler``'s request with the join page (400 with why for a nickname ``refused``), whose form comes
    back to the page's address (without a nickname); True."""
    request = handler.request
    kept = query_without(request.query, "nickname")
    asked = {"next": request.path + (f"?{kept}" if kept else "")}
    lang = requested_language(visitor_environ(request.query))
    if lang is not None:
        asked["lang"] = lang
    action = f"{url_path_join(handler.base_url, JOIN_PATH)}?{urlencode(asked)}"
    handler.set_header("Cache-Control", "no-store")
    if refused is not None:
        handler.set_status(400)
    page_lang = initial_language(visitor_environ(request.query))
    handler.finish(join_page(page_lang, _xsrf(handler), given, refused, action=action))
    return True


def _xsrf(handler: JupyterHandler) -> str:
    """The ``_xsrf`` token of ``handler``'s form, the one its cookie holds
    (:attr:`tornado.web.RequestHandler.xsrf_token`)."""
    return handler.xsrf_token.decode()


def join_page(lang: str, xsrf: str, given: str = "", refused: NicknameError | None = None, action: str = "") -> str:
    """The join page in ``lang`` (``templates/join.html``): the nickname's field, what is kept, the button.

    Parameters
    ----------
    lang : str
    xsrf : str
        The form's ``_xsrf`` token (:attr:`tornado.web.RequestHandler.xsrf_token`), sent back in a hidden field.
    given : str
        What the field holds (a nickname refused, shown again; plain text).
    refused : NicknameError, optional
        The nickname given was refused: the page says why and marks the field invalid.
    action : str
        Where the form goes (``""``: the page's own address, :data:`JOIN_PATH`'s).

    Returns
    -------
    str
        A whole HTML document.
    """
    return render(
        "join.html",
        lang,
        tr(_TITLE, lang),
        xsrf=xsrf,
        action=action,
        label=tr(_LABEL, lang),
        rule=tr(_RULE, lang),
        error="" if refused is None else tr(_REFUSED[refused.problem], lang, character=refused.character),
        given=given,
        maxlength=NICKNAME_LENGTH,
        kept=tr(_KEPT, lang),
        button=tr(_BUTTON, lang),
    )


class JoinHandler(JupyterHandler):
    """``/dragonkit/join``: the join page (GET, and HEAD as GET), and the nickname sent (POST: the cookie, then back to
    ``next``). A ``next`` that is not a path of this server is answered with status 400 and a page that says so;
    a nickname refused (:func:`~dragonkit.record.nicknames.nickname`), with the page again saying why (400) and
    nothing set."""

    def _next(self) -> str | None:
        """The ``?next=`` of the request if it is a path of this server; else None, the 400 page sent."""
        try:
            return same_server(self.get_query_argument("next", ""))
        except ValueError:
            lang = initial_language(visitor_environ(self.request.query))
            self.set_status(400)
            self.finish(message_page(lang, tr(_ELSEWHERE_TITLE, lang), tr(_ELSEWHERE, lang)))
            return None

    def _page(self, given: str = "", refused: NicknameError | None = None) -> None:
        self.set_header("Cache-Control", "no-store")
        lang = initial_language(visitor_environ(self.request.query))
        self.finish(join_page(lang, _xsrf(self), given, refused))

    @web.authenticated
    def get(self) -> None:
        if self._next() is not None:
            self._page()

    @web.authenticated
    def head(self) -> None:
        self.get()

    @web.authenticated
    def post(self) -> None:
        target = self._next()
        if target is None:
            return
        given = self.get_body_argument("nickname", "")
        try:
            taken = nickname(given)
        except NicknameError as refused:
            self.set_status(400)
            self._page(given[: NICKNAME_LENGTH * 2], refused)
            return
        self.set_cookie(
            NICKNAME_COOKIE,
            quote(taken, safe=""),
            path=self.base_url,
            expires_days=COOKIE_DAYS,
            httponly=True,
            samesite="Lax",
        )
        self.redirect(target, status=303)
