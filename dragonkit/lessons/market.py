"""Lesson 7, the takeover market: the widgets of the lesson on what a held turn is worth to whoever takes it over.

Every number comes from :mod:`dragonkit.analysis.turn.market` (the fair bounty :math:`F(g)`, the takeover
gain :math:`F(g - b) - b`, the auction's values) and :mod:`dragonkit.simulate.takeover`; the figures
from :mod:`dragonkit.plots.market`.  This module reads what the learner types (:func:`parse_drawn`,
:func:`parse_bids`) and shows the results:

* :class:`TakeoverExplorer` is the lesson's widget;
* :class:`AuctionSheet` runs the in-class sealed-bid auction of a held turn;
* :func:`answers` assembles the answers of the lesson's exercises.
"""

from __future__ import annotations

import re
from html import escape

import ipywidgets as widgets
import numpy as np

from ..analysis import TurnState, solve_turn
from ..analysis.turn.market import (
    AuctionResult,
    break_even_bid,
    fair_bounty_curve,
    gaining_takers,
    held_turn,
    run_auction,
    takeover,
)
from ..i18n import N_, Gems, tr
from ..i18n.numbers import decimal_text, ranges_text
from ..plots.market import auction_figure, auction_figure_text, takeover_figure, takeover_figure_text
from ..rules import Message, Ruleset, whole_number
from ..simulate.takeover import TakeoverPlay, mean_profit, play_takeover
from ..style import CSS
from ..topics.sliders import stage_range, takeover_sliders
from ..ui.figures import FigureView
from ..ui.numbers import number_html
from .base import EDITIONS, LessonWidget, edition_label, error_text, relabel

__all__ = [
    "TAKERS",
    "AuctionSheet",
    "TakeoverExplorer",
    "answers",
    "describe_situation",
    "parse_bids",
    "parse_drawn",
]

#: Most footprint cards a typed turn may list (a turn never draws more than the stripes).
_MAX_DRAWN = 200


# -- the situation ----------------------------------------------------------------------------------------------


def parse_drawn(text: str) -> tuple[int, ...]:
    """The footprint cards of a turn as a learner types them: ``"1+2+2"`` -> ``(1, 2, 2)``.

    Steps may be separated by ``+``, commas or spaces.

    Raises
    ------
    ValueError
        (translated) For an empty text or anything but whole numbers of steps.
    """
    parts = [p for p in re.split(r"[+,\s]+", str(text).strip()) if p]
    if not parts:
        raise ValueError(Message("Type the footprint cards of the turn, such as 1+2+2."))
    if len(parts) > _MAX_DRAWN or not all(re.fullmatch(r"[0-9]{1,3}", p) for p in parts):
        raise ValueError(Message("Write the footprint cards as numbers of steps joined by +, such as 1+2+2."))
    return tuple(int(p) for p in parts)


# -- the value of taking over -----------------------------------------------------------------------------------


def describe_situation(state: TurnState) -> str:
    """HTML: where the knight stands, the pot, the bounty, the stage, the treasure and the deck left."""
    deck = ", ".join(f"{card.describe()} ×{count}" for card, count in state.composition.counts() if count)
    place = tr("the tail") if state.position == 0 else tr("stripe {k}", k=state.position)
    return (
        '<div class="dk-status">'
        + tr(
            "Knight on {place}, pot {pot}, bounty {bounty}; stage {stage}, treasure {treasure}.",
            place=place,
            pot=Gems(state.pot),
            bounty=Gems(state.rules.bounty(state.pot)),
            stage=state.dangers_revealed,
            treasure=Gems(state.treasure),
        )
        + "<br>"
        + tr("Deck left ({n} cards): {cards}.", n=state.composition.total, cards=deck)
        + "</div>"
    )


