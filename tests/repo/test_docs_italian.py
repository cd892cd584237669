"""The documents written in Italian (docs/*.it.md) are Italian through and through: no English sentence, code, commands,
addresses, the names of the game, its editions and of products aside."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ..english import english_words

#: Names of products, as their makers write them.
PRODUCTS = ("The Littlest JupyterHub", "Zero to JupyterHub")

DOCS = sorted((Path(__file__).resolve().parents[2] / "docs").glob("*.it.md"))


def test_the_italian_documents_are_there():
    assert {p.name for p in DOCS} >= {"RULES.it.md", "classroom.it.md", "curriculum.it.md"}


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_an_italian_document_has_no_english(path):
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"(?<=\S)\n(?=\S)", " ", text)  # a name broken across two lines
    for name in PRODUCTS:
        text = text.replace(name, " ")
    text = re.sub(r"```.*?```|`[^`]*`|\]\([^)]*\)|\$[^$]*\$|https?://\S+", " ", text, flags=re.S)
    assert english_words(text) == []
