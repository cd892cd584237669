"""`dragonkit serve`'s options: the language, the pool for the play app, what says a class, the record, the teacher's
key, the printed addresses, the first page alone (the game) and for a class (the join page); `dragonkit class export`,
`erase` and `check` on a real record (SQLite and PostgreSQL)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pandas as pd
import pytest

from dragonkit.cli import ALONE, ServeOptions, main, serves_a_class, voila_command
from dragonkit.record.command import prepare
from dragonkit.record.rows import AttemptRow
from dragonkit.record.session import Visit
from dragonkit.record.store import connect, head, revision
from dragonkit.record.writer import Writer

from .conftest import serve_refusing


def test_the_language_reaches_the_kernels_and_a_bad_one_is_refused():
    assert ServeOptions(lang="it").environment()["DRAGONKIT_LANG"] == "it"
    with pytest.raises(ValueError, match="--lang must be one of en, it"):
        ServeOptions(lang="fr").check()
    result = serve_refusing("--lang", "de")
    assert result.returncode == 2 and "--lang" in result.stderr


def test_the_coachs_games_reach_the_kernels_and_none_is_refused():
    """``--coach-games``: what each kernel's coach plays per option of its estimate (dragonkit.coach.views)."""
    assert ServeOptions().environment()["DRAGONKIT_COACH_GAMES"] == "2000"
    assert ServeOptions(coach_games=300).environment()["DRAGONKIT_COACH_GAMES"] == "300"
    with pytest.raises(ValueError, match="--coach-games must be >= 1, not 0"):
        ServeOptions(coach_games=0).check()
    result = serve_refusing("--coach-games", "-5")
    assert result.returncode == 2 and "--coach-games must be >= 1" in result.stderr


def test_the_pool_preheats_the_play_app_only():
    command = voila_command(ServeOptions(pool=4), Path("notebooks"))
    flag = next(a for a in command if a.startswith("--VoilaKernelManager.kernel_pools_config="))
    pools = json.loads(flag.split("=", 1)[1])
    assert pools == {"play.ipynb": {"pool_size": 4}, "default": {"pool_size": 0}}
    assert not any("kernel_pools_config" in a for a in voila_command(ServeOptions(pool=0), Path("notebooks")))


def test_a_class_gets_a_pool_a_kernel_budget_and_kernels_that_end_with_their_page():
    options = ServeOptions()
    command = voila_command(options, Path("notebooks"))
    assert command[1:3] == ["-m", "dragonkit.server"] and options.pool == 2
    assert "--ClassroomVoila.max_kernels=0" in command  # 0: from the machine's memory
    assert "--ClassroomVoila.max_kernels_per_client=10" in command
    # a kernel whose page is gone goes within 60 s (45 idle, checked every 15); an open page's never
    assert "--MappingKernelManager.cull_idle_timeout=45" in command
    assert "--MappingKernelManager.cull_interval=15" in command
    assert "--MappingKernelManager.cull_connected=False" in command
    # a new page's kernel waits 3 minutes for its browser's first connection (a slow network)
    assert "--ClassroomKernelManager.connect_wait=180" in command
    ServeOptions(max_kernels=4).check()  # the visitor's default limit (10) above the machine's is no error
    with pytest.raises(ValueError, match=re.escape("--pool (2) must be smaller than --max-kernels (2)")):
        ServeOptions(max_kernels=2).check()
    with pytest.raises(ValueError, match="--max-kernels must be >= 0"):
        ServeOptions(max_kernels=-1).check()
    with pytest.raises(ValueError, match="--connect-wait must be >= 0"):
        ServeOptions(connect_wait=-1).check()


def test_the_addresses_carry_the_token():
    options = ServeOptions(ip="::1", port=9000, token="abcdefgh12")
    assert options.url == "http://[::1]:9000/voila/render/play.ipynb?token=abcdefgh12"
    assert options.index_url == "http://[::1]:9000/?token=abcdefgh12"
    italian = ServeOptions(port=9000, lang="it")
    assert italian.index_url == "http://127.0.0.1:9000/voila/tree/it"  # the Italian lessons


def test_only_v1_kernel_websockets_and_patient_pages():
    command = voila_command(ServeOptions(), Path("notebooks"))
    connection = "dragonkit.server.kernel_socket.V1OnlyWebsocketConnection"
    assert f"--Voila.kernel_websocket_connection_class={connection}" in command
    assert "--VoilaExecutor.iopub_timeout=120" in command  # a class arriving at once gets the app, late


# -- the record's options of dragonkit serve ---------------------------------------------------------------------------


