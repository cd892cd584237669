"""The files computed once per machine: built by one process, read by the others, kept apart per version of the code."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

import dragonkit.cache
from dragonkit.cache import KEEP_VERSIONS, cache_folder, computed_once, source_digest


class Counted:
    """A value built, saved and loaded as JSON, counting its builds."""

    def __init__(self, value: object) -> None:
        self.value, self.builds = value, 0

    def __call__(self, name: str = "value.json") -> object:
        return computed_once(name, self.build, lambda v, file: file.write(json.dumps(v).encode()), self.load)

    def build(self) -> object:
        self.builds += 1
        return self.value

    @staticmethod
    def load(path: Path) -> object:
        return json.loads(path.read_text())  # a missing file: OSError; half a file: ValueError


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "dragonkit"


def test_built_once_then_read(cache) -> None:
    value = Counted({"a": [1, 2]})
    assert value() == {"a": [1, 2]} and value() == {"a": [1, 2]}
    assert value.builds == 1
    assert (cache / source_digest() / "value.json").is_file()
    assert not list((cache / source_digest()).glob("*.json.tmp*"))  # nothing half-written left beside it


def test_a_broken_file_is_built_again(cache) -> None:
    value = Counted([3])
    value()
    (cache / source_digest() / "value.json").write_text('{"cut sho')
    assert value() == [3] and value.builds == 2


def test_each_version_of_the_code_has_its_own_files(cache, monkeypatch) -> None:
    cache.mkdir(parents=True)
    (cache / "win-table-mini-0123.npy").write_bytes(b"a table of a version that kept its files here")
    versions = [f"v{k}" for k in range(KEEP_VERSIONS + 2)]
    for k, version in enumerate(versions):
        monkeypatch.setattr(dragonkit.cache, "source_digest", lambda version=version: version)
        value = Counted(version)
        assert value() == version and value.builds == 1  # never another version's file
        os.utime(cache / version, (1_000_000 + k, 1_000_000 + k))  # written in this order
    assert sorted(f.name for f in cache.iterdir()) == versions[-KEEP_VERSIONS:]  # the older ones removed, and the file


def test_no_cache_to_write_builds_in_the_process(tmp_path, monkeypatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
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
        return computed_once("values.npz", build, lambda v, file: np.savez(file, values=v), load)

    assert np.array_equal(value(), np.arange(1000.0))
    path = cache / source_digest() / "values.npz"
    path.write_bytes(path.read_bytes()[:cut])
    assert np.array_equal(value(), np.arange(1000.0)) and len(builds) == 2
    assert np.array_equal(value(), np.arange(1000.0)) and len(builds) == 2  # mended for good


def test_a_save_that_fails_leaves_no_file_behind(cache) -> None:
    (cache / source_digest() / "value.json").mkdir(parents=True)  # a folder where the file should go
    value = Counted([1, 2])
    assert value() == [1, 2] and value() == [1, 2] and value.builds == 2  # kept in the process each time
    assert [f.name for f in (cache / source_digest()).iterdir() if f.name != "value.json.lock"] == ["value.json"]


def test_a_file_left_by_a_process_killed_while_saving_is_removed(cache) -> None:
    folder = cache / source_digest()
    folder.mkdir(parents=True)
    (folder / ".value.json.k1ll3d").write_bytes(b'{"half')
    assert Counted(5)() == 5
    assert sorted(f.name for f in folder.iterdir()) == ["value.json", "value.json.lock"]
