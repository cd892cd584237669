"""English and Italian for every label, message, event and coach line the kit shows.

A message is identified by its English text (the gettext *msgid*): :func:`tr`
looks it up in the language's catalog and fills in the named fields, and
:func:`ntr` chooses the plural form for a count (``ngettext``).  The catalogs
are standard gettext files managed with Babel: the template
``dragonkit/i18n/dragonkit.pot`` (``pybabel extract``), one
``locales/<lang>/LC_MESSAGES/dragonkit.po`` per language, which a teacher opens
in Poedit or Weblate, and its compiled ``.mo``, which is what the kit reads.
The test suite checks that every msgid written in the code has a translation
with the same fields and that the template and the compiled files are current.
A text translated elsewhere than where it is written (a table of labels) is
marked for extraction with :func:`N_`.

The language is one setting per kernel (in Voilà: per visitor),
:data:`settings`, a traitlets object that widgets observe to redraw themselves
when a learner switches language.  A Voilà page opened with ``?lang=it`` starts
in Italian.

Field values are written in words, in the language asked for: :class:`Gems`
(``1 gem``, ``3 gemme``), a :class:`Phrase`, and anything :class:`Describable`,
such as a :class:`~dragonkit.rules.Card` (``2 steps``, ``2 passi``) or a
:class:`~dragonkit.rules.Message`.  This module knows nothing of the game: the
rules describe themselves through that protocol.  Of the kit it imports only
:mod:`dragonkit.address`, the one reader of the page's address.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Protocol, runtime_checkable

import traitlets

from ..address import query_values

__all__ = [
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "Describable",
    "Gems",
    "Phrase",
    "catalog",
    "checked_language",
    "gems",
    "get_language",
    "initial_language",
    "msgid",
    "ntr",
    "requested_language",
    "set_language",
    "settings",
    "tr",
]

#: The languages the kit speaks: code -> name in that language.  English is the
#: text of the code; every other language has a catalog in :data:`LOCALE_DIR`.
LANGUAGES = {"en": "English", "it": "Italiano"}

#: Where the catalogs are: ``<lang>/LC_MESSAGES/dragonkit.po`` and ``.mo``.
LOCALE_DIR = Path(__file__).parent / "locales"

#: The gettext domain: the catalogs' file name.
DOMAIN = "dragonkit"


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
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (for English, none: the msgids are the English texts).

    Raises
    ------
    ValueError
        For a language the kit does not speak.
    OSError
        If the language's ``.mo`` file is missing (``pybabel compile`` builds it).
    """
    checked_language(lang)
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def msgid(text: str) -> str:
    """The msgid (the English text) of ``text``: ``text`` itself where it is a msgid of the catalogs or no
    translation, else the msgid that one of the kit's languages translates as ``text``.

    A lesson written in another language (``notebooks/it/``, :func:`dragonkit.i18n.notebooks.translate_notebook`)
    gives its exercises and notes their texts in that language; read back to their msgids, they are written in
    any language, as the English lesson's are, and an exercise's answers go to the same place in the class's
    record whichever language its page was written in.

    Parameters
    ----------
    text : str
        A msgid, or its translation in a language of :data:`LANGUAGES` (singular messages; the catalogs hold each
        translation of a lesson's texts once: ``tests/i18n/test_notebooks.py``).

    Returns
    -------
    str
    """
    known = [_catalog_index(lang, str(LOCALE_DIR)) for lang in LANGUAGES if lang != "en"]
    if any(text in ids for ids, _ in known):
        return text
    return next((found[text] for _, found in known if text in found), text)


