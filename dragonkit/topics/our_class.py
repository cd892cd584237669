r"""The class's own decisions, for lessons 1 and 8 ("our class"): where they come from, where the class held against
the exact optimum, and the cards its reveals turned up against the exact probabilities and a Monte Carlo.

Where the data come from (:func:`class_data`): in a kernel that keeps the class's record (``dragonkit serve`` gives
it ``$DRAGONKIT_RECORD``, :mod:`dragonkit.record.store`), today's decisions of this class, read with
:func:`dragonkit.record.reading.decisions`; elsewhere (a notebook in JupyterLab on one laptop), a seeded sample class
(:func:`dragonkit.topics.sample_class.sample_class`), labelled as one (:attr:`ClassData.source`).

Lesson 1, the class's stopping pots:

* :func:`stopping_choices` — every reveal-or-hold choice, against the optimum: the record keeps each option's exact
  expected gems for the turn (the coach's first view, backward induction), so a hold where revealing was worth more
  is a stop *short of* the optimal boundary, a reveal where holding was worth more a push *past* it, and the
  difference is the expected gems the choice gave up;
* :func:`holding_pots` — the pots at which the class held, each with where the optimum starts holding in the same
  situation (:func:`dragonkit.analysis.turn.table.hold_from`, exact);
* :func:`stopping_summary` — by edition and stage: how many stopped short and pushed past, and what it cost.

Lesson 8, the class's frequencies:

* :func:`reveal_decks` — each reveal with the card it turned up and the deck it came from. The deck is shuffled, so
  the card is equally likely to be any card left: a kind with :math:`c` cards of :math:`N` left turns up with
  probability :math:`c/N` (one draw of the multivariate hypergeometric law), exactly;
* :func:`replay_reveals` — a Monte Carlo of the same reveals: each a card drawn at random from its own deck;
* :func:`card_frequencies` — each kind's observed frequency with its Wilson interval, against the exact expected
  frequency :math:`\bar p = \frac1n\sum_i c_i/N_i` and the Monte Carlo's;
* :func:`running_frequency` — the same as the reveals accumulate: the law of large numbers with pooled data.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.turn.table import hold_from
from ..game_state import Phase
from ..record.where import class_name, record_url
from ..rules import Card, CardKind, Ruleset
from ..simulate.stats import normal_quantile, proportion_estimate
from ..turn import Action, TurnState

__all__ = [
    "RECORD",
    "SAMPLE",
    "SAMPLE_SEED",
    "SAMPLE_STUDENTS",
    "ClassData",
    "card_frequencies",
    "class_data",
    "decision_turn",
    "holding_pots",
    "kind_card",
    "refreshed",
    "replay_reveals",
    "reveal_decks",
    "running_frequency",
    "sample_data",
    "stopping_choices",
    "stopping_summary",
]

#: Where a :class:`ClassData`'s decisions come from: the class's record, or the seeded sample class.
RECORD, SAMPLE = "record", "sample"
#: The sample class shown where there is no record: its students and its seed.
SAMPLE_STUDENTS = 40
SAMPLE_SEED = 0

_HOLD, _REVEAL = Action.HOLD.value, Action.REVEAL.value


@dataclass(frozen=True)
class ClassData:
    """A class's decisions and where they come from.

    Attributes
    ----------
    decisions : pandas.DataFrame
        One row per decision, the columns of :func:`dragonkit.record.reading.decisions`, oldest first.
    source : str
        :data:`RECORD` (this class's record) or :data:`SAMPLE` (the seeded sample class).
    class_name : str
        The class's name in the record ("" for the sample).
    day : datetime.date or None
        The day read from the record (None for the sample).
    seed : int or None
        The sample's seed (None for the record).
    readable : bool
        False where the record could not be read (its database gone or refusing): ``decisions`` is then empty.
    """

    decisions: pd.DataFrame
    source: str
    class_name: str = ""
    day: date | None = None
    seed: int | None = None
    readable: bool = True

    @property
    def students(self) -> int:
        """The students behind the decisions: their distinct nicknames, a page without a nickname counting as one
        student of its own."""
        rows = self.decisions
        if rows.empty:
            return 0
        named = rows["nickname"].fillna("") != ""
        return int(rows.loc[named, "nickname"].nunique() + rows.loc[~named, "visit_id"].nunique())

    @property
    def last_id(self) -> int:
        """The ``id`` of the latest decision read (0: none), from which :func:`refreshed` reads on."""
        return int(self.decisions["id"].max()) if len(self.decisions) else 0


def _empty_decisions() -> pd.DataFrame:
    """No decision: the record's columns, no row."""
    from ..record.schema import Decision

    return pd.DataFrame(columns=[column.name for column in Decision.__table__.columns])


def _read(url: str, class_name: str, day: date, after: int = 0) -> pd.DataFrame | None:
    """The decisions of ``class_name`` on ``day`` after the id ``after`` in the record at ``url`` (none where the
    record has no table yet); None where it cannot be read."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..record import reading
    from ..record.store import connect, revision

    engine = None
    try:
        engine = connect(url)
        if revision(engine) is None:  # nobody has written yet: the tables are made by the first write
            return _empty_decisions()
        return reading.decisions(engine, class_name, day, after)
    except (SQLAlchemyError, OSError):  # the database gone, refusing, or its file unreachable
        return None
    finally:
        if engine is not None:
            engine.dispose()


@cache
def sample_data(students: int = SAMPLE_STUDENTS, seed: int = SAMPLE_SEED) -> ClassData:
    """The seeded sample class's decisions (:func:`dragonkit.topics.sample_class.sample_class`), as :class:`ClassData`
    labelled :data:`SAMPLE`; simulated once per machine (:func:`~dragonkit.topics.sample_class.saved_sample_class`),
    read once per kernel.

    Raises
    ------
    ValueError
        As :func:`~dragonkit.topics.sample_class.sample_class`, for a number of students or a seed it refuses.
    """
    from .sample_class import saved_sample_class

    return ClassData(saved_sample_class(students, seed).decisions, SAMPLE, seed=seed)


def class_data(day: date | None = None, environ: Mapping[str, str] = os.environ) -> ClassData:
    """The decisions a lesson shows as "our class": in a kernel that keeps a record (``$DRAGONKIT_RECORD``), those of
    its class (``$DRAGONKIT_CLASS``) on ``day``; else the sample class (:func:`sample_data`).

    Parameters
    ----------
    day : datetime.date, optional
        The day of this machine's calendar (default: today).
    environ : mapping
        The environment to read (default: this process's).

    Returns
    -------
    ClassData
        ``source`` :data:`RECORD`, or :data:`SAMPLE` without a record. A record that cannot be read gives no
        decision and ``readable`` False, never an error.

    Raises
    ------
    ValueError
        If ``$DRAGONKIT_RECORD`` holds something that is not a database URL.
    """
    url = record_url(environ)
    if url is None:
        return sample_data()
    name, day = class_name(environ), day or date.today()
    found = _read(url, name, day)
    if found is None:
        return ClassData(_empty_decisions(), RECORD, name, day, readable=False)
    return ClassData(found, RECORD, name, day)


def refreshed(data: ClassData, environ: Mapping[str, str] = os.environ) -> ClassData:
    """``data`` with the decisions the record has received since it was read (only those are read); the sample as
    it is.

    Raises
    ------
    ValueError
        If ``$DRAGONKIT_RECORD`` holds something that is not a database URL.
    """
    url = record_url(environ)
    if data.source != RECORD or url is None or data.day is None:
        return data
    found = _read(url, data.class_name, data.day, data.last_id)
    if found is None:
        return replace(data, readable=False)
    if found.empty:
        return replace(data, readable=True)
    both = found if data.decisions.empty else pd.concat([data.decisions, found], ignore_index=True)
    return replace(data, decisions=both, readable=True)


# -- lesson 1: the class's stopping pots -------------------------------------------------------------------------


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """``frame``'s rows as dicts keyed by column."""
    return [{str(k): v for k, v in row.items()} for row in frame.to_dict("records")]


def decision_turn(row: Mapping[str, Any]) -> TurnState | None:
    """The turn a recorded decision was made in, as its player saw it: the edition's rules, the deck's composition,
    the stage, the player's gems, the treasure, the knight and the pot of its public ``situation``.

    Parameters
    ----------
    row : mapping
        A row of :func:`dragonkit.record.reading.decisions` (``edition``, ``phase``, ``situation``).

    Returns
    -------
    TurnState or None
        None for a decision of an offer (take over or decline: not the revealer's), and for an edition that is not
        a preset (a custom ruleset is not kept in the record).
    """
    if row["phase"] not in (Phase.MUST_REVEAL.value, Phase.CHOOSE.value):
        return None
    try:
        rules = Ruleset.preset(row["edition"])
    except ValueError:
        return None
    seen = row["situation"]
    deck = seen["deck"]
    return TurnState(
        rules,
        {int(kind): count for kind, count in deck.items() if kind.isdigit()},
        deck["stop"],
        deck["danger"],
        seen["stage"],
        seen["gems"][seen["active"]],
        seen["treasure"],
        seen["position"],
        seen["pot"],
        must_reveal=row["phase"] == Phase.MUST_REVEAL.value,
    )


#: The four verdicts of a reveal-or-hold choice (:func:`stopping_choices`).
SHORT, HELD, REVEALED, PAST = "short", "held", "revealed", "past"


def stopping_choices(decisions: pd.DataFrame) -> pd.DataFrame:
    """Every choice between revealing and holding, against the optimum, from the record's exact values.

    Parameters
    ----------
    decisions : pandas.DataFrame
        Rows of :func:`dragonkit.record.reading.decisions`.

    Returns
    -------
    pandas.DataFrame
        One row per decision of the ``choose`` phase whose action was a reveal or a hold, in order: ``id``,
        ``nickname``, ``edition``, ``stage``, ``position``, ``pot`` (gems), ``action``; ``best``, the option the
        optimum takes (``"hold"`` where holding is worth at least as much as revealing: a tie holds, as
        :func:`~dragonkit.analysis.solve_turn` does); ``given_up``, the best option's expected gems minus the chosen
        one's (a ``Fraction``, gems, ≥ 0); ``verdict``: :data:`SHORT` (held where revealing was worth more: a stop
        short of the optimal boundary), :data:`HELD` (held, as the optimum), :data:`REVEALED` (revealed, as the
        optimum) or :data:`PAST` (revealed where holding was worth more: a push past the boundary).
    """
    columns = ["id", "nickname", "edition", "stage", "position", "pot", "action", "best", "given_up", "verdict"]
    rows = decisions[(decisions["phase"] == Phase.CHOOSE.value) & decisions["action"].isin([_HOLD, _REVEAL])]
    out = []
    for row in _records(rows):
        values = {action: Fraction(row["gems"][action]) for action in (_HOLD, _REVEAL)}
        best = _HOLD if values[_HOLD] >= values[_REVEAL] else _REVEAL
        given_up = max(values.values()) - values[row["action"]]
        if row["action"] == _HOLD:
            verdict = SHORT if given_up else HELD
        else:
            verdict = PAST if given_up else REVEALED
        out.append([*(row[c] for c in columns[:7]), best, given_up, verdict])
    return pd.DataFrame(out, columns=columns)


@lru_cache(maxsize=4096)
def _hold_from(state: TurnState) -> int | None:
    return hold_from(state)


def holding_pots(decisions: pd.DataFrame) -> pd.DataFrame:
    """The pots at which the class held, each with where the optimum starts holding in the same situation.

    Parameters
    ----------
    decisions : pandas.DataFrame
        Rows of :func:`dragonkit.record.reading.decisions`.

    Returns
    -------
    pandas.DataFrame
        One row per hold of :func:`stopping_choices` of a preset edition, its columns and ``hold_from``: the smallest
        pot at which holding is optimal at that position with that deck, stage, gems and treasure
        (:func:`~dragonkit.analysis.turn.table.hold_from`, exact; gems), NaN where the optimum reveals at every pot
        a turn can bring there. A hold stopped short exactly when its pot is below ``hold_from`` (or ``hold_from``
        is NaN).
    """
    choices = stopping_choices(decisions)
    holds = choices[choices["action"] == _HOLD].reset_index(drop=True)
    states = [decision_turn(row) for row in _records(decisions.set_index("id").loc[holds["id"]].reset_index())]
    kept = holds.loc[np.array([state is not None for state in states], dtype=bool)].reset_index(drop=True)
    boundary = [_hold_from(state) for state in states if state is not None]
    return kept.assign(hold_from=[np.nan if b is None else float(b) for b in boundary])


def stopping_summary(choices: pd.DataFrame) -> pd.DataFrame:
    """The class's choices by edition and stage: how many stopped short of the optimal boundary and pushed past it,
    and the expected gems that cost.

    Parameters
    ----------
    choices : pandas.DataFrame
        :func:`stopping_choices`.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``(edition, stage)`` (most choices first): ``choices``, ``holds``, ``short`` and ``past`` (counts
        of :data:`SHORT` and :data:`PAST`), ``short_gems`` and ``past_gems`` (the expected gems they gave up, summed;
        ``Fraction``, gems) and ``per_choice`` (all the gems given up over the choices: the mean cost of a choice,
        ``Fraction``, gems).
    """
    columns = ["choices", "holds", "short", "past", "short_gems", "past_gems", "per_choice"]
    out = {}
    for key, group in choices.groupby(["edition", "stage"], sort=True):
        verdict = group["verdict"]
        short = sum(group.loc[verdict == SHORT, "given_up"], Fraction(0))
        past = sum(group.loc[verdict == PAST, "given_up"], Fraction(0))
        out[key] = (
            len(group),
            int((group["action"] == _HOLD).sum()),
            int((verdict == SHORT).sum()),
            int((verdict == PAST).sum()),
            short,
            past,
            (short + past) / len(group),
        )
    index = pd.MultiIndex.from_tuples(list(out), names=["edition", "stage"])
    table = pd.DataFrame(list(out.values()), index=index, columns=columns)
    return table.sort_values("choices", ascending=False, kind="stable")


# -- lesson 8: the class's frequencies -------------------------------------------------------------------------------


#: The kinds the record names by their value (a footprint it names by its steps), in the deck's order.
_OTHER_KINDS = (CardKind.STOP, CardKind.DANGER)


def kind_card(kind: str) -> Card:
    """The card a kind of the record names (:func:`dragonkit.record.rows.card_name`): ``"3"`` a footprint of 3 steps,
    ``"stop"``, ``"danger"``.

    Raises
    ------
    ValueError
        For another name.
    """
    if kind.isdigit():
        return Card.footprint(int(kind))
    if kind in _OTHER_KINDS:
        return Card(kind)
    raise ValueError(f"the record names a card by its steps, stop or danger, not {kind!r}")


def _kind_order(kind: str) -> tuple[int, int]:
    """Footprints by their steps first, then the stop, then the danger (the deck's order)."""
    return (0, int(kind)) if kind.isdigit() else (1, _OTHER_KINDS.index(CardKind(kind)))


def reveal_decks(decisions: pd.DataFrame) -> pd.DataFrame:
    """Each reveal whose card the record keeps, with the deck it was drawn from.

    Parameters
    ----------
    decisions : pandas.DataFrame
        Rows of :func:`dragonkit.record.reading.decisions`.

    Returns
    -------
    pandas.DataFrame
        One row per reveal, in order: ``id``, ``nickname``, ``edition``, ``card`` (``"1"``…``"4"``, ``"stop"``,
        ``"danger"``), ``cards`` (the cards left before it), then one column per kind of card of any of the decks
        (footprints by steps, stop, danger): that kind's cards left before it. The exact chance that a reveal turns
        up a kind is its count over ``cards`` (one draw of the multivariate hypergeometric law).

    Raises
    ------
    ValueError
        If a reveal's card is not in the deck it was drawn from.
    """
    rows = decisions[(decisions["action"] == _REVEAL) & decisions["card"].notna()]
    decks = [row["deck"] for row in rows["situation"]]
    kinds = sorted({kind for deck in decks for kind in deck}, key=_kind_order)
    counts = pd.DataFrame([[deck.get(kind, 0) for kind in kinds] for deck in decks], columns=kinds, dtype="int64")
    frame = pd.concat(
        [
            rows[["id", "nickname", "edition", "card"]].reset_index(drop=True),
            counts.sum(axis=1).rename("cards"),
            counts,
        ],
        axis=1,
    )
    for row in _records(frame):
        if row["card"] not in kinds or row[row["card"]] < 1:
            raise ValueError(f"decision {row['id']}: the card {row['card']!r} is not in the deck it was drawn from")
    return frame


def _kinds(reveals: pd.DataFrame) -> list[str]:
    return [column for column in reveals.columns if column not in ("id", "nickname", "edition", "card", "cards")]


def replay_reveals(reveals: pd.DataFrame, seed: int = 0) -> np.ndarray:
    """A Monte Carlo of the same reveals: for each, a card drawn at random from its own deck, every card left equally
    likely (seeded: the same cards for the same seed).

    Parameters
    ----------
    reveals : pandas.DataFrame
        :func:`reveal_decks`.
    seed : int

    Returns
    -------
    ndarray of str, shape (n,)
        The kind drawn for each reveal.
    """
    kinds = _kinds(reveals)
    if reveals.empty:
        return np.array([], dtype=object)
    counts = reveals[kinds].to_numpy(dtype=np.int64)
    card = np.random.default_rng(seed).integers(0, counts.sum(axis=1))  # a card's place in its deck, 0 to N - 1
    kind = (np.cumsum(counts, axis=1) <= card[:, None]).sum(axis=1)  # the kind that place falls in
    return np.asarray(kinds, dtype=object)[kind]


def _chances(reveals: pd.DataFrame, kind: str) -> list[Fraction]:
    return [Fraction(int(c), int(n)) for c, n in zip(reveals[kind], reveals["cards"])]


def card_frequencies(reveals: pd.DataFrame, simulated: np.ndarray, level: float = 0.95) -> pd.DataFrame:
    r"""Each kind of card: how often the class's reveals turned it up, against the exact probability and a Monte Carlo
    of the same reveals, with intervals.

    Parameters
    ----------
    reveals : pandas.DataFrame
        :func:`reveal_decks`, ``n`` rows.
    simulated : ndarray of str, shape (n,)
        :func:`replay_reveals` of the same reveals.
    level : float
        The intervals' confidence level.

    Returns
    -------
    pandas.DataFrame
        Indexed by kind: ``n`` (reveals), ``count`` (the class's), ``frequency`` (count over n) with its Wilson score
        interval ``ci_low``, ``ci_high`` (:func:`~dragonkit.simulate.stats.proportion_estimate`); ``expected``, the
        exact expected frequency :math:`\bar p = \frac1n \sum_i c_i/N_i` (``Fraction``: the mean of the reveals'
        exact chances, each the hypergeometric probability of its deck); ``expected_count`` (:math:`n \bar p`,
        ``Fraction``); ``sd``, the exact standard deviation of the frequency,
        :math:`\sqrt{\sum_i p_i (1 - p_i)}/n` (each card, given the cards before it, is one draw from its deck:
        the count minus the sum of the chances has that variance); ``covers``
        (whether the interval contains :math:`\bar p`); and the same for the Monte Carlo: ``mc_count``,
        ``mc_frequency``, ``mc_low``, ``mc_high``, ``mc_covers``.

    Notes
    -----
    The Wilson score interval is the binomial's, as if the n reveals shared one chance; theirs differ (each deck is its
    own), and :math:`\sum_i p_i(1-p_i)` is at most the binomial's :math:`n \bar p (1 - \bar p)` (by Jensen's
    inequality, :math:`p(1-p)` being concave), so the interval is, if anything, a little wide.

    Raises
    ------
    ValueError
        If ``simulated`` is not one card per reveal.
    """
    if len(simulated) != len(reveals):
        raise ValueError(f"{len(simulated)} simulated cards for {len(reveals)} reveals")
    n = len(reveals)
    rows = {}
    for kind in _kinds(reveals):
        chances = _chances(reveals, kind)
        total = sum(chances, Fraction(0))
        expected = total / n if n else Fraction(0)
        sd = float(np.sqrt(sum(float(p * (1 - p)) for p in chances))) / n if n else float("nan")
        count = int((reveals["card"] == kind).sum())
        observed = proportion_estimate(count, n, level)
        mc_count = int((simulated == kind).sum())
        mc = proportion_estimate(mc_count, n, level)
        rows[kind] = {
            "n": n,
            "count": count,
            "frequency": observed["estimate"],
            "ci_low": observed["ci_low"],
            "ci_high": observed["ci_high"],
            "expected": expected,
            "expected_count": total,
            "sd": sd,
            "covers": bool(n) and observed["ci_low"] <= expected <= observed["ci_high"],
            "mc_count": mc_count,
            "mc_frequency": mc["estimate"],
            "mc_low": mc["ci_low"],
            "mc_high": mc["ci_high"],
            "mc_covers": bool(n) and mc["ci_low"] <= expected <= mc["ci_high"],
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def running_frequency(reveals: pd.DataFrame, simulated: np.ndarray, kind: str, level: float = 0.95) -> pd.DataFrame:
    r"""The frequency of ``kind`` as the class's reveals accumulate, against the exact expected frequency so far.

    Parameters
    ----------
    reveals : pandas.DataFrame
        :func:`reveal_decks`, in the order they were made.
    simulated : ndarray of str
        :func:`replay_reveals` of the same reveals.
    kind : str
        ``"1"``…``"4"``, ``"stop"`` or ``"danger"``.
    level : float
        The band's level.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``k`` (1 to n, the reveals so far): ``class`` and ``simulated``, the frequency of ``kind`` among
        the first k cards the class turned up and the Monte Carlo's; ``expected``, the mean of their exact chances
        (float); ``half``, the half width :math:`z \sqrt{\sum_{i \le k} p_i(1-p_i)}/k` of the band in which the
        class's frequency lies with probability about ``level`` (the normal approximation, by the central limit
        theorem).

    Raises
    ------
    ValueError
        If ``kind`` is not a kind of the decks, or ``simulated`` is not one card per reveal.
    """
    if kind not in _kinds(reveals):
        raise ValueError(f"no deck of these reveals has a kind {kind!r}; they have {', '.join(_kinds(reveals))}")
    if len(simulated) != len(reveals):
        raise ValueError(f"{len(simulated)} simulated cards for {len(reveals)} reveals")
    k = np.arange(1, len(reveals) + 1)
    chance = reveals[kind].to_numpy(dtype=float) / reveals["cards"].to_numpy(dtype=float)
    variance = np.cumsum(chance * (1 - chance))
    return pd.DataFrame(
        {
            "class": np.cumsum(reveals["card"].to_numpy() == kind) / k,
            "simulated": np.cumsum(np.asarray(simulated) == kind) / k,
            "expected": np.cumsum(chance) / k,
            "half": normal_quantile(level) * np.sqrt(variance) / k,
        },
        index=pd.Index(k, name="k"),
    )
