"""The lessons in every language: their prose translated block by block through the catalogs.

A lesson is written once, in English, in ``notebooks/``; its structure (cells,
exercises, widgets, code) exists only there.  Its prose is translated the way
documentation is (Sphinx's gettext builder does the same): each Markdown block,
a paragraph, a heading, a list, a table or a display formula, is one msgid of
the kit's catalog, and so is each block of the teacher's notes
(:func:`dragonkit.teach.teacher_notes` translates them when it shows them),
each comment of the code a lesson shows and the notebook's title (its metadata's ``title``,
the ``<title>`` of its page).
:func:`translate_notebook` writes a lesson in another language from the English
one and the catalog: the same cells with the Markdown translated and the page's
language set in its first cell (``lesson_page(..., "it")``); the translated
lessons are ``notebooks/<lang>/``, committed, and a test checks that they are
what this module writes from today's English lessons and catalogs, so the two
languages of a lesson cannot drift apart.

``python -m dragonkit.i18n.notebooks`` writes them again (after ``pybabel
compile``).  :func:`messages` is the ``pybabel extract`` extractor for
notebooks (``babel.cfg``): the Markdown blocks, the teacher's notes, every
string literal given to an exercise, the comments and the title.
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from . import LANGUAGES, checked_language, msgid, tr

__all__ = [
    "TEXT_CALLS",
    "blocks",
    "lessons",
    "messages",
    "notebooks_dir",
    "pages",
    "translate_code",
    "translate_markdown",
    "translate_notebook",
    "translated_path",
    "translation_path",
    "write_translations",
]

#: The calls in a lesson's code cells whose string literals are texts for the learner: the exercises' questions,
#: options, hints and explanations, and the teacher's notes (translated block by block).
TEXT_CALLS = ("FractionExercise", "ChoiceExercise", "teacher_notes")

#: The call in a lesson's first code cell that names the page's language: ``lesson_page("<file>", "en")``.
_PAGE_CALL = re.compile(r'lesson_page\((?P<file>"[^"]+"), "en"\)')

_FENCE = re.compile(r"^\s*(```|~~~)")


def blocks(markdown: str) -> list[str]:
    """The translatable blocks of a Markdown text: its paragraphs, headings, lists, tables and
    display formulas, as separated by blank lines (a fenced code block stays whole).

    Parameters
    ----------
    markdown : str

    Returns
    -------
    list of str
        The blocks in order, each without surrounding blank lines; ``"\\n\\n".join``
        of them is the text with its blank lines normalised.
    """
    found: list[str] = []
    current: list[str] = []
    fenced = False
    for line in markdown.strip("\n").split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                found.append("\n".join(current).rstrip())
                current = []
            continue
        current.append(line)
    if current:
        found.append("\n".join(current).rstrip())
    return found


def translate_markdown(markdown: str, lang: str) -> str:
    """``markdown`` with each of its :func:`blocks` translated into ``lang`` (a block with no
    translation stays in English), each block English or written in another of the kit's languages
    (:func:`~dragonkit.i18n.msgid`: the teacher's notes of a translated lesson).

    Raises
    ------
    ValueError
        For a language the kit does not speak.
    """
    return "\n\n".join(tr(msgid(block), lang) for block in blocks(markdown))


def translate_notebook(notebook: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """The lesson ``notebook`` (nbformat 4, as JSON) in ``lang``: the same cells, the Markdown
    translated block by block, the page's language set in the ``lesson_page`` call and in the
    metadata (``language``), and the page's title (the metadata's ``title``) translated.

    Code cells are copied unchanged but for that one argument and their texts
    (:func:`translate_code`): the exercises' texts and the teacher's notes in ``lang``, so that
    the notebook reads in ``lang`` in JupyterLab before any cell runs, and its comments.  In
    the kernel the exercises read their texts back to the English msgids
    (:func:`~dragonkit.i18n.msgid`), as written in the English lesson.

    Raises
    ------
    ValueError
        For a language the kit does not speak, or a notebook without ``lesson_page(..., "en")``.
    """
    checked_language(lang)
    cells = []
    pages = 0
    for cell in notebook["cells"]:
        cell = json.loads(json.dumps(cell))
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            source = translate_markdown(source, lang)
        elif cell["cell_type"] == "code":
            source, found = _PAGE_CALL.subn(rf'lesson_page(\g<file>, "{lang}")', translate_code(source, lang))
            pages += found
        cell["source"] = source.splitlines(keepends=True)
        cells.append(cell)
    if pages != 1:
        raise ValueError('a lesson names its page once, in its first code cell: lesson_page("<file>", "en")')
    metadata = {**notebook["metadata"], "language": lang}
    if "title" in metadata:  # the page's <title> in Voilà (nbconvert's template reads it)
        metadata["title"] = tr(metadata["title"], lang)
    return {**notebook, "cells": cells, "metadata": metadata}


def comments(source: str) -> list[str]:
    """The comments of a code cell, without their ``#`` (each one is a msgid)."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [token.string[1:].strip() for token in tokens if token.type == tokenize.COMMENT]