def test_the_record_and_the_class_reach_the_server_in_its_environment_and_the_key_in_neither(monkeypatch):
    """The key goes through a pipe (tests/server/test_teacher.py reads a server's environment and command line): a
    key given to dragonkit serve in its environment is not passed on to the server's."""
    monkeypatch.setenv("DRAGONKIT_TEACHER_KEY", "teacher-key-0001")
    record = "sqlite:////tmp/r.sqlite"
    options = ServeOptions(record=record, class_name="3B", teacher_key="teacher-key-0001", token="tttttttt")
    environment = options.environment()
    assert environment["DRAGONKIT_RECORD"] == record and environment["DRAGONKIT_CLASS"] == "3B"
    assert "teacher-key-0001" not in " ".join(environment.values())
    assert not any("teacher-key-0001" in argument for argument in voila_command(options, Path("notebooks")))
    assert "teacher-key-0001" not in repr(options)
    assert options.dashboard_url == (
        "http://127.0.0.1:8866/voila/render/dashboard.ipynb?token=tttttttt&key=teacher-key-0001"
    )
    assert ServeOptions().environment()["DRAGONKIT_RECORD"] == "off"  # none unless given: dragonkit serve gives one
    assert ServeOptions().teacher_key != ServeOptions().teacher_key  # a new key at each start
    for bad, flag in (("record", "--record"), ("class_name", "--class"), ("teacher_key", "--teacher-key")):
        with pytest.raises(ValueError, match=flag):
            ServeOptions(**{bad: " "}).check()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_record_that_cannot_be_reached_is_said_in_one_line_and_the_server_serves_anyway(tmp_path):
    line = prepare(f"postgresql+psycopg://dragonkit:secret@127.0.0.1:{_free_port()}/class")
    assert line.startswith("dragonkit: the class's record at postgresql+psycopg://dragonkit:***@127.0.0.1:")
    assert "cannot be reached now" in line and "serving anyway" in line and "\n" not in line and "secret" not in line
    url = f"sqlite:///{tmp_path / 'new' / 'record.sqlite'}"
    assert prepare(url) == f"dragonkit: the class's record is {tmp_path / 'new' / 'record.sqlite'}"
    assert revision(connect(url)) == head()  # the schema made at the start


def _command_lines() -> list[str]:
    """The command line of every process of the machine, as ``ps`` shows them to anyone."""
    lines = []
    for path in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):  # ended meanwhile
            lines.append(path.read_bytes().decode(errors="replace"))
    return lines


@pytest.mark.parametrize(
    "given, a_class",
    [
        ({}, False),
        ({"ip": "localhost"}, False),
        ({"ip": "::1"}, False),
        ({"class_name": "3B"}, True),
        ({"token": "tttttttt"}, True),
        ({"teacher_key": "teacher-key-0001"}, True),
        ({"record": "sqlite:////tmp/r.sqlite"}, True),
        ({"ip": "0.0.0.0"}, True),
    ],
)
def test_a_class_is_said_by_its_name_a_token_a_key_a_record_or_an_address_beyond_this_machine(
    given, a_class, monkeypatch
):
    monkeypatch.delenv("DRAGONKIT_TEACHER_KEY", raising=False)
    arguments = {"class_name": None, "token": None, "teacher_key": None, "record": None, "ip": "127.0.0.1", **given}
    assert serves_a_class(argparse.Namespace(**arguments)) is a_class
    monkeypatch.setenv("DRAGONKIT_TEACHER_KEY", "teacher-key-0001")  # the key given the way that no `ps` shows
    assert serves_a_class(argparse.Namespace(**arguments))


@contextlib.contextmanager
def _serving(tmp_path: Path, *options: str) -> Iterator[str]:
    """`dragonkit serve` with ``options`` in a process of its own, as a person starts it (no browser; the user's data
    folder in ``tmp_path``, no teacher's key in the environment): what it printed once it serves; stopped after."""
    environment = {k: v for k, v in os.environ.items() if k != "DRAGONKIT_TEACHER_KEY"}
    environment["XDG_DATA_HOME"] = str(tmp_path)
    command = [sys.executable, "-m", "dragonkit.cli", "serve", "--no-browser", f"--port={_free_port()}", "--pool=0"]
    with open(tmp_path / "serve.log", "wb") as log:
        serve = subprocess.Popen([*command, *options], stdout=subprocess.PIPE, stderr=log, env=environment, text=True)
    try:
        printed: list[str] = []
        while not printed or "Ctrl-C stops" not in printed[-1]:
            line = serve.stdout.readline()
            assert line, f"serve stopped: {printed}; see {tmp_path / 'serve.log'}"
            printed.append(line)
        yield "".join(printed)
    finally:
        serve.terminate()
        serve.wait(timeout=30)


class _Stay(urllib.request.HTTPRedirectHandler):
    """Follow no redirection: its status is the answer."""

    def redirect_request(self, *_args, **_kwargs):
        return None


