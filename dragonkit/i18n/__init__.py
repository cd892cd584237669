"""English and Italian for every label, message, event and coach line the kit shows.

As with :mod:`gettext`, a message is identified by its English text (the
*msgid*); :func:`tr` looks it up in the Italian catalog and fills in the named
fields.  The catalogs are plain JSON files in ``dragonkit/i18n/it/`` (one per
part of the kit: ``app.json``, ``teach.json`` ...), so a teacher can correct a
translation without touching code; the test suite checks that every msgid
written in the code has a translation and that both texts use the same fields.

The language is one setting per kernel (in Voilà: per visitor),
:data:`settings`, a traitlets object that widgets observe to redraw themselves
when a learner switches language.  A Voilà page opened with ``?lang=it`` starts
in Italian.

Field values are written in words, in the language asked for: :class:`Gems`
(``1 gem``, ``3 gemme``), a :class:`Phrase`, and anything :class:`Describable`,
such as a :class:`~dragonkit.rules.Card` (``2 steps``, ``2 passi``) or a
:class:`~dragonkit.rules.Message`.  This module imports nothing else of the kit:
the rules describe themselves through that protocol.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Protocol, runtime_checkable
from urllib.parse import parse_qs

import traitlets

__all__ = [
    "LANGUAGES",
    "Describable",
    "Gems",
    "Phrase",
    "catalog",
    "gems",
    "get_language",
    "initial_language",
    "set_language",
    "settings",
    "tr",
]

#: The languages the kit speaks: code -> name in that language.
LANGUAGES = {"en": "English", "it": "Italiano"}

_CATALOG_DIR = Path(__file__).parent


class Gems(int):
    """A number of gems, written in words by :func:`tr` (``1 gem``, ``5 gems``, ``5 gemme``)."""


class Phrase(str):
    """A field value that is itself a msgid, translated by :func:`tr` (e.g. how a game ended)."""


@runtime_checkable
class Describable(Protocol):
    """A field value that writes itself in a language: :func:`tr` calls its ``describe``.

    The kit's own objects (a card, a message) implement it, so this module needs
    to know none of them.
    """

    def describe(self, lang: str | None = None) -> str:
        """The object in words, in ``lang`` (default: the current language)."""


@cache
def catalog(lang: str) -> dict[str, str]:
    """The translations into ``lang``, msgid -> text (empty for English).

    Raises
    ------
    ValueError
        For a language the kit does not speak, or a msgid translated differently in two catalog files.
    """
    _check_language(lang)
    merged: dict[str, str] = {}
    for path in sorted((_CATALOG_DIR / lang).glob("*.json")) if lang != "en" else ():
        for msgid, text in json.loads(path.read_text(encoding="utf-8")).items():
            if merged.get(msgid, text) != text:
                raise ValueError(f"{path.name}: {msgid!r} is translated differently in another catalog")
            merged[msgid] = text
    return merged


def _check_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {lang!r}")


def gems(n: int, lang: str | None = None) -> str:
    """``n`` gems in words: ``"1 gem"``, ``"3 gems"``, ``"1 gemma"``, ``"3 gemme"``."""
    return tr("{n} gem" if n == 1 else "{n} gems", lang, n=int(n))


def tr(msgid: str, lang: str | None = None, /, **fields: object) -> str:
    """The text of ``msgid`` in ``lang`` (default: the current language), with ``fields`` filled in.

    A field that is a :class:`Gems` or :class:`Describable` (a
    :class:`~dragonkit.rules.Card`, a :class:`~dragonkit.rules.Message`) is
    written in words in the same language, a :class:`Phrase` is translated, a
    tuple of names as a list (``"Ann, Bo and Cy"``); other fields are inserted
    as they are (``str.format``).  Without fields the text is returned as it is,
    so a label may hold braces (LaTeX).  A msgid with no translation falls back
    to English.

    Raises
    ------
    ValueError
        For an unknown language.
    KeyError
        If the text names a field that was not given.
    """
    lang = lang or settings.language
    text = catalog(lang).get(msgid, msgid) if lang != "en" else msgid
    if not fields:
        return text
    return text.format(**{key: _words(value, lang) for key, value in fields.items()})


def _words(value: object, lang: str) -> object:
    """A field value as it is written in ``lang``."""
    if isinstance(value, Gems):
        return gems(value, lang)
    if isinstance(value, Describable):
        return value.describe(lang)
    if isinstance(value, Phrase):
        return tr(value, lang)
    if isinstance(value, tuple):  # names: "Ann", "Ann and Bo", "Ann, Bo and Cy"
        names = [str(v) for v in value]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + tr(" and ", lang) + names[-1]
    return value


def initial_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language a new kernel starts in: ``?lang=`` of the Voilà page, else the
    ``DRAGONKIT_LANG`` environment variable, else English."""
    query = parse_qs(environ.get("QUERY_STRING", ""))
    for candidate in query.get("lang", []) + [environ.get("DRAGONKIT_LANG", "")]:
        if candidate in LANGUAGES:
            return candidate
    return "en"


class LanguageSetting(traitlets.HasTraits):
    """The kernel's language; observe ``language`` to redraw when it changes."""

    language = traitlets.Enum(tuple(LANGUAGES), default_value="en")


#: The current language of this kernel.
settings = LanguageSetting(language=initial_language())


def get_language() -> str:
    """The current language code (``"en"`` or ``"it"``)."""
    return settings.language


def set_language(lang: str) -> None:
    """Switch every dragonkit widget of this kernel to ``lang``.

    Raises
    ------
    ValueError
        For a language the kit does not speak (the setting is unchanged).
    """
    _check_language(lang)
    settings.language = lang
