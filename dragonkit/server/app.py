"""Voilà for a class: the kernel budget, kernels that end with their page, no request to outside, the teacher's
dashboard behind the teacher's key (:mod:`.teacher`) and, where the class's record is kept, a nickname asked once of
each student (:mod:`.join`).

``python -m dragonkit.server`` starts :class:`ClassroomVoila` with Voilà's own command line plus
``--ClassroomVoila.max_kernels`` and ``--ClassroomVoila.max_kernels_per_client``.
"""

from __future__ import annotations

import compileall
import functools
import json
import logging
import os
import posixpath
import re
import ssl
from collections.abc import AsyncIterator
from html import escape, unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import fontawesomefree
import jinja2
import jinja2.bccache
import tornado.ioloop
import tornado.web
from jupyter_server._tz import utcnow
from jupyter_server.log import log_request
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import ensure_async, url_path_join
from traitlets import Bool, Integer, Unicode
from voila import notebook_renderer
from voila.app import Voila
from voila.exporter import VoilaExporter
from voila.request_info_handler import RequestInfoSocketHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

import dragonkit

from ..address import query_values
from ..analysis.win.model import prepare_in_background
from ..i18n import initial_language, requested_language, tr
from ..i18n.notebooks import translation_path
from ..record.room_settings import CLOSING_EVERY, WAITING_IDLE
from ..record.where import record_url
from .budget import KernelBudget, default_max_kernels
from .door import JOINS_AT_ONCE, PACE, Door, JoinPace
from .join import JOIN_PATH, JoinHandler, ask_nickname
from .kernels import ClassroomKernelManager
from .pages import STATUS, refusal_page, visitor_environ, with_error_page
from .record import in_thread, record_engine
from .request_info import RequestInfoSocket
from .rooms import ROOM_PATH, RoomHandler, close_idle_rooms, room_refused
from .teacher import TeacherKey, admit_teacher, is_dashboard, new_key, take_key

if TYPE_CHECKING:
    from sqlalchemy import Engine

__all__ = [
    "SCRUBBED",
    "ClassroomVoila",
    "SecretsHidden",
    "hide_secrets",
    "in_language",
    "main",
    "notebook_language",
    "page_head",
    "without_secrets",
]

#: The parameters of an address the server's log writes as ``[secret]``: any whose name holds one of these (those
#: jupyter_server's access log hides, the students' token and the teacher's key among them), a student's nickname and
#: a room's code.
#: ``next``: the join page's way back, an address whose own query holds the token and a room's code, encoded.
SCRUBBED = ("token", "auth", "key", "code", "state", "xsrf", "nickname", "room", "next")
_SECRET = re.compile(rf"\b([\w-]*(?:{'|'.join(SCRUBBED)})[\w-]*)=[^&\s'\"()<>]*")


def without_secrets(text: str) -> str:
    """``text`` with the value of every parameter of an address that may be a secret (:data:`SCRUBBED`) written
    ``[secret]``.

    >>> without_secrets("GET /voila/render/play.ipynb?token=abc&lang=it&nickname=Ada (127.0.0.1)")
    'GET /voila/render/play.ipynb?token=[secret]&lang=it&nickname=[secret] (127.0.0.1)'
    """
    return _SECRET.sub(r"\1=[secret]", text)


class SecretsHidden(logging.Filter):
    """A filter of the server's log handlers: each line is written :func:`without_secrets` (the access log's lines,
    and Tornado's own, which give an uncaught exception's request whole)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = without_secrets(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


def hide_secrets(*loggers: logging.Logger) -> None:
    """Write every line of the process's log, through ``loggers``' handlers and the root logger's, without secrets
    (:class:`SecretsHidden`). Tornado's own lines, which went to :data:`logging.lastResort` (standard error, the
    message alone), go to a handler of the root logger that writes them the same way."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler())
    hidden = SecretsHidden()
    for logger in (root, *loggers):
        for handler in logger.handlers:
            handler.addFilter(hidden)


