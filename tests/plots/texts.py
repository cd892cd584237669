"""What every figure's text alternative must be (:class:`~dragonkit.plots.text.FigureText`): short enough to
be read aloud, a header and rows of its length, Italian when the page is, its numbers as the language writes them."""

from __future__ import annotations

import re
from fractions import Fraction

from dragonkit import i18n
from dragonkit.i18n.numbers import parse_number
from dragonkit.plots.text import FigureText

from ..english import ENGLISH_WORDS as LESSON_WORDS
from ..figures import alt_of
from ..ui.test_app_i18n import ENGLISH_WORDS as APP_WORDS

#: English words that an Italian text never holds (the lessons' and the apps' lists).
ENGLISH = LESSON_WORDS | APP_WORDS


#: Longer than this, a text alternative is too long to be read aloud (characters).
ALT_LIMIT = 300


def _number(text: str) -> float:
    """A number as English writes it (``−1,234.5`` -> -1234.5; the minus sign is U+2212)."""
    return float(text.replace(",", "").replace("−", "-"))


def minus(text: str) -> str:
    """``text`` as the kit writes numbers: a negative one with a true minus sign (U+2212), not a hyphen."""
    return text.replace("-", "−")


def _checked(text: FigureText) -> FigureText:
    """A figure's text as every page needs it: a short alternative, a header and rows as long as it."""
    assert 0 < len(text.alt) <= ALT_LIMIT, text.alt
    assert text.columns and text.rows
    assert all(len(row) == len(text.columns) for row in text.rows)
    return text


def _italian(text: FigureText) -> None:
    """An Italian text: no English word, and its decimals written with a comma."""
    cells = [cell for row in text.rows for cell in row]
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", " ".join([text.alt, *text.columns, *cells]))}
    assert not words & ENGLISH, (words & ENGLISH, text.alt)
    for number in re.findall(r"\d[\d.,]*\d", text.alt):  # a point only between thousands: 7.945, 2.000,5
        assert "." not in number or re.fullmatch(r"[1-9]\d{0,2}(\.\d{3})+(,\d+)?", number), (number, text.alt)


def well_formed(text: FigureText) -> FigureText:
    """A text alternative of one or two sentences, and a table whose rows are as long as its header."""
    assert text.alt.strip() and len(text.alt) <= 320, text.alt
    assert text.columns and text.rows
    assert all(len(row) == len(text.columns) for row in text.rows)
    assert "{" not in text.alt and "}" not in text.alt  # every field filled
    return text


def number(cell: str, lang: str = "en") -> Fraction:
    return parse_number(cell, lang)


def column(text: FigureText, name: str) -> list[str]:
    return [row[text.columns.index(name)] for row in text.rows]


def _well_formed(text: FigureText) -> None:
    assert text.alt.strip() and len(text.alt) <= 300
    assert text.rows and all(len(row) == len(text.columns) for row in text.rows)


def told_in_both_languages(shown, alt_en: str, alt_it: str) -> None:
    """``shown``, a widget whose ``value`` is a figure as a page shows it (its picture, its text alternative and its
    table), tells the figure in English (an alternative that starts with ``alt_en``) and, the page switched to
    Italian, in Italian (``alt_it``): each alternative short enough to be read aloud."""
    assert "<table" in shown.value and '<img src="data:image/png;base64,' in shown.value
    for lang, alt, summary in (("en", alt_en, "The figure&#x27;s numbers"), ("it", alt_it, "I numeri della figura")):
        i18n.set_language(lang)
        assert alt_of(shown.value).startswith(alt) and len(alt_of(shown.value)) <= ALT_LIMIT, alt_of(shown.value)
        assert f"<summary>{summary}</summary>" in shown.value
