"""Numbers (and moments) as the learner's language writes them, and read back from what a learner types.

Decimals, thousands and percentages follow the language's CLDR conventions
through :mod:`babel.numbers` (English ``0.375``, ``1,234``, ``37.5%``; Italian
``0,375``, ``1.234``, ``37,5%``); a fraction is the same in every language
(``3/8``).  A negative number is written with a true minus sign, ``−`` (U+2212), never
a hyphen: ``−2.128``, ``−37/14`` (:data:`MINUS`).  :func:`parse_number` reads a typed answer in the learner's language
and refuses, with a message that says why, what that language would read two
ways (``1,000`` in English: one thousand, or one with a decimal comma?) or
writes otherwise (``0.375`` in Italian).  A language Babel does not know (a
test's pseudo-locale) writes numbers as English does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction
from functools import cache

from babel import Locale, UnknownLocaleError
from babel.dates import format_skeleton, format_time
from babel.numbers import format_decimal as _format_decimal
from babel.numbers import format_percent as _format_percent
from babel.numbers import get_decimal_symbol, get_group_symbol

from . import get_language, tr

__all__ = [
    "MINUS",
    "consecutive_runs",
    "decimal_text",
    "fraction_text",
    "integer_text",
    "interval_text",
    "moment_text",
    "parse_number",
    "percent_interval_text",
    "percent_text",
    "ranges_text",
]


#: The minus sign of a negative number in a text (U+2212): ``−3``, not the hyphen of ``-3``.
MINUS = "\u2212"


def _minus(text: str) -> str:
    """``text`` with the hyphen-minus that Babel or Python writes before a negative number as a true minus sign."""
    return text.replace("-", MINUS)


def fraction_text(value: Fraction | int) -> str:
    """An exact number as a fraction, the same in every language, with a true minus sign: ``3/8``, ``−37/14``, ``5``."""
    return _minus(str(Fraction(value)))


def _locale(lang: str | None) -> str:
    """The CLDR locale of a kit language (English for one Babel does not know)."""
    return _cldr_locale(lang or get_language())


@cache
def _cldr_locale(lang: str) -> str:
    try:
        Locale.parse(lang)
    except (ValueError, UnknownLocaleError):
        return "en"
    return lang


def _exact(value: Fraction | float | int) -> Decimal:
    """``value`` as a Decimal to round: a fraction exactly to 30 digits, a float as it is."""
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(repr(float(value))) if isinstance(value, float) else Decimal(value)


def decimal_text(value: Fraction | float | int, digits: int = 3, lang: str | None = None) -> str:
    """``value`` rounded to ``digits`` decimals as ``lang`` writes it: ``0.375`` / ``0,375``, ``1,234.5`` / ``1.234,5``,
    ``−2.128`` / ``−2,128`` (a true minus sign).

    Parameters
    ----------
    value : Fraction, float or int
    digits : int
        Decimals shown (all of them, trailing zeros included).
    lang : str, optional
        The language (default: the current one).
    """
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return _minus(_format_decimal(_exact(value), format=pattern, locale=_locale(lang), decimal_quantization=True))


def integer_text(value: int, lang: str | None = None) -> str:
    """A whole number with the thousands separated as ``lang`` does: ``10,000`` / ``10.000``."""
    return decimal_text(int(value), 0, lang)


def interval_text(low: Fraction | float, high: Fraction | float, digits: int = 3, lang: str | None = None) -> str:
    """An interval ``[low, high]`` as ``lang`` writes it: ``[0.123, 0.456]``; where decimals are written with a
    comma, its ends are separated by a semicolon: ``[0,123; 0,456]``.

    Parameters
    ----------
    low, high : Fraction or float
        Its ends.
    digits : int
        Decimals of each end.
    lang : str, optional
        The language (default: the current one).
    """
    separator = "; " if get_decimal_symbol(_locale(lang)) == "," else ", "
    return f"[{decimal_text(low, digits, lang)}{separator}{decimal_text(high, digits, lang)}]"


def moment_text(moment: datetime, lang: str | None = None) -> str:
    """A moment of the class's record (UTC, without a zone, as the record keeps it) as ``lang`` writes a day and a
    time of this machine's time zone: ``Dec 7, 10:42`` in English, ``7 dic, 10:42`` in Italian."""
    local = moment.replace(tzinfo=UTC).astimezone().replace(tzinfo=None)
    locale = _locale(lang)
    return f"{format_skeleton('MMMd', local, locale=locale)}, {format_time(local, 'short', locale=locale)}"


