"""Where the class's record is, and how to open it: an SQLAlchemy URL, its engine, its schema brought up to date.

The record is an SQLite file by default (:func:`default_url`: nothing to install or set up), or any SQLAlchemy URL
(``postgresql+psycopg://…`` for a school's or a district's server, which several servers — a JupyterHub with a
server per student — share). ``dragonkit serve`` gives its kernels the URL in ``DRAGONKIT_RECORD``
and the class's name in ``DRAGONKIT_CLASS`` (:mod:`dragonkit.record.where`); a kernel without it keeps no record.

An SQLite file is opened in write-ahead-log mode, so that the teacher's dashboard reads while forty kernels write,
with ``synchronous=NORMAL``: a write committed survives the death of any process (a server killed with SIGKILL
included), not a power cut's last moments. The schema is versioned with Alembic (:func:`upgrade`,
``dragonkit/record/migrations/``; the newest revision, :func:`head`, is read from them).
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, and_, create_engine, event, func, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from .schema import Base

if TYPE_CHECKING:
    from alembic.config import Config

__all__ = [
    "BACKENDS",
    "check_integrity",
    "checked_url",
    "connect",
    "default_url",
    "head",
    "private_file",
    "revision",
    "upgrade",
]

#: Where Alembic finds the record's migrations (a package resource: the scripts in ``migrations/versions/``).
MIGRATIONS = "dragonkit.record:migrations"
_UPGRADING = threading.Lock()
#: The databases the record is kept in (SQLAlchemy's backend names).
BACKENDS = ("sqlite", "postgresql")
#: Seconds a connection waits for another writer (SQLite) or for the server to answer (PostgreSQL).
WAIT = 5


def default_url() -> str:
    """The record of this machine's user: ``class-record.sqlite`` in ``$XDG_DATA_HOME/dragonkit``
    (``~/.local/share/dragonkit``), the folder made if missing, readable by this user alone (:func:`private_file`).

    Returns
    -------
    str
        An SQLAlchemy URL, ``sqlite:///…``.
    """
    home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(home) / "dragonkit"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'class-record.sqlite'}"


def private_file(path: Path) -> None:
    """Make the SQLite file ``path``, if it does not exist, readable and writable by this user alone (``0600``), in
    a folder made for it, if missing, that only this user may open (``0700``): the record holds every nickname and
    the rooms' seeds. SQLite gives the file's write-ahead log and index the database's permissions. A file or folder
    that exists keeps its own (a school may share a folder on purpose).

    Raises
    ------
    OSError
        If the folder or the file cannot be made.
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def checked_url(url: str) -> str:
    """``url`` if SQLAlchemy reads it as a database URL of a kind the record is kept in (:data:`BACKENDS`).

    Raises
    ------
    ValueError
        Saying what was given and what a URL looks like.
    """
    try:
        backend = make_url(url).get_backend_name()
    except ArgumentError:
        backend = None
    if backend not in BACKENDS:
        raise ValueError(
            f"{url!r} is not the URL of an SQLite or PostgreSQL database: give sqlite:///path/to/file.sqlite or "
            "postgresql+psycopg://user:password@host/database"
        )
    return url


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={WAIT * 1000}")
    cursor.close()


def connect(url: str) -> Engine:
    """An engine for the record at ``url``: SQLite in write-ahead-log mode (a new file this user's alone,
    :func:`private_file`), PostgreSQL with a short connection
    timeout and connections checked before use (a server restarted meanwhile costs one failed write, not a broken
    pool).

    Parameters
    ----------
    url : str
        An SQLAlchemy URL.

    Returns
    -------
    sqlalchemy.Engine

    Raises
    ------
    ValueError
        If ``url`` is not a database URL.
    """
    parsed = make_url(checked_url(url))
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            private_file(Path(database))
        engine = create_engine(parsed, connect_args={"timeout": WAIT})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    arguments: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql":
        arguments = {"connect_timeout": WAIT}
    return create_engine(parsed, pool_pre_ping=True, pool_size=2, max_overflow=2, connect_args=arguments)


def revision(engine: Engine) -> str | None:
    """The schema revision of the record behind ``engine`` (None: an empty database)."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _alembic_config() -> Config:
    """Alembic's configuration for the record: its migrations, and no ``alembic.ini``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    return config


@functools.cache
def head() -> str:
    """The schema's newest revision, read from the migrations themselves (``migrations/versions/``, Alembic's
    ``ScriptDirectory``): a record at another one is upgraded before it is written, and a new migration changes it
    with no other change.

    Returns
    -------
    str
        The revision id of the migration no other revises (``"0004"``).

    Raises
    ------
    alembic.util.exc.CommandError
        If the migrations have several heads (two scripts revise the same one).
    """
    from alembic.script import ScriptDirectory

    newest = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    if newest is None:  # pragma: no cover - the package ships its migrations
        raise RuntimeError(f"no migration found in {MIGRATIONS}")
    return newest


def upgrade(engine: Engine) -> None:
    """Bring the record's schema to :func:`head` with Alembic's migrations (``alembic upgrade head``); a record at
    the head already costs one query.

    Raises
    ------
    sqlalchemy.exc.OperationalError
        If the database cannot be reached.
    """
    if revision(engine) == head():
        return
    from alembic import command

    config = _alembic_config()
    with _UPGRADING, engine.begin() as connection:  # Alembic's context is the process's: one upgrade at a time
        if revision(engine) == head():  # another thread of this process did it meanwhile
            return
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def check_integrity(engine: Engine) -> list[str]:
    """What the database says of its own integrity, and what the record's tables say of theirs.

    SQLite's ``PRAGMA integrity_check`` first (the file's pages, rows and indexes); then, on any database, every table
    the ORM declares (:mod:`~dragonkit.record.schema`'s metadata, the rooms' included) is there and answers a count,
    and no row names by a foreign key a row that is not there (a room's seat or move whose room is gone: SQLite
    keeps foreign keys as declarations only, and a hand-made deletion or a partial restore leaves such orphans).

    Returns
    -------
    list of str
        ``["ok"]``, or the problems found (``"table room_moves is missing"``, ``"2 rows of room_seats name a room_id
        that rooms does not have"``).

    Raises
    ------
    sqlalchemy.exc.DBAPIError
        If the database cannot be reached, or a table that is there cannot be read.
    """
    problems: list[str] = []
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            said = [str(row[0]) for row in connection.execute(text("PRAGMA integrity_check"))]
            problems += [] if said == ["ok"] else said
        present = set(inspect(connection).get_table_names())
        for table in Base.metadata.sorted_tables:
            if table.name not in present:
                problems.append(f"table {table.name} is missing")
                continue
            connection.execute(select(func.count()).select_from(table))
            for key in table.foreign_key_constraints:
                parent = key.referred_table
                if parent.name not in present:
                    continue  # said above: a table is sorted after those it refers to
                pairs = [(element.parent, element.column) for element in key.elements]
                orphans = connection.execute(
                    select(func.count())
                    .select_from(table.outerjoin(parent, and_(*(mine == theirs for mine, theirs in pairs))))
                    .where(*(mine.is_not(None) for mine, _ in pairs), pairs[0][1].is_(None))
                ).scalar_one()
                if orphans:
                    named = ", ".join(mine.name for mine, _ in pairs)
                    rows = f"{orphans} rows of {table.name} name" if orphans > 1 else f"1 row of {table.name} names"
                    problems.append(f"{rows} a {named} that {parent.name} does not have")
    return problems or ["ok"]
