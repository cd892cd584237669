"""The kit's words in every language: the game's terms and the field's, one meaning each, and the glossary page.

A class reads one word for one thing. The glossary fixes, for each term, the word every page uses in each language
(``Term.words``) and, where a translator might reach for another, the words no page uses (``Term.avoid``: never
"coach" on an Italian page, but "allenatore"). The tests check the Italian catalog against it: every Italian word
of the glossary is used, none it avoids is, and a text that names a term of the field in English names it with the
glossary's word in Italian. :class:`GlossaryPage` shows it to students, as a page of its own
(``notebooks/glossary.ipynb``) that every lesson links to, each meaning translated through the catalogs.

>>> TERMS[0].words["it"]
'cavaliere'
>>> term("coach").avoid["it"]
('coach',)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from html import escape

from .. import i18n
from ..i18n import N_
from ..style import CSS

__all__ = ["FIELD", "GAME", "TERMS", "GlossaryPage", "Term", "glossary_html", "term"]

#: The two parts of the glossary.
GAME, FIELD = "game", "field"


@dataclass(frozen=True)
class Term:
    """One term of the glossary.

    Attributes
    ----------
    words : dict of str to str
        The word (or words) every page uses for it, by language code: ``{"en": "pot", "it": "piatto"}``.
    meaning : str
        What it means, in English; a msgid, translated through the catalogs.
    part : str
        :data:`GAME` (a word of *Dragon Stripes*) or :data:`FIELD` (a word of probability and Markov chains).
    lessons : tuple of int
        The lessons where it matters, the one that introduces it first.
    avoid : dict of str to tuple of str
        By language, the words no page uses for it (a calque, a synonym that would drift, an English loan).
    """

    words: dict[str, str]
    meaning: str
    part: str
    lessons: tuple[int, ...] = ()
    avoid: dict[str, tuple[str, ...]] = field(default_factory=dict)


def _game(english: str, italian: str, meaning: str, lessons: tuple[int, ...], **avoid: tuple[str, ...]) -> Term:
    return Term({"en": english, "it": italian}, meaning, GAME, lessons, dict(avoid))


def _field(english: str, italian: str, meaning: str, lessons: tuple[int, ...], **avoid: tuple[str, ...]) -> Term:
    return Term({"en": english, "it": italian}, meaning, FIELD, lessons, dict(avoid))


#: Every term, the game's first, each part in the order a class meets them.
TERMS: tuple[Term, ...] = (
    _game(
        "knight", "cavaliere", N_("The game's piece: it walks up the dragon's back, from the tail to the head."), (1,)
    ),
    _game(
        "stripe",
        "striscia",
        N_("One of the squares of the dragon's back. Each holds gems, more the closer it is to the head."),
        (1,),
    ),
    _game("tail", "coda", N_("Where the knight starts every turn, before the first stripe."), (1,)),
    _game(
        "head",
        "testa",
        N_("The end of the dragon's back. A knight who reaches it takes the pot and the whole treasure."),
        (1, 5),
    ),
    _game("deck", "mazzo", N_("The cards, shuffled once at the start of the game and never again."), (1, 2)),
    _game(
        "footprint",
        "impronta",
        N_(
            "A card that moves the knight forward by the steps printed on it; the gems of the stripe where it "
            "lands join the pot."
        ),
        (1, 2),
        it=("orma",),
    ),
    _game(
        "stop",
        "stop",
        N_("A card that ends the turn: the pot goes back to the treasure and the player pays a penalty."),
        (1, 2),
    ),
    _game(
        "danger",
        "pericolo",
        N_(
            "A card that raises the stage and charges a penalty; the last one ends the game and costs whoever "
            "reveals it all their gems."
        ),
        (1, 2),
    ),
    _game(
        "stage",
        "fase",
        N_("How many danger cards have been revealed. It sets the penalty's rate and what the stripes pay."),
        (1, 3, 5),
        it=("stadio",),
    ),
    _game(
        "pot",
        "piatto",
        N_("The gems collected in the turn so far. Holding banks them; a stop or a danger loses them."),
        (1, 3),
    ),
    _game(
        "penalty",
        "penalità",
        N_("What a stop or a danger costs: a share of the player's own gems (the rate times the gems, rounded down)."),
        (1, 3),
        it=("multa",),
    ),
    _game(
        "treasure",
        "tesoro",
        N_("The dragon's hoard. Penalties and lost pots go into it; reaching the head wins it."),
        (1, 5),
    ),
    _game(
        "reveal",
        "rivelare",
        N_("Turn over the top card of the deck. The first card of every turn must be revealed."),
        (1,),
    ),
    _game(
        "hold",
        "fermarsi",
        N_("Stop revealing and offer the turn to the others; if nobody takes it over, the player banks the pot."),
        (1,),
    ),
    _game(
        "takeover",
        "subentro (prendere il posto)",
        N_("After a hold, another player pays the holder the bounty and carries on the turn, pot and risk included."),
        (1, 7),
    ),
    _game("bounty", "taglia", N_("What a player who takes a turn over pays the holder."), (3, 7)),
    _game(
        "edition",
        "edizione",
        N_("A set of rules: the deck, the dragon and the stages. The kit plays several, from the classroom deck up."),
        (9,),
    ),
    _game(
        "coach",
        "allenatore",
        N_(
            "The kit's exact adviser: for every decision it shows the expected gems of revealing and of holding, "
            "and each option's chance of winning the game."
        ),
        (1, 10),
        it=("coach",),
    ),
    _game(
        "win bot",
        "bot per la vittoria",
        N_("A player of the kit that follows the coach's advice for winning the game, not for the most gems."),
        (10,),
        it=("bot della vittoria",),
    ),
    _game(
        "hand trainer",
        "allenamento sulle mani",
        N_("A page that deals situations of real games: decide reveal or hold, then see the exact values."),
        (3, 5),
    ),
    _field(
        "hypergeometric distribution",
        "distribuzione ipergeometrica",
        N_(
            "The number of cards of one kind among n drawn without replacement from a deck: the law of cards drawn "
            "one by one and never put back."
        ),
        (2,),
    ),
    _field(
        "binomial distribution",
        "distribuzione binomiale",
        N_("The number of successes in n independent trials with the same probability: draws with replacement."),
        (2,),
    ),
    _field(
        "expected value",
        "valore atteso",
        N_("The mean of a random quantity: each value times its probability, added up."),
        (1, 3),
        it=("valore aspettato",),
    ),
    _field(
        "break-even pot",
        "piatto di pareggio",
        N_("The pot at which one more card is worth exactly as much as holding."),
        (3,),
    ),
    _field(
        "policy",
        "politica (strategia)",
        N_(
            "A rule that says, at every decision point, reveal or hold. Game theory calls it a strategy; the kit "
            "says policy, as the theory of Markov decision processes does."
        ),
        (4, 5),
    ),
    _field(
        "decision point",
        "punto di decisione",
        N_("A moment of a turn where the player may choose: the cards drawn, the knight, the pot."),
        (4,),
        it=("punto decisionale",),
    ),
    _field(
        "absorbing Markov chain",
        "catena di Markov assorbente",
        N_(
            "A Markov chain that, from every state, reaches with certainty a state it never leaves: a turn played "
            "with a fixed policy."
        ),
        (4,),
    ),
    _field(
        "transient state",
        "stato transitorio",
        N_("A state the chain leaves for good sooner or later: here, a decision point where the policy reveals."),
        (4,),
        it=("stato transiente",),
    ),
    _field(
        "absorbing state",
        "stato assorbente",
        N_("A state the chain never leaves: an outcome of the turn (stopped, held, head, final danger)."),
        (4,),
    ),
    _field(
        "transition matrix",
        "matrice di transizione",
        N_("The probabilities of going from each state to each state in one step; one step is one card."),
        (4,),
    ),
    _field(
        "fundamental matrix",
        "matrice fondamentale",
        N_("N = (I − Q)⁻¹: the expected number of visits to each transient state from each transient state."),
        (4,),
    ),
    _field(
        "absorption probability",
        "probabilità di assorbimento",
        N_("B = NR: the probability that the chain, from a transient state, ends in each absorbing state."),
        (4,),
    ),
    _field(
        "sparse matrix",
        "matrice sparsa",
        N_("A matrix stored by its non-zero entries only, as large chains need."),
        (4,),
    ),
    _field(
        "push value",
        "valore se riveli",
        N_("W: what revealing one more card is worth, playing on as well as possible afterwards."),
        (5,),
        it=("valore del rivelare",),
    ),
    _field(
        "value function",
        "funzione valore",
        N_("V: what each decision point is worth under the best play, here the larger of the pot and W."),
        (5, 10),
        it=("funzione di valore",),
    ),
    _field(
        "Bellman equation",
        "equazione di Bellman",
        N_("V = max(pot, W): the value of a decision point from the values of the points one card later."),
        (5,),
    ),
    _field(
        "backward induction",
        "induzione all'indietro",
        N_("Solving the Bellman equation from the last cards back to the first, one layer at a time."),
        (5,),
        it=("induzione a ritroso",),
    ),
    _field(
        "optimal stopping",
        "arresto ottimo",
        N_("Choosing when to stop a random process so as to make an expected value as large as possible."),
        (5,),
        # one adjective for "optimal" on every page: arresto ottimo, politica ottima, gioco ottimo, in modo ottimo
        it=("arresto ottimale", "politica ottimale", "gioco ottimale", "modo ottimale"),
    ),
    _field(
        "variance",
        "varianza",
        N_("The expected squared distance from the mean: Var X = E[X²] − E[X]²."),
        (6,),
    ),
    _field(
        "standard deviation",
        "deviazione standard",
        N_("The square root of the variance, in the same unit as the quantity (gems)."),
        (6, 8),
        it=("deviazione tipica",),
    ),
    _field(
        "winner's curse",
        "maledizione del vincitore",
        N_("In an auction on a value nobody knows, the winner is likely the one who overestimated it most."),
        (7,),
    ),
    _field(
        "Monte Carlo simulation",
        "simulazione Monte Carlo",
        N_("Estimating a value by simulating the random process many times and averaging."),
        (8,),
    ),
    _field(
        "law of large numbers",
        "legge dei grandi numeri",
        N_("The mean of n independent trials tends to the expected value as n grows."),
        (8,),
    ),
    _field(
        "standard error",
        "errore standard",
        N_("The standard deviation of an estimate: s/√n for the mean of n trials."),
        (8,),
    ),
    _field(
        "confidence interval",
        "intervallo di confidenza",
        N_(
            "An interval computed from the data that contains the true value in a stated share of experiments "
            "(95%: the mean ± 1.96 standard errors)."
        ),
        (8, 10),
    ),
)


def term(english: str) -> Term:
    """The term whose English word is ``english``.

    Raises
    ------
    KeyError
        If the glossary has no such term.
    """
    for candidate in TERMS:
        if candidate.words["en"] == english:
            return candidate
    raise KeyError(f"the glossary has no term {english!r}")


def _sort_key(word: str) -> str:
    """Alphabetical order as a dictionary has it: accents and case aside."""
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().casefold()


def glossary_html(lang: str | None = None) -> str:
    """The glossary as HTML in ``lang`` (default: the current language): two tables, the game's words and the
    field's, each in alphabetical order of the page's words, with the word in the other language and the lessons.

    Raises
    ------
    ValueError
        For a language the kit does not speak.
    """
    lang = i18n.checked_language(lang)
    other = next(code for code in i18n.LANGUAGES if code != lang)
    head = (i18n.tr("term", lang), i18n.LANGUAGES[other], i18n.tr("meaning", lang), i18n.tr("lessons", lang))
    tables = []
    for part, caption in ((GAME, N_("The game's words")), (FIELD, N_("Probability and Markov chains"))):
        rows = []
        for item in sorted((t for t in TERMS if t.part == part), key=lambda t: _sort_key(t.words[lang])):
            lessons = ", ".join(str(number) for number in item.lessons)
            rows.append(
                f'<tr><th scope="row"><dfn>{escape(item.words[lang])}</dfn></th>'
                f'<td lang="{other}">{escape(item.words[other])}</td>'
                f"<td>{escape(i18n.tr(item.meaning, lang))}</td><td>{lessons}</td></tr>"
            )
        columns = "".join(f'<th scope="col">{escape(name)}</th>' for name in head)
        tables.append(
            f'<table class="dk-table dk-glossary"><caption>{escape(i18n.tr(caption, lang))}</caption>'
            f"<thead><tr>{columns}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
    return CSS + "".join(tables)


class GlossaryPage:
    """The glossary shown in a notebook or a Voilà page, in the kernel's language when it is displayed."""

    def _repr_html_(self) -> str:
        return glossary_html()
