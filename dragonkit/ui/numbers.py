"""Exact numbers as HTML, the one way the apps and the lessons show them.

An exact number is shown as its fraction (``<span class="dk-frac">``, in a
monospaced font that wraps long ones) and, when it is not whole, its decimal.
The decimal is written as the page's language writes it (``0.375``, ``0,375``:
:mod:`dragonkit.i18n.numbers`); a fraction is the same in every language.
"""

from __future__ import annotations

from fractions import Fraction

from ..i18n import ntr, tr
from ..i18n.numbers import decimal_text, fraction_text

__all__ = ["format_fraction", "gems_html", "number_html"]


def format_fraction(value: Fraction | int) -> str:
    """HTML for an exact number, e.g. ``<span class="dk-frac">13/47</span>`` (long ones wrap; a true minus sign:
    ``−37/14``)."""
    return f'<span class="dk-frac">{fraction_text(value)}</span>'


def number_html(value: Fraction | float, digits: int = 3, lang: str | None = None) -> str:
    """An exact number as HTML: ``3/8 ≈ 0.375`` (``0,375`` in Italian); a whole number alone; a float (an
    estimate, no exact value) as its decimal only.

    Parameters
    ----------
    value : Fraction, int or float
    digits : int
        Decimals shown.
    lang : str, optional
        The language the decimal is written in (default: the current language).
    """
    if isinstance(value, float):
        return decimal_text(value, digits, lang)
    value = Fraction(value)
    if value.denominator == 1:
        return format_fraction(value)
    return f'{format_fraction(value)} <span class="dk-dec">≈ {decimal_text(value, digits, lang)}</span>'


def gems_html(value: Fraction | float, lang: str | None = None) -> str:
    """A value in gems, as the coach shows it: ``3 gems``, or the decimal first
    (``≈ 2.3214 gems``) with the exact fraction under it; a float (an estimate,
    no exact value) as its decimal only.

    Parameters
    ----------
    value : Fraction, int or float
        Gems.
    lang : str, optional
        The language of the words (default: the current language).
    """
    if isinstance(value, float):
        return tr("{n} gems", lang, n=f"<b>≈ {decimal_text(value, 4, lang)}</b>")
    value = Fraction(value)
    if value.denominator == 1:
        return ntr("{n} gem", "{n} gems", abs(int(value)), lang, n=f"<b>{format_fraction(value)}</b>")
    exact = tr("exact {value}", lang, value=format_fraction(value))
    return tr("{n} gems", lang, n=f"<b>≈ {decimal_text(value, 4, lang)}</b>") + f"<br><small>{exact}</small>"