def _first_page(printed: str) -> str:
    """The page the browser opens first: the play app's address `dragonkit serve` printed, asked for once."""
    address = re.search(r"dragonkit: the play app is at (\S+)\n", printed)[1]
    assert address.endswith("/voila/render/play.ipynb"), address
    with urllib.request.build_opener(_Stay).open(address, timeout=180) as answer:
        assert answer.status == 200
        return answer.read().decode()


@pytest.mark.browser
def test_serve_alone_opens_the_game_at_once_and_keeps_no_record(tmp_path):
    """`dragonkit serve` with no option of a class, as a learner starts it on their own machine: its first page is the
    play app, drawn (no join page, no nickname asked), and nothing of a record is written, nor a dashboard offered."""
    with _serving(tmp_path) as printed:
        assert f"{ALONE}\n" in printed and "dashboard" not in printed
        page = _first_page(printed)
    assert "<title>Dragon Stripes — play</title>" in page and "application/vnd.jupyter.widget-view+json" in page
    assert "Join the class" not in page and 'name="nickname"' not in page
    assert not (tmp_path / "dragonkit").exists()  # no record: the user's data folder untouched


@pytest.mark.browser
def test_serve_for_a_class_keeps_this_machines_record_asks_nicknames_and_prints_the_teachers_dashboard(tmp_path):
    """`dragonkit serve --class 3B` with no record option: the SQLite file of the user's data folder, at the newest
    schema; its first page the join page; the dashboard's address printed with a key that opens it; the key on no
    command line of the machine."""
    with _serving(tmp_path, "--class", "3B") as printed:
        record = tmp_path / "dragonkit" / "class-record.sqlite"
        assert f"dragonkit: the class's record is {record}\n" in printed
        assert revision(connect(f"sqlite:///{record}")) == head()
        page = _first_page(printed)
        assert "<h1>Join the class</h1>" in page and 'name="nickname"' in page and "widget-view" not in page
        dashboard = re.search(r"dashboard \(keep its address to yourself\) is at (\S+)", printed)[1]
        key = dashboard.split("?key=", 1)[1]
        port = dashboard.split(":")[2].split("/")[0]
        assert dashboard == f"http://127.0.0.1:{port}/voila/render/dashboard.ipynb?key={key}" and len(key) >= 16
        assert not any(key in line for line in _command_lines()), "the teacher's key on a command line"
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.build_opener(_Stay).open(dashboard, timeout=60)
        assert answer.value.code == 302  # the key opens it: a cookie, and the address without the key


# -- dragonkit class export, erase, check ------------------------------------------------------------------------------


def _class_of_three(url: str, monkeypatch) -> None:
    """An attempt each of Ada and Bo (class 3B) and of Cy (4A): a visit and an attempt each, in the record."""
    writer = Writer(url)
    for klass, nickname in (("3B", "Ada"), ("3B", "Bo"), ("4A", "Cy")):
        monkeypatch.setenv("DRAGONKIT_NICKNAME", nickname)
        visit = Visit("01-play-and-observe", "it", writer, klass)
        visit.attempt(AttemptRow("01-play-and-observe", "first", "0,5", correct=nickname != "Bo"))
    assert writer.close()


def _counts(url: str) -> dict[str, int]:
    """The rows of each of the record's tables."""
    frames = {table: pd.read_sql_table(table, connect(url)) for table in ("visits", "decisions", "attempts", "games")}
    return {table: len(frame) for table, frame in frames.items()}


class _Terminal:
    """Standard input as a terminal where the teacher types ``answer`` (or, ``tty=False``, as a pipe)."""

    def __init__(self, answer: str, tty: bool = True) -> None:
        self.answer, self.tty = answer, tty

    def isatty(self) -> bool:
        return self.tty

    def readline(self) -> str:
        return self.answer + "\n"


def test_export_writes_a_class_or_a_day_and_says_how_many_rows(record_url, tmp_path, monkeypatch, capsys):
    _class_of_three(record_url, monkeypatch)
    csv = tmp_path / "3B.csv"
    assert main(["class", "export", str(csv), "--class", "3B", "--record", record_url]) == 0
    assert "dragonkit: 2 rows (decisions and exercise attempts) written" in capsys.readouterr().out
    table = pd.read_csv(csv)
    assert sorted(table.nickname) == ["Ada", "Bo"] and set(table.kind) == {"attempt"}
    assert set(table.class_name) == {"3B"}
    parquet = tmp_path / "today.PARQUET"
    assert main(["class", "export", str(parquet), "--day", date.today().isoformat(), "--record", record_url]) == 0
    assert len(pd.read_parquet(parquet)) == 3 and "3 rows" in capsys.readouterr().out
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    assert main(["class", "export", str(csv), "--day", yesterday, "--record", record_url]) == 0
    assert "0 rows" in capsys.readouterr().out


