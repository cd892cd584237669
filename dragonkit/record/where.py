"""Which record a process writes to, and for which class: what ``dragonkit serve`` tells its kernels in their
environment. Nothing here imports SQLAlchemy: a kernel without a record never loads it, and one with a record loads it
in its writer's thread (:mod:`dragonkit.record.writer`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["CLASS_VARIABLE", "DEFAULT_CLASS", "RECORD_VARIABLE", "class_name", "record_url"]

#: The environment variable that holds the record's SQLAlchemy URL (``off``: no record), and the one that holds the
#: class's name.
RECORD_VARIABLE = "DRAGONKIT_RECORD"
CLASS_VARIABLE = "DRAGONKIT_CLASS"
#: The class's name where none is given.
DEFAULT_CLASS = "class"


def record_url(environ: Mapping[str, str] = os.environ) -> str | None:
    """The record this process writes to: ``$DRAGONKIT_RECORD``, or None where it is unset, empty or ``off``.

    Raises
    ------
    ValueError
        If the variable holds something that is not a URL (``dialect://…``);
        :func:`dragonkit.record.store.checked_url` checks it whole.
    """
    url = environ.get(RECORD_VARIABLE, "").strip()
    if not url or url.lower() == "off":
        return None
    if "://" not in url:
        raise ValueError(
            f"{RECORD_VARIABLE}={url!r} is not a database URL: give sqlite:///path/to/file.sqlite or "
            "postgresql+psycopg://user:password@host/database"
        )
    return url


def class_name(environ: Mapping[str, str] = os.environ) -> str:
    """The class this process records for: ``$DRAGONKIT_CLASS``, else :data:`DEFAULT_CLASS` (at most 40 characters)."""
    return environ.get(CLASS_VARIABLE, "").strip()[:40] or DEFAULT_CLASS
