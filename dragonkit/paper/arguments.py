"""The options of ``dragonkit paper`` and ``python -m dragonkit.paper``, apart from the build
(:mod:`dragonkit.paper.build`): the ``dragonkit`` command reads them without importing the lessons."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..i18n import LANGUAGES

__all__ = ["add_arguments"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``dragonkit paper`` (and of ``python -m dragonkit.paper``)."""
    parser.add_argument("--out", type=Path, default=Path("paper"), help="the folder to write to (default paper/)")
    parser.add_argument(
        "--lang",
        nargs="+",
        choices=list(LANGUAGES),
        default=list(LANGUAGES),
        help=f"the languages (default: {' '.join(LANGUAGES)})",
    )