#: Where Voilà's templates link Font Awesome (versions 5 and 4) on a public CDN.
FONT_AWESOME_CDN = re.compile(
    r"https://cdn\.jsdelivr\.net/npm/(?:@fortawesome/fontawesome-free@\^5|font-awesome@4\.5\.0)/css/"
    r"(all|v4-shims|font-awesome)\.min\.css"
)
#: Font Awesome Free as the ``fontawesomefree`` package ships it: ``css/`` and ``webfonts/``.
FONT_AWESOME_DIR = Path(fontawesomefree.__file__).parent / "static" / "fontawesomefree"
FONT_AWESOME_URL = "dragonkit/fontawesome/"
_KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
#: The headers Voilà's page handler sets on a page (``VoilaHandler.get_generator``), which a HEAD request gets too.
PAGE_HEADERS = {
    "Content-Type": "text/html",
    "Cache-Control": "no-cache, no-store, must-revalidate",
    "Pragma": "no-cache",
    "Expires": "0",
}
#: The most of a page held back while its title is incomplete (Voilà's head is about 10 kB before it).
_HEAD_LIMIT = 200_000
_HTML_LANG = re.compile(r'<html lang="[^"]*"')
#: A rule of the server's routes, as :meth:`tornado.web.Application.add_handlers` takes it: the path's pattern, the
#: handler's class and, for some, the keyword arguments of its ``initialize``.
HandlerRule = (
    tuple[str, type[tornado.web.RequestHandler]] | tuple[str, type[tornado.web.RequestHandler], dict[str, Any]]
)


def notebook_language(path: Path) -> str | None:
    """The language a notebook says it is written in (its metadata's ``language``: a lesson's, ``en`` or the
    language :mod:`dragonkit.i18n.notebooks` wrote it in), or None: a notebook that speaks its visitor's language
    (the apps, which switch language in place), or no notebook at all."""
    try:
        modified = path.stat().st_mtime_ns
    except OSError:
        return None
    return _written_in(str(path), modified)


@functools.lru_cache(maxsize=64)
def _written_in(path: str, modified: int) -> str | None:
    try:
        language = json.loads(Path(path).read_text(encoding="utf-8")).get("metadata", {}).get("language")
    except (OSError, ValueError, AttributeError):
        return None
    return language if isinstance(language, str) else None


def page_head(html: str, lang: str, translate_title: bool) -> str:
    """The head of a page (Voilà's first chunk of it) in ``lang``: ``<html lang>`` says it, and the ``<title>`` (the
    notebook's metadata ``title``, an English msgid for the apps) is translated into it if ``translate_title``.

    Parameters
    ----------
    html : str
        Some HTML; only its ``<html lang="...">`` and its ``<title>`` change.
    lang : str
        The page's language.
    translate_title : bool
        Whether the title is a msgid to translate (a page that speaks its visitor's language), not a title written
        in ``lang`` already (a lesson's).
    """
    html = _HTML_LANG.sub(f'<html lang="{escape(lang, quote=True)}"', html, count=1)
    if translate_title:
        html = _TITLE.sub(lambda m: f"<title>{escape(tr(unescape(m[1].strip()), lang), quote=False)}</title>", html, 1)
    return html


async def in_language(chunks: AsyncIterator[str], lang: str, translate_title: bool) -> AsyncIterator[str]:
    """A page's chunks as Voilà renders them, its head in ``lang`` (:func:`page_head`).

    The template's pieces come one by one (``<title>``, the title, ``</title>``): the first chunks are held back until
    the title is whole, then given as one; the rest pass as they come.
    """
    held: str | None = ""
    async for html in chunks:
        if held is None:
            yield html
            continue
        held += html
        if "</title>" in held or len(held) >= _HEAD_LIMIT:
            yield page_head(held, lang, translate_title)
            held = None
    if held:  # a page without a title
        yield page_head(held, lang, translate_title)


class LocalAssets(tornado.web.RequestHandler):
    """A page handler whose pages link Font Awesome on this server instead of the CDN (its
    ``all``/``v4-shims`` stylesheets; version 4's name goes to version 6's ``all`` with its shims)."""

    def write(self, chunk: str | bytes | dict[str, Any]) -> None:
        if isinstance(chunk, str) and "cdn.jsdelivr.net" in chunk:
            base = self.settings.get("base_url", "/")
            chunk = FONT_AWESOME_CDN.sub(
                lambda m: f"{base}{FONT_AWESOME_URL}css/{'all' if m[1] == 'font-awesome' else m[1]}.min.css", chunk
            )
        super().write(chunk)


