"""The join page: a student gives a nickname once, and the browser that took it holds it in the class.

Where the server keeps a record (``dragonkit serve`` for a class, :func:`dragonkit.cli.serves_a_class`, without
``--no-record``; one learner's server keeps none and asks nothing), a notebook page asked for by a browser that holds
no nickname of the class is answered with the join page, whose form goes to ``/dragonkit/join?next=<the page's
address>`` (:func:`ask_nickname`): a short page in the visitor's language (``templates/join.html``) with one field,
the nickname (1 to 24 characters, :mod:`dragonkit.record.nicknames`), a sentence saying that only the nickname is
kept and that the teacher sees it, and a button. Sent (with Tornado's ``_xsrf`` check), a nickname nobody in the class
holds is taken (:func:`dragonkit.record.holds.take`): the browser gets the hold's secret in the HttpOnly cookie
:data:`NICKNAME_COOKIE` for :data:`HOLD_DAYS` days (``Secure`` over HTTPS; the record keeps only its digest) and is
sent back to ``next``, a path of this server only (:func:`same_server`: never an open redirection). A nickname held by
another browser is refused (409): the page says it is taken, to pick another or to ask the teacher, who releases it
from the dashboard. A browser that joins with another nickname gives up the one it held.

A page asked for with the cookie of a hold gets ``nickname=<the nickname held>`` in its request's query before Voilà
reads it (:func:`put_in_query`), in place of any ``?nickname=`` of its address: a kernel started with its page finds it
in ``QUERY_STRING`` at once, and a preheated kernel when Voilà sends it its visitor's request (the request-info socket
carries the same query, :mod:`dragonkit.ui.visitor`). So the kernel writes decisions, answers and moves under the
nickname held, never one an address or a form names. A ``?nickname=`` of a browser that holds none is written in the
join page's field (a link a teacher sent); one refused (two of them, or a character a nickname may not hold) is
answered with the join page saying why (400), its form sending the student back to the address without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlencode, urlsplit

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join
from tornado import httputil, web

from ..address import query_values, query_without
from ..i18n import N_, initial_language, ntr, requested_language, tr
from ..record.nicknames import NICKNAME_LENGTH, NicknameError, NicknameProblem, nickname, query_nickname
from ..record.where import class_name
from .door import JoinPace
from .pages import message_page, render, visitor_environ
from .record import RecordServer, in_thread, record_engine

if TYPE_CHECKING:
    from sqlalchemy import Engine

__all__ = [
    "HOLD_DAYS",
    "JOIN_PATH",
    "NICKNAME_COOKIE",
    "JoinHandler",
    "ask_nickname",
    "join_page",
    "put_in_query",
    "same_server",
]

#: The join page's path, under the server's base URL.
JOIN_PATH = "dragonkit/join"
#: The cookie that holds a browser's secret, which makes the nickname it took its own (HttpOnly: no script reads it).
NICKNAME_COOKIE = "dragonkit_nickname"
#: Days a browser keeps its secret after its last page (each page of the class renews it): a school's term and more.
HOLD_DAYS = 180

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
_TAKEN = N_(
    "“{nickname}” is taken in this class by another browser: pick another nickname or, if it is yours and you "
    "changed laptops, ask your teacher to release it."
)
_RELEASED = N_(
    "Your teacher released the nickname “{nickname}” that this browser held: join again, with it if nobody has "
    "taken it since, or with another."
)
_UNREACHABLE_TITLE = N_("The class's record cannot be reached")
_UNREACHABLE = N_("The server cannot read the class's record just now: try again in a minute.")
_ELSEWHERE_TITLE = N_("This link does not lead to the kit")
_ELSEWHERE = N_("Open the kit from the address your teacher gave you.")


class _Joining(RecordServer, Protocol):
    """What the join page reads of its server, :class:`.app.ClassroomVoila`: the record, and the pace of the
    nicknames taken by address (a guesser of rooms' codes would make a browser of each, :mod:`.door`)."""

    joins: JoinPace


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


def put_in_query(request: httputil.HTTPServerRequest, name: str, value: str) -> None:
    """Make ``name=value`` the one ``name`` of ``request``'s query, its address and its arguments (any other value of
    ``name`` taken out), as if the browser had asked for it (Voilà reads the query, ``request.query``, and the
    address, ``request.full_url()``)."""
    kept = query_without(request.query, name)
    pair = urlencode({name: value})
    request.query = f"{kept}&{pair}" if kept else pair
    request.uri = f"{request.path}?{request.query}"
    for arguments in (request.query_arguments, request.arguments):
        arguments[name] = [value.encode()]


async def ask_nickname(handler: JupyterHandler) -> str | None:
    """The hold of the browser ``handler``'s page may be served to; None where the page has been answered with the
    join page, for want of a nickname held.

    The browser's cookie (:data:`NICKNAME_COOKIE`) names the nickname it holds in the server's class
    (:func:`dragonkit.record.holds.holder`, read in a thread): that nickname is put in the request's query
    (:func:`put_in_query`, in place of any of the address) and the cookie renewed. A browser that holds none gets the
    join page in place of the page it asked for (status 200, in the visitor's language), its field holding the
    address's ``?nickname=`` if any; its form goes to :data:`JOIN_PATH` with ``next`` the page's address (and ``lang``
    its ``?lang=``, if any), and comes back. An address whose nickname is refused
    (:func:`~dragonkit.record.nicknames.query_nickname`) is answered with the join page saying why (status 400),
    ``next`` the address without its ``?nickname=``; a record that cannot be reached, with a page that says so (503).

    Parameters
    ----------
    handler : jupyter_server.base.handlers.JupyterHandler
        A notebook page's handler, before Voilà reads its request; its ``dragonkit_app`` setting keeps a record.

    Returns
    -------
    str or None
        The digest of the browser's hold (:func:`dragonkit.record.holds.digest`): serve the page. None: answered
        (the join page, or the record's 503).
    """
    from sqlalchemy.exc import SQLAlchemyError

    from ..record.holds import digest, holder, released_from

    request = handler.request
    given = query_values("nickname", visitor_environ(request.query))
    try:
        asked = query_nickname(given)
    except NicknameError as refused:
        _answer_with_join_page(handler, given[0][: NICKNAME_LENGTH * 2], refused)
        return None
    app: RecordServer = handler.settings["dragonkit_app"]
    secret = handler.get_cookie(NICKNAME_COOKIE) or ""
    try:
        held = await in_thread(holder, record_engine(app), class_name(), secret) if secret else None
        # a browser whose nickname the teacher released is told so
        released = (
            None if held or not secret else await in_thread(released_from, record_engine(app), class_name(), secret)
        )
    except SQLAlchemyError as error:
        _unreachable(handler, error)
        return None
    if held is None:
        _answer_with_join_page(handler, asked or released or "", released=released)
        return None
    put_in_query(request, "nickname", held)
    _keep(handler, secret)
    return digest(secret)


def _keep(handler: JupyterHandler, secret: str) -> None:
    """Give ``handler``'s browser the cookie of its hold, ``secret``, for :data:`HOLD_DAYS` days from now."""
    handler.set_cookie(
        NICKNAME_COOKIE,
        secret,
        path=handler.base_url,
        expires_days=HOLD_DAYS,
        httponly=True,
        samesite="Lax",
        secure=handler.request.protocol == "https",
    )


def _unreachable(handler: JupyterHandler, error: Exception) -> None:
    """Answer ``handler`` with the page that says the record cannot be reached now (503)."""
    handler.log.warning("dragonkit: the class's record cannot be reached (%s)", type(error).__name__)
    lang = initial_language(visitor_environ(handler.request.query))
    handler.set_status(503)
    handler.set_header("Retry-After", "60")
    handler.set_header("Cache-Control", "no-store")
    handler.finish(message_page(lang, tr(_UNREACHABLE_TITLE, lang), tr(_UNREACHABLE, lang)))


def _answer_with_join_page(
    handler: JupyterHandler, given: str = "", refused: NicknameError | None = None, released: str | None = None
) -> None:
    """Answer ``handler``'s request with the join page (400 with why for a nickname ``refused``; saying that the
    teacher ``released`` the nickname the browser held), its field holding ``given``, whose form comes back to the
    page's address (without a nickname)."""
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
    notice = "" if released is None else tr(_RELEASED, page_lang, nickname=released)
    handler.finish(join_page(page_lang, _xsrf(handler), given, _refusal(refused, page_lang), action, notice))


def _refusal(refused: NicknameError | None, lang: str) -> str:
    """What the join page says of a nickname ``refused``, in ``lang`` (``""``: nothing refused)."""
    if refused is None:
        return ""
    return tr(_REFUSED[refused.problem], lang, character=refused.character)


def _xsrf(handler: JupyterHandler) -> str:
    """The ``_xsrf`` token of ``handler``'s form, the one its cookie holds
    (:attr:`tornado.web.RequestHandler.xsrf_token`)."""
    return handler.xsrf_token.decode()


def join_page(lang: str, xsrf: str, given: str = "", error: str = "", action: str = "", notice: str = "") -> str:
    """The join page in ``lang`` (``templates/join.html``): the nickname's field, what is kept, the button.

    Parameters
    ----------
    lang : str
    xsrf : str
        The form's ``_xsrf`` token (:attr:`tornado.web.RequestHandler.xsrf_token`), sent back in a hidden field.
    given : str
        What the field holds (a nickname refused or taken, shown again; plain text).
    error : str
        Why the nickname given was refused or is taken, in ``lang`` (plain text): the page says it and marks the field
        invalid. ``""``: nothing refused.
    action : str
        Where the form goes (``""``: the page's own address, :data:`JOIN_PATH`'s).
    notice : str
        What happened before, in ``lang`` (plain text; the teacher released the nickname this browser held), said
        above the form. ``""``: nothing.

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
        error=error,
        given=given,
        maxlength=NICKNAME_LENGTH,
        kept=tr(_KEPT, lang),
        button=tr(_BUTTON, lang),
        notice=notice,
    )


class JoinHandler(JupyterHandler):
    """``/dragonkit/join``: the join page (GET, and HEAD as GET), and the nickname sent (POST: held by this browser,
    then back to ``next``). A ``next`` that is not a path of this server is answered with status 400 and a page that
    says so; a nickname refused (:func:`~dragonkit.record.nicknames.nickname`), with the page again saying why (400)
    and nothing set; a nickname another browser holds, with the page saying it is taken (409) and nothing set."""

    def _next(self) -> str | None:
        """The ``?next=`` of the request if it is a path of this server; else None, the 400 page sent."""
        try:
            return same_server(self.get_query_argument("next", ""))
        except ValueError:
            lang = initial_language(visitor_environ(self.request.query))
            self.set_status(400)
            self.finish(message_page(lang, tr(_ELSEWHERE_TITLE, lang), tr(_ELSEWHERE, lang)))
            return None

    def _page(self, given: str = "", error: str = "") -> None:
        self.set_header("Cache-Control", "no-store")
        lang = initial_language(visitor_environ(self.request.query))
        self.finish(join_page(lang, _xsrf(self), given, error))

    @web.authenticated
    def get(self) -> None:
        if self._next() is not None:
            self._page()

    @web.authenticated
    def head(self) -> None:
        self.get()

    @web.authenticated
    async def post(self) -> None:
        from sqlalchemy.exc import SQLAlchemyError

        from ..record.holds import NicknameTakenError

        target = self._next()
        if target is None:
            return
        given = self.get_body_argument("nickname", "")
        lang = initial_language(visitor_environ(self.request.query))
        try:
            taken = nickname(given)
        except NicknameError as refused:
            self.set_status(400)
            self._page(given[: NICKNAME_LENGTH * 2], _refusal(refused, lang))
            return
        app: _Joining = self.settings["dragonkit_app"]
        address = self.request.remote_ip or ""
        if app.joins.pace.over(address):  # a class arrives at once; a script making browsers does not go on
            ahead = app.joins.pace.ahead(address)
            self.set_status(429)
            self.set_header("Retry-After", str(int(ahead) + 1))
            minutes = max(1, round(ahead / 60))
            many = ntr(
                "Too many nicknames were taken from this network in a short time: try again in {minutes} minute, or "
                "ask your teacher.",
                "Too many nicknames were taken from this network in a short time: try again in {minutes} minutes, or "
                "ask your teacher.",
                minutes,
                lang,
                minutes=minutes,
            )
            self._page(taken, many)
            return
        app.joins.pace.charge(address)
        held = self.get_cookie(NICKNAME_COOKIE) or ""
        try:
            secret = await in_thread(_hold, record_engine(app), taken, held)
        except NicknameTakenError:
            app.joins.pace.refund(address)
            self.set_status(409)
            self._page(taken, tr(_TAKEN, lang, nickname=taken))
            return
        except SQLAlchemyError as error:
            app.joins.pace.refund(address)
            _unreachable(self, error)
            return
        if secret == held:  # the nickname this browser held already: nothing taken
            app.joins.pace.refund(address)
        else:
            from ..record.holds import digest

            app.joins.taken(digest(secret), address)
        _keep(self, secret)
        self.redirect(target, status=303)


def _hold(engine: Engine, wanted: str, secret: str) -> str:
    """The secret of this browser's hold of ``wanted`` in the server's class: its own ``secret`` if it holds it
    already; else a new hold's (:func:`dragonkit.record.holds.take`), the nickname it held before, if any, released
    (a browser holds one nickname in a class).

    Raises
    ------
    dragonkit.record.holds.NicknameTakenError
        If another browser holds ``wanted``: nothing is written.
    """
    from ..record.holds import holder, release, take

    the_class = class_name()
    held = holder(engine, the_class, secret) if secret else None
    if held == wanted:
        return secret
    new = take(engine, the_class, wanted)
    if held is not None:
        release(engine, the_class, held)
    return new
