"""The PDFs as the tests read them back: each page's text, with ligatures and line breaks undone, and a page's HTML
as the same plain text, to compare the two."""

from __future__ import annotations

import html
import re
import unicodedata
from functools import cache
from pathlib import Path

from pypdf import PdfReader


def plain(text: str) -> str:
    """``text`` (HTML, or a PDF's) as one line of plain text: no tags, entities read, ligatures (``ﬁ``) undone,
    every run of white space one space."""
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


@cache
def pages(path: Path) -> tuple[str, ...]:
    """The text of each page of the PDF ``path``, :func:`plain`, read once; a line that ends after a hyphen (``1-`` then
    ``step``) is joined to the next without a space."""
    return tuple(plain(re.sub(r"(?<=\w-)\n", "", page.extract_text())) for page in PdfReader(path).pages)


def text(path: Path) -> str:
    """The text of the whole PDF ``path``, :func:`plain`."""
    return " ".join(pages(path))
