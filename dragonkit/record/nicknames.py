"""What a nickname is: the one rule the join page, the server and a page's kernel apply to the nickname a student
gives, so that the record keeps what the student typed or refuses it, never another student's nickname.

A nickname is written in Unicode's composed form (NFC: a "ë" typed as "e" and a combining diaeresis is the "ë" typed
as one character), without spaces at its ends and with one space between its words; it holds 1 to
:data:`NICKNAME_LENGTH` characters, each a letter (with its accents, in any script), a digit, a space or one of
:data:`NICKNAME_PUNCTUATION`. Anything else (an emoji, a ``<``, a character that shows nothing) is refused with a
:class:`NicknameError` that names it: the nickname is never changed to fit. An address gives at most one
``?nickname=``: two are refused whatever they say, so that the server and the kernel never read different ones.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Sequence

__all__ = [
    "NICKNAME_LENGTH",
    "NICKNAME_PUNCTUATION",
    "NicknameError",
    "NicknameProblem",
    "look_alike_key",
    "nickname",
    "query_nickname",
]

#: The longest nickname (characters, composed).
NICKNAME_LENGTH = 24
#: The punctuation a nickname may hold, beside letters, digits and spaces.
NICKNAME_PUNCTUATION = ".'-_"
#: Unicode's general categories of the characters a nickname may hold: letters, the marks written on them, digits.
_CATEGORIES = ("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd")


class NicknameProblem(enum.Enum):
    """Why a nickname is refused."""

    EMPTY = "empty"
    TOO_LONG = "too long"
    CHARACTER = "character"
    REPEATED = "repeated"


class NicknameError(ValueError):
    """A nickname refused, and why (:class:`NicknameProblem`; for a character, the first one not allowed)."""

    def __init__(self, problem: NicknameProblem, character: str = "") -> None:
        self.problem, self.character = problem, character
        details = {
            NicknameProblem.EMPTY: "a nickname has at least one character",
            NicknameProblem.TOO_LONG: f"a nickname has at most {NICKNAME_LENGTH} characters",
            NicknameProblem.CHARACTER: (
                f"{character!r} is not allowed in a nickname: letters, digits, spaces and "
                f"{' '.join(NICKNAME_PUNCTUATION)} only"
            ),
            NicknameProblem.REPEATED: "the address gives more than one nickname",
        }
        super().__init__(details[problem])


def _allowed(character: str) -> bool:
    return character == " " or character in NICKNAME_PUNCTUATION or unicodedata.category(character) in _CATEGORIES


def look_alike_key(nickname: str) -> str:
    """What two nicknames a reader could take for one another share: the compatibility form (NFKC: a fullwidth
    "Ａda" is "Ada") with the case folded ("ADA", "ada" and "Ada" alike). A class holds one nickname per key
    (:mod:`dragonkit.record.holds`), so that nobody joins as a look-alike of a classmate.

    >>> look_alike_key("\uff21DA") == look_alike_key("ada")
    True
    """
    return unicodedata.normalize("NFKC", nickname).casefold()


def nickname(text: str) -> str:
    """``text`` as a nickname: composed (NFC), its spaces at the ends dropped and each run of spaces (of any kind)
    made one.

    Parameters
    ----------
    text : str
        What the student typed.

    Returns
    -------
    str
        1 to :data:`NICKNAME_LENGTH` characters.

    Raises
    ------
    NicknameError
        If nothing is left, if it is longer, or if it holds a character other than a letter, a digit, a space or
        one of :data:`NICKNAME_PUNCTUATION` (the first such character named).

    Examples
    --------
    >>> nickname("  Zoe\\u0308   L. ")
    'Zoë L.'
    """
    composed = " ".join(unicodedata.normalize("NFC", text).split())
    if not composed:
        raise NicknameError(NicknameProblem.EMPTY)
    refused = next((character for character in composed if not _allowed(character)), None)
    if refused is not None:
        raise NicknameError(NicknameProblem.CHARACTER, refused)
    if len(composed) > NICKNAME_LENGTH:
        raise NicknameError(NicknameProblem.TOO_LONG)
    return composed


def query_nickname(given: Sequence[str]) -> str | None:
    """The nickname of an address whose ``?nickname=`` values are ``given``: None when it gives none.

    Raises
    ------
    NicknameError
        If it gives more than one (:attr:`NicknameProblem.REPEATED`), or one that is not a nickname (:func:`nickname`).
    """
    if not given:
        return None
    if len(given) > 1:
        raise NicknameError(NicknameProblem.REPEATED)
    return nickname(given[0])