def translate_code(source: str, lang: str) -> str:
    """A lesson's code cell written in ``lang``: the texts given to :data:`TEXT_CALLS` (:func:`code_texts`; the
    teacher's notes block by block) and the comments translated, the code itself unchanged.  A text keeps its
    form: a triple-quoted one stays so where its translation allows, and a text written over several lines is
    wrapped again at the same column."""
    tree = ast.parse(source)
    lines = source.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def offset(row: int, byte_column: int) -> int:  # the syntax tree counts a line's UTF-8 bytes
        return starts[row - 1] + len(lines[row - 1].encode("utf-8")[:byte_column].decode("utf-8"))

    edits = []
    for call in _text_calls(tree):
        notes = call.func.id == "teacher_notes"  # type: ignore[attr-defined]
        for argument in [*call.args, *(keyword.value for keyword in call.keywords)]:
            for node, written in _literal_nodes(argument):
                assert node.end_lineno is not None and node.end_col_offset is not None
                begin, stop = offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)
                text = _translated_notes(written, lang) if notes else tr(written, lang)
                column = begin - starts[node.lineno - 1]
                edits.append((begin, stop, _python_text(text, source[begin:stop], column)))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            begin, stop = starts[token.start[0] - 1] + token.start[1], starts[token.end[0] - 1] + token.end[1]
            edits.append((begin, stop, "# " + tr(token.string[1:].strip(), lang)))
    for begin, stop, text in sorted(edits, reverse=True):
        source = source[:begin] + text + source[stop:]
    return source


def _translated_notes(markdown: str, lang: str) -> str:
    """The teacher's notes ``markdown`` in ``lang``, with the blank lines around them kept."""
    inside = markdown.strip("\n")
    before, after = markdown[: markdown.index(inside)] if inside else "", markdown[len(markdown.rstrip("\n")) :]
    return before + translate_markdown(markdown, lang) + after


#: How long a line of a text written over several lines (:func:`translate_code`) grows, in characters.
_TEXT_LINE = 100


def _python_text(text: str, written: str, column: int) -> str:
    """``text`` as a Python string literal in the form of ``written`` (the literal it replaces, at ``column``)."""
    prefix = re.match(r"[rRuU]*", written).group()  # type: ignore[union-attr]
    quotes = written[len(prefix) : len(prefix) + 3]
    escapes = "r" not in prefix.lower() and "\\" in text  # a backslash a plain literal would read as an escape
    if quotes in ('"""', "'''") and quotes not in text and not text.endswith((quotes[0], "\\")) and not escapes:
        return f"{prefix}{quotes}{text}{quotes}"
    if "\n" not in written:
        return json.dumps(text, ensure_ascii=False)
    pieces = [""]
    for word in re.findall(r"\S*\s*", text):
        if pieces[-1] and len(pieces[-1]) + len(word) > _TEXT_LINE:
            pieces.append("")
        pieces[-1] += word
    return ("\n" + " " * column).join(json.dumps(piece, ensure_ascii=False) for piece in pieces if piece)


def lessons(folder: Path) -> list[Path]:
    """The lesson notebooks of ``folder`` (``NN-name.ipynb``), in order."""
    return sorted(folder.glob("[0-9][0-9]-*.ipynb"))


def pages(folder: Path) -> list[Path]:
    """The notebooks of ``folder`` written once in English and translated: the lessons, then the glossary."""
    return [*lessons(folder), *sorted(folder.glob("glossary.ipynb"))]