class TakeoverExplorer(LessonWidget):
    """The lesson's widget: build a held turn, choose the holder's and the taker's gems,
    and see the fair bounty, the expected net gain of taking over and the verdict.

    Parameters
    ----------
    edition : str
        A preset name (see :data:`dragonkit.rules.PRESETS`).
    drawn : str
        The footprint cards revealed this turn, e.g. ``"1+2"``.
    stage : int
        Dangers revealed in earlier turns.
    holder_gems, taker_gems : int, optional
        Default: the starting gems, and a third of them.

    Attributes
    ----------
    widget : ipywidgets.VBox
    state : TurnState
        The last valid situation (an invalid entry shows its error and changes nothing).
    curve : pandas.DataFrame
        :func:`fair_bounty_curve` of the situation, for takers with 0 to :attr:`max_gems` gems.

    Raises
    ------
    ValueError
        If the starting situation is invalid.
    """

    def __init__(
        self,
        edition: str = "mini",
        drawn: str = "1+2",
        stage: int = 0,
        holder_gems: int | None = None,
        taker_gems: int | None = None,
    ):
        rules = Ruleset.preset(edition)
        self.state = held_turn(rules, parse_drawn(drawn), stage)
        self._error: ValueError | None = None
        self.edition = widgets.Dropdown(
            options=[(edition_label(e), e) for e in EDITIONS], value=edition, style={"description_width": "initial"}
        )
        self.drawn = widgets.Text(
            value=drawn,
            continuous_update=False,
            layout=widgets.Layout(width="460px"),
            style={"description_width": "initial"},
        )
        self.stage = widgets.Dropdown(
            options=list(stage_range(rules).values()),
            value=stage,
            layout=widgets.Layout(width="150px"),
            style={"description_width": "initial"},
        )
        self.treasure = widgets.BoundedIntText(
            value=rules.treasure,
            min=0,
            max=10_000,
            layout=widgets.Layout(width="340px"),
            style={"description_width": "initial"},
        )
        slider = dict(
            continuous_update=False, style={"description_width": "360px"}, layout=widgets.Layout(width="720px")
        )
        self.holder_gems = widgets.IntSlider(**slider)
        self.taker_gems = widgets.IntSlider(**slider)
        self.message, self.situation, self.verdict = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.plot = FigureView("720px")
        self._set_gem_range(rules, holder_gems, taker_gems)
        self._compute_curve()
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox([self.edition, self.stage, self.treasure]),
                self.drawn,
                self.message,
                self.situation,
                self.holder_gems,
                self.taker_gems,
                self.verdict,
                self.plot,
            ]
        )
        self.widget.add_class("dk-app")
        self.edition.observe(self._on_edition, names="value")
        for control in (self.drawn, self.stage, self.treasure):
            control.observe(self._on_situation, names="value")
        for control in (self.holder_gems, self.taker_gems):
            control.observe(self._redraw, names="value")
        self._follow_language()

    @property
    def max_gems(self) -> int:
        """The richest taker shown (gems; :func:`~dragonkit.analysis.turn.market.takeover_sliders`)."""
        return takeover_sliders(self.state.rules).gems.high

    def _set_gem_range(self, rules: Ruleset, holder: int | None = None, taker: int | None = None) -> None:
        shown = takeover_sliders(rules)
        for control in (self.holder_gems, self.taker_gems):
            control.min, control.max = shown.gems.low, shown.gems.high
        self.holder_gems.value = shown.holder if holder is None else holder
        self.taker_gems.value = shown.taker if taker is None else taker

    def _compute_curve(self) -> None:
        self.curve = fair_bounty_curve(self.state, self.max_gems)

    def _on_edition(self, _change=None) -> None:
        if self._muted or self.edition.value is None:  # a menu emptied by the browser keeps the situation
            return
        rules = Ruleset.preset(self.edition.value)
        with self.muted():  # one recomputation for the whole change, not one per control
            self.stage.options = list(stage_range(rules).values())
            self.stage.value = 0
            self.treasure.value = rules.treasure
            self._set_gem_range(rules)
        self._on_situation()

    def _on_situation(self, _change=None) -> None:
        """Rebuild the held turn from the controls; an invalid one shows why and changes nothing."""
        if self._muted:
            return
        try:
            state = held_turn(
                Ruleset.preset(self.edition.value),
                parse_drawn(self.drawn.value),
                self.stage.value,
                treasure=self.treasure.value,
            )
        except ValueError as exc:
            self._error = exc
        else:
            self._error = None
            if state != self.state:
                self.state = state
                self._compute_curve()
        self._redraw()

    def _redraw(self, _change=None) -> None:
        if self._muted:
            return
        with self.muted():  # relabelling the menu is not the learner's choice
            relabel(self.edition, [(edition_label(e), e) for e in EDITIONS])
        self.edition.description = tr("Edition")
        self.drawn.description = tr("Footprint cards revealed this turn")
        self.stage.description = tr("Stage")
        self.treasure.description = tr("Treasure at the start of the turn")
        self.holder_gems.description = tr("Holder's gems")
        self.taker_gems.description = tr("Taker's gems (before paying)")
        self.message.value = (
            f'<div class="dk-message dk-danger">{escape(error_text(self._error))} '
            + tr("The situation below is the last valid one.")
            + "</div>"
            if self._error
            else ""
        )
        state = self.state
        self.situation.value = describe_situation(state)
        self.verdict.value = self._verdict_html()
        args = (self.curve, state.rules.bounty(state.pot), self.holder_gems.value, self.taker_gems.value)
        self.plot.show(takeover_figure(*args), takeover_figure_text(*args))

    def _verdict_html(self) -> str:
        state = self.state
        holder = solve_turn(state.replace(gems=self.holder_gems.value), exact=True)
        right = holder.push_value <= state.pot
        holder_line = tr(
            "Holder ({gems}): revealing once more is worth {push}, holding is worth the pot, {pot}.",
            gems=Gems(self.holder_gems.value),
            push=number_html(holder.push_value),
            pot=Gems(state.pot),
        )
        holder_line += " " + (
            tr("Holding was right.") if right else tr("Holding was a mistake: revealing is worth more.")
        )
        offer = takeover(state, self.taker_gems.value)
        rows = [
            (tr("fair bounty F(g)"), number_html(offer.fair_bounty)),
            (tr("the rules' bounty b"), str(offer.bounty)),
        ]
        if offer.value_after_paying is not None and offer.net_gain is not None:  # the taker can pay
            rows += [
                (tr("value after paying, F(g − b)"), number_html(offer.value_after_paying)),
                (tr("expected net gain, F(g − b) − b"), number_html(offer.net_gain)),
            ]
            advice = (
                tr("TAKE OVER: {gain} gems more on average.", gain=decimal_text(offer.net_gain))
                if offer.pays
                else tr("DECLINE: taking over does not gain gems on average.")
            )
        else:
            advice = tr(
                "The taker cannot pay the bounty: only a player owning at least {b} may accept.", b=Gems(offer.bounty)
            )
        table = "".join(f"<tr><td>{name}</td><td>{value}</td></tr>" for name, value in rows)
        gaining = gaining_takers(self.curve)
        who = (
            tr(
                "Taking over pays for takers with {ranges} gems (of 0 to {top}).",
                ranges=ranges_text(gaining),
                top=self.max_gems,
            )
            if gaining
            else tr("Taking over pays for no taker with 0 to {top} gems.", top=self.max_gems)
        )
        return (
            f'<div class="dk-coach"><p>{holder_line}</p>'
            f"<h3>{tr('Taker ({gems})', gems=Gems(self.taker_gems.value))}</h3>"
            f'<table class="dk-values">{table}</table>'
            f'<p class="dk-advice">{advice}</p><p>{who}</p></div>'
        )


