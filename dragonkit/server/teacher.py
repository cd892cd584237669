"""The teacher's dashboard, behind the teacher's key: a page the students' token does not open.

``dragonkit serve`` makes a key at each start (or takes ``--teacher-key``) and prints the dashboard's address with it,
``…/voila/render/dashboard.ipynb?key=KEY``. The key reaches the server process alone, through a pipe
(:func:`dragonkit.cli.start_server`) whose descriptor's number the environment variable :data:`TEACHER_KEY_FD`
gives: the server reads it once, at its start, and closes it (:func:`take_key`), before it starts a kernel. A command
line would show the key to anyone on the machine (``ps``), and an environment stays readable in
``/proc/<pid>/environ`` after the process removed a variable from it; a pipe read is empty.

A request for a notebook named ``dashboard.ipynb`` (:func:`is_dashboard`, in any folder and letter case) is admitted
(:func:`admit_teacher`) with the right key or with the cookie the key left: ``?key=KEY`` sets an HttpOnly cookie and
sends the browser to the same address without the key (so that the key leaves the address bar before the page is
shown on a projector); the cookie alone admits later, while the server runs and for 12 hours at most (a cookie of an
earlier run, or of yesterday, does not: :class:`TeacherKey`). Anything else (no key, a wrong key, the students' token
alone) gets :func:`teacher_page` with status 403, and no kernel is started.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import time
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from ..address import query_without
from ..i18n import N_, initial_language, tr
from .door import Door
from .pages import message_page

if TYPE_CHECKING:  # the command line reads the key's rules without importing the Jupyter server
    from jupyter_server.base.handlers import JupyterHandler

__all__ = [
    "DASHBOARD",
    "KEY_COOKIE",
    "KEY_LENGTH",
    "TEACHER_KEY_FD",
    "TEACHER_KEY_VARIABLE",
    "TeacherKey",
    "admit_teacher",
    "checked_key",
    "is_dashboard",
    "new_key",
    "take_key",
    "teacher_page",
    "write_key",
]

#: The environment variable of ``dragonkit serve`` that may give the teacher's key (as ``--teacher-key`` does).
TEACHER_KEY_VARIABLE = "DRAGONKIT_TEACHER_KEY"
#: The environment variable that gives the server process the number of the file descriptor it reads the key from.
TEACHER_KEY_FD = "DRAGONKIT_TEACHER_KEY_FD"
#: The teacher's page: a notebook of this name, in any folder.
DASHBOARD = "dashboard.ipynb"
#: The cookie a teacher's browser keeps once the key opened the dashboard, and for how long (days).
KEY_COOKIE = "dragonkit_teacher"
COOKIE_DAYS = 0.5
#: The shortest key a teacher may give (characters): 16 of 64 kinds, 96 bits.
KEY_LENGTH = 16
_KEY = re.compile(rf"[A-Za-z0-9_-]{{{KEY_LENGTH},128}}")

_TITLE = N_("This page is the teacher's")
_TEXT = N_(
    "The dashboard shows what the whole class did, so only the teacher opens it: with the address that "
    "dragonkit serve printed when it started, which ends in ?key= and the teacher's key."
)


def new_key() -> str:
    """A new teacher's key: 22 random letters, digits, ``-`` and ``_`` (128 bits)."""
    return secrets.token_urlsafe(16)


def checked_key(key: str) -> str:
    """``key`` if it may be a teacher's key.

    Raises
    ------
    ValueError
        If it is not 16 to 128 letters, digits, ``-`` or ``_``.
    """
    if not _KEY.fullmatch(key):
        raise ValueError(f"the teacher's key must be {KEY_LENGTH} to 128 letters, digits, '-' or '_'")
    return key


def take_key(environ: MutableMapping[str, str]) -> str | None:
    """The key ``dragonkit serve`` wrote into the pipe whose descriptor :data:`TEACHER_KEY_FD` gives, read to its end
    and closed, the variable taken out of ``environ``; None where the variable is unset (a key of the server's own
    is then made: the log never writes it, so the dashboard stays closed).

    Raises
    ------
    ValueError
        If the variable is not a descriptor's number, or the pipe holds something that is not a key
        (:func:`checked_key`).
    """
    number = environ.pop(TEACHER_KEY_FD, "").strip()
    if not number:
        return None
    if not number.isdigit():
        raise ValueError(f"${TEACHER_KEY_FD} must be a file descriptor's number, not {number!r}")
    with os.fdopen(int(number), "rb") as pipe:
        return checked_key(pipe.read().decode("ascii", errors="replace").strip())


def write_key(key: str) -> int:
    """A pipe holding ``key`` (its writing end closed): the descriptor of its reading end, for the server process to
    inherit and :func:`take_key` to read. The caller closes it once the server has started.

    Raises
    ------
    ValueError
        If ``key`` is not a key (:func:`checked_key`).
    """
    read, write = os.pipe()
    try:
        os.write(write, checked_key(key).encode())  # far shorter than a pipe's buffer: never blocks
    finally:
        os.close(write)
    return read


