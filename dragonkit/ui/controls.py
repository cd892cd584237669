"""What the play app and the hand trainer share in handling the user's clicks:
errors become a message in the page (never a traceback), the message line is
redrawn in a new language, the second half of a double click is ignored, and
work that may wait for the page's update goes to the kernel's event loop."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from datetime import datetime
from html import escape
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from ..engine import IllegalActionError
from ..rules import Message

__all__ = [
    "DOUBLE_CLICK_SECONDS",
    "MessageLine",
    "click_time",
    "guarded",
    "is_double_click",
    "message_html",
    "running_loop",
]

log = logging.getLogger("dragonkit.ui")

#: A click made this soon after the previous one on the same button (by the browser's clock) is the second half of a
#: double click, and ignored (seconds).
DOUBLE_CLICK_SECONDS = 0.35


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running this code (Jupyter's, Voilà's), or None (a plain script or test)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def click_time() -> float:
    """When the click being handled was made, in seconds since the epoch: the time the browser wrote on its message
    (the ``date`` of the Jupyter message's header, set by the front end as it sends the click), so that a kernel
    slow to handle two clicks does not bring them closer; this process's clock outside a widget's message (a script,
    a test, a notebook's cell)."""
    from ipykernel.kernelbase import Kernel  # loaded with ipywidgets

    parent = Kernel.instance().get_parent() if Kernel.initialized() else None
    if isinstance(parent, dict) and parent.get("msg_type") == "comm_msg":
        date = parent.get("header", {}).get("date")  # a datetime: jupyter_client reads the header's dates
        if isinstance(date, datetime):
            return date.timestamp()
    return time.time()


def is_double_click(last: tuple[object, float], key: object, when: float) -> bool:
    """Whether a click on ``key`` made at ``when`` is the second half of a double click: the same button, clicked
    less than :data:`DOUBLE_CLICK_SECONDS` before, by the browser's clock (:func:`click_time`), however long the
    kernel took to handle the first click.

    Parameters
    ----------
    last : tuple
        ``(key, when)`` of the last click handled, ``(None, 0.0)`` for none.
    key : hashable
        What was clicked (a button's action).
    when : float
        :func:`click_time` of this click (seconds).
    """
    last_key, last_time = last
    return key == last_key and when - last_time < DOUBLE_CLICK_SECONDS


def message_html(text: Message | str, level: str = "info") -> str:
    """A message as HTML (``dk-message dk-<level>``), a :class:`~dragonkit.rules.Message`
    in the current language, its first letter a capital; the empty string for no message.

    Parameters
    ----------
    text : Message or str
    level : {"info", "success", "warning", "danger"}
        The colour (see :data:`dragonkit.style.CSS`).
    """
    if isinstance(text, Message):
        text = text.describe()
    text = text[:1].upper() + text[1:]  # an error's text (lower case, as Python writes them) shown as a sentence
    return f'<div class="dk-message dk-{level}">{escape(text, quote=False)}</div>' if text else ""


class MessageLine:
    """Mixin of an app with a message line: :meth:`_say` shows a message and keeps it, so
    that :meth:`_show_message` draws it again in a new language.  A subclass puts the
    HTML where the user is looking, in :meth:`_put_message`."""

    _message: tuple[Message | str, str] = ("", "info")

    def _say(self, text: Message | str, level: str = "info") -> None:
        """Show ``text`` (the empty string clears the line) at ``level`` (see :func:`message_html`)."""
        self._message = (text, level)
        self._show_message()

    def _show_message(self) -> None:
        self._put_message(message_html(*self._message))

    def _put_message(self, html: str) -> None:
        raise NotImplementedError


class _Says(Protocol):
    """What :func:`guarded` needs of a callback's object: a way to show a message (:meth:`MessageLine._say`)."""

    def _say(self, text: Message | str, level: str = ...) -> None: ...


_App = TypeVar("_App", bound=_Says)
_P = ParamSpec("_P")
_R = TypeVar("_R")


def guarded(method: Callable[Concatenate[_App, _P], _R]) -> Callable[Concatenate[_App, _P], _R | None]:
    """Decorate a callback of a :class:`MessageLine` (or of a part of an app that says its messages through the
    app's) so that any error ends up as a message, never as a traceback: a refused action or value as a warning, a
    bug as an apology (its traceback goes to the ``dragonkit.ui`` log)."""

    @functools.wraps(method)
    def wrapper(self: _App, /, *args: _P.args, **kwargs: _P.kwargs) -> _R | None:
        try:
            return method(self, *args, **kwargs)
        except IllegalActionError as exc:
            self._say(Message("Not allowed: {reason}.", reason=Message.of(exc)), "warning")
        except ValueError as exc:
            self._say(Message("{reason}.", reason=Message.of(exc)), "warning")
        except Exception as exc:  # a bug must not freeze the page or show a traceback
            log.exception("error in %s", type(self).__name__)
            self._say(
                Message(
                    "Something went wrong ({error}). The game is unchanged: try again, or start a new game.",
                    error=type(exc).__name__,
                ),
                "danger",
            )
        return None

    return wrapper
