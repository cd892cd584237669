"""The classroom server's app (dragonkit.server.app), without a server: a page's head written in its
language, and the language a notebook says it is in."""

from __future__ import annotations

import asyncio

from dragonkit.server.app import in_language, notebook_language, page_head

#: The head of a page as Voilà's template renders it, in the pieces it comes in (a page of the play app).
HEAD = ['<!DOCTYPE html>\n<html lang="', "en", '">\n<head>\n<meta charset="utf-8" />\n<title>', "Dragon Stripes — play"]


BODY = ["</title>\n</head>\n<body>", '<script>{"kernelId": "x"}</script>', "</body></html>"]


async def _gathered(chunks, lang, translate):
    async def source():
        for chunk in chunks:
            yield chunk

    return [chunk async for chunk in in_language(source(), lang, translate)]


def test_a_pages_head_is_written_in_its_language_whatever_pieces_it_comes_in():
    """The template gives ``<title>``, the title and ``</title>`` as separate pieces: the head is held back until its
    title is whole, then written with the app's title translated and the page's language; the rest passes as it
    comes."""
    chunks = asyncio.run(_gathered(HEAD + BODY, "it", True))
    assert chunks[1:] == BODY[1:]
    assert '<html lang="it">' in chunks[0] and "<title>Dragon Stripes — gioca</title>" in chunks[0]
    english = "".join(asyncio.run(_gathered(HEAD + BODY, "en", True)))
    assert english == "".join(HEAD + BODY)
    lesson = page_head('<html lang="en"><title>Lezione 2 — La prossima carta</title>', "it", False)  # its own title
    assert lesson == '<html lang="it"><title>Lezione 2 — La prossima carta</title>'
    assert page_head("<title>A &amp; B</title>", "it", True) == "<title>A &amp; B</title>"  # no msgid: as it is
    assert "".join(asyncio.run(_gathered(["<p>no title</p>", "<p>at all</p>"], "it", True))) == (
        "<p>no title</p><p>at all</p>"
    )


def test_a_notebook_says_its_language_or_none(tmp_path):
    lesson, app, broken = tmp_path / "lesson.ipynb", tmp_path / "app.ipynb", tmp_path / "broken.ipynb"
    lesson.write_text('{"metadata": {"language": "it", "title": "Lezione"}, "cells": []}')
    app.write_text('{"metadata": {"title": "Dragon Stripes — play"}, "cells": []}')
    broken.write_text("{")
    assert notebook_language(lesson) == "it"
    assert notebook_language(app) is None and notebook_language(broken) is None
    assert notebook_language(tmp_path / "missing.ipynb") is None