class CompiledTemplates(jinja2.BytecodeCache):
    """Jinja's compiled templates, kept in memory for the server's life.

    Voilà renders each page with a new exporter, hence a new Jinja environment that parses and compiles
    the same dozen templates again (about 0.1 CPU-second a page); the environments the server creates
    share this cache instead (a template whose file changes has a new checksum, so it is compiled anew).
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if (code := self._code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


class CachingVoilaExporter(VoilaExporter):
    """Voilà's exporter with its Jinja environment on the server's :class:`CompiledTemplates`."""

    templates = CompiledTemplates()

    def _create_environment(self) -> jinja2.Environment:
        environment: jinja2.Environment = super()._create_environment()  # Voilà's, untyped
        environment.bytecode_cache = self.templates
        return environment


class ClassroomVoilaHandler(LocalAssets, TornadoVoilaHandler):
    """Voilà's page handler under the kernel budget, with the ``_xsrf`` cookie that lets the page shut its kernel down
    when it is closed or reloaded, and the page's title and ``<html lang>`` in its language (:func:`in_language`)."""

    _hold: str | None = None  # the digest of the nickname's hold of the page's browser (a class's record only)

    def _environ(self) -> dict[str, str]:
        """What decides a visitor's language (:func:`dragonkit.i18n.initial_language`): the page's ``?lang=``, else
        the server's language."""
        return visitor_environ(self.request.query)

    def _page_language(self, path: str | None) -> tuple[str, bool]:
        """The language of the page of ``path``, and whether its title is to be translated into it: a lesson's own
        language (its title is written in it), else the visitor's (an app's title is an English msgid)."""
        notebook = self.notebook_path or path
        written = notebook_language(Path(self.contents_manager.root_dir) / notebook) if notebook else None
        return (written, False) if written else (initial_language(self._environ()), True)

    def _in_asked_language(self, path: str | None) -> bool:
        """Whether the page has been answered with a redirection to the same page written in the language its address
        asks for (``?lang=``): a lesson or the glossary asked in another language than the one it is written in, where
        the kit has it in that one. The kernel is never started: a lesson's page would send the browser on itself
        (:meth:`dragonkit.teach.notes.LessonPage.redirect_html`), but only after its kernel had started running the
        lesson, which its page then shut down while that page's websocket was opening (a traceback in the log)."""
        notebook = "" if self.notebook_path else path or ""  # Voilà serving one notebook has no other to send to
        root = Path(self.contents_manager.root_dir)
        written, asked = notebook_language(root / notebook) if notebook else None, requested_language(self._environ())
        if written is None or asked is None or asked == written:
            return False
        target = posixpath.normpath(
            posixpath.join(posixpath.dirname(notebook), translation_path(posixpath.basename(notebook), written, asked))
        )
        if notebook_language(root / target) != asked:
            return False
        query = f"?{self.request.query}" if self.request.query else ""
        self.redirect(url_path_join(self.base_url, "voila/render", target) + query)
        return True

    async def _admitted(self, app: ClassroomVoila, path: str | None) -> bool:
        """Whether the page of ``path`` may be served to this visitor; if not, they have been answered. The teacher's
        dashboard needs the teacher's key (:func:`.teacher.admit_teacher`: else a 403 page); where the server keeps
        a record, another page needs a nickname this browser holds (:func:`.join.ask_nickname`: else the join page in
        its place)."""
        if is_dashboard(self.notebook_path or path or ""):
            return await admit_teacher(self, app.teacher_key, self._environ(), app.key_door)
        if app.record is None:
            return True
        self._hold = await ask_nickname(self)  # its kernel ends if the teacher releases it
        return self._hold is not None

    async def _room_refused(self) -> bool:
        """Whether a page asked for with ``?room=`` has been refused at the rooms' door (:func:`.rooms.room_refused`:
        a code no room has, before any kernel starts), counted by the browser's hold (the dashboard's, which holds
        none, by its address)."""
        asked = query_values("room", visitor_environ(self.request.query))
        return bool(asked) and await room_refused(self, asked[-1], self._hold or self.request.remote_ip or "")

    def _refused(self, app: ClassroomVoila, client: str) -> bool:
        """Whether the kernel budget refuses ``client`` a page; if so, the refusal page is sent (its headers alone,
        for a HEAD request)."""
        reason = app.budget.refusal(*app.kernels(client))
        if reason is None:
            return False
        self.log.warning("dragonkit: %s refused a page (%s)", client, reason)
        self.set_status(STATUS[reason])
        self.set_header("Retry-After", str(app.retry_after))
        self.set_header("Cache-Control", "no-store")
        self.finish(refusal_page(reason, self._environ(), app.retry_after))  # tornado sends no body to a HEAD
        return True

    @tornado.web.authenticated
    async def head(self, path: str | None = None) -> None:
        """What a GET of the page answers, without its body and without what the body costs: no kernel is started
        and no cell run (a link checker, a monitor or ``curl -I`` asking whether the page is there must not take a
        student's place). The status is GET's: 200, the teacher's page's 403 for the dashboard without the key, a
        join page for want of a nickname, a refusal's 503 or 429 when the budget is spent, 404 for no notebook, a
        redirection for a file that is not one or to the lesson in the language asked for; the headers are GET's, the
        ``_xsrf`` cookie included, with no length (GET's page is streamed)."""
        app: ClassroomVoila = self.settings["dragonkit_app"]
        if self._in_asked_language(path) or not await self._admitted(app, path):
            return
        if self._refused(app, self.request.remote_ip or "") or await self._room_refused():
            return
        notebook = self.notebook_path or path or ""
        if self.notebook_path and path:  # GET redirects too (Voilà serving one notebook)
            self.redirect_to_file(path)
            return
        extensions = [".ipynb", *(e.lower() for e in self.voila_configuration.extension_language_mapping)]
        if Path(notebook).suffix.lower() not in extensions:
            self.redirect_to_file(path or "")
            return
        if not await ensure_async(self.contents_manager.file_exists(notebook)):
            raise tornado.web.HTTPError(404)
        self.xsrf_token  # noqa: B018 -- GET sets the _xsrf cookie with the page
        for name, value in PAGE_HEADERS.items():
            self.set_header(name, value)
        self.flush()  # the headers alone, as GET's streamed page starts: no Content-Length, no Etag

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        app: ClassroomVoila = self.settings["dragonkit_app"]
        client = self.request.remote_ip or ""
        if self._in_asked_language(path) or not await self._admitted(app, path):
            return
        if self._refused(app, client) or await self._room_refused():
            return
        self.xsrf_token  # noqa: B018 -- sets the _xsrf cookie that Voilà's unload beacon sends back
        lang, translate_title = self._page_language(path)
        kernel_id = None
        app.starting.append(client)  # counted in the budget until its kernel is known
        try:
            head = ""  # the page so far, until its kernel id (which a chunk's end may cut) is found
            async for html in in_language(self.get_generator(path=path), lang, translate_title):
                if kernel_id is None:
                    head += html
                    if found := _KERNEL_ID.search(head):
                        kernel_id = found[1]
                        app.served(kernel_id, client, self._hold)
                        app.starting.remove(client)
                self.write(html)
                self.flush()
        finally:
            if kernel_id is None:
                app.starting.remove(client)
            else:
                app.touch(kernel_id)  # the page is complete: its browser connects now


