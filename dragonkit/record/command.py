"""The record on the command line: ``dragonkit class export``, ``erase`` and ``check``, and the record's options of
``dragonkit serve`` (``--record``, ``--class``) with what it says of the record when it starts (:func:`prepare`).

A value that is not one (a day that is no date, a URL that is no database's, a class name too long) is refused by
argparse with its option named and exit code 2, before the record is opened; a record that cannot be reached is
said in one line (exit code 1). ``erase`` says what it will erase and asks first; without a terminal to ask on it
erases only with ``--yes``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from .schema import NAME
from .store import check_integrity, checked_url, connect, default_url, head, revision, upgrade

__all__ = [
    "add_arguments",
    "argument",
    "checked_class",
    "checked_day",
    "class_argument",
    "day_argument",
    "location",
    "open_record",
    "prepare",
    "record_argument",
    "run",
]

T = TypeVar("T")


def checked_day(text: str) -> date:
    """The day ``text`` writes as ``YYYY-MM-DD``.

    Raises
    ------
    ValueError
        For anything else (``2025-02-30``, ``today``, ``5/3/2025``, ``20250314``).
    """
    try:
        if len(text) != 10:
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a day written YYYY-MM-DD (2025-03-14)") from None


def checked_class(text: str) -> str:
    """``text`` as a class's name in the record: 1 to 40 characters, the spaces around it left out.

    Raises
    ------
    ValueError
        For an empty name or one too long.
    """
    name = text.strip()
    if not 1 <= len(name) <= NAME:
        raise ValueError(f"a class's name has 1 to {NAME} characters, not {len(name)}")
    return name


def argument(check: Callable[[str], T]) -> Callable[[str], T]:
    """``check`` as an argparse ``type``: its ValueError's words become argparse's (the option named, exit code 2)."""

    def read(text: str) -> T:
        try:
            return check(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    read.__name__ = check.__name__
    return read


#: ``--record``, ``--day`` and ``--class`` as argparse reads them.
record_argument = argument(checked_url)
day_argument = argument(checked_day)
class_argument = argument(checked_class)


def location(url: str) -> str:
    """Where the record at ``url`` is, for a person: an SQLite file's path, else the URL without its password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return parsed.database or ":memory:"
    return parsed.render_as_string(hide_password=True)


def open_record(url: str) -> Engine:
    """An engine for the record at ``url`` (:func:`~dragonkit.record.store.connect`), not yet connected.

    Raises
    ------
    ValueError
        If ``url`` is no SQLite or PostgreSQL URL, or its database's driver is not installed (saying how to install
        it).
    """
    try:
        return connect(url)
    except ImportError as error:
        raise ValueError(
            f"{location(url)} needs the database driver {error.name}, which is not installed: for PostgreSQL, write "
            "the URL postgresql+psycopg://… and pip install 'dragonkit[postgresql]'"
        ) from None


def _reason(error: SQLAlchemyError) -> str:
    """The first line of what the database's driver said (SQLAlchemy's message adds the statement and a link)."""
    said = str(getattr(error, "orig", None) or error).strip()
    return said.splitlines()[0] if said else type(error).__name__


def prepare(url: str) -> str:
    """Bring the record at ``url`` to the newest schema (:func:`~dragonkit.record.store.upgrade`), for
    ``dragonkit serve`` at its start; what to tell the teacher, in one line. A record that cannot be reached is no
    error: the server serves anyway, and its pages write once the database answers.

    Raises
    ------
    ValueError
        As :func:`open_record`.
    """
    from .rooms import close_abandoned  # the game's engine and its bots: for the server's start only

    engine = open_record(url)
    try:
        upgrade(engine)
        closed = close_abandoned(engine)
    except SQLAlchemyError as error:
        return (
            f"dragonkit: the class's record at {location(url)} cannot be reached now ({_reason(error)}); "
            "serving anyway: the pages write to it once it answers"
        )
    finally:
        engine.dispose()
    abandoned = f" ({closed} abandoned room{'s' if closed != 1 else ''} closed)" if closed else ""
    return f"dragonkit: the class's record is {location(url)}{abandoned}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The subcommands of ``dragonkit class``: ``export``, ``erase``, ``check``."""
    sub = parser.add_subparsers(dest="class_command", required=True)
    record_help = "the record's SQLAlchemy URL (default: this machine's, sqlite:///~/.local/share/dragonkit/…)"
    p_export = sub.add_parser("export", help="write the decisions and exercise attempts to a CSV or Parquet file")
    p_export.add_argument("file", type=Path, metavar="FILE", help="the file to write: ….csv or ….parquet")
    p_export.add_argument("--class", dest="class_name", type=class_argument, metavar="NAME", help="only this class")
    p_export.add_argument("--day", type=day_argument, metavar="YYYY-MM-DD", help="only this day")
    p_export.add_argument("--record", type=record_argument, metavar="URL", help=record_help)
    p_export.set_defaults(class_parser=p_export)
    p_erase = sub.add_parser("erase", help="erase a class, a day (or a class's day), or everything")
    p_erase.add_argument("--class", dest="class_name", type=class_argument, metavar="NAME", help="this class's rows")
    p_erase.add_argument("--day", type=day_argument, metavar="YYYY-MM-DD", help="this day's rows")
    p_erase.add_argument("--all", action="store_true", help="every row of the record")
    p_erase.add_argument("--record", type=record_argument, metavar="URL", help=record_help)
    p_erase.set_defaults(class_parser=p_erase)
    p_erase.add_argument("--yes", action="store_true", help="erase without asking")
    p_check = sub.add_parser("check", help="the record's schema revision and integrity")
    p_check.add_argument("--record", type=record_argument, metavar="URL", help=record_help)
    p_check.set_defaults(class_parser=p_check)


