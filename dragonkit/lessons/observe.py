"""Lesson 1, *Play and observe*: the deck a turn starts from, and a first guess
at when to hold, compared with the exact value of hold-at-t policies.

The guess is the policy "hold as soon as the pot reaches t gems"
(:class:`~dragonkit.analysis.HoldAtPot`), evaluated on a fresh turn of a fresh
game (full deck, the starting gems, the whole treasure) through its absorbing
Markov chain (:func:`~dragonkit.analysis.evaluate_policy`); the optimum comes
from backward induction (:func:`~dragonkit.analysis.solve_turn`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from html import escape

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure

from .. import i18n, palette
from ..analysis import TurnState, solve_turn
from ..i18n import tr
from ..plots import figure_png
from ..rules import Card, Ruleset
from ..style import CSS
from ..ui.numbers import number_html
from .base import LessonWidget, fresh_turn, largest_pot
from .next_card import composition_figure, next_card_table

__all__ = ["DeckView", "FirstGuess", "GuessResult", "answers", "threshold_scan"]

#: Spacing of the thresholds t in the curve of :class:`FirstGuess` (gems).
SCAN_STEP = 4


@lru_cache(maxsize=8)
def threshold_scan(state: TurnState, step: int = SCAN_STEP):
    """Hold-at-t policies from ``state`` for ``t = 1, 1 + step, ...`` up to the largest pot,
    evaluated in floats (:func:`~dragonkit.analysis.compare_policies`); cached.

    Returns
    -------
    pandas.DataFrame
        One row per threshold and one for the optimal policy; columns as
        :func:`~dragonkit.analysis.compare_policies`.
    """
    from ..analysis import compare_policies

    top = largest_pot(state)
    return compare_policies(state, thresholds=sorted({*range(1, top + 1, step), top}))


class GuessResult:
    """The exact value of a guessed threshold, next to the best hold-at-t and the optimum.

    Attributes
    ----------
    threshold : int
        The guess t (gems).
    gain : Fraction
        Exact expected gem change of a turn under "hold at t" (gems).
    p_loss, p_head : float
        Probabilities that the turn ends with fewer gems, and at the head.
    best_threshold : int
        The best t among the scanned thresholds and their neighbours (gems).
    best_gain, best_p_loss, best_p_head : float
        Its expected gem change (gems), probability of a loss and probability of reaching the head.
    optimal : Fraction
        The optimal turn value (gems), by backward induction.
    optimal_p_loss, optimal_p_head : float
        The optimal policy's probabilities of a loss and of reaching the head.
    scan : pandas.DataFrame
        The hold-at-t table behind the curve (floats).

    Parameters
    ----------
    state : TurnState
        The situation the policies start from (:func:`fresh_turn` in the lesson).
    threshold : int
        The guess t (gems), at least 1.

    Raises
    ------
    ValueError
        For a threshold that is not a whole number >= 1.
    """

    def __init__(self, state: TurnState, threshold: int):
        from ..analysis import HoldAtPot, compare_policies, evaluate_policy

        if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)) or threshold < 1:
            raise ValueError(f"the threshold must be a whole number of gems >= 1, not {threshold!r}")
        threshold = int(threshold)

        scan = threshold_scan(state)
        rows = scan[scan["threshold"].notna()]
        near = int(rows["threshold"].iloc[int(np.argmax(rows["expected_gain"].to_numpy(dtype=float)))])
        extra = [t for t in range(max(1, near - SCAN_STEP + 1), near + SCAN_STEP) if t not in set(rows["threshold"])]
        if threshold not in set(rows["threshold"]):
            extra.append(threshold)
        if extra:
            scan = compare_policies(state, thresholds=extra).pipe(lambda more: _merge(scan, more))
        rows = scan[scan["threshold"].notna()]
        best = rows.index[int(np.argmax(rows["expected_gain"].to_numpy(dtype=float)))]
        guess = evaluate_policy(state, HoldAtPot(threshold), exact=True)
        self.threshold = threshold
        self.gain = guess.expected_gain
        self.p_loss, self.p_head = float(guess.p_loss), float(guess.p_head)
        self.best_threshold = int(rows.loc[best, "threshold"])
        self.best_gain = float(rows.loc[best, "expected_gain"])
        self.best_p_loss = float(rows.loc[best, "p_loss"])
        self.best_p_head = float(rows.loc[best, "p_head"])
        self.optimal = solve_turn(state, exact=True).value
        self.optimal_p_loss = float(scan.loc["optimal", "p_loss"])
        self.optimal_p_head = float(scan.loc["optimal", "p_head"])
        self.scan = scan


def _merge(scan, more):
    """Two compare_policies tables as one, thresholds in order, the optimum last."""
    import pandas as pd

    rows = pd.concat([scan[scan["threshold"].notna()], more[more["threshold"].notna()]])
    return pd.concat([rows.sort_values("threshold"), scan.loc[["optimal"]]])


def guess_figure(result: GuessResult) -> Figure:
    """Expected gem change (left) and probability of a loss (right) of the hold-at-t
    policies against t, with the guess and the best t marked and the optimum as a line."""
    rows = result.scan[result.scan["threshold"].notna()]
    t = rows["threshold"].to_numpy(dtype=float)
    fig = Figure(figsize=(10.0, 3.3), dpi=100, layout="constrained")
    gain_ax, loss_ax = fig.subplots(1, 2)
    gain_ax.plot(t, rows["expected_gain"].to_numpy(dtype=float), color=palette.BLUE, label=tr("hold at t"))
    gain_ax.axhline(float(result.optimal), color=palette.GOOD, linestyle="--", label=tr("optimal play"))
    gain_ax.axhline(0, color=palette.GRID, linewidth=0.8)
    loss_ax.plot(t, rows["p_loss"].to_numpy(dtype=float), color=palette.BAD, label=tr("hold at t"))
    loss_ax.axhline(result.optimal_p_loss, color=palette.GOOD, linestyle="--", label=tr("optimal play"))
    for ax, guess, best in (
        (gain_ax, float(result.gain), result.best_gain),
        (loss_ax, result.p_loss, result.best_p_loss),
    ):
        ax.plot(
            [result.threshold],
            [guess],
            "o",
            color=palette.HIGHLIGHT,
            markersize=10,
            markeredgecolor=palette.INK,
            label=tr("your guess: t = {t}", t=result.threshold),
        )
        ax.plot(
            [result.best_threshold],
            [best],
            "*",
            color=palette.GOOD,
            markersize=13,
            label=tr("best hold-at-t: t = {t}", t=result.best_threshold),
        )
        ax.set_xlabel(tr("hold when the pot reaches t gems"))
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", frameon=False)
    gain_ax.set_ylabel(tr("expected gem change per turn"))
    gain_ax.set_title(tr("What a turn is worth on average"))
    loss_ax.set_ylim(0, 1)
    loss_ax.set_ylabel(tr("probability"))
    loss_ax.set_title(tr("P(the turn ends with fewer gems)"))
    return fig


class DeckView(LessonWidget):
    """The full deck of an edition: a bar per kind of card with the exact chance
    that the first card of a turn is of that kind, and the same as a table.

    Parameters
    ----------
    rules : Ruleset, optional
        The edition (default ``dragon-stripes``).

    Attributes
    ----------
    widget : ipywidgets.HBox
    """

    def __init__(self, rules: Ruleset | None = None):
        self.rules = rules or Ruleset.preset("dragon-stripes")
        self.picture = widgets.Image(format="png", layout=widgets.Layout(width="600px"))
        self.table = widgets.HTML()
        self.widget = widgets.HBox([widgets.HTML(CSS), self.picture, self.table])
        self.widget.add_class("dk-lesson")
        self._follow_language()

    def _redraw(self, _change=None) -> None:
        deck = self.rules.composition
        self.picture.value = figure_png(composition_figure(deck))
        self.table.value = f"<b>{escape(tr('The first card of a turn'))}</b>{next_card_table(deck)}"


class FirstGuess(LessonWidget):
    """ "I would hold when the pot reaches ___ gems": a slider, a button that records
    the guess, and what that policy is worth on a fresh turn compared with the best
    hold-at-t policy and with optimal play.

    Parameters
    ----------
    rules : Ruleset, optional
        The edition (default ``dragon-stripes``).
    start : int
        The slider's first value (gems).

    Attributes
    ----------
    widget : ipywidgets.VBox
    slider : ipywidgets.IntSlider
        The threshold t (gems), 1 up to the largest pot a turn can collect.
    submit : ipywidgets.Button
    guesses : list of int
        Every threshold submitted, in order.
    result : GuessResult or None
        The evaluation of the last guess.
    """

    def __init__(self, rules: Ruleset | None = None, start: int = 20):
        self.rules = rules or Ruleset.preset("dragon-stripes")
        self.state = fresh_turn(self.rules)
        top = largest_pot(self.state)
        if isinstance(start, bool) or not isinstance(start, int) or not 1 <= start <= top:
            raise ValueError(f"start must be a whole number of gems from 1 to {top}, not {start!r}")
        self.guesses: list[int] = []
        self.result: GuessResult | None = None
        self.prompt = widgets.HTML()
        self.slider = widgets.IntSlider(
            value=start, min=1, max=top, continuous_update=False, layout=widgets.Layout(width="420px")
        )
        self.unit = widgets.HTML()
        self.submit = widgets.Button(icon="paper-plane", button_style="primary", layout=widgets.Layout(width="220px"))
        self.submit.on_click(lambda _b: self.record())
        self.report = widgets.HTML()
        self.picture = widgets.Image(
            format="png", layout=widgets.Layout(width="100%", max_width="1000px", display="none")
        )
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                self.prompt,
                widgets.HBox([self.slider, self.unit, self.submit]),
                self.report,
                self.picture,
            ]
        )
        self.widget.add_class("dk-lesson")
        self._follow_language()

    def record(self) -> GuessResult:
        """Record the slider's threshold as a guess and show what it is worth."""
        self.report.value = f'<div class="dk-message dk-info">{escape(tr("Computing the exact values…"))}</div>'
        threshold = int(self.slider.value)
        self.result = GuessResult(self.state, threshold)
        self.guesses.append(threshold)
        self._redraw()
        return self.result

    def _redraw(self, _change=None) -> None:
        self.prompt.value = f'<div class="dk-question">{escape(tr("I would hold when the pot reaches"))}</div>'
        self.unit.value = escape(tr("gems"))
        self.submit.description = tr("Submit my guess")
        if self.result is None:
            self.report.value = ""
            return
        r = self.result
        rows = [
            (tr("your guess: hold at {t}", t=r.threshold), number_html(r.gain, 4), r.p_loss, r.p_head),
            (
                tr("best hold-at-t: hold at {t}", t=r.best_threshold),
                number_html(r.best_gain, 4),
                r.best_p_loss,
                r.best_p_head,
            ),
            (tr("optimal play (backward induction)"), number_html(r.optimal, 4), r.optimal_p_loss, r.optimal_p_head),
        ]
        body = "".join(
            f"<tr><td>{escape(name)}</td><td>{gain}</td><td>{loss:.3f}</td><td>{head:.3f}</td></tr>"
            for name, gain, loss, head in rows
        )
        head = (
            f"<tr><th>{escape(tr('policy'))}</th><th>{escape(tr('expected gem change per turn'))}</th>"
            f"<th>{escape(tr('P(loss)'))}</th><th>{escape(tr('P(head)'))}</th></tr>"
        )
        guesses = tr("Your guesses so far: {guesses}.", guesses=", ".join(str(g) for g in self.guesses))
        where = tr(
            "A fresh turn of a fresh game: full deck, {gems}, the knight on the tail.", gems=i18n.Gems(self.state.gems)
        )
        note = tr(
            "Exact values from the absorbing Markov chain of each policy; the curve is computed every {step} gems.",
            step=SCAN_STEP,
        )
        self.report.value = (
            f"<p>{escape(guesses)} {escape(where)}</p>"
            f'<table class="dk-table">{head}{body}</table><p class="dk-note">{escape(note)}</p>'
        )
        self.picture.value = figure_png(guess_figure(r))
        self.picture.layout.display = None


