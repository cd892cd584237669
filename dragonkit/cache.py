"""What the kit computes once per machine: files in the user's cache, shared by every process.

A class's kernels start together and ask for the same solved tables (the race model's win table, Pig's
solution, a lesson's seeded head-to-head).  :func:`computed_once` gives each of them the file the first one
wrote: the first process builds the value and saves it (atomically, so that no reader sees half a file),
the others wait for it on a lock file beside it (``filelock``) and load it, and every later process only
loads it.  Where the cache cannot be written, each process builds its own value.

The files of one version of the kit's code are kept apart from another's: they live in a folder named by a
digest of the package's source (:func:`source_digest`), so that a changed solver never reads a table an older
one wrote; the folders of the :data:`KEEP_VERSIONS` versions that wrote last are kept, older ones removed.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

import numpy as np
from filelock import FileLock, Timeout

__all__ = [
    "BUILD_WAIT",
    "KEEP_VERSIONS",
    "UNREADABLE",
    "array_computed_once",
    "cache_folder",
    "computed_once",
    "source_digest",
]

T = TypeVar("T")

#: What a ``load`` of a missing, partial or foreign file raises (numpy: ``EOFError`` for an empty file,
#: ``BadZipFile`` for a cut ``.npz``): such a file is built again.
UNREADABLE = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)
#: How long (seconds) :func:`computed_once` waits for another process building the same file.
BUILD_WAIT = 120.0
#: How many versions of the code keep their files in the cache (the ones that wrote last).
KEEP_VERSIONS = 3


def cache_folder() -> Path:
    """Where the kit keeps what it computes once per machine: ``$XDG_CACHE_HOME/dragonkit``
    (``~/.cache/dragonkit``)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dragonkit"


def array_computed_once(
    name: str, key: Any, build: Callable[[], T], array: Callable[[T], Any], rebuild: Callable[[Any], T]
) -> T:
    """:func:`computed_once` for a value that one numpy array holds (a solved table): saved as a ``.npy`` file named
    by ``name`` and a digest of ``key``, loaded memory-mapped, so that the processes of a machine share one copy.

    Parameters
    ----------
    name : str
        The start of the file's name (e.g. the kind of table and the ruleset's name).
    key : JSON-serialisable
        What the value depends on besides the kit's code (e.g. the ruleset as a dict).
    build : callable
        Computes the value.
    array, rebuild : callable
        The value's array, and the value made again from a (memory-mapped) array; ``rebuild`` raises
        ``ValueError`` for an array of the wrong shape or type (the file is then built again).

    Returns
    -------
    object
    """
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    return computed_once(
        f"{name}-{digest}.npy",
        build=build,
        save=lambda value, file: np.save(file, array(value)),
        load=lambda path: rebuild(np.load(path, mmap_mode="r")),
    )


def computed_once(
    name: str,
    build: Callable[[], T],
    save: Callable[[T, IO[bytes]], object],
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
        Reads the value from the file's path; it raises one of :data:`UNREADABLE` on a missing, partial or foreign
        file, which is then built again.

    Returns
    -------
    object
        What ``load`` returns for the saved file; ``build``'s value where the cache cannot be written, or where
        another process has held the lock for :data:`BUILD_WAIT` seconds.
    """
    path = cache_folder() / source_digest() / name
    try:
        return load(path)
    except UNREADABLE:
        pass
    try:
        if not path.parent.is_dir():  # this code's first file
            path.parent.mkdir(parents=True, exist_ok=True)
            _forget_old_versions()
        with FileLock(path.with_name(path.name + ".lock"), timeout=BUILD_WAIT):
            try:
                return load(path)  # built by the process this one waited for
            except UNREADABLE:
                pass
            return _build_and_save(path, build, save, load)
    except (OSError, Timeout):  # no cache to write, or a build elsewhere that never ends
        return build()


def _build_and_save(
    path: Path, build: Callable[[], T], save: Callable[[T, IO[bytes]], object], load: Callable[[Path], T]
) -> T:
    """Build the value and save it at ``path`` (the caller holds its lock): through a temporary file beside it, flushed
    to the disk and renamed, so that a reader never sees half a file, even after a crash."""
    prefix = f".{path.name}."
    for stale in path.parent.glob(prefix + "*"):  # left by a process killed while saving (none saves now but this)
        stale.unlink(missing_ok=True)
    value = build()
    written: str | None = None
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=prefix, delete=False) as file:
            written = file.name
            save(value, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(written, path)
    except OSError:  # a full disk, a folder in the file's place: the value stays in this process
        if written is not None:
            Path(written).unlink(missing_ok=True)
        return value
    return load(path)


@functools.cache
def source_digest() -> str:
    """A digest of the package's source (every ``.py`` file's path and text): the name of this code's folder."""
    package = Path(__file__).parent
    digest = hashlib.sha256()
    for source in sorted(package.rglob("*.py")):
        digest.update(source.relative_to(package).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def _forget_old_versions() -> None:
    """Remove the folders of all but the :data:`KEEP_VERSIONS` versions of the code that wrote last, and the files of
    the kit's versions that kept them beside the folders."""
    entries = list(cache_folder().iterdir())
    folders = sorted((f for f in entries if f.is_dir()), key=lambda f: f.stat().st_mtime, reverse=True)
    for old in folders[KEEP_VERSIONS:]:
        shutil.rmtree(old, ignore_errors=True)  # a process still reading a file keeps it until it closes it
    for file in entries:
        if file.is_file():
            file.unlink(missing_ok=True)