# -- the in-class auction ---------------------------------------------------------------------------------------

#: Most bids an auction sheet takes (a large class).
MAX_BIDS = 80
_BID_LINE = re.compile(r"(?P<name>[^\W\d_][\w .'-]{0,23}?)\s*[:,;=]?\s*(?P<bid>\S+)")


def parse_bids(text: str, gems: int) -> list[tuple[str, int]]:
    """The bids of an auction sheet: one ``name bid`` per line (``Ann 3``, ``Bo: 5``).

    Parameters
    ----------
    text : str
    gems : int
        Gems each bidder holds: a bid is a whole number of gems from 0 to ``gems``.

    Returns
    -------
    list of (name, bid)
        In the order typed.

    Raises
    ------
    ValueError
        (translated, naming the line) For a line that is not a name and a bid, a bid
        out of range, a name that bids twice, no bid at all or more than :data:`MAX_BIDS`.
    """
    bids: list[tuple[str, int]] = []
    lines = [(number, line.strip()) for number, line in enumerate(str(text).splitlines(), 1) if line.strip()]
    if not lines:
        raise ValueError(Message("Type at least one bid: a name and a number of gems per line, such as Ann 3."))
    if len(lines) > MAX_BIDS:
        raise ValueError(Message("An auction sheet takes at most {n} bids.", n=MAX_BIDS))
    for number, line in lines:
        match = _BID_LINE.fullmatch(line)
        if not match:
            raise ValueError(Message("Line {line}: write a name and a bid, such as Ann 3.", line=number))
        name, bid = match["name"].strip(), match["bid"]
        if not re.fullmatch(r"[0-9]{1,6}", bid) or int(bid) > gems:
            raise ValueError(
                Message("Line {line}: a bid is a whole number of gems from 0 to {gems}.", line=number, gems=gems)
            )
        if any(name.casefold() == other.casefold() for other, _ in bids):
            raise ValueError(Message("Line {line}: {name} has already bid.", line=number, name=name))
        bids.append((name, int(bid)))
    return bids


