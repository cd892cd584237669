"""The page of a refused visitor (dragonkit.server.pages), short and in their language; the server's language
is the page's default."""

from __future__ import annotations

import re

import pytest

from dragonkit.server.pages import STATUS, refusal_page


@pytest.mark.parametrize(
    "reason, query, lang, title",
    [
        ("full", "", "en", "The class is full"),
        ("full", "lang=it", "it", "La classe è al completo"),
        ("client", "", "en", "Too many pages at once"),
        ("client", "x=1&lang=it", "it", "Troppe pagine aperte insieme"),
    ],
)
def test_a_refused_visitor_gets_a_short_page_in_their_language(reason, query, lang, title):
    page = refusal_page(reason, {"QUERY_STRING": query}, retry=60)
    assert f'<html lang="{lang}">' in page and f"<h1>{title}</h1>" in page
    assert '<meta http-equiv="refresh" content="60">' in page and re.search(r'<a href="">\w+( \w+)?</a>', page)
    assert "<main>" in page and "http" not in page.replace('http-equiv="refresh"', "")  # nothing from outside
    assert STATUS[reason] in (429, 503)


def test_the_servers_language_is_the_default_of_the_page():
    page = refusal_page("full", {"QUERY_STRING": "", "DRAGONKIT_LANG": "it"})
    assert '<html lang="it">' in page and "Riprova" in page
    with pytest.raises(KeyError):
        refusal_page("busy", {})
