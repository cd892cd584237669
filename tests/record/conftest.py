"""The record's fixtures: a record on SQLite and on a real PostgreSQL server (tests/postgres.py), and a kernel whose
pages write to it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dragonkit.record import session
from dragonkit.record.store import connect, upgrade
from tests.postgres import temporary_postgres


@pytest.fixture(scope="session")
def postgres():
    """One PostgreSQL server for this worker's tests (a temporary cluster)."""
    with temporary_postgres() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def record_url(request, tmp_path) -> Iterator[str]:
    """An empty record at its newest schema, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'record.sqlite'}"
    else:
        server = request.getfixturevalue("postgres")
        name = f"t{abs(hash(request.node.nodeid)) % 10**9}"
        server.psql(f"DROP DATABASE IF EXISTS {name}", database="postgres")
        server.psql(f"CREATE DATABASE {name}", database="postgres")
        url = server.url.rsplit("/", 1)[0] + f"/{name}"
    engine = connect(url)
    upgrade(engine)
    engine.dispose()
    yield url


@pytest.fixture
def recording(monkeypatch, tmp_path) -> Iterator[str]:
    """This process records to a new SQLite record, as a kernel of ``dragonkit serve`` does, with the nickname
    ``Ada`` and the class ``3B``; yields the record's URL (read it after :func:`dragonkit.record.session.flush`)."""
    url = f"sqlite:///{tmp_path / 'record.sqlite'}"
    monkeypatch.setenv("DRAGONKIT_RECORD", url)
    monkeypatch.setenv("DRAGONKIT_CLASS", "3B")
    monkeypatch.setenv("DRAGONKIT_NICKNAME", "Ada")
    yield url
    session.flush()
