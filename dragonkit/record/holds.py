"""Nicknames held: a class's nickname belongs to the browser that took it first, until the teacher releases it.

Joining a class with a nickname nobody holds (:func:`take`) makes a secret of 32 random bytes for the browser that
joined: the server gives it to that browser in an HttpOnly cookie, and the record keeps only its SHA-256 digest
(:class:`~dragonkit.record.schema.NicknameHold`), so that neither the database nor its backups can act as a student.
A page asked for with that cookie is the student's (:func:`holder`): reloads, new tabs and the student's seat in a
room follow that browser. Another browser asking for the same nickname is refused (:class:`NicknameTakenError`)
whatever it sends: the nickname is not its own. The teacher releases a nickname (:func:`release`: a student who
changed laptops, or lost their browser's cookies); the next browser to join with it holds it. Releases are kept, with
their time, for the dashboard (:func:`dragonkit.record.reading.nickname_holds`).

Two browsers joining with one nickname at the same moment meet in the database: a partial unique index lets one
hold not released per nickname of a class (migration 0005), so exactly one of them holds it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from .nicknames import look_alike_key
from .schema import NicknameHold

__all__ = [
    "SECRET_BYTES",
    "NicknameTakenError",
    "digest",
    "holder",
    "release",
    "released_among",
    "released_from",
    "take",
]

#: The random bytes of a browser's secret (256 bits: not to be guessed, so a plain digest keeps it safe).
SECRET_BYTES = 32


class NicknameTakenError(LookupError):
    """The nickname is held by another browser in this class: pick another, or ask the teacher to release it."""

    def __init__(self, class_name: str, nickname: str) -> None:
        super().__init__(f"the nickname {nickname!r} of class {class_name!r} is held by another browser")
        self.class_name, self.nickname = class_name, nickname


def _now(now: datetime | None) -> datetime:
    return (now or datetime.now(UTC)).replace(tzinfo=None)  # UTC, without a time zone, as every time of the record


def digest(secret: str) -> str:
    """The SHA-256 digest of a browser's ``secret``, 64 hex digits: what the record keeps of it."""
    return hashlib.sha256(secret.encode()).hexdigest()


def take(engine: Engine, class_name: str, nickname: str, now: datetime | None = None) -> str:
    """Hold ``nickname`` in ``class_name`` for a browser: the secret that browser keeps (the record keeps its digest).

    Parameters
    ----------
    engine : sqlalchemy.Engine
    class_name : str
    nickname : str
        A nickname as :func:`~dragonkit.record.nicknames.nickname` gives it.
    now : datetime, optional
        The time of the hold (UTC; default: now).

    Returns
    -------
    str
        The secret, 43 URL-safe characters (:data:`SECRET_BYTES` random bytes).

    Raises
    ------
    NicknameTakenError
        If a hold of ``nickname`` in ``class_name``, or of a look-alike of it ("ada" for "Ada", a fullwidth "Ａda",
        :func:`~dragonkit.record.nicknames.look_alike_key`), is not released: nothing is written.
    """
    secret = secrets.token_urlsafe(SECRET_BYTES)
    row = {
        "class_name": class_name,
        "nickname": nickname,
        "look_alike": look_alike_key(nickname),
        "digest": digest(secret),
        "taken": _now(now),
    }
    try:
        with engine.begin() as connection:
            connection.execute(insert(NicknameHold).values(**row))
    except IntegrityError as taken:  # the index of the holds not released: another browser holds it
        raise NicknameTakenError(class_name, nickname) from taken
    return secret


def holder(engine: Engine, class_name: str, secret: str) -> str | None:
    """The nickname that the browser keeping ``secret`` holds in ``class_name``; None if it holds none there (a secret
    never given, one of a nickname since released, or one of another class)."""
    return _nickname_of(engine, class_name, secret, released=False)


def released_from(engine: Engine, class_name: str, secret: str) -> str | None:
    """The nickname that the browser keeping ``secret`` held in ``class_name`` until the teacher released it; None if
    it held none there, or holds it still."""
    return _nickname_of(engine, class_name, secret, released=True)


def released_among(engine: Engine, class_name: str, digests: Iterable[str]) -> set[str]:
    """Those of ``digests`` (of secrets, :func:`digest`) whose hold in ``class_name`` the teacher has released: the
    server ends the pages those browsers still have open."""
    wanted = list(digests)
    if not wanted:
        return set()
    query = select(NicknameHold.digest).where(
        NicknameHold.digest.in_(wanted),
        NicknameHold.class_name == class_name,
        NicknameHold.released.is_not(None),
    )
    with engine.connect() as connection:
        return set(connection.execute(query).scalars())


def _nickname_of(engine: Engine, class_name: str, secret: str, released: bool) -> str | None:
    """The nickname of ``class_name`` whose hold's digest is ``secret``'s, among the holds released or not."""
    if not secret:
        return None
    when = NicknameHold.released
    query = select(NicknameHold.nickname).where(
        NicknameHold.digest == digest(secret),
        NicknameHold.class_name == class_name,
        when.is_not(None) if released else when.is_(None),
    )
    with engine.connect() as connection:
        return connection.execute(query).scalar_one_or_none()


def release(engine: Engine, class_name: str, nickname: str, now: datetime | None = None) -> bool:
    """Release ``nickname`` in ``class_name``: the browser that held it holds it no more, and the next browser to join
    with it holds it.

    Returns
    -------
    bool
        True if a hold was released; False if nobody held the nickname (nothing is written).
    """
    with engine.begin() as connection:
        released = connection.execute(
            update(NicknameHold)
            .where(
                NicknameHold.class_name == class_name,
                NicknameHold.look_alike == look_alike_key(nickname),
                NicknameHold.released.is_(None),
            )
            .values(released=_now(now))
        )
    return released.rowcount == 1