def answers() -> dict[str, Fraction | int]:
    """The exact answers of the lesson's exercises (edition ``dragon-stripes``), read
    from the ruleset and its rule arithmetic.

    Returns
    -------
    dict
        ``"deck"`` cards in the deck; ``"stop"`` P(the first card is a stop);
        ``"ends"`` P(the first card ends the turn: a stop or a danger); ``"penalty"``
        what a stop costs a player with the starting gems (gems); ``"pot"`` the pot
        after a 2-step then a 3-step footprint (gems); ``"likely"`` the index, in the
        deck's order (:meth:`Composition.counts`), of the most likely first card.
    """
    rules = Ruleset.preset("dragon-stripes")
    deck = rules.composition
    n, gems = deck.total, rules.starting_gems
    stop = rules.apply_card(
        Card("stop"), position=0, pot=0, gems=gems, treasure=rules.treasure, dangers_revealed=0, cards_left=n - 1
    )
    first = rules.apply_card(
        Card.footprint(2), position=0, pot=0, gems=gems, treasure=rules.treasure, dangers_revealed=0, cards_left=n - 1
    )
    second = rules.apply_card(
        Card.footprint(3),
        position=first.position,
        pot=first.pot,
        gems=gems,
        treasure=first.treasure,
        dangers_revealed=0,
        cards_left=n - 2,
    )
    counts = [count for _card, count in deck.counts()]
    return {
        "deck": n,
        "stop": Fraction(deck.stops, n),
        "ends": Fraction(deck.stops + deck.dangers, n),
        "penalty": -stop.gems_change,
        "pot": second.pot,
        "likely": counts.index(max(counts)),
    }
