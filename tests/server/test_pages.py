"""The page of a refused visitor (dragonkit.server.pages), short and in their language; the server's language
is the page's default; every page's template escapes what it shows."""

from __future__ import annotations

import re

import pytest
from jinja2 import meta

from dragonkit.server.join import join_page
from dragonkit.server.pages import STATUS, TEMPLATES, refusal_page, render
from dragonkit.server.rooms import door_page


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


HOSTILE = "<script>alert('x')</script>"
ESCAPED = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"


def _values(template: str) -> set[str]:
    """The names ``template`` and the templates it extends show, less the environment's globals."""
    names: set[str] = set()
    while template:
        tree = TEMPLATES.parse(TEMPLATES.loader.get_source(TEMPLATES, template)[0])
        names |= meta.find_undeclared_variables(tree)
        template = next(iter(meta.find_referenced_templates(tree)), None)
    return names - set(TEMPLATES.globals)


@pytest.mark.parametrize("template", TEMPLATES.list_templates())
def test_every_value_a_page_shows_is_escaped_by_its_template(template):
    """Each of the server's pages given a ``<script>`` (a nickname, a room's code, a class's name) in every value
    it shows, the title and the language included: the page holds it as text, never as a tag or an attribute."""
    names = _values(template)
    assert {"lang", "title"} <= names
    page = render(template, **dict.fromkeys(names, HOSTILE))
    assert "<script" not in page and "alert('x')" not in page
    assert page.count(ESCAPED) >= len(names) - 1  # each value once at least (the title twice; the error once)


def test_the_pages_functions_escape_what_a_visitor_typed():
    """The join page given a nickname with a tag (and the sentence that says it is taken), the door a code with one:
    both shown as typed, as text."""
    joined = join_page("en", HOSTILE, given=HOSTILE, error=f"“{HOSTILE}” is taken", action=f"/voila?{HOSTILE}")
    assert "<script" not in joined and joined.count(ESCAPED) == 4
    door = door_page("it", '"><script>', unknown=True)
    assert "<script" not in door and door.count("&#34;&gt;&lt;script&gt;") == 2
