"""The gettext catalogs as the tests read them: the Italian texts of the .po, the msgids ``pybabel extract`` finds in
the code (the README's command, into a temporary file), and a pseudo-locale built from the template."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from dragonkit import i18n

ROOT = Path(__file__).resolve().parents[1]
POT = ROOT / "dragonkit" / "i18n" / "dragonkit.pot"
LOCALES = ROOT / "dragonkit" / "i18n" / "locales"
PO = LOCALES / "it" / "LC_MESSAGES" / "dragonkit.po"

#: The pseudo-locale's code, and the markers it wraps every text in.
PSEUDO, OPEN, CLOSE = "qps", "⟦", "⟧"


def read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def italian() -> dict[str, str]:
    """msgid -> Italian text, for every msgid of the .po (a plural's two msgids each with its form)."""
    texts = {}
    for message in read(PO):
        if isinstance(message.id, tuple):
            texts |= dict(zip(message.id, message.string))
        elif message.id:
            texts[message.id] = message.string
    return texts


def has_italian(text: str) -> bool:
    """Whether a text (an exercise's msgid, or the msgid of a ``Message`` with fields) has its Italian in the .po."""
    msgid = getattr(text, "msgid", text)
    return bool(italian().get(msgid))


def msgids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    return {message.id for message in catalog if message.id}


def extract(tmp: Path) -> Catalog:
    """The template ``pybabel extract`` writes from the code now."""
    out = tmp / "dragonkit.pot"
    CommandLineInterface().run(
        ["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "-o", str(out)]
        + [str(ROOT / "dragonkit"), str(ROOT / "notebooks")]
    )
    return read(out)


#: What opens a block of Markdown (a heading, an item of a list, a quotation): a lesson's cell keeps it before the
#: pseudo-locale's marker, so that the page draws it as the English page does.
MARKDOWN_BLOCK = re.compile(r"(#{1,6} |[-*+] |\d+\. |> )?")


def pseudo(text: str) -> str:
    """``text`` in the pseudo-locale: ``⟦English⟧``, after the Markdown that opens its first block
    (``# ⟦Lesson 9⟧``)."""
    opening = MARKDOWN_BLOCK.match(text).group(0)  # type: ignore[union-attr]
    return opening + OPEN + text[len(opening) :] + CLOSE


def install_pseudo_locale(tmp: Path, monkeypatch) -> None:
    """The caller clears :func:`dragonkit.i18n.catalog`'s cache when done.

    A language ``qps`` whose catalog, built from the template, writes every message as ``⟦English⟧``
    (:func:`pseudo`)."""
    catalog = read(POT)  # no language: two plural forms, the second for n != 1
    for message in catalog:
        if isinstance(message.id, tuple):
            message.string = tuple(pseudo(form) for form in message.id)
        elif message.id:
            message.string = pseudo(message.id)
    (tmp / PSEUDO / "LC_MESSAGES").mkdir(parents=True)
    with (tmp / PSEUDO / "LC_MESSAGES" / "dragonkit.mo").open("wb") as f:
        write_mo(f, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp)
    monkeypatch.setitem(i18n.LANGUAGES, PSEUDO, "Pseudo")
    i18n.catalog.cache_clear()