class ClassroomTreeHandler(LocalAssets, TornadoVoilaTreeHandler):
    """Voilà's list of notebooks, with Font Awesome from this server; HEAD answers as GET does (tornado sends no
    body; the list costs no kernel)."""

    async def head(self, path: str = "") -> None:
        await ensure_async(self.get(path))


class ClassroomVoila(Voila):
    """Voilà with a kernel budget, the ``_xsrf`` cookie its pages need, and Font Awesome served locally.

    Attributes
    ----------
    max_kernels : int
        Kernels on the machine, the pool's included (config; 0, the default: what the memory holds,
        :func:`~.budget.default_max_kernels`).
    max_kernels_per_client : int
        Kernels of one visitor's address (config; 0: no limit).
    codes_a_minute : int
        Rooms' codes read a minute from one address, in the long run (config; :data:`.door.PACE`).
    joins_at_once : int
        Nicknames the join page takes from one address at once, before one a minute (config;
        :data:`.door.JOINS_AT_ONCE`: a class behind a school's address).
    retry_after : int
        Seconds a refused visitor is asked to wait (config).
    budget : KernelBudget
        The limits in force.
    teacher_key : TeacherKey
        What opens the teacher's dashboard (:mod:`.teacher`): the key ``dragonkit serve`` passed in
        ``$DRAGONKIT_TEACHER_KEY``, taken out of the environment before any kernel starts, else one made here.
    record : str or None
        The class's record (``$DRAGONKIT_RECORD``, which the kernels inherit), or None: no record, no join page.
    clients : dict of str to str
        The address each running kernel's page was served to.
    starting : list of str
        The addresses of the pages being served whose kernel id is not known yet.
    door : Door
        The rooms' door (:mod:`.rooms`): wrong codes by browser, the codes read paced by address.
    joins : JoinPace
        The nicknames taken by address (:mod:`.join`): a class at once, then one a minute; one given back by each
        nickname the teacher releases.
    key_door : Door
        The teacher's page's door (:mod:`.teacher`): wrong keys by address.
    """

    name = "dragonkit-voila"
    max_kernels = Integer(0, config=True, help="kernels on the machine, the pool's included (0: what the memory holds)")
    waiting_idle = Integer(WAITING_IDLE, config=True, help="seconds a waiting room may stay idle before it is closed")
    closing_every = Integer(CLOSING_EVERY, config=True, help="seconds between two closings of idle waiting rooms")
    max_kernels_per_client = Integer(10, config=True, help="kernels of one visitor's address (0: no limit)")
    codes_a_minute = Integer(PACE, config=True, help="rooms' codes read a minute from one address, in the long run")
    joins_at_once = Integer(
        JOINS_AT_ONCE, config=True, help="nicknames taken from one address at once, then one a minute (a whole class)"
    )
    retry_after = Integer(60, config=True, help="seconds a refused visitor is asked to wait")
    certfile = Unicode("", config=True, help="serve over HTTPS with this certificate (PEM); every cookie Secure")
    keyfile = Unicode("", config=True, help="the certificate's private key (PEM; default: in the certificate's file)")
    trust_xheaders = Bool(False, config=True, help="read the scheme and the address from a reverse proxy's headers")
    release_check_every = Integer(5, config=True, help="seconds between two looks for nicknames the teacher released")

    def initialize(self, argv: list[str] | None = None) -> None:
        # first of all, before the pool's kernels are started with a copy of the environment
        given_key = take_key(os.environ)
        self.teacher_key = TeacherKey(given_key or new_key())
        self.record = record_url()
        super().initialize(argv)
        hide_secrets(self.log)
        # every visitor's kernel imports dragonkit: compile it once here, where the environment may forbid
        # the kernels to write their bytecode (PYTHONDONTWRITEBYTECODE), or each kernel compiles it anew
        compileall.compile_dir(Path(dragonkit.__file__).parent, quiet=1)
        # the coach reads two-player chances of winning from a table per edition, kept in the user's cache: the
        # missing ones are solved by a process of their own at low priority, the quickest first, while the pages are
        # served (its progress bar in this terminal); a page that needs one meanwhile says it is being prepared
        prepare_in_background()
        # the renderer builds its exporter by this name (voila.notebook_renderer has no setting for it)
        notebook_renderer.VoilaExporter = CachingVoilaExporter
        self.budget = KernelBudget(self.max_kernels or default_max_kernels(), self.max_kernels_per_client)
        self.clients: dict[str, str] = {}
        self.holds: dict[str, str] = {}  # kernel id -> the digest of its browser's hold (a class's record only)
        self.starting: list[str] = []
        self.door = Door(pace=self.codes_a_minute)  # wrong rooms' codes, by browser and address (in memory only)
        self.joins = JoinPace(self.joins_at_once)  # nicknames taken, by address (likewise)
        self.key_door = Door()  # wrong teacher's keys, by address
        self.record_engine: Engine | None = None  # the record's engine, made at its first need (.record)
        self.log.info(
            "dragonkit: kernel budget %d, %s per visitor's address",
            self.budget.max_kernels,
            self.budget.per_client or "no limit",
        )
        if given_key is None:  # a key the log may not write: the dashboard stays closed
            self.log.info("dragonkit: no teacher's key given: the dashboard stays closed (dragonkit serve gives one)")
        if self.record is not None:
            self.log.info(
                "dragonkit: the class's record is kept: each student gives a nickname first (%d from one address at"
                " once, then one a minute); rooms' codes read from one address: %d a minute",
                self.joins_at_once,
                self.codes_a_minute,
            )

    def start(self) -> None:
        """Serve; with a record, close the rooms left waiting idle every :attr:`closing_every` seconds, and end the
        pages of nicknames the teacher released every :attr:`release_check_every` seconds."""
        if self.record is not None:
            tornado.ioloop.PeriodicCallback(self._close_idle_rooms, self.closing_every * 1000).start()
            tornado.ioloop.PeriodicCallback(self._end_released_pages, self.release_check_every * 1000).start()
        super().start()

    async def _end_released_pages(self) -> None:
        """Shut down the kernels of the pages served to a browser whose nickname the teacher has released since
        (:func:`dragonkit.record.holds.released_among`): a tab left open on a student's old laptop writes nothing
        more under the nickname, which the next browser to join holds; reloaded, it gets the join page. Each
        nickname released gives the address it was taken from one back (:class:`.door.JoinPace`)."""
        from sqlalchemy.exc import SQLAlchemyError

        from ..record.holds import released_among
        from ..record.where import class_name

        running = set(self.kernel_manager.list_kernel_ids())
        for gone in set(self.holds) - running:
            del self.holds[gone]
        asked = set(self.holds.values()) | self.joins.holds()
        if not asked:
            return
        try:
            released = await in_thread(released_among, record_engine(self), class_name(), asked)
        except SQLAlchemyError as error:  # the record unreachable a moment: the next round looks again
            self.log.warning("dragonkit: the released nicknames could not be read now (%s)", type(error).__name__)
            return
        self.joins.released(released)  # each gives its address a nickname back
        ended = [kernel_id for kernel_id, hold in self.holds.items() if hold in released]
        for kernel_id in ended:
            del self.holds[kernel_id]
            if kernel_id in self.kernel_manager:
                await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
        if ended:
            self.log.info("dragonkit: %d page(s) of a nickname the teacher released ended", len(ended))

    async def _close_idle_rooms(self) -> None:
        from sqlalchemy.exc import SQLAlchemyError

        try:
            closed = await close_idle_rooms(self, self.waiting_idle)
        except SQLAlchemyError as error:  # the record unreachable a moment: the next round tries again
            self.log.warning("dragonkit: the idle waiting rooms could not be closed now (%s)", type(error).__name__)
            return
        if closed:
            self.log.info("dragonkit: %d waiting room(s) idle for %d s closed", closed, self.waiting_idle)

    def listen(self) -> None:
        """Listen as Voilà does, over HTTPS where :attr:`certfile` is given and reading a reverse proxy's headers
        where :attr:`trust_xheaders` (Voilà's own server speaks plain HTTP only, and trusts no header)."""
        options: dict[str, Any] = {"xheaders": self.trust_xheaders}
        if self.certfile:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(self.certfile, self.keyfile or None)
            options["ssl_options"] = context
        self.app.listen = functools.partial(self.app.listen, **options)
        super().listen()

    def _url(self, ip: str) -> str:
        """The server's address as it prints it: ``https://`` where it has a certificate."""
        url: str = super()._url(ip)
        return url.replace("http://", "https://", 1) if self.certfile else url

    def init_settings(self) -> dict[str, Any]:
        """Voilà's settings, with the kit's kernel manager, and the access log of jupyter_server's server, which hides
        the secrets of an address (:data:`SCRUBBED`; Voilà's own wrote every address whole: the students' token and
        every wrong teacher's key) and writes the requests answered well at the debug level only; the log's other
        lines are written without secrets too (:func:`hide_secrets`)."""
        self.use_classroom_kernel_manager()
        secure = {"secure": True} if self.certfile or self.trust_xheaders else {}  # a proxy terminates HTTPS
        return {
            **super().init_settings(),
            "xsrf_cookie_kwargs": secure,  # the _xsrf cookie of the pages' forms and unload beacons
            "dragonkit_app": self,
            "log_function": functools.partial(log_request, record_prometheus_metrics=False),
            "extra_log_scrub_param_keys": list(SCRUBBED),
        }

    def use_classroom_kernel_manager(self) -> None:
        """Build the kernels' manager (and the pool's around it) from :class:`~.kernels.ClassroomKernelManager`
        instead of jupyter_server's, Voilà's default, whose culler logs a KeyError for each kernel a closed page shut
        down meanwhile; a manager class set in the configuration is kept."""
        if self.voila_configuration.multi_kernel_manager_class is AsyncMappingKernelManager:
            self.voila_configuration.multi_kernel_manager_class = ClassroomKernelManager

    def init_handlers(self) -> list[HandlerRule]:
        replaced = {
            TornadoVoilaHandler: ClassroomVoilaHandler,
            TornadoVoilaTreeHandler: ClassroomTreeHandler,
            RequestInfoSocketHandler: RequestInfoSocket,
        }
        handlers = [(rule[0], replaced.get(rule[1], rule[1]), *rule[2:]) for rule in super().init_handlers()]
        font_awesome = (
            url_path_join(self.server_url, FONT_AWESOME_URL + r"((?:css|webfonts)/[\w.-]+)"),
            tornado.web.StaticFileHandler,
            {"path": str(FONT_AWESOME_DIR)},
        )
        if self.record is not None:
            handlers.insert(0, (url_path_join(self.server_url, JOIN_PATH), JoinHandler))
        handlers.insert(0, (url_path_join(self.server_url, ROOM_PATH), RoomHandler))
        # every error of the server, its own pages' and jupyter_server's, is answered with the kit's page
        return [(rule[0], with_error_page(rule[1]), *rule[2:]) for rule in [font_awesome, *handlers]]

    def kernels(self, client: str) -> tuple[int, int]:
        """The kernels that count in the budget: all of them, and ``client``'s.

        A page's kernel counts from the request on: a page being served whose kernel id is not known yet
        (Voilà starts the kernel while it sends the page's head) counts as one. All the kernels are the
        larger of those running and the pool's plus the visitors' (the known and the coming ones).

        Returns
        -------
        tuple of int
            ``(kernels, of_client)``, as :meth:`.budget.KernelBudget.refusal` takes them.
        """
        running = set(self.kernel_manager.list_kernel_ids())
        for gone in set(self.clients) - running:
            del self.clients[gone]
        pools = (
            getattr(self.kernel_manager, "kernel_pools_config", {}) if self.voila_configuration.preheat_kernel else {}
        )
        pool = sum(int(config.get("pool_size", 0)) for config in pools.values())
        total = max(len(running), pool + len(self.clients) + len(self.starting))
        return total, sum(owner == client for owner in self.clients.values()) + self.starting.count(client)

    def served(self, kernel_id: str, client: str, hold: str | None = None) -> None:
        """Record that ``kernel_id`` serves ``client``'s page (a browser whose hold's digest is ``hold``, if any), and
        count it active from now."""
        self.clients[kernel_id] = client
        if hold is not None:
            self.holds[kernel_id] = hold
        self.touch(kernel_id)

    def touch(self, kernel_id: str) -> None:
        """Count ``kernel_id`` active now: a pooled kernel waited unused for minutes, and the culling (which
        spares the pool) would otherwise take it as idle before its visitor's browser has connected."""
        if kernel_id in self.kernel_manager:  # not shut down meanwhile (get_kernel would raise a 404)
            self.kernel_manager.get_kernel(kernel_id).last_activity = utcnow()


main = ClassroomVoila.launch_instance
