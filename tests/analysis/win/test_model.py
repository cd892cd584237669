"""The two-player tables solved in a process of their own while a server serves: one solver per machine at a time."""

from __future__ import annotations

import json
import subprocess

from filelock import FileLock

from dragonkit.analysis.win import model
from dragonkit.rules import Ruleset


def test_no_second_solver_starts_while_another_process_solves_a_table(tmp_path, monkeypatch) -> None:
    """A second server (or each test's server) started while a first solves the tables starts no process of its own:
    it would wait for the table's lock, then solve it again at the lowest priority once the wait ran out."""
    monkeypatch.setenv("DRAGONKIT_CACHE", str(tmp_path))  # nothing saved
    monkeypatch.setattr(model, "_started", set())
    started: list[list[str]] = []

    class Solver:  # the process's command, not run
        def __init__(self, command: list[str], **_: object) -> None:
            started.append(command)

    monkeypatch.setattr(subprocess, "Popen", Solver)
    kali, drago = Ruleset.preset("kali"), Ruleset.preset("drago-rosso")
    lock = model._saved(kali).path.with_name(model._saved(kali).path.name + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(lock):  # another process solves kali's table
        assert model.prepare_in_background([kali, drago]) is None
    assert started == []
    assert isinstance(model.prepare_in_background([kali, drago]), Solver)  # nobody solves them now
    assert [[json.loads(ruleset)["name"] for ruleset in command[-2:]] for command in started] == [
        ["kali", "drago-rosso"]
    ]
    assert model.prepare_in_background([kali, drago]) is None  # asked once per process