def is_dashboard(notebook: str) -> bool:
    """Whether ``notebook`` (a path as the page's address gives it) is the teacher's page."""
    return PurePosixPath(notebook).name.lower() == DASHBOARD


@dataclass(frozen=True, repr=False)
class TeacherKey:
    """The teacher's key of a server, and the cookies it leaves in the teacher's browser.

    A cookie is the time it was made and a digest (HMAC-SHA256) of that time by the key and by a secret of this
    server's run: the key itself never sits in a cookie, and a cookie opens the dashboard while this server runs and
    for :data:`COOKIE_DAYS` at most, whatever the browser does with it (a cookie of an earlier run, or kept too long,
    opens nothing).

    Parameters
    ----------
    key : str
        The key (:func:`checked_key`); never printed by ``repr``.

    Raises
    ------
    ValueError
        If ``key`` is not a key.
    """

    key: str
    run: bytes = field(default_factory=lambda: secrets.token_bytes(16), compare=False)

    def __post_init__(self) -> None:
        checked_key(self.key)

    def __repr__(self) -> str:
        return "TeacherKey(…)"

    def _digest(self, made: int) -> str:
        return hmac.new(self.key.encode(), b"dragonkit teacher %d " % made + self.run, hashlib.sha256).hexdigest()

    def cookie(self, now: float | None = None) -> str:
        """A new cookie's value, made at ``now`` (seconds since the epoch; default: now)."""
        made = int(time.time() if now is None else now)
        return f"{made}.{self._digest(made)}"

    def opens(self, given: str | None) -> bool:
        """Whether ``given`` is the key (compared in constant time)."""
        return given is not None and hmac.compare_digest(given.encode(), self.key.encode())

    def knows(self, cookie: str | None, now: float | None = None) -> bool:
        """Whether ``cookie`` is one this key left in this server's run, made at most :data:`COOKIE_DAYS` before
        ``now`` (its digest compared in constant time)."""
        made, _, digest = (cookie or "").partition(".")
        if not made.isdigit():
            return False
        age = (time.time() if now is None else now) - int(made)
        if not -60 <= age <= COOKIE_DAYS * 86_400:
            return False
        return hmac.compare_digest(digest.encode(), self._digest(int(made)).encode())


def teacher_page(environ: Mapping[str, str]) -> str:
    """The page a visitor gets instead of the dashboard, in their language: the page is the teacher's, and how a
    teacher opens it.

    Parameters
    ----------
    environ : mapping of str to str
        ``QUERY_STRING`` and ``DRAGONKIT_LANG``, as :func:`dragonkit.i18n.initial_language` reads them.

    Returns
    -------
    str
        A whole HTML document.
    """
    lang = initial_language(environ)
    return message_page(lang, tr(_TITLE, lang), tr(_TEXT, lang))


async def admit_teacher(handler: JupyterHandler, key: TeacherKey, environ: Mapping[str, str], door: Door) -> bool:
    """Whether ``handler``'s request may have the dashboard now; if not, it has been answered.

    With the right ``?key=`` the teacher's cookie is set and the browser sent to the same address without the key
    (a redirection: answered); with the teacher's cookie and no key the page may be served; anything else is answered
    with :func:`teacher_page` and status 403 (its headers alone, for a HEAD request). A wrong key is slowed as a wrong
    room's code is (``door``, :class:`~.door.Door`: the first few from an address answered at once, then later and
    later, and refused with 429 while :data:`~.door.CROWD` answers to that address wait); the right key never is (a
    key of 16 characters or more is not found by guessing; what the door spares is the server and its log).

    Parameters
    ----------
    handler : jupyter_server.base.handlers.JupyterHandler
        The page's handler, before it starts a kernel.
    key : TeacherKey
        The server's.
    environ : mapping of str to str
        What decides the visitor's language (:func:`teacher_page`).
    door : Door
        The server's door of teacher's keys.

    Returns
    -------
    bool
        True: serve the page; False: answered already.
    """
    request = handler.request
    given = handler.get_query_argument("key", None)
    if given is None and key.knows(handler.get_cookie(KEY_COOKIE)):
        return True
    if given is not None and key.opens(given):
        base = handler.settings.get("base_url", "/")
        handler.set_cookie(
            KEY_COOKIE,
            key.cookie(),
            path=base,
            expires_days=COOKIE_DAYS,
            httponly=True,
            samesite="Lax",
            secure=handler.request.protocol == "https",
        )
        kept = query_without(request.query, "key")
        handler.redirect(request.path + (f"?{kept}" if kept else ""))
        return False
    address = request.remote_ip or ""
    if given is not None:  # a wrong key: slowed, or refused at once while the address's answers crowd the door
        if door.crowded(address):
            door.refuse(handler, teacher_page(environ))
            return False
        await door.wait_wrong(address)
    handler.log.warning("dragonkit: the teacher's page refused (%s)", "a wrong key" if given is not None else "no key")
    handler.set_status(403)
    handler.set_header("Cache-Control", "no-store")
    handler.finish(teacher_page(environ))
    return False
