"""A real PostgreSQL server for the tests and the benchmarks: a temporary cluster of Debian's ``postgresql``, started
on a free port of 127.0.0.1 and removed at the end, as a school's server would run (README's test command installs
the package when it is missing).

PostgreSQL refuses to run as root: as root, the cluster belongs to the ``postgres`` user the package creates, and its
commands run as that user (``runuser``).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PostgresServer", "postgres_bin", "temporary_postgres"]


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (``initdb``, ``pg_ctl``), or None where it is not installed."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class PostgresServer:
    """A running temporary cluster.

    Attributes
    ----------
    folder : Path
        Its data folder.
    port : int
    url : str
        An SQLAlchemy URL of its database ``dragonkit`` (``postgresql+psycopg://``).
    """

    folder: Path
    port: int
    bin: Path
    user: str | None

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/dragonkit"

    def _run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        return subprocess.run([*prefix, *command], check=check, capture_output=True, text=True, timeout=60)

    def start(self) -> None:
        """Start the server (and wait until it takes connections)."""
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.folder / "data"),
            "-l",
            str(self.folder / "server.log"),
            "-o",
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off",
            "-w",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: sessions are cut; ``immediate``: as a crash)."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", mode, "-w", "stop", check=False)

    def psql(self, sql: str, database: str = "dragonkit") -> str:
        """Run ``sql`` with ``psql`` as the superuser; its output."""
        return self._run(
            str(self.bin / "psql"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-d",
            database,
            "-Atc",
            sql,
        ).stdout


@contextlib.contextmanager
def temporary_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server in a temporary folder, with an empty database ``dragonkit``, removed at the end.

    Raises
    ------
    RuntimeError
        If PostgreSQL is not installed (Debian: ``apt-get install -y postgresql``).
    """
    programs = postgres_bin()
    if programs is None:
        raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql (README's test command does)")
    user = "postgres" if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="dragonkit-pg-"))
    if user:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    server = PostgresServer(folder, _free_port(), programs, user)
    try:
        server._run(
            str(programs / "initdb"),
            "-D",
            str(folder / "data"),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        server.start()
        for _ in range(50):
            if (
                server._run(
                    str(programs / "createdb"),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(server.port),
                    "-U",
                    "postgres",
                    "dragonkit",
                    check=False,
                ).returncode
                == 0
            ):
                break
            time.sleep(0.1)
        yield server
    finally:
        server.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)
