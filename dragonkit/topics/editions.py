"""The editions compared by the numbers (lesson 9): Dragon Stripes, Die Augen der Kali,
Drago Rosso, the classroom mini deck and the learners' own decks.

For each edition and each stage ``d`` the comparison analyses a *fresh turn*
(:func:`~dragonkit.analysis.turn.start.fresh_turn`): the full deck without the ``d`` danger
cards revealed in earlier turns, the starting gems, the whole treasure, a compulsory
first reveal.

* :func:`edition_profile` — the measures of :data:`MEASURES` for one edition and stage;
* :func:`compare_editions` — them for several editions, by stage; :func:`riskiest` — the edition
  where a measure is largest;
* :func:`first_card_ends`, :func:`footprint_cards`, :func:`footprints_in_a_row` — what a deck's
  composition says about the first cards (hypergeometric draws);
* :func:`expected_first_pot` — the gems the first card of a game puts in the pot, on average;
* :func:`stage_count`, :func:`fit_stages` — the stages a deck with some danger cards lists;
* :data:`EDITIONS`, :func:`edition_label` — the preset editions and their names as the lessons and the play
  app's setup form show them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from ..analysis.turn.evaluate import evaluate_policy
from ..analysis.turn.optimal import solve_turn
from ..analysis.turn.policies import optimal_policy
from ..analysis.turn.start import fresh_turn
from ..i18n import N_, tr
from ..rules import Composition, Ruleset
from ..turn import TurnState
from .named import menu_policy

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CUSTOM",
    "EDITIONS",
    "MEASURES",
    "compare_editions",
    "edition_label",
    "edition_profile",
    "expected_first_pot",
    "first_card_ends",
    "fit_stages",
    "footprint_cards",
    "footprints_in_a_row",
    "riskiest",
    "stage_count",
]

_T = TypeVar("_T")

#: The preset editions, in the order the lessons show them.
EDITIONS = ("dragon-stripes", "kali", "drago-rosso", "mini")
#: The published editions' titles (msgids: a title is the same in every language, but a page says it through the
#: catalog, as every other text).
_TITLES = {"dragon-stripes": N_("Dragon Stripes"), "kali": N_("Die Augen der Kali"), "drago-rosso": N_("Drago Rosso")}
#: The key of a learner's own deck in a comparison.
CUSTOM = "custom"


def edition_label(edition: str, rules: Ruleset | None = None, lang: str | None = None) -> str:
    """The name of an edition as the lessons and the play app show it (a learner's deck: its own name).

    Parameters
    ----------
    edition : str
        A preset name, or :data:`CUSTOM` for a learner's deck.
    rules : Ruleset, optional
        The learner's deck (its name is shown).
    lang : str, optional
        The language (default: the current one).
    """
    if edition == CUSTOM:
        return tr("your deck: {name}", lang, name=rules.name if rules is not None else "?")
    if edition == "mini":
        return tr("mini (classroom deck)", lang)
    return tr(_TITLES[edition], lang) if edition in _TITLES else edition


#: The measures of a fresh turn that a comparison shows, columns of :func:`edition_profile`.
MEASURES = ("expected_gain", "p_loss", "std", "expected_cards", "p_head", "p_first_ends")


def footprint_cards(composition: Composition) -> int:
    """The footprint cards of a deck (cards)."""
    return composition.total - composition.stops - composition.dangers


def first_card_ends(composition: Composition) -> Fraction:
    """P(the first card of the deck ends the turn): a stop or a danger, (S + D) / n, exactly.

    Raises
    ------
    ZeroDivisionError
        For an empty deck.
    """
    return Fraction(composition.stops + composition.dangers, composition.total)


def footprints_in_a_row(composition: Composition, k: int = 2) -> Fraction:
    """P(the first ``k`` cards of the deck are all footprints), exactly: k hypergeometric draws,
    the product of (F − i) / (n − i) for i = 0 .. k − 1, with F footprints among n cards."""
    footprints, total = footprint_cards(composition), composition.total
    p = Fraction(1)
    for i in range(k):
        p *= Fraction(footprints - i, total - i)
    return p


def expected_first_pot(rules: Ruleset) -> Fraction:
    """The expected gems the first card of a game puts in the pot, exactly (gems).

    The first decision of a game (:meth:`TurnState.fresh <dragonkit.turn.TurnState.fresh>`)
    stepped by every card of its chance outcomes: the sum of P(card) × the pot after it
    (0 after a stop or a danger).
    """
    start = TurnState.fresh(rules)
    return sum((p * start.child(card).pot for card, p in start.chance_outcomes()), Fraction(0))


@lru_cache(maxsize=128)
def edition_profile(rules: Ruleset, stage: int = 0, policy: Any = "optimal") -> pd.Series:
    """The measures of a fresh turn (:func:`~dragonkit.analysis.turn.start.fresh_turn`) of ``rules`` at ``stage``
    under ``policy``.

    Parameters
    ----------
    rules : Ruleset
    stage : int
    policy : "optimal" or int
        Optimal play (backward induction), or hold as soon as the pot reaches ``policy`` gems.

    Returns
    -------
    pandas.Series
        ``cards`` (the deck, cards), ``p_first_ends`` (exact ``Fraction``: the first
        card is a stop or a danger), ``expected_gain`` (exact ``Fraction``, gems), and
        from the policy's absorbing chain in floats: ``p_loss``, ``std`` (gems),
        ``expected_cards`` (cards), ``p_head``.

    Raises
    ------
    ValueError
        For a bad stage, or a policy that is neither ``"optimal"`` nor a whole number >= 0.

    Notes
    -----
    Cached: a ruleset is immutable, so its profile never changes.
    """
    import pandas as pd

    state = fresh_turn(rules, stage)
    comp = state.composition
    if policy == "optimal":
        exact_gain = solve_turn(state, exact=True).value
        evaluation = evaluate_policy(state, optimal_policy(state))
    else:
        exact_gain = evaluate_policy(state, menu_policy(policy), exact=True).expected_gain
        evaluation = evaluate_policy(state, menu_policy(policy))
    return pd.Series(
        {
            "cards": comp.total,
            "p_first_ends": first_card_ends(comp),
            "expected_gain": Fraction(exact_gain),
            "p_loss": float(evaluation.p_loss),
            "std": evaluation.std,
            "expected_cards": float(evaluation.expected_cards),
            "p_head": float(evaluation.p_head),
        },
        dtype=object,
    )


def compare_editions(entries: Mapping[str, Ruleset], policy: Any = "optimal", stages: bool = True) -> pd.DataFrame:
    """:func:`edition_profile` of every edition, by stage.

    Parameters
    ----------
    entries : mapping of str to Ruleset
        Edition key (a preset name, or any name for a learner's deck) -> rules.
    policy : "optimal" or int
    stages : bool
        Every stage of each edition, or stage 0 only.

    Returns
    -------
    pandas.DataFrame
        Index (``edition``, ``stage``); the columns of :func:`edition_profile`.
    """
    import pandas as pd

    rows = {
        (key, d): edition_profile(rules, d, policy)
        for key, rules in entries.items()
        for d in range(len(rules.stages) if stages else 1)
    }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=["edition", "stage"])
    return frame


def riskiest(table: pd.DataFrame, measure: str) -> Any:
    """The edition of a :func:`compare_editions` table where ``measure`` is largest (the first on a tie).

    Returns
    -------
    str
        Its key; with every stage in the table, the edition of the largest row.
    """
    import numpy as np

    rows = table.index.get_level_values("edition")
    return rows[int(np.argmax(table[measure].astype(float).to_numpy()))]


def stage_count(dangers: int) -> int:
    """How many stages a ruleset with ``dangers`` danger cards lists: one per number of dangers
    revealed before the last, one when there is no danger card (RULES.md; :class:`~dragonkit.rules.Ruleset`).

    Examples
    --------
    >>> stage_count(3), stage_count(0)
    (3, 1)
    """
    return max(1, dangers)


def fit_stages(typed: Sequence[_T], dangers: int) -> list[_T]:
    """The stages a learner typed, fitted to a deck with ``dangers`` danger cards: the first
    :func:`stage_count` of them, the last one repeated if there are too few.

    Raises
    ------
    ValueError
        For no stage typed.

    Examples
    --------
    >>> fit_stages(["1/4 x1", "1/2 x2"], 3)
    ['1/4 x1', '1/2 x2', '1/2 x2']
    """
    if not typed:
        raise ValueError("no stage to fit")
    wanted = stage_count(dangers)
    return [*typed[:wanted], *[typed[-1]] * (wanted - len(typed))]