def consecutive_runs(values: Iterable[int]) -> list[tuple[int, int]]:
    """Runs of consecutive whole numbers, in order: ``[1, 2, 3, 7]`` -> ``[(1, 3), (7, 7)]``."""
    runs: list[tuple[int, int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def ranges_text(values: Iterable[int], lang: str | None = None) -> str:
    """Whole numbers in increasing order as runs, each number as ``lang`` writes it: ``[1, 2, 3, 7]`` -> ``"1–3, 7"``.

    Parameters
    ----------
    values : iterable of int
        In increasing order (an empty one gives ``""``).
    lang : str, optional
        The language (default: the current one).
    """
    return ", ".join(
        integer_text(a, lang) if a == b else f"{integer_text(a, lang)}–{integer_text(b, lang)}"
        for a, b in consecutive_runs(values)
    )


def percent_text(value: Fraction | float, digits: int = 1, lang: str | None = None) -> str:
    """A proportion as a percentage in ``lang``: ``0.375`` → ``37.5%`` / ``37,5%``.

    Parameters
    ----------
    value : Fraction or float
        The proportion (1 is 100%).
    digits : int
        Decimals of the percentage.
    """
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "") + "%"
    return _minus(_format_percent(_exact(value), format=pattern, locale=_locale(lang), decimal_quantization=True))


def percent_interval_text(
    low: Fraction | float, high: Fraction | float, digits: int = 1, lang: str | None = None
) -> str:
    """An interval of proportions as percentages in ``lang``: ``[31.0%, 37.5%]``; ``[31,0%; 37,5%]`` where decimals
    are written with a comma (as :func:`interval_text`).

    Parameters
    ----------
    low, high : Fraction or float
        Its ends, as proportions (1 is 100%).
    digits : int
        Decimals of each percentage.
    lang : str, optional
        The language (default: the current one).
    """
    separator = "; " if get_decimal_symbol(_locale(lang)) == "," else ", "
    return f"[{percent_text(low, digits, lang)}{separator}{percent_text(high, digits, lang)}]"


def parse_number(text: str, lang: str | None = None) -> Fraction:
    """The exact value of a number a learner typed, read in the learner's language.

    Accepts integers, fractions (``13/47``), decimals and percentages written with
    the language's decimal symbol (``0.277``, ``27.7%`` in English; ``0,277``,
    ``27,7%`` in Italian), thousands separated with its group symbol where that
    cannot be read otherwise (``1,234,567`` or ``1,234.5``), a minus or ``−``;
    spaces around are ignored.  The result is exact: ``"0.1"`` is ``Fraction(1, 10)``.

    Parameters
    ----------
    text : str
    lang : str, optional
        The learner's language (default: the current one).

    Raises
    ------
    ValueError
        With a message in ``lang`` for anything else: words, exponents, a zero
        denominator, more than 30 digits, a decimal written with the other
        language's symbol (``0,375`` in English), and one group symbol followed by
        three digits (``1,000`` in English), which reads two ways.
    """
    lang = lang or get_language()
    locale = _locale(lang)
    point, group = get_decimal_symbol(locale), get_group_symbol(locale)
    raw = str(text).strip().replace("−", "-").replace("\u202f", " ").replace("\u00a0", " ")
    match = _FORM.match(raw)
    if not match:
        raise _not_a_number(lang)
    sign, number, denominator, percent = match.groups()
    digits = _digits(number, point, group, lang, raw)
    value = Fraction(digits)
    if denominator is not None:
        if int(denominator) == 0:
            raise ValueError(tr("A fraction cannot have 0 as its denominator.", lang))
        value /= int(denominator)
    value = -value if sign == "-" else value
    return value / 100 if percent else value


#: A sign, a number made of digits, points and commas (at most 30 digits), a denominator, a percent sign.
_FORM = re.compile(r"^([+-]?)\s*((?=[\d.,]*\d)[\d.,]{1,40})(?:\s*/\s*(\d{1,30}))?\s*(%?)$")


def _digits(number: str, point: str, group: str, lang: str, typed: str) -> str:
    """``number`` as Python reads it (``1234.5``), from the language's symbols; refuses what reads two ways."""
    if sum(c.isdigit() for c in number) > 30:
        raise _not_a_number(lang)
    whole, _, decimals = number.partition(point) if point in number else (number, "", "")
    if point in decimals or group in decimals:
        raise _not_a_number(lang)
    if group in whole:
        groups = whole.split(group)
        grouped = 1 <= len(groups[0]) <= 3 and not groups[0].startswith("0") and all(len(g) == 3 for g in groups[1:])
        if not grouped or (len(groups) == 2 and not decimals and point not in number):
            # not thousands (0,375 in English), or one group that may be thousands or decimals (1,000 in English)
            meant = typed.replace(group, point) if len(groups) == 2 and point not in number else None
            if grouped and meant is not None:
                raise ValueError(
                    tr(
                        "“{typed}” reads two ways: write {whole} for the whole number, or {decimal} for a decimal.",
                        lang,
                        typed=typed,
                        whole=typed.replace(group, ""),
                        decimal=meant,
                    )
                )
            if meant is not None:
                raise ValueError(
                    tr(
                        "Decimals are written with “{point}” here: did you mean {meant}?",
                        lang,
                        point=point,
                        meant=meant,
                    )
                )
            raise _not_a_number(lang)
        whole = "".join(groups)
    return f"{whole or '0'}.{decimals or '0'}"


def _not_a_number(lang: str) -> ValueError:
    """The error for what is not a number at all, with examples written in ``lang``."""
    text = tr(
        "Type a number such as {fraction}, {decimal} or {percent}.",
        lang,
        fraction="13/47",
        decimal=decimal_text(Fraction(277, 1000), 3, lang),
        percent=percent_text(Fraction(277, 1000), 1, lang),
    )
    return ValueError(text)
