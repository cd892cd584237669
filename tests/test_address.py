"""The one reader of a page's address (dragonkit.address): the fields of the query Voilà gives a page's kernel."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from dragonkit import address

PACKAGE = Path(address.__file__).parent


@pytest.mark.parametrize(
    "query, name, values",
    [
        ("lang=it&view=projector", "lang", ["it"]),
        ("lang=it&view=projector", "view", ["projector"]),
        ("view=projector&lang=it&token=x", "view", ["projector"]),
        ("lang=en&lang=it", "lang", ["en", "it"]),
        ("lang=", "lang", []),
        ("token=x", "view", []),
        ("", "lang", []),
        ("view=pro%6Aector", "view", ["projector"]),
    ],
)
def test_the_values_of_a_field_of_the_query(query, name, values):
    assert address.query_values(name, {"QUERY_STRING": query}) == values


def test_no_query_is_no_value_and_the_kernel_s_own_environment_is_read(monkeypatch):
    assert address.query_values("lang", {}) == []
    monkeypatch.setenv("QUERY_STRING", "view=projector")
    assert address.query_values("view") == ["projector"]
    assert address.query_values("view", os.environ) == ["projector"]


def test_the_query_is_parsed_in_one_place():
    """No module of the package but this one parses a query: the language and the view are read through it."""
    parsers = [
        path.relative_to(PACKAGE).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if "parse_qs" in path.read_text(encoding="utf-8")
    ]
    assert parsers == ["address.py"]


def test_the_reader_of_the_address_imports_nothing_of_the_kit():
    """The language (dragonkit.i18n) and the view (dragonkit.view) stand on it: it stands on nothing of the kit."""
    tree = ast.parse(Path(address.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert imported == {"__future__", "os", "collections.abc", "urllib.parse"}