#: How a simulated turn ended, as the auction reports it.
_OUTCOME_TEXT = {
    "held": N_("held"),
    "stopped": N_("stopped"),
    "danger": N_("danger"),
    "final danger": N_("final danger"),
    "head": N_("reached the head"),
    "deck empty": N_("deck empty"),
}


class AuctionSheet(LessonWidget):
    """The in-class auction: students bid for a held turn in sealed bids, the
    teacher types them in, and the widget reveals the exact values and plays the
    turn out.

    Each bidder holds ``gems`` gems; the winner pays the price to the holder and
    takes the turn over with the gems left, then plays it optimally (the coach).

    Parameters
    ----------
    edition : str
        A preset name.
    drawn : str
        The footprint cards the holder revealed, e.g. ``"1+2"``.
    gems : int
        Gems each bidder holds.
    stage : int
    treasure : int, optional
        The treasure at the start of the turn (default 60: a what-if with a small treasure; None: the edition's).
    seed : int
        Seeds the turns played out (the same clicks give the same cards).
    price_rule : {"first", "second"}
        The price rule the sheet starts with (the teacher may switch it): the winner pays the own bid, or the
        second-highest bid.

    Raises
    ------
    ValueError
        For an unknown edition, drawn cards the deck cannot give, negative gems or an unknown price rule.

    Attributes
    ----------
    widget : ipywidgets.VBox
    state : TurnState
        The held turn.
    result : AuctionResult or None
        The last revealed auction.
    plays : list of TakeoverPlay
        The turns played out since the last auction (:func:`~dragonkit.simulate.takeover.play_takeover`).
    """

    def __init__(
        self,
        edition: str = "dragon-stripes",
        drawn: str = "2+3+4",
        gems: int = 40,
        stage: int = 0,
        treasure: int | None = 60,
        seed: int = 0,
        price_rule: str = "first",
    ):
        if price_rule not in ("first", "second"):
            raise ValueError(f"price_rule must be 'first' or 'second', not {price_rule!r}")
        self.state = held_turn(Ruleset.preset(edition), parse_drawn(drawn), stage, treasure=treasure)
        self.gems = whole_number(gems, "gems", minimum=0)
        self.result: AuctionResult | None = None
        self.plays: list[TakeoverPlay] = []
        self._rng = np.random.default_rng(seed)
        self._error: ValueError | None = None
        self.bids = widgets.Textarea(
            placeholder="Ann 3\nBo 5\nCy 2", layout=widgets.Layout(width="260px", height="150px")
        )
        self.price_rule = widgets.ToggleButtons(
            options=[("first", "first"), ("second", "second")], value=price_rule, style={"button_width": "300px"}
        )
        self.reveal_button = widgets.Button(icon="eye", button_style="primary", layout=widgets.Layout(width="200px"))
        self.play_button = widgets.Button(icon="play", layout=widgets.Layout(width="200px"), disabled=True)
        self.intro, self.message, self.report = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.plot = FigureView("720px", layout=widgets.Layout(display="none"))
        self.reveal_button.on_click(lambda _b: self.reveal(self.bids.value, self.price_rule.value))
        self.play_button.on_click(lambda _b: self.play_out())
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                self.intro,
                widgets.HBox([self.bids, widgets.VBox([self.price_rule, self.reveal_button, self.play_button])]),
                self.message,
                self.report,
                self.plot,
            ]
        )
        self.widget.add_class("dk-app")
        self._follow_language()

    def reveal(self, text: str, price_rule: str = "first") -> AuctionResult | None:
        """Read the bids, award the turn and reveal the exact values.

        Bad bids show their error and change nothing (the last result stays)."""
        try:
            bids = parse_bids(text, self.gems)
        except ValueError as exc:
            self._error = exc
        else:
            self._error = None
            self.result = run_auction(self.state, self.gems, bids, price_rule)
            self.plays = []
        self._redraw()
        return None if self._error else self.result

    def play_out(self) -> tuple[int, int]:
        """Play the turn once for the winner (optimal play after the compulsory reveal,
        :func:`~dragonkit.simulate.takeover.play_takeover`).

        Returns
        -------
        (gain, profit)
            The winner's gem change in the turn, and that minus the price (gems).

        Raises
        ------
        ValueError
            Before an auction has been revealed.
        """
        if self.result is None:
            raise ValueError("reveal an auction first")
        play = play_takeover(self.state, self.gems, self.result.price, self._rng)
        self.plays.append(play)
        self._redraw()
        return play.gain, play.profit

    def _redraw(self, _change=None) -> None:
        relabel(
            self.price_rule,
            [(tr("first price: pay your bid"), "first"), (tr("second price: pay the second bid"), "second")],
        )
        self.reveal_button.description = tr("Reveal the values")
        self.play_button.description = tr("Play the turn out")
        self.play_button.disabled = self.result is None
        self.intro.value = (
            describe_situation(self.state)
            + "<p>"
            + tr(
                "Each bidder holds {gems}. Write a sealed bid in whole gems; the highest bid wins, pays the price to "
                "the holder and takes the turn over with the gems left.",
                gems=Gems(self.gems),
            )
            + "</p>"
        )
        self.message.value = (
            f'<div class="dk-message dk-danger">{escape(error_text(self._error))}</div>' if self._error else ""
        )
        result = self.result
        if result is None:
            self.report.value = ""
            self.plot.layout.display = "none"
            return
        self.plot.show(auction_figure(result), auction_figure_text(result))
        self.plot.layout.display = None
        self.report.value = self._report_html(result)

    def _report_html(self, result: AuctionResult) -> str:
        bids = result.bids
        even = (
            tr("The break-even bid is {b}: bidding more loses gems on average.", b=Gems(result.break_even))
            if result.break_even is not None
            else tr("Even a free takeover loses gems on average.")
        )
        lines = [
            tr(
                "The turn is worth F({gems}) = {value} to a bidder who has paid nothing.",
                gems=result.gems,
                value=number_html(result.fair_bounty),
            ),
            even,
            tr(
                "Mean bid {mean} gems; {k} of {n} bids lose gems on average.",
                mean=decimal_text(result.mean_bid, 2),
                k=result.losing_bids,
                n=len(bids),
            ),
            tr(
                "{name} wins and pays {price}: expected profit {profit} gems.",
                name=escape(result.winner),
                price=Gems(result.price),
                profit=number_html(result.expected_profit),
            ),
        ]
        level = "danger" if result.cursed else "success"
        verdict = (
            tr("The winner's curse: the highest bid was too high, the winner expects to lose.")
            if result.cursed
            else tr("No winner's curse this time: the winner expects to gain.")
        )
        plays = ""
        if self.plays:
            rows = "".join(
                f"<li>{tr(_OUTCOME_TEXT[p.outcome.label])}: "
                + tr("gem change {gain}, profit after the price {profit}", gain=p.gain, profit=p.profit)
                + "</li>"
                for p in self.plays
            )
            plays = (
                f"<p><b>{tr('Turns played out')}</b></p><ol>{rows}</ol>"
                + "<p>"
                + tr(
                    "Average profit of {n} plays: {mean} gems; expected: {expected}.",
                    n=len(self.plays),
                    mean=decimal_text(mean_profit(self.plays), 2),
                    expected=decimal_text(result.expected_profit),
                )
                + "</p>"
            )
        return (
            f'<div class="dk-coach"><ul>{"".join(f"<li>{line}</li>" for line in lines)}</ul>'
            f'<div class="dk-message dk-{level}">{verdict}</div>{plays}</div>'
        )


