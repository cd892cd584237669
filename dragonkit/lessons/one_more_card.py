r"""Lesson 3, *One more card?*: the expected value of a single push, its break-even
pot, why it moves with the player's wealth, and how the one-step rule compares
with optimal play.

Revealing exactly one more card and then holding is worth

.. math::

    E_1 = \sum_{c} P(c)\, g(c),

summed over the kinds of card ``c`` left, with ``P(c)`` the exact next-card
probability and ``g(c)`` the active player's gem change when the turn ends after
that card (RULES.md section 7): the new pot for a footprint (then hold), minus the
penalty for a stop or a danger, the pot plus the treasure at the head.  Every
``g(c)`` comes from :meth:`dragonkit.rules.Ruleset.apply_card`, the engine's own
rule arithmetic.  One more card *pays* when :math:`E_1` exceeds the pot (the hold
value).  The advantage :math:`E_1 - \text{pot}` falls as the pot grows (a stop or
danger takes the pot with it), and a richer player's penalty ``floor(rate × gems)``
is larger, so the pot at which one more card stops paying, the *break-even pot*,
is lower for a richer player.

The one-step (myopic) rule "reveal while one more card pays" is compared with
the optimal policy of :func:`dragonkit.analysis.solve_turn` and
:func:`dragonkit.analysis.policy_map`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from html import escape

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure

from .. import i18n, palette
from ..analysis import TurnState, next_card_probabilities, solve_turn
from ..analysis.state import check_state
from ..i18n import Gems, tr
from ..plots import figure_png, policy_heatmap
from ..rules import Card, CardEffect, Ruleset
from ..style import CSS
from ..ui.numbers import decimal, format_fraction, number_html
from .base import LessonWidget, fresh_turn

__all__ = [
    "RICH",
    "STORY_CARDS",
    "CardOutcome",
    "MyopicVsOptimal",
    "OnePush",
    "OnePushExplorer",
    "after_cards",
    "answers",
    "break_even_pot",
    "one_push",
    "story_state",
    "with_pot",
]

#: The lesson's situation: the first turn of a game, whose first four cards were footprints of 4, 1, 2 and 1
#: steps (the knight is on stripe 8 with 4 + 5 + 7 + 8 = 24 gems in the pot).
STORY_CARDS = (Card.footprint(4), Card.footprint(1), Card.footprint(2), Card.footprint(1))

#: The gem levels drawn as curves by :class:`OnePushExplorer` (gems).
GEM_LEVELS = (10, 40, 100, 200)


@dataclass(frozen=True)
class CardOutcome:
    """One kind of next card and what it does if the player holds right after it.

    Attributes
    ----------
    card : Card
    probability : Fraction
        Chance that the next card is of this kind.
    effect : CardEffect
        What :meth:`Ruleset.apply_card` says the card does.
    gain : int
        The active player's gem change to the end of the turn (gems): the new pot
        if the turn goes on (then hold), else the card's own gem change.
    """

    card: Card
    probability: Fraction
    effect: CardEffect
    gain: int


@dataclass(frozen=True)
class OnePush:
    """Reveal exactly one more card, then hold: its expected value against holding now.

    Attributes
    ----------
    state : TurnState
    outcomes : tuple of CardOutcome
        One per kind of card left, in the deck's order (footprints first).
    value : Fraction
        :math:`E_1`, the expected gem change of "one more card, then hold" (gems).
    hold : int
        The hold value: the pot (gems).
    """

    state: TurnState
    outcomes: tuple[CardOutcome, ...]
    value: Fraction
    hold: int

    @property
    def advantage(self) -> Fraction:
        """``value - hold``: what one more card adds on average compared with holding (gems)."""
        return self.value - self.hold

    @property
    def pays(self) -> bool:
        """Whether one more card is strictly better than holding (a tie holds)."""
        return self.advantage > 0


def one_push(state: TurnState) -> OnePush:
    """The expected value of revealing exactly one more card from ``state`` and then holding.

    Each kind of card left is applied with :meth:`Ruleset.apply_card` and weighted by its
    exact probability (:func:`~dragonkit.analysis.next_card_probabilities`).

    Parameters
    ----------
    state : TurnState
        The situation (its ``must_reveal`` is ignored: the card is revealed either way).

    Returns
    -------
    OnePush

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or the deck is empty.
    """
    probabilities = next_card_probabilities(state)
    if not probabilities:
        raise ValueError("the deck is empty: no card can be revealed")
    cards_left = state.composition.total - 1
    outcomes = []
    for card, p in probabilities.items():
        effect = state.rules.apply_card(
            card,
            position=state.position,
            pot=state.pot,
            gems=state.gems,
            treasure=state.treasure,
            dangers_revealed=state.dangers_revealed,
            cards_left=cards_left,
        )
        outcomes.append(CardOutcome(card, p, effect, effect.gems_change if effect.ends_turn else effect.pot))
    value = sum((o.probability * o.gain for o in outcomes), Fraction(0))
    return OnePush(state, tuple(outcomes), value, state.pot)


def after_cards(state: TurnState, cards) -> TurnState:
    """The situation after revealing ``cards`` (footprints that keep the turn going) from ``state``.

    Parameters
    ----------
    state : TurnState
    cards : iterable of Card
        Revealed in this order; each is applied with :meth:`Ruleset.apply_card`.

    Returns
    -------
    TurnState
        With the knight moved, the pot filled from the treasure, the cards gone from
        the deck, and holding allowed.

    Raises
    ------
    ValueError
        If a card is not left in the deck or would end the turn.
    """
    rules = state.rules
    deck, position, pot, treasure = state.composition, state.position, state.pot, state.treasure
    for card in cards:
        deck = deck.without(card)  # ValueError if no such card is left
        effect = rules.apply_card(
            card,
            position=position,
            pot=pot,
            gems=state.gems,
            treasure=treasure,
            dangers_revealed=state.dangers_revealed,
            cards_left=deck.total,
        )
        if effect.ends_turn:
            raise ValueError(f"a {card.label} card here ends the turn ({effect.outcome})")
        position, pot, treasure = effect.position, effect.pot, effect.treasure
    return dataclasses.replace(
        state,
        footprints=dict(deck.footprints),
        stops=deck.stops,
        dangers=deck.dangers,
        position=position,
        pot=pot,
        treasure=treasure,
        must_reveal=False,
    )


def story_state(gems: int | None = None) -> TurnState:
    """The lesson's situation: a fresh game of ``dragon-stripes`` after :data:`STORY_CARDS`
    (knight on stripe 8, pot 24), with ``gems`` gems (default: the starting 40)."""
    state = after_cards(fresh_turn(Ruleset.preset("dragon-stripes")), STORY_CARDS)
    return state if gems is None else dataclasses.replace(state, gems=gems)


def with_pot(state: TurnState, pot: int) -> TurnState:
    """``state`` with ``pot`` gems in the pot and the treasure changed so that
    ``treasure + pot`` (the gems the dragon can still pay) stays the same, holding allowed.

    Raises
    ------
    ValueError
        For a pot that is negative or larger than ``treasure + pot``.
    """
    bank = state.treasure + state.pot
    if isinstance(pot, bool) or not isinstance(pot, (int, np.integer)) or not 0 <= pot <= bank:
        raise ValueError(f"pot must be a whole number of gems from 0 to {bank}, not {pot!r}")
    return dataclasses.replace(state, pot=int(pot), treasure=bank - int(pot), must_reveal=False)


def break_even_pot(state: TurnState) -> Fraction:
    """The pot at which one more card stops paying, at the knight's position of ``state``.

    The advantage :math:`A(p) = E_1 - p` of one more card is computed at whole pots
    ``p`` (:func:`with_pot`: same deck, gems, stage and ``treasure + pot``).  It
    falls as the pot grows, and between two whole pots it is affine (a footprint
    adds the same gems to any pot, a stop or danger costs the same penalty), so
    its root is found exactly from the first whole pot where :math:`A \\le 0` and
    the one before.

    Returns
    -------
    Fraction
        ``p*`` with ``A(p*) = 0``: one more card pays while the pot is below ``p*``;
        ``0`` when it pays at no pot.  Never above ``treasure + pot``: with all
        those gems in the pot the treasure is empty, a footprint adds nothing and
        the head pays only the pot back.

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or the deck is empty.
    """

    def advantage(pot: int) -> Fraction:
        return one_push(with_pot(state, pot)).advantage

    bank = state.treasure + state.pot
    if advantage(0) <= 0:
        return Fraction(0)
    low, high = 0, bank  # advantage(low) > 0 >= advantage(high): at pot = bank the dragon has nothing left to pay
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if advantage(middle) > 0 else (low, middle)
    above, below = advantage(low), advantage(high)
    return low + above / (above - below)


def _what_happens(outcome: CardOutcome) -> str:
    """What a card does, in words."""
    effect = outcome.effect
    if effect.outcome is None:
        return tr("knight to stripe {position}, pot {pot}", position=effect.position, pot=Gems(effect.pot))
    if effect.outcome == "head":
        return tr("the knight reaches the head: you take the pot and the treasure")
    if effect.outcome == "stopped":
        return tr("stop: you pay {penalty} and lose the pot", penalty=Gems(-effect.gems_change))
    if effect.outcome == "danger":
        return tr(
            "danger (stage {stage}): you pay {penalty} and lose the pot",
            stage=effect.dangers_revealed,
            penalty=Gems(-effect.gems_change),
        )
    if effect.outcome == "final_danger":
        return tr("final danger: you lose {lost} and the pot; the game ends", lost=Gems(-effect.gems_change))
    return tr("the deck runs out: the pot goes back to the treasure")


def outcome_table(push: OnePush) -> str:
    """HTML table of one push: each kind of card, its probability, what it does, the
    gain if you hold right after, and its share of the expected value."""
    head = (
        f"<tr><th>{escape(tr('next card'))}</th><th>{escape(tr('probability'))}</th>"
        f"<th>{escape(tr('what happens'))}</th><th>{escape(tr('gain, then hold'))}</th>"
        f"<th>{escape(tr('probability × gain'))}</th></tr>"
    )
    rows = "".join(
        f"<tr><td>{escape(o.card.describe())}</td><td>{format_fraction(o.probability)}</td>"
        f"<td>{escape(_what_happens(o))}</td><td>{o.gain:+d}</td>"
        f"<td>{format_fraction(o.probability * o.gain)}</td></tr>"
        for o in push.outcomes
    )
    total = (
        f'<tr class="dk-sum"><td colspan="4"><b>{escape(tr("one more card, then hold: E1 ="))}</b></td>'
        f"<td>{number_html(push.value, 4)}</td></tr>"
    )
    return f'<table class="dk-table">{head}{rows}{total}</table>'


class OnePushExplorer(LessonWidget):
    """One more card or hold? Sliders for the knight's position, the pot, the player's
    gems and the stage; the table of one push, its break-even pot, how the break-even
    pot moves with the player's gems, and optimal play for comparison.

    Parameters
    ----------
    state : TurnState, optional
        The deck and the starting values of the sliders (default :func:`story_state`).
        The deck stays fixed; at a later stage the dangers already revealed leave it.
    pot_max, gems_max : int
        The sliders' ranges (gems).

    Attributes
    ----------
    widget : ipywidgets.VBox
    sliders : dict of str to ipywidgets.IntSlider
        ``"position"``, ``"pot"``, ``"gems"``, ``"stage"``.
    push : OnePush
        The current situation's one push.
    break_even : Fraction
        Its break-even pot (:func:`break_even_pot`).

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or its values lie outside the sliders' ranges.
    """

    def __init__(self, state: TurnState | None = None, pot_max: int = 80, gems_max: int = 200):
        self.base = story_state() if state is None else check_state(state)
        rules = self.base.rules
        ranges = {
            "position": (0, rules.n_stripes),
            "pot": (0, pot_max),
            "gems": (0, gems_max),
            "stage": (0, len(rules.stages) - 1),
        }
        values = {
            "position": self.base.position,
            "pot": self.base.pot,
            "gems": self.base.gems,
            "stage": self.base.dangers_revealed,
        }
        for name, (low, high) in ranges.items():
            if not low <= values[name] <= high:
                raise ValueError(f"the state's {name} ({values[name]}) lies outside the slider's {low}..{high}")
        self.sliders = {}
        for name, (low, high) in ranges.items():
            self.sliders[name] = widgets.IntSlider(
                value=values[name],
                min=low,
                max=high,
                continuous_update=False,
                style={"description_width": "160px"},
                layout=widgets.Layout(width="430px"),
            )
        self.deck, self.table, self.verdict = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.picture = widgets.Image(format="png", layout=widgets.Layout(width="100%", max_width="1000px"))
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox([widgets.VBox(list(self.sliders.values())), widgets.VBox([self.deck, self.verdict])]),
                self.table,
                self.picture,
            ]
        )
        self.widget.add_class("dk-lesson")
        for slider in self.sliders.values():
            slider.observe(self._redraw, names="value")
        self._follow_language()

    def situation(self) -> TurnState:
        """The situation the sliders describe."""
        s = {name: slider.value for name, slider in self.sliders.items()}
        rules = self.base.rules
        state = dataclasses.replace(
            self.base,
            position=s["position"],
            dangers_revealed=s["stage"],
            dangers=min(self.base.dangers, rules.danger_cards - s["stage"]),
            gems=s["gems"],
            must_reveal=False,
        )
        return with_pot(state, s["pot"])

    def _redraw(self, _change=None) -> None:
        names = {
            "position": tr("knight on stripe"),
            "pot": tr("pot (gems)"),
            "gems": tr("your gems"),
            "stage": tr("stage"),
        }
        for name, slider in self.sliders.items():
            slider.description = names[name]
        state = self.situation()
        self.push = one_push(state)
        self.break_even = break_even_pot(state)
        deck = state.composition
        cards = ", ".join(f"{card.describe()} ×{count}" for card, count in deck.counts())
        stage = state.rules.stage(state.dangers_revealed)
        rules = tr(
            "Stage {d}: penalty {rate} of your gems, stripes pay ×{m}.",
            d=state.dangers_revealed,
            rate=str(stage.rate),
            m=stage.multiplier,
        )
        cards = tr("Deck: {n} cards ({cards}).", n=deck.total, cards=cards)
        self.deck.value = f'<div class="dk-status">{escape(cards)}<br>{escape(rules)}</div>'
        self.table.value = outcome_table(self.push)
        self.verdict.value = self._verdict_html(state)
        self.picture.value = figure_png(self._figure(state))

    def _verdict_html(self, state: TurnState) -> str:
        push = self.push
        rule = (tr("Reveal") if push.pays else tr("Hold")).upper()
        lines = [
            tr("Hold now: {pot}.", pot=Gems(push.hold)),
            tr("One more card, then hold: E1 = {value} gems.", value=decimal(push.value)),
            tr("One-step rule: {action} (advantage {adv} gems).", action=rule, adv=f"{float(push.advantage):+.3f}"),
        ]
        if self.break_even == 0:
            lines.append(tr("One more card pays at no pot here."))
        else:
            lines.append(
                tr(
                    "Break-even pot: {p} gems (exact {exact}); one more card pays below it.",
                    p=decimal(self.break_even),
                    exact=str(self.break_even),
                )
            )
        best = solve_turn(state, exact=True)
        optimal = (tr("Reveal") if best.best_action == "reveal" else tr("Hold")).upper()
        lines.append(
            tr(
                "Optimal play (backward induction): {action}; revealing, then playing on optimally, "
                "is worth {value} gems.",
                action=optimal,
                value=decimal(best.push_value),
            )
        )
        agree = (best.best_action == "reveal") == push.pays
        lines.append(
            tr("The one-step rule and optimal play agree.")
            if agree
            else tr("They disagree: optimal play looks further ahead than one card.")
        )
        css = "dk-success" if agree else "dk-warning"
        return (
            "<br>".join(escape(line) for line in lines[:-1])
            + f'<div class="dk-message {css}">{escape(lines[-1])}</div>'
        )

    def _figure(self, state: TurnState) -> Figure:
        fig = Figure(figsize=(10.0, 3.4), dpi=100, layout="constrained")
        curves, wealth = fig.subplots(1, 2)
        pots = np.arange(0, self.sliders["pot"].max + 1)
        levels = sorted({*GEM_LEVELS, state.gems})
        for gems in levels:
            variant = dataclasses.replace(state, gems=gems)
            advantage = [float(one_push(with_pot(variant, int(p))).advantage) for p in pots]
            mine = gems == state.gems
            (line,) = curves.plot(
                pots,
                advantage,
                linewidth=2.6 if mine else 1.2,
                label=tr("{gems} (you)", gems=Gems(gems)) if mine else i18n.gems(gems),
            )
            point = break_even_pot(variant)
            if 0 < point <= pots[-1]:
                curves.plot([float(point)], [0], "o", color=line.get_color(), markersize=5)
        curves.plot(
            [state.pot], [float(self.push.advantage)], "D", color=palette.INK, markersize=7, label=tr("your situation")
        )
        curves.axhline(0, color=palette.GRID, linewidth=0.9)
        curves.set_xlabel(tr("pot (gems)"))
        curves.set_ylabel(tr("E1 − pot (gems)"))
        curves.set_title(tr("Does one more card pay? Above 0: reveal"))
        curves.grid(alpha=0.3)
        curves.legend(fontsize="small", frameon=False, title=tr("player's gems"), title_fontsize="small")
        gems_axis = np.arange(0, self.sliders["gems"].max + 1, 2)
        points = [break_even_pot(dataclasses.replace(state, gems=int(g))) for g in gems_axis]
        wealth.step(gems_axis, [float(p) for p in points], where="post", color=palette.BLUE)
        wealth.plot(
            [state.gems], [float(self.break_even)], "D", color=palette.INK, markersize=7, label=tr("your situation")
        )
        wealth.legend(fontsize="small", frameon=False)
        wealth.set_ylim(bottom=0)
        wealth.set_xlabel(tr("player's gems"))
        wealth.set_ylabel(tr("break-even pot (gems)"))
        wealth.set_title(tr("The richer the player, the sooner to hold"))
        wealth.grid(alpha=0.3)
        return fig


class MyopicVsOptimal(LessonWidget):
    """The one-step rule against optimal play on the whole board: the optimal
    policy's map (push minus hold by knight position and pot, :func:`policy_map`)
    with the one-step break-even pot of every position drawn over it.

    Parameters
    ----------
    state : TurnState, optional
        The deck, stage and treasure (default :func:`story_state`).
    gems_max : int
        The gems slider's range (gems).

    Attributes
    ----------
    widget : ipywidgets.VBox
    gems : ipywidgets.IntSlider
        The player's gems.
    break_even : dict of int to Fraction
        The one-step break-even pot by knight position (:func:`break_even_pot`).
    disagree : int
        Decision points of the map (position, pot) where the one-step rule and optimal play differ.
    hold_points : int
        Reachable decision points where optimal play holds (the red cells; none with few gems).

    Raises
    ------
    ValueError
        If ``state`` is not a TurnState or its gems lie outside the slider's range.
    """

    def __init__(self, state: TurnState | None = None, gems_max: int = 200):
        self.base = story_state() if state is None else check_state(state)
        if not 0 <= self.base.gems <= gems_max:
            raise ValueError(f"the state's gems ({self.base.gems}) lie outside 0..{gems_max}")
        self.gems = widgets.IntSlider(
            value=self.base.gems,
            min=0,
            max=gems_max,
            step=5,
            continuous_update=False,
            style={"description_width": "120px"},
            layout=widgets.Layout(width="420px"),
        )
        self.summary = widgets.HTML()
        self.picture = widgets.Image(format="png", layout=widgets.Layout(width="100%", max_width="900px"))
        self.widget = widgets.VBox([widgets.HTML(CSS), self.gems, self.summary, self.picture])
        self.widget.add_class("dk-lesson")
        self.gems.observe(self._redraw, names="value")
        self._follow_language()

    def _redraw(self, _change=None) -> None:
        from ..analysis import policy_map

        self.gems.description = tr("your gems")
        state = dataclasses.replace(
            self.base, gems=self.gems.value, position=0, pot=0, treasure=self.base.treasure + self.base.pot
        )
        advantage = policy_map(state)
        self.break_even = {
            int(x): break_even_pot(dataclasses.replace(state, position=int(x))) for x in advantage.columns
        }
        pots = advantage.index.to_numpy()
        myopic = np.column_stack([pots < self.break_even[x] for x in advantage.columns])
        optimal = advantage.to_numpy(dtype=float) > 0
        reachable = advantage.notna().to_numpy()
        self.disagree = int(((optimal != myopic) & reachable).sum())
        bolder = int((optimal & ~myopic & reachable).sum())
        fig = policy_heatmap(advantage, title=tr("Optimal play (colours) and the one-step rule (black line)"))
        ax = fig.axes[0]
        xs = sorted(self.break_even)
        top = float(advantage.index.max())
        ys = [min(float(self.break_even[x]), top + 0.5) for x in xs]
        ax.step(xs, ys, where="mid", color=palette.INK, linewidth=2.2, label=tr("one-step break-even pot"))
        ax.legend(loc="upper left", fontsize="small")
        self.picture.value = figure_png(fig)
        summary = tr(
            "With {gems}, {stage}: the one-step rule and optimal play differ at {n} of the {total} "
            "(position, pot) pairs; at {bolder} of them optimal play reveals where the one-step rule holds.",
            gems=Gems(state.gems),
            stage=tr("stage {d}", d=state.dangers_revealed),
            n=self.disagree,
            total=int(reachable.sum()),
            bolder=bolder,
        )
        self.hold_points = int((~optimal & reachable).sum())
        if self.hold_points == 0:  # the colour legend's "hold" has nothing to point at: say why
            summary += " " + tr(
                "No cell is red (hold): with {gems} at stake optimal play reveals at every reachable "
                "point. Move the gems slider up: the more a stop or a danger costs you, the more "
                "points turn red.",
                gems=Gems(state.gems),
            )
        self.summary.value = f"<p>{escape(summary)}</p>"


#: The richer player of the exercises (gems).
RICH = 100


def answers() -> dict[str, Fraction]:
    """The exact answers of the lesson's exercises, in :func:`story_state`.

    Returns
    -------
    dict
        ``"value"`` E1, one more card then hold (gems); ``"advantage"`` E1 minus the pot
        (gems); ``"break_even"`` the break-even pot with 40 gems; ``"break_even_rich"``
        with :data:`RICH` gems (gems).
    """
    story = story_state()
    push = one_push(story)
    return {
        "value": push.value,
        "advantage": push.advantage,
        "break_even": break_even_pot(story),
        "break_even_rich": break_even_pot(story_state(RICH)),
    }