def test_erase_says_what_it_erases_asks_and_erases_only_that(record_url, monkeypatch, capsys):
    _class_of_three(record_url, monkeypatch)
    everything = _counts(record_url)
    assert everything == {"visits": 3, "decisions": 0, "attempts": 3, "games": 0}
    erase_3b = ["class", "erase", "--class", "3B", "--record", record_url]
    monkeypatch.setattr(sys, "stdin", _Terminal("no"))
    assert main(erase_3b) == 1
    said = capsys.readouterr().out
    assert "this erases the visits, decisions, exercise attempts and games of class '3B'" in said
    assert "nothing erased" in said and _counts(record_url) == everything
    monkeypatch.setattr(sys, "stdin", _Terminal("yes"))
    assert main(erase_3b) == 0 and "dragonkit: 4 rows erased" in capsys.readouterr().out
    assert _counts(record_url) == {"visits": 1, "decisions": 0, "attempts": 1, "games": 0}
    assert main(["class", "erase", "--all", "--yes", "--record", record_url]) == 0
    assert "2 rows erased" in capsys.readouterr().out and sum(_counts(record_url).values()) == 0


def test_erase_without_a_terminal_or_with_everything_and_a_class_erases_nothing(record_url, monkeypatch, capsys):
    _class_of_three(record_url, monkeypatch)
    everything = _counts(record_url)
    monkeypatch.setattr(sys, "stdin", _Terminal("yes", tty=False))  # a pipe: nobody to ask
    for argv, said in (
        (["--class", "3B"], "--yes: there is no terminal to ask on"),
        (["--all", "--class", "3B", "--yes"], "--all erases everything"),
        (["--all", "--day", "2025-03-14", "--yes"], "--all erases everything"),
        ([], "say what to erase: --class NAME, --day YYYY-MM-DD (or both), or --all"),
        (["--day", "2025-13-01", "--yes"], "argument --day: '2025-13-01' is not a day written YYYY-MM-DD"),
    ):
        with pytest.raises(SystemExit) as exited:
            main(["class", "erase", *argv, "--record", record_url])
        assert exited.value.code == 2 and said in capsys.readouterr().err, argv
    assert _counts(record_url) == everything


def test_check_says_the_schema_revision_and_the_integrity(record_url, capsys):
    assert main(["class", "check", "--record", record_url]) == 0
    said = capsys.readouterr().out
    assert f"schema revision {head()} (the newest)" in said and "integrity check: ok" in said


def test_a_record_that_is_not_there_is_not_made_by_reading_it(tmp_path, capsys, monkeypatch):
    missing = tmp_path / "none.sqlite"
    for argv in (["check"], ["export", str(tmp_path / "out.csv")], ["erase", "--all", "--yes"]):
        assert main(["class", *argv, "--record", f"sqlite:///{missing}"]) == 1
        assert f"there is no record at {missing}" in capsys.readouterr().err
    assert not missing.exists() and not (tmp_path / "out.csv").exists()
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert main(["class", "check", "--record", f"sqlite:///{empty}"]) == 1
    assert "is empty: no schema yet" in capsys.readouterr().out
    closed = f"postgresql+psycopg://dragonkit@127.0.0.1:{_free_port()}/class"
    assert main(["class", "check", "--record", closed]) == 1
    assert "cannot be read: connection failed" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, said",
    [
        (["serve", "--record", "not a url"], "argument --record: 'not a url' is not the URL of an SQLite or"),
        (["serve", "--record", "mysql://u@h/d"], "argument --record: 'mysql://u@h/d' is not the URL"),
        (["serve", "--record", "sqlite:///x.sqlite", "--no-record"], "argument --no-record: not allowed with"),
        (["serve", "--class", "x" * 41], "argument --class: a class's name has 1 to 40 characters, not 41"),
        (["serve", "--teacher-key", "short"], "argument --teacher-key: the teacher's key must be 16 to 128"),
        (["class", "export", "out.csv", "--day", "14/03/2025"], "argument --day: '14/03/2025' is not a day"),
        (["class", "export", "out.csv", "--day", "2025-02-30"], "argument --day: '2025-02-30' is not a day"),
        (["class", "export", "out.xlsx"], "FILE: export to a .csv or a .parquet file, not 'out.xlsx'"),
        (["class", "export", "nowhere/out.csv"], "FILE: there is no folder"),
        (["class", "check", "--record", "nope"], "argument --record: 'nope' is not the URL"),
    ],
)
def test_a_bad_value_is_refused_with_its_option_named_and_nothing_made(argv, said, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # where this machine's record would be made
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2 and said in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
