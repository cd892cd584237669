"""Numbers as each language writes and reads them (dragonkit.i18n.numbers): decimals, percentages,
intervals, and answers typed by a learner."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dragonkit.i18n.numbers import decimal_text, integer_text, interval_text, parse_number, percent_text


def test_numbers_are_written_as_each_language_writes_them():
    assert [decimal_text(Fraction(3, 8), 3, lang) for lang in ("en", "it")] == ["0.375", "0,375"]
    assert [percent_text(Fraction(3, 8), 1, lang) for lang in ("en", "it")] == ["37.5%", "37,5%"]
    assert [integer_text(10000, lang) for lang in ("en", "it")] == ["10,000", "10.000"]
    assert decimal_text(-1234.5678, 2, "it") == "-1.234,57"


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


pytestmark = pytest.mark.usefixtures("english_widgets")


def test_an_interval_is_written_as_the_language_writes_numbers():
    assert interval_text(Fraction(3, 8), 1234.5, 3, "en") == "[0.375, 1,234.500]"
    assert interval_text(Fraction(3, 8), 1234.5, 3, "it") == "[0,375; 1.234,500]"  # its ends apart from the decimals
    assert interval_text(-2, -1.26, 1, "it") == "[-2,0; -1,3]"