# -- the exercises' answers ------------------------------------------------------------------------------------

#: The takers of the "who should take over" exercise (gems before paying).
TAKERS = (4, 8, 12)


def answers() -> dict:
    """The answers of the lesson's exercises, computed by the library (exact).

    Returns
    -------
    dict
        ``last_stripe`` (the mini turn held after 1+2+2, a TurnState), ``fair_bounty``
        (its F(12), gems), ``bounty`` (its bounty, gems), ``net_gain`` (taking it over
        with 12 gems, gems), ``who`` (index in :data:`TAKERS` of the one taker who
        gains from taking over the mini turn held after 1+2, or ``len(TAKERS)`` for
        nobody), ``break_even`` (the largest bid for that turn that does not lose on
        average, for bidders with 12 gems).

    Raises
    ------
    ValueError
        If more than one of the takers gains (the question would have two answers).
    """
    mini = Ruleset.preset("mini")
    last = held_turn(mini, (1, 2, 2))
    offer = takeover(last, 12)
    second = held_turn(mini, (1, 2))
    gaining = [i for i, g in enumerate(TAKERS) if takeover(second, g).pays]
    if len(gaining) > 1:
        raise ValueError(f"takers {[TAKERS[i] for i in gaining]} all gain: the question needs exactly one")
    return {
        "last_stripe": last,
        "fair_bounty": offer.fair_bounty,
        "bounty": offer.bounty,
        "net_gain": offer.net_gain,
        "who": gaining[0] if gaining else len(TAKERS),
        "break_even": break_even_bid(second, 12),
    }
