"""What the kit computes once per machine: files in the user's cache, shared by every process.

A class's kernels start together and ask for the same solved tables (the race model's win table, Pig's
solution, a lesson's seeded head-to-head).  :func:`computed_once` gives each of them the file the first one
wrote: the first process builds the value and saves it (atomically, so that no reader sees half a file),
the others wait for it on a lock file beside it (``filelock``) and load it, and every later process only
loads it.  Where the cache cannot be written, each process builds its own value.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, TypeVar

from filelock import FileLock, Timeout

__all__ = ["BUILD_WAIT", "cache_folder", "computed_once"]

T = TypeVar("T")

#: How long (seconds) :func:`computed_once` waits for another process building the same file.
BUILD_WAIT = 120.0


def cache_folder() -> Path:
    """Where the kit keeps what it computes once per machine: ``$XDG_CACHE_HOME/dragonkit``
    (``~/.cache/dragonkit``)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dragonkit"


def computed_once(
    name: str,
    build: Callable[[], T],
    save: Callable[[T, IO[bytes]], None],
    load: Callable[[Path], T],
) -> T:
    """The value saved as ``name`` in :func:`cache_folder`, built and saved first by one process of the machine.

    Parameters
    ----------
    name : str
        The file's name; it must change whenever the value would (e.g. a hash of the ruleset in it).
    build : callable
        Computes the value, where no readable file exists.
    save : callable
        Writes a value to an open binary file.
    load : callable
        Reads the value from the file's path; it raises ``OSError``, ``ValueError`` or ``KeyError`` on a
        missing, partial or foreign file, which is then built again.

    Returns
    -------
    object
        What ``load`` returns for the saved file; ``build``'s value where the cache cannot be written, or where
        another process has held the lock for :data:`BUILD_WAIT` seconds.
    """
    path = cache_folder() / name
    try:
        return load(path)
    except (OSError, ValueError, KeyError):
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(path.with_name(path.name + ".lock"), timeout=BUILD_WAIT):
            try:
                return load(path)  # built by the process this one waited for
            except (OSError, ValueError, KeyError):
                pass
            value = build()
            try:
                with tempfile.NamedTemporaryFile(dir=path.parent, suffix=path.suffix, delete=False) as file:
                    save(value, file)
                os.replace(file.name, path)  # atomic: a reader never sees half a file
            except OSError:
                return value
            return load(path)
    except (OSError, Timeout):  # no cache to write, or a build elsewhere that never ends
        return build()
