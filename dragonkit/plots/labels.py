"""How the figures write the numbers of their labels: as the page's language writes them.

No matplotlib here (:func:`number_label` only reads and writes text): importing :mod:`dragonkit.plots`
loads none.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..i18n.numbers import decimal_text

__all__ = ["number_label"]


#: A number as matplotlib and Python's ``format`` write it: digits, maybe a decimal point and more digits,
#: maybe an exponent (kept as it is).
_NUMBER = re.compile(r"(\d+(?:\.\d+)?)([eE][+\-−]?\d+)?")


def number_label(text: str, lang: str | None = None) -> str:
    """A label written with Python's or matplotlib's number format (``"0.5"``, ``"2000"``, ``"1e+03"``,
    ``"$\\mathdefault{0.5}$"``), with its numbers as ``lang`` writes them (default: the current language):
    ``"0,5"``, ``"2.000"`` in Italian, ``"2,000"`` in English; signs, exponents and mathtext stay.

    Parameters
    ----------
    text : str
    lang : str, optional
    """

    def written(match: re.Match[str]) -> str:
        digits, exponent = match.group(1), match.group(2) or ""
        shown = decimal_text(Fraction(digits), len(digits.partition(".")[2]), lang)
        return (shown.replace(",", "{,}") if "$" in text else shown) + exponent  # mathtext spaces a bare comma

    return _NUMBER.sub(written, text)