def notebooks_dir() -> Path:
    """Where the notebooks are: the checkout's ``notebooks/`` (editable install)
    or the copy inside the installed package.

    Raises
    ------
    FileNotFoundError
        If neither holds the play app.
    """
    package = Path(__file__).resolve().parents[1]
    for candidate in (package.parent / "notebooks", package / "notebooks"):
        if (candidate / "play.ipynb").is_file():
            return candidate
    raise FileNotFoundError(f"cannot find play.ipynb next to the dragonkit package ({package})")


def translated_path(name: str, lang: str) -> str:
    """Where the page ``name`` (``"03-one-more-card.ipynb"``, ``"glossary.ipynb"``) written in ``lang`` is, relative to
    the folder of the English pages: ``name`` itself in English, ``<lang>/<name>`` in another language (as
    :func:`write_translations` writes them)."""
    return name if lang == "en" else f"{lang}/{name}"


def translation_path(name: str, written: str, lang: str) -> str:
    """The page ``name`` in ``lang``, relative to the same page written in ``written``: ``it/03-one-more-card.ipynb``
    from the English page, ``../03-one-more-card.ipynb`` from the Italian one (:func:`translated_path` from the
    English pages' folder)."""
    return ("" if written == "en" else "../") + translated_path(name, lang)


def write_translations(folder: Path) -> list[Path]:
    """Write every lesson of ``folder``, and its glossary, in every other language, as ``folder/<lang>/<file>``.

    Returns
    -------
    list of Path
        The files written.
    """
    written = []
    for lang in LANGUAGES:
        if lang == "en":
            continue
        for path in pages(folder):
            target = folder / translated_path(path.name, lang)
            target.parent.mkdir(exist_ok=True)
            notebook = translate_notebook(json.loads(path.read_text(encoding="utf-8")), lang)
            target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            written.append(target)
    return written


def messages(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, object],
) -> Iterator[tuple[int, str, str, list[str]]]:
    """The msgids of one lesson notebook, for ``pybabel extract`` (``babel.cfg``).

    Each Markdown block and each block of the teacher's notes is one msgid, and so is
    every string literal inside an exercise (:data:`TEXT_CALLS`), every comment of the code and the notebook's title
    (its metadata's ``title``, the page's ``<title>``).  The "line" Babel records is the cell's number (0 for the
    title).

    Parameters
    ----------
    fileobj : binary file
        The notebook (nbformat 4 JSON).
    keywords, comment_tags, options
        Babel's extractor arguments, unused.
    """
    notebook = json.loads(fileobj.read())
    if title := notebook["metadata"].get("title"):
        yield 0, "", title, []
    for number, cell in enumerate(notebook["cells"], start=1):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for block in blocks(source):
                yield number, "", block, []
        elif cell["cell_type"] == "code":
            for text in [*code_texts(source), *comments(source)]:
                yield number, "", text, []


def code_texts(source: str) -> Iterator[str]:
    """The texts for the learner in a code cell: the string literals given to :data:`TEXT_CALLS`
    (directly, or in a list or tuple: options, hints), the teacher's notes split into :func:`blocks`."""
    for call in _text_calls(ast.parse(source)):
        for argument in [*call.args, *(keyword.value for keyword in call.keywords)]:
            for _, text in _literal_nodes(argument):
                yield from blocks(text) if call.func.id == "teacher_notes" else [text]  # type: ignore[attr-defined]


def _text_calls(tree: ast.AST) -> Iterator[ast.Call]:
    """The calls of :data:`TEXT_CALLS` in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TEXT_CALLS:
            yield node


def _literal_nodes(node: ast.expr) -> Iterator[tuple[ast.Constant, str]]:
    """The texts of an argument, each with its literal: a string literal, the msgid of a ``Message("...", field=...)``
    (a text with fields), or the texts of a list, a tuple, a comprehension or a sum of lists of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node, node.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Message" and node.args:
        yield from _literal_nodes(node.args[0])
    elif isinstance(node, (ast.List, ast.Tuple)):
        for element in node.elts:
            yield from _literal_nodes(element)
    elif isinstance(node, ast.ListComp):
        yield from _literal_nodes(node.elt)
    elif isinstance(node, ast.BinOp):
        yield from _literal_nodes(node.left)
        yield from _literal_nodes(node.right)


if __name__ == "__main__":
    for written in write_translations(notebooks_dir()):
        print(written)
