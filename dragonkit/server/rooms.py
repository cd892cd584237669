"""The rooms' door: a room's code, checked by the server before any kernel starts, and wrong codes slowed.

``/dragonkit/room`` (:data:`ROOM_PATH`) is a short page in the visitor's language with one field, the room's code;
sent (``?code=K7MQX``, as typed: lower case, spaces and dashes are fine), a code of a room of the class's record sends
the browser to the play app in that room (``voila/render/play.ipynb?room=K7MQX``), whose kernel seats the student by
their nickname (:mod:`dragonkit.ui.rooms`). The play app's page asked for with ``?room=`` goes through the same door
first (:func:`room_refused`): a code that no room has is answered with the page and status 404, and no kernel starts.

The door is for the class's students: a browser that holds no nickname of the class gets the join page in its place
(:func:`.join.ask_nickname`), and comes back to the door once it has joined. The server's :class:`~.door.Door` of
room codes counts wrong codes by the browser's hold: a guesser's browser is answered later and later (the first
:data:`~.door.FREE_WRONG` at once) and refused (429, before its code is read) while :data:`~.door.CROWD` of its answers
wait. It paces the codes it reads from one address, whatever their browsers (:mod:`.door`): while an address is over
its pace, each browser behind it is read once more and, if that code was wrong, refused before its codes are read
while the flood lasts. A right code is never slowed, and a classmate of a guesser behind the same address (a school's
network) is let in at once with it: the class keeps joining while one of it guesses.
"""

from __future__ import annotations

from typing import Protocol
from urllib.parse import urlencode

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import ensure_async, url_path_join
from tornado import web

from ..address import query_values
from ..i18n import N_, initial_language, requested_language, tr
from .door import Door
from .join import ask_nickname
from .pages import message_page, render, visitor_environ
from .record import RecordServer, in_thread, record_engine

__all__ = ["ROOM_PATH", "RoomHandler", "room_refused"]

#: The door's path, under the server's base URL.
ROOM_PATH = "dragonkit/room"
#: The most characters of a code the door's field holds (a code typed with spaces and dashes).
_CODE_FIELD = 12

_TITLE = N_("Join a room")
_LABEL = N_("Room code")
_RULE = N_("Ask the player who opened the room for its code: 5 letters and digits, without 0, O, 1 or I.")
_BUTTON = N_("Join the room")
_UNKNOWN = N_("No room has the code {code}. Check it with the player who opened the room.")
_CROWDED = N_("Too many wrong codes from this browser and its network: try again in {seconds} seconds.")
_NO_ROOMS = N_(
    "Rooms need the class's record: the teacher serves a class (dragonkit serve --class NAME) that keeps it."
)


def door_page(lang: str, code: str = "", unknown: bool = False, no_rooms: bool = False) -> str:
    """The door's page in ``lang`` (``templates/door.html``): the code's field (``code`` in it, plain text, its first
    characters the field holds), an alert for an ``unknown`` code, or the sentence that rooms need a record.

    Returns
    -------
    str
        A whole HTML document.
    """
    if no_rooms:
        return message_page(lang, tr(_TITLE, lang), tr(_NO_ROOMS, lang))
    shown = code[:_CODE_FIELD]
    return render(
        "door.html",
        lang,
        tr(_TITLE, lang),
        label=tr(_LABEL, lang),
        rule=tr(_RULE, lang),
        error=tr(_UNKNOWN, lang, code=shown) if unknown else "",
        code=shown,
        maxlength=_CODE_FIELD,
        button=tr(_BUTTON, lang),
    )


class _Server(RecordServer, Protocol):
    """What the door reads and keeps on its server, :class:`.app.ClassroomVoila` (described here: :mod:`.app` imports
    this module, which may not import it back)."""

    door: Door


def _known(app: _Server, code: str) -> str | None:
    """The room's code, normalised, if a room of the server's record has ``code``; else None (in a thread: it reads
    the database)."""
    from ..record.rooms import RoomNotFoundError, read

    try:
        return read(record_engine(app), code).code
    except RoomNotFoundError:
        return None


async def close_idle_rooms(app: _Server, idle: float) -> int:
    """Close the rooms of the server's record waiting for their players with nothing changed and no page of theirs
    seen for ``idle`` seconds (:func:`dragonkit.record.rooms.close_abandoned`), in a thread: a page that opened rooms
    and went leaves none waiting long. Without a record there is nothing to close: 0.

    Returns
    -------
    int
        The rooms closed.

    Raises
    ------
    sqlalchemy.exc.SQLAlchemyError
        If the record cannot be reached now.
    """
    if app.record is None:
        return 0
    from ..record.rooms import RoomStatus, close_abandoned

    return await in_thread(close_abandoned, record_engine(app), idle, (RoomStatus.WAITING,))


async def room_refused(handler: JupyterHandler, code: str, hold: str) -> bool:
    """Whether ``handler``'s request for the room ``code``, from the browser of ``hold`` (the digest of its hold of a
    nickname, :func:`.join.ask_nickname`), has been answered with a refusal: an unknown code's page (404, after the
    door's wait for that browser) or, before the code is read, 429 (too many of the browser's answers wait, or its
    address is flooded and its code read since was wrong: :meth:`.door.Door.admit`). A known code is not delayed.
    Without a record there is nothing to check: False."""
    app: _Server = handler.settings["dragonkit_app"]
    if app.record is None:
        return False
    door = app.door
    address = handler.request.remote_ip or ""
    lang = initial_language(visitor_environ(handler.request.query))
    ticket = door.admit(hold, address)  # before the code is read: a refusal only of wrong codes would be a quick guess
    if ticket is None:
        seconds = door.retry_after(hold)
        door.refuse(handler, message_page(lang, tr(_TITLE, lang), tr(_CROWDED, lang, seconds=seconds)), seconds)
        return True
    if await in_thread(_known, app, code) is not None:
        door.right(ticket)
        return False
    handler.set_header("Cache-Control", "no-store")
    await door.wait_wrong(hold)
    handler.set_status(404)
    handler.finish(door_page(lang, code, unknown=True))
    return True


class RoomHandler(JupyterHandler):
    """``/dragonkit/room``: the door's page (GET, and HEAD as GET); with ``?code=``, the play app in that room (a
    redirection), or the refusal of :func:`room_refused`."""

    @web.authenticated
    async def get(self) -> None:
        app: _Server = self.settings["dragonkit_app"]
        lang = initial_language(visitor_environ(self.request.query))
        self.set_header("Cache-Control", "no-store")
        if app.record is None:
            self.set_status(404)
            self.finish(door_page(lang, no_rooms=True))
            return
        given = query_values("code", visitor_environ(self.request.query))
        code = given[-1].strip() if given else ""
        if not code:
            self.finish(door_page(lang))
            return
        hold = await ask_nickname(self)  # a browser of the class's students: else the join page, back here once joined
        if hold is None or await room_refused(self, code, hold):
            return
        from ..record.rooms import normal_code

        asked = {"room": normal_code(code)}
        chosen = requested_language(visitor_environ(self.request.query))
        if chosen is not None:
            asked["lang"] = chosen
        self.redirect(f"{url_path_join(self.base_url, 'voila/render/play.ipynb')}?{urlencode(asked)}")

    @web.authenticated
    async def head(self) -> None:
        await ensure_async(self.get())
