"""The msgids of the kit's code, for ``pybabel extract`` (``babel.cfg`` names this extractor).

Babel's own Python extractor reads tokens: it misses a call written inside an
f-string (``f"<b>{tr('Score', lang)}</b>"``) on Python 3.11 and finds it on 3.12,
so the template would depend on the Python that built it.  This one reads the
syntax tree: it reports every call of a keyword function (``tr``, ``ntr``,
``N_``, ``Message``, ``_emit``, ``Event``), wherever it is written, with its
string-literal arguments; Babel then keeps the arguments that the keyword's
specification in ``babel.cfg`` names (``ntr:1,2``: a singular and a plural).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO

__all__ = ["messages"]

#: A call as Babel's extractors report it: line, function name, arguments (``None`` where not a string literal),
#: comments for translators.
Extracted = tuple[int, str, tuple[str | None, ...], list[str]]


def messages(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, object],
) -> Iterator[Extracted]:
    """The calls of keyword functions in one Python file, in the order of the file.

    Parameters
    ----------
    fileobj : binary file
        The source.
    keywords : collection of str
        The names of the functions whose arguments are msgids.
    comment_tags, options
        Babel's extractor arguments, unused: the code holds no comments for translators.
    """
    tree = ast.parse(fileobj.read())
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    for call in sorted(calls, key=lambda node: (node.lineno, node.col_offset)):
        name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
        if name in keywords:
            yield call.lineno, name, tuple(_literal(arg) for arg in call.args), []


def _literal(node: ast.expr) -> str | None:
    """The text of a string literal, else ``None`` (a msgid chosen at run time is marked where it is written)."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
