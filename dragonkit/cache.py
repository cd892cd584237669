"""What the kit computes once per machine: files in the user's cache, shared by every process.

A class's kernels start together and ask for the same solved tables (the race model's win table, Pig's
solution, a lesson's seeded head-to-head).  :func:`computed_once` gives each of them the file the first one
wrote: the first process builds the value and saves it (atomically, so that no reader sees half a file),
the others wait for it on a lock file beside it (``filelock``) and load it, and every later process only
loads it.  Where the cache cannot be written, each process builds its own value.  :func:`array_cached` only
looks (a page that must not wait asks it), and :func:`being_built` tells whether a process is building a file now.

A file depends on what its value is computed from, and on nothing else: its name holds a digest of the code that
computes it (:func:`code_digest`: the module that builds it and every module of the kit it imports, read from their
source; the digests are kept in the folder too, by the state of the source files, :data:`DIGESTS`) and, for a
table, of the ruleset.  A changed solver never reads a table an older one wrote, while a lesson's
changed docstring rebuilds nothing.  The :data:`KEEP_VERSIONS` files of one name written last are kept, older ones
removed.  The folder is ``$DRAGONKIT_CACHE`` where that is set (the tests keep their own), else
``$XDG_CACHE_HOME/dragonkit`` (``~/.cache/dragonkit``).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

import numpy as np
from filelock import FileLock, Timeout

__all__ = [
    "BUILD_WAIT",
    "KEEP_VERSIONS",
    "UNREADABLE",
    "SavedArray",
    "cache_folder",
    "cached_file",
    "code_digest",
    "code_modules",
    "computed_once",
]

T = TypeVar("T")

#: What a ``load`` of a missing, partial or foreign file raises (numpy: ``EOFError`` for an empty file,
#: ``BadZipFile`` for a cut ``.npz``): such a file is built again.
UNREADABLE = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)
#: How long (seconds) :func:`computed_once` waits for another process building the same file.
BUILD_WAIT = 600.0
#: How many files of one name (each of another version of its code) the cache keeps: the ones written last.
KEEP_VERSIONS = 3
#: The package's folder: the code :func:`code_digest` reads.
PACKAGE = Path(__file__).parent


def cache_folder() -> Path:
    """Where the kit keeps what it computes once per machine: ``$DRAGONKIT_CACHE`` where that is set, else
    ``$XDG_CACHE_HOME/dragonkit`` (``~/.cache/dragonkit``)."""
    own = os.environ.get("DRAGONKIT_CACHE")
    if own:
        return Path(own)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dragonkit"


@dataclass(frozen=True)
class SavedArray(Generic[T]):
    """A value that one numpy array holds (a solved table), computed once per machine (:func:`computed_once`): saved
    as a ``.npy`` file named by ``name``, a digest of ``key`` and the :func:`code_digest` of ``code``, loaded
    memory-mapped, so that the processes of a machine share one copy.

    Attributes
    ----------
    name : str
        The start of the file's name (e.g. the kind of table and the ruleset's name).
    key : JSON-serialisable
        What the value depends on besides the code (e.g. the ruleset as a dict).
    code : str
        The module that computes the value (e.g. ``"dragonkit.analysis.win.race"``).
    build : callable
        Computes the value.
    array, rebuild : callable
        The value's array, and the value made again from a (memory-mapped) array; ``rebuild`` raises
        ``ValueError`` for an array of the wrong shape or type (the file is then built again).
    """

    name: str
    key: Any
    code: str
    build: Callable[[], T]
    array: Callable[[T], Any]
    rebuild: Callable[[Any], T]

    @property
    def path(self) -> Path:
        """The file."""
        digest = hashlib.sha256(json.dumps(self.key, sort_keys=True).encode()).hexdigest()[:16]
        return cached_file(f"{self.name}-{digest}.npy", self.code)

    def computed_once(self) -> T:
        """The value: loaded, or built (and saved) by this process, or by another one that this one waits for."""
        return computed_once(
            self.path,
            build=self.build,
            save=lambda value, file: np.save(file, self.array(value)),
            load=lambda path: self.rebuild(np.load(path, mmap_mode="r")),
        )

    def saved(self) -> T | None:
        """The value if a process saved it already; else ``None``, at once: nothing is built, nothing waited for."""
        try:
            return self.rebuild(np.load(self.path, mmap_mode="r"))
        except UNREADABLE:
            return None

    def being_built(self) -> bool:
        """Whether a process is building the value now (it holds the file's lock)."""
        try:
            with FileLock(_lock(self.path), timeout=0):
                return False
        except Timeout:
            return True
        except OSError:  # no cache to write: nobody builds there
            return False


def cached_file(name: str, code: str) -> Path:
    """The file in :func:`cache_folder` of ``name`` computed by ``code``: the code's :func:`code_digest` before the
    name's suffix (``pig-100.npz`` -> ``pig-100.<digest>.npz``).  ``name`` must change whenever the value would but
    for the code (e.g. a digest of the ruleset in it)."""
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    return cache_folder() / f"{stem}.{code_digest(code)}.{suffix}".rstrip(".")


def _lock(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def computed_once(
    path: Path,
    build: Callable[[], T],
    save: Callable[[T, IO[bytes]], object],
    load: Callable[[Path], T],
) -> T:
    """The value saved at ``path``, built and saved first by one process of the machine.

    Parameters
    ----------
    path : Path
        The file (:func:`cached_file`: in the cache, named by what the value depends on).
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
    try:
        return load(path)
    except UNREADABLE:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(_lock(path), timeout=BUILD_WAIT):
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
        _forget_old_versions(path)
    except OSError:  # a full disk, a folder in the file's place: the value stays in this process
        if written is not None:
            Path(written).unlink(missing_ok=True)
        return value
    return load(path)


#: The file of :func:`cache_folder` that keeps :func:`code_digest`'s digests for one state of the kit's source files.
DIGESTS = "code-digests.json"


@functools.cache
def code_digest(module: str) -> str:
    """A digest of the code behind ``module`` (a module of the kit, e.g. ``"dragonkit.analysis.win.race"``): the
    source of :func:`code_modules`, in the order of their names.

    Computed once per state of the kit's source files and kept in :data:`DIGESTS` in the cache folder, by the files'
    names, sizes and modification times (as Python's own bytecode cache tells a changed source): reading the imports
    of a few dozen modules took each kernel that loads a table or the sample class about 0.1 CPU-s a digest (0.24 for
    the three a lesson-1 page needs).

    Raises
    ------
    ValueError
        If ``module`` is not a module of the kit.
    """
    _kit_module(module)
    stamp = _source_stamp()
    digest = _kept_digests(stamp).get(module)
    if digest is None:
        code = hashlib.sha256()
        for name in sorted(code_modules(module)):
            code.update(name.encode())
            code.update(_source(name).read_bytes())  # type: ignore[union-attr]
        digest = code.hexdigest()[:16]
        _keep_digest(stamp, module, digest)
    return digest


def code_modules(module: str) -> frozenset[str]:
    """The modules of the kit whose code ``module`` runs: itself, every module of the kit it imports, and so on (read
    from their source, not run: imports inside functions count; a package's ``__init__`` only where it is imported
    by name).

    Raises
    ------
    ValueError
        If ``module`` is not a module of the kit.
    """
    _kit_module(module)
    seen: set[str] = set()
    waiting = [module]
    while waiting:
        name = waiting.pop()
        if name not in seen and _source(name) is not None:
            seen.add(name)
            waiting += _imports(name)
    return frozenset(seen)


@functools.cache
def _imports(name: str) -> tuple[str, ...]:
    """What the kit's module ``name`` imports, by absolute name: each ``from x import y`` both ``x`` and ``x.y`` (a
    name of ``x``, or a module of the package ``x``)."""
    path = _source(name)
    assert path is not None
    parent, found = name.rpartition(".")[0], []
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            package = name if path.name == "__init__.py" else parent
            for _ in range(max(0, node.level - 1)):
                package = package.rpartition(".")[0]
            base = ".".join(filter(None, [package if node.level else "", node.module or ""]))
            modules = [f"{base}.{alias.name}" for alias in node.names]
            found += [base, *modules] if node.module else modules
    return tuple(found)


def _source_stamp() -> str:
    """The kit's source files as they are now: a digest of their paths, sizes and modification times."""
    stamp = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        status = path.stat()
        stamp.update(f"{path.relative_to(PACKAGE)}\0{status.st_size}\0{status.st_mtime_ns}\n".encode())
    return stamp.hexdigest()[:16]


def _kept_digests(stamp: str) -> dict[str, str]:
    """The digests :data:`DIGESTS` keeps for the source files of ``stamp`` (none for other files, or none kept)."""
    try:
        kept = json.loads((cache_folder() / DIGESTS).read_text())
        return dict(kept["digests"]) if kept["stamp"] == stamp else {}
    except (*UNREADABLE, TypeError):
        return {}


def _keep_digest(stamp: str, module: str, digest: str) -> None:
    """Add ``module``'s digest to those kept for ``stamp`` (written whole, through a temporary file renamed: a reader
    never sees half of it; two processes writing at once may lose one digest, computed again later)."""
    digests = {**_kept_digests(stamp), module: digest}
    folder, written = cache_folder(), None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=folder, prefix=f".{DIGESTS}.", delete=False) as file:
            written = file.name
            json.dump({"stamp": stamp, "digests": digests}, file)
        os.replace(written, folder / DIGESTS)
    except OSError:  # no cache to write: computed again by the next process
        if written is not None:
            Path(written).unlink(missing_ok=True)


def _kit_module(module: str) -> None:
    """Refuse ``module`` unless it is a module of the kit (:class:`ValueError`)."""
    if _source(module) is None:
        raise ValueError(f"{module!r} is not a module of {PACKAGE.name}")


def _source(module: str) -> Path | None:
    """The source file of a module of the kit, or ``None`` for another package's."""
    first, *rest = module.split(".")
    if first != PACKAGE.name:
        return None
    folder = PACKAGE.joinpath(*rest)
    candidates = [folder.with_suffix(".py"), folder / "__init__.py"] if rest else [PACKAGE / "__init__.py"]
    return next((path for path in candidates if path.is_file()), None)


def _forget_old_versions(path: Path) -> None:
    """Remove the files of ``path``'s name that other versions of its code wrote, all but the :data:`KEEP_VERSIONS`
    written last (a process still reading one keeps it until it closes it)."""
    stem, _, suffix = path.name.rpartition(".")
    name = stem.rpartition(".")[0]
    versions = sorted(path.parent.glob(f"{name}.*.{suffix}"), key=lambda f: f.stat().st_mtime, reverse=True)
    for old in versions[KEEP_VERSIONS:]:
        old.unlink(missing_ok=True)
        _lock(old).unlink(missing_ok=True)
