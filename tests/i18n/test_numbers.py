"""Numbers as each language writes and reads them (dragonkit.i18n.numbers): decimals, percentages,
intervals, and answers typed by a learner."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dragonkit.i18n import Gems, tr
from dragonkit.i18n.numbers import (
    MINUS,
    decimal_text,
    fraction_text,
    integer_text,
    interval_text,
    parse_number,
    percent_text,
)


def test_numbers_are_written_as_each_language_writes_them():
    assert [decimal_text(Fraction(3, 8), 3, lang) for lang in ("en", "it")] == ["0.375", "0,375"]
    assert [percent_text(Fraction(3, 8), 1, lang) for lang in ("en", "it")] == ["37.5%", "37,5%"]
    assert [integer_text(10000, lang) for lang in ("en", "it")] == ["10,000", "10.000"]
    assert decimal_text(-1234.5678, 2, "it") == "−1.234,57"  # a true minus sign, not a hyphen


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_negative_number_is_written_with_a_minus_sign_wherever_it_is_written(lang):
    assert MINUS == "\u2212"
    assert fraction_text(Fraction(-37, 14)) == "−37/14" and fraction_text(5) == "5"
    assert decimal_text(Fraction(-100, 47), 3, lang).startswith("−2") and integer_text(-12, lang) == "−12"
    assert percent_text(Fraction(-1, 8), 1, lang).startswith("−12")
    # a number given to a text as a field: an int, a Fraction, a number of gems
    assert tr("{a} and {b}", lang, a=-3, b=Fraction(-11, 8)) == "−3 and −11/8"
    assert tr("{n}", lang, n=Gems(-12)).startswith("−12 ") and tr("{n}", lang, n=7) == "7"
    for text in (fraction_text(Fraction(-37, 14)), decimal_text(-2.5, 1, lang), integer_text(-12, lang)):
        assert "-" not in text and parse_number(text, lang) < 0  # and a learner may type it back


@pytest.mark.parametrize(
    "lang, text, value",
    [
        ("en", "0.375", Fraction(3, 8)),
        ("it", "0,375", Fraction(3, 8)),
        ("it", "37,5%", Fraction(3, 8)),
        ("it", "37,5 %", Fraction(3, 8)),
        ("en", "1,234,567", 1234567),
        ("it", "1.234.567", 1234567),
        ("en", "1,234.5", Fraction(2469, 2)),
        ("it", "1.234,5", Fraction(2469, 2)),
        ("it", "−1,5", Fraction(-3, 2)),
        ("it", "13/47", Fraction(13, 47)),
        ("it", "1,000", 1),
    ],
)
def test_answers_are_read_in_the_learners_language(lang, text, value):
    assert parse_number(text, lang) == value


@pytest.mark.parametrize(
    "lang, text, why",
    [
        ("en", "1,000", "reads two ways: write 1000 for the whole number, or 1.000 for a decimal"),
        ("it", "1.000", "si può leggere in due modi: scrivi 1000 per il numero intero, oppure 1,000 per un decimale"),
        ("en", "0,375", "did you mean 0.375?"),
        ("it", "0.375", "intendevi 0,375?"),
        ("it", "37.5%", "intendevi 37,5%?"),
        ("en", "1.234,5", "such as 13/47, 0.277 or 27.7%"),
        ("it", "tre", "come 13/47, 0,277 o 27,7%"),
    ],
)
def test_an_answer_that_reads_two_ways_or_another_languages_way_is_refused_with_the_reason(lang, text, why):
    with pytest.raises(ValueError) as error:
        parse_number(text, lang)
    assert why in str(error.value)


def test_an_interval_is_written_as_the_language_writes_numbers():
    assert interval_text(Fraction(3, 8), 1234.5, 3, "en") == "[0.375, 1,234.500]"
    assert interval_text(Fraction(3, 8), 1234.5, 3, "it") == "[0,375; 1.234,500]"  # its ends apart from the decimals
    assert interval_text(-2, -1.26, 1, "it") == "[−2,0; −1,3]"
