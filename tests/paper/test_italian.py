"""No English on Italian paper: every Italian PDF, its figures' words included, without the common English words
(tests/english.py) nor the words paper adds in English."""

from __future__ import annotations

import re

from ..english import english_words
from .pdfs import text


def test_italian_paper_has_no_english(paper):
    for path in sorted((paper.folder / "it").glob("*.pdf")):
        read = text(path)
        for english in (" the ", " and ", " of ", " with ", "Worksheet", "Name", "Teacher", "Answer", "page "):
            assert english not in read, (path.name, english)
        # a command's options (--games 10000) are code, the same in every language
        assert english_words(re.sub(r"--[\w-]+", " ", read)) == [], path.name