def run(args: argparse.Namespace) -> int:
    """Run ``dragonkit class …`` with ``args`` (as :func:`add_arguments`' parsers read them: a bad combination of
    options is refused by the subcommand's parser, exit code 2).

    Returns
    -------
    int
        The exit code: 0 done, 1 not done (no record there, a database that cannot be reached, an erasure not
        confirmed, a record that fails its check).
    """
    from .reading import EXPORTS  # pandas: only for a command that reads the record

    parser: argparse.ArgumentParser = args.class_parser
    if args.class_command == "export" and args.file.suffix.lower() not in EXPORTS:
        parser.error(f"FILE: export to a .csv or a .parquet file, not {args.file.name!r}")
    if args.class_command == "export" and not args.file.resolve().parent.is_dir():
        parser.error(f"FILE: there is no folder {args.file.resolve().parent}")
    if args.class_command == "erase":
        if args.all and (args.class_name is not None or args.day is not None):
            parser.error("--all erases everything: give it without --class and --day")
        if not (args.all or args.class_name is not None or args.day is not None):
            parser.error("say what to erase: --class NAME, --day YYYY-MM-DD (or both), or --all")
        if not args.yes and not sys.stdin.isatty():
            parser.error("--yes: there is no terminal to ask on; add --yes to erase without asking")
    url = args.record or default_url()
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() == "sqlite" and database and not Path(database).exists():
        print(f"dragonkit: there is no record at {database}: nothing has been recorded there", file=sys.stderr)
        return 1
    try:
        engine = open_record(url)
    except ValueError as error:
        parser.error(f"--record: {error}")
    commands: dict[str, Callable[[argparse.Namespace, Engine, str], int]] = {
        "export": _export,
        "erase": _erase,
        "check": _check,
    }
    try:
        return commands[args.class_command](args, engine, url)
    except SQLAlchemyError as error:
        print(f"dragonkit: the record at {location(url)} cannot be read: {_reason(error)}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()


def _export(args: argparse.Namespace, engine: Engine, url: str) -> int:
    from .reading import export

    upgrade(engine)
    rows = export(engine, args.file, args.class_name, args.day)
    print(f"dragonkit: {rows} row{'' if rows == 1 else 's'} (decisions and exercise attempts) written to {args.file}")
    return 0


def _erasing(args: argparse.Namespace) -> str:
    """What ``dragonkit class erase`` with ``args`` erases, in words."""
    if args.all:
        return "everything"
    whose = f"class {args.class_name!r}" if args.class_name is not None else "every class"
    when = f" on {args.day.isoformat()}" if args.day is not None else ""
    return f"the visits, decisions, exercise attempts and games of {whose}{when}"


def _erase(args: argparse.Namespace, engine: Engine, url: str) -> int:
    print(f"dragonkit: this erases {_erasing(args)} from the record at {location(url)}")
    if not args.yes:
        answer = input("Erase them? Type yes to erase: ").strip().lower()
        if answer not in ("y", "yes"):
            print("dragonkit: nothing erased")
            return 1
    from .erase import erase

    upgrade(engine)
    erased = erase(engine, class_name=args.class_name, day=args.day, everything=args.all)
    print(f"dragonkit: {erased} row{'' if erased == 1 else 's'} erased")
    return 0


def _check(args: argparse.Namespace, engine: Engine, url: str) -> int:
    found = revision(engine)
    if found is None:
        print(f"dragonkit: the record at {location(url)} is empty: no schema yet (dragonkit serve makes it)")
        return 1
    newest = "the newest" if found == head() else f"this dragonkit's is {head()}: upgraded at the next write"
    problems = check_integrity(engine)
    print(f"dragonkit: the record at {location(url)}: schema revision {found} ({newest})")
    print(f"dragonkit: integrity check: {'ok' if problems == ['ok'] else '; '.join(problems)}")
    return 0 if problems == ["ok"] else 1
