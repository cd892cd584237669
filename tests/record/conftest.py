"""The record's fixtures: a record on SQLite and on a real PostgreSQL server (tests/postgres.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

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
