"""The files computed once per machine: built by one process, read by the others, named by the code that computes
them (and nothing else), the tests' own apart from the user's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import dragonkit.cache
from dragonkit.cache import (
    DIGESTS,
    KEEP_VERSIONS,
    SavedArray,
    cache_folder,
    cached_file,
    code_digest,
    code_modules,
    computed_once,
)

#: The module whose code the test values are computed by.
CODE = "dragonkit.rules"


class Counted:
    """A value built, saved and loaded as JSON, counting its builds."""

    def __init__(self, value: object) -> None:
        self.value, self.builds = value, 0

    def __call__(self, name: str = "value.json") -> object:
        return computed_once(
            cached_file(name, CODE), self.build, lambda v, file: file.write(json.dumps(v).encode()), self.load
        )

    def build(self) -> object:
        self.builds += 1
        return self.value

    @staticmethod
    def load(path: Path) -> object:
        return json.loads(path.read_text())  # a missing file: OSError; half a file: ValueError


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("DRAGONKIT_CACHE", str(tmp_path / "dragonkit"))
    return tmp_path / "dragonkit"


def _files(cache: Path) -> list[str]:
    """The names of the files in ``cache``, sorted, but :data:`DIGESTS` (the kit's code digests, written by the first
    :func:`cached_file` of a process: there or not, as the tests before in the process made it)."""
    return sorted(f.name for f in cache.iterdir() if f.name != DIGESTS)


def test_built_once_then_read(cache) -> None:
    value = Counted({"a": [1, 2]})
    assert value() == {"a": [1, 2]} and value() == {"a": [1, 2]}
    assert value.builds == 1
    assert (cached_file("value.json", CODE)).is_file()
    assert not list(cache.glob("*.json.tmp*"))  # nothing half-written left beside it


def test_a_broken_file_is_built_again(cache) -> None:
    value = Counted([3])
    value()
    (cached_file("value.json", CODE)).write_text('{"cut sho')
    assert value() == [3] and value.builds == 2


def test_each_version_of_the_code_has_its_own_files(cache, monkeypatch) -> None:
    versions = [f"v{k}" for k in range(KEEP_VERSIONS + 2)]
    for k, version in enumerate(versions):
        monkeypatch.setattr(dragonkit.cache, "code_digest", lambda code, version=version: version)
        value = Counted(version)
        assert value() == version and value.builds == 1  # never another version's file
        os.utime(cache / f"value.{version}.json", (1_000_000 + k, 1_000_000 + k))  # written in this order
    kept = sorted(f.name for f in cache.glob("value.*.json"))
    assert kept == [f"value.{v}.json" for v in versions[-KEEP_VERSIONS:]]  # the older ones removed


def test_a_file_depends_on_the_code_that_computes_it_and_nothing_else() -> None:
    """The win tables' code is their solver and what it imports, in functions too: not the lessons, the apps or the
    server."""
    assert code_digest("dragonkit.analysis.win.race") != code_digest("dragonkit.analysis.win.gems")
    read = code_modules("dragonkit.analysis.win.gems")
    assert {"dragonkit.analysis.win.gems", "dragonkit.rules", "dragonkit.game_state", "dragonkit.turn"} <= read
    assert "dragonkit.analysis.win.model" in code_modules("dragonkit.topics.sample_class")  # imported in a function
    assert not any(
        m.startswith(("dragonkit.lessons", "dragonkit.ui", "dragonkit.server", "dragonkit.plots")) for m in read
    )
    assert "dragonkit.analysis" not in read  # the package's __init__ imports every analysis: not a dependency
    for refused in (code_digest, code_modules):
        with pytest.raises(ValueError, match="not a module of dragonkit"):
            refused("numpy.linalg")


def test_a_digest_is_computed_once_per_state_of_the_source(cache, monkeypatch) -> None:
    """The digests are kept in the cache for the source files as they are: a later process reads them without
    reading the modules' imports, and a changed file (its size or time) has them computed again, alike."""
    code_digest.cache_clear()
    first = code_digest(CODE)
    kept = json.loads((cache / DIGESTS).read_text())
    assert kept["digests"] == {CODE: first}

    def unread(module: str) -> frozenset[str]:
        raise AssertionError(f"{module}'s imports read again")

    with monkeypatch.context() as patched:
        patched.setattr(dragonkit.cache, "code_modules", unread)
        code_digest.cache_clear()  # as a new process
        assert code_digest(CODE) == first
    monkeypatch.setattr(dragonkit.cache, "_source_stamp", lambda: "edited")
    code_digest.cache_clear()
    assert code_digest(CODE) == first  # the same source read again: the same digest
    assert json.loads((cache / DIGESTS).read_text()) == {"stamp": "edited", "digests": {CODE: first}}
    code_digest.cache_clear()


def test_the_tests_keep_their_own_cache() -> None:
    assert cache_folder() == Path(os.environ["DRAGONKIT_CACHE"])
    assert cache_folder() != Path.home() / ".cache" / "dragonkit"


def test_a_saved_array_says_whether_it_is_saved_or_being_built(cache) -> None:
    from filelock import FileLock

    saved = SavedArray("squares", {"n": 4}, CODE, lambda: np.arange(4) ** 2, lambda a: a, np.asarray)
    assert saved.saved() is None and not saved.being_built()
    with FileLock(saved.path.with_name(saved.path.name + ".lock")):
        assert saved.being_built()
    assert list(saved.computed_once()) == [0, 1, 4, 9]
    assert list(saved.saved()) == [0, 1, 4, 9] and not saved.being_built()


def test_no_cache_to_write_builds_in_the_process(tmp_path, monkeypatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("DRAGONKIT_CACHE", str(blocked / "dragonkit"))
    value = Counted(7)
    assert value() == 7 and value() == 7 and value.builds == 2
    assert cache_folder() == blocked / "dragonkit"


@pytest.mark.parametrize("cut", [0, 100])  # an empty file (numpy: EOFError), a cut zip (BadZipFile)
def test_an_empty_or_cut_npz_is_built_again(cache, cut) -> None:
    builds = []

    def build() -> np.ndarray:
        builds.append(1)
        return np.arange(1000.0)

    def load(path: Path) -> np.ndarray:
        with np.load(path) as saved:
            return saved["values"]

    def value() -> np.ndarray:
        return computed_once(cached_file("values.npz", CODE), build, lambda v, file: np.savez(file, values=v), load)

    assert np.array_equal(value(), np.arange(1000.0))
    path = cached_file("values.npz", CODE)
    path.write_bytes(path.read_bytes()[:cut])
    assert np.array_equal(value(), np.arange(1000.0)) and len(builds) == 2
    assert np.array_equal(value(), np.arange(1000.0)) and len(builds) == 2  # mended for good


def test_a_save_that_fails_leaves_no_file_behind(cache) -> None:
    path = cached_file("value.json", CODE)
    path.mkdir(parents=True)  # a folder where the file should go
    value = Counted([1, 2])
    assert value() == [1, 2] and value() == [1, 2] and value.builds == 2  # kept in the process each time
    assert [name for name in _files(cache) if not name.endswith(".lock")] == [path.name]


def test_a_file_left_by_a_process_killed_while_saving_is_removed(cache) -> None:
    path = cached_file("value.json", CODE)
    path.parent.mkdir(parents=True, exist_ok=True)  # made already where this process's first digest was kept
    (path.parent / f".{path.name}.k1ll3d").write_bytes(b'{"half')
    assert Counted(5)() == 5
    assert _files(cache) == [path.name, path.name + ".lock"]
