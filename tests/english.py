"""English words left on a page that should be Italian: the common words of the lessons' prose and of the apps'
labels, and the ones a text holds (the players' and editions' names apart)."""

from __future__ import annotations

import re

#: Words that are English and not Italian, the common ones of the lessons' prose and the apps' labels.
ENGLISH_WORDS = frozenset(
    {
        "the",
        "and",
        "of",
        "to",
        "is",
        "are",
        "you",
        "your",
        "with",
        "for",
        "that",
        "this",
        "which",
        "what",
        "when",
        "from",
        "how",
        "why",
        "will",
        "would",
        "should",
        "have",
        "has",
        "not",
        "but",
        "each",
        "every",
        "than",
        "then",
        "there",
        "their",
        "they",
        "we",
        "our",
        "was",
        "were",
        "its",
        "more",
        "most",
        "only",
        "also",
        "card",
        "cards",
        "gem",
        "gems",
        "deck",
        "pot",
        "knight",
        "stripe",
        "head",
        "reveal",
        "hold",
        "holds",
        "player",
        "players",
        "turn",
        "turns",
        "game",
        "games",
        "expected",
        "value",
        "probability",
        "check",
        "hint",
        "next",
        "score",
        "level",
        "show",
        "right",
        "wrong",
        "too",
        "high",
        "low",
        "answer",
        "lesson",
        "teacher",
        "notes",
        "bounty",
        "stage",
        "danger",
        "treasure",
        "take",
        "over",
        "decline",
        "footprint",
        "footprints",
        "step",
        "steps",
    }
)


#: Names that are the same in every language: the game's and its editions', the players', the languages'.
NAMES = ("Dragon Stripes", "dragon-stripes", "drago-rosso", "English", "Italiano")


def english_words(text: str) -> list[str]:
    """The common English words in ``text`` (names of the game, its editions and the languages aside)."""
    for name in NAMES:
        text = text.replace(name, " ")
    # code, identifiers, fields and LaTeX are the same in every language
    text = re.sub(r"`[^`]*`|\w*_\w*|\{\w*\}|\\[a-zA-Z]+", " ", text)
    return sorted({w for w in re.findall(r"[^\W\d_]+", text) if w.lower() in ENGLISH_WORDS})