@cache
def _catalog_index(lang: str, folder: str) -> tuple[frozenset[str], dict[str, str]]:
    """The singular msgids of ``lang``'s compiled catalog in ``folder``, and each one's translation read back to
    it (Babel's reader of ``.mo`` files: :mod:`gettext` lists none); nothing where the catalog is missing."""
    from babel.messages.mofile import read_mo

    path = gettext.find(DOMAIN, folder, languages=[lang])
    if path is None:
        return frozenset(), {}
    with open(path, "rb") as compiled:
        pairs = [(m.id, m.string) for m in read_mo(compiled)]
    singular = [(id_, text) for id_, text in pairs if isinstance(id_, str) and id_ and isinstance(text, str)]
    return frozenset(id_ for id_, _ in singular), {text: id_ for id_, text in singular if text}


def N_(msgid: str) -> str:
    """Mark ``msgid`` for ``pybabel extract`` where it is written, to be translated later with :func:`tr`.

    Returns ``msgid`` unchanged: for the texts of a table, translated where they are shown.
    """
    return msgid


def checked_language(lang: str | None = None) -> str:
    """``lang``, or the current language when it is ``None``, once it is one the kit speaks.

    Raises
    ------
    ValueError
        For a language not in :data:`LANGUAGES`.
    """
    lang = get_language() if lang is None else lang
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)} (the languages the kit speaks), not {lang!r}")
    return lang


def gems(n: int, lang: str | None = None) -> str:
    """``n`` gems in words: ``"1 gem"``, ``"3 gems"``, ``"1 gemma"``, ``"3 gemme"``, ``"10.000 gemme"``."""
    from .numbers import integer_text  # the numbers module reads the language from this one

    return ntr("{n} gem", "{n} gems", n, lang, n=integer_text(int(n), lang))


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
    return _fill(catalog(lang).gettext(msgid), lang, fields)


def ntr(singular: str, plural: str, count: int, lang: str | None = None, /, **fields: object) -> str:
    """The form of a message that agrees with ``count``, in ``lang``, with ``fields`` filled in (``ngettext``).

    English has the two forms given; each catalog says how many forms its
    language has and which one a count takes (Italian: one for 1, the other
    for 0 and 2 and more).  The count is not a field: pass it among ``fields``
    where the text shows it (``ntr("{n} gem", "{n} gems", n, n=n)``).  Fields
    are written as :func:`tr` writes them.

    Raises
    ------
    ValueError
        For an unknown language.
    KeyError
        If the text names a field that was not given.
    """
    lang = lang or settings.language
    return _fill(catalog(lang).ngettext(singular, plural, count), lang, fields)


def _fill(text: str, lang: str, fields: Mapping[str, object]) -> str:
    """``text`` with ``fields`` written in ``lang``; without fields, ``text`` as it is (it may hold braces)."""
    if not fields:
        return text
    return text.format(**{key: _words(value, lang) for key, value in fields.items()})


def _words(value: object, lang: str) -> object:
    """A field value as it is written in ``lang``."""
    if type(value) is str:  # most fields; a Protocol check is slow (the log writes every event)
        return value
    if type(value) is int or isinstance(value, Fraction):  # a negative number with a true minus sign: −3, −37/14
        return value if value >= 0 else f"\u2212{-value}"
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


def requested_language(environ: Mapping[str, str] = os.environ) -> str | None:
    """The language the Voilà page's address asks for (``?lang=``), if it is one of :data:`LANGUAGES`."""
    return next((lang for lang in query_values("lang", environ) if lang in LANGUAGES), None)


def initial_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language a new kernel starts in: ``?lang=`` of the Voilà page, else the
    ``DRAGONKIT_LANG`` environment variable, else English."""
    for candidate in (requested_language(environ), environ.get("DRAGONKIT_LANG", "")):
        if candidate in LANGUAGES:
            return candidate
    return "en"


class LanguageSetting(traitlets.HasTraits):
    """The kernel's language; observe ``language`` to redraw when it changes."""

    language = traitlets.Unicode("en")

    @traitlets.validate("language")
    def _known(self, proposal: dict[str, object]) -> str:
        """Only a language of :data:`LANGUAGES` (read when set: a test may add a pseudo-locale)."""
        lang = str(proposal["value"])
        checked_language(lang)
        return lang


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
    checked_language(lang)
    settings.language = lang
