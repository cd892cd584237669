"""Lesson 9, the editions: Dragon Stripes, Die Augen der Kali, Drago Rosso, the
classroom mini deck and the learners' own decks, compared by the numbers.

For each edition and each stage ``d`` the lesson analyses a *fresh turn*: the
full deck without the ``d`` danger cards revealed in earlier turns, the
starting gems, the whole treasure, a compulsory first reveal
(:func:`dragonkit.analysis.turn.start.fresh_turn`).  :func:`~dragonkit.topics.editions.edition_profile`
measures it exactly: the expected gain, the probability of a loss, the standard deviation,
the expected number of cards, the chance of the head.

* :func:`~dragonkit.topics.editions.compare_editions` tabulates editions by stage (these two
  come from :mod:`dragonkit.topics.editions`; :data:`MEASURES` names its measures);
  :func:`~dragonkit.plots.editions.comparison_figure` and :func:`~dragonkit.plots.editions.deck_figure`
  draw them (:func:`deck_chart`: as a widget);
* :class:`EditionComparison` is the comparison widget, :class:`DeckDesigner` the
  deck designer (a refused deck shows why and changes nothing);
* :func:`answers` computes the answers of the lesson's exercises.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from fractions import Fraction
from html import escape

import ipywidgets as widgets
import pandas as pd

from .. import i18n
from ..i18n import N_, ntr, tr
from ..i18n.numbers import decimal_text, percent_text
from ..plots.editions import comparison_figure, comparison_figure_text, deck_figure, deck_figure_text
from ..rules import Card, FinalDanger, Message, Ruleset
from ..style import CSS
from ..topics.editions import (
    compare_editions,
    edition_profile,
    expected_first_pot,
    first_card_ends,
    fit_stages,
    footprint_cards,
    footprints_in_a_row,
    riskiest,
)
from ..ui.figures import FigureView
from ..ui.numbers import format_fraction, number_html
from .base import (
    CUSTOM,
    EDITIONS,
    POLICIES,
    LessonWidget,
    LiveFigure,
    consecutive_runs,
    edition_label,
    error_text,
    policy_label,
    relabel,
)

__all__ = [
    "MEASURES",
    "PUBLISHED",
    "DeckDesigner",
    "EditionComparison",
    "answers",
    "deck_chart",
    "edition_profile",  # dragonkit.topics.editions's, offered here too
    "format_stages",
    "format_stripes",
    "parse_stages",
    "parse_stripes",
]

#: The editions that were published (the mini deck is a classroom deck).
PUBLISHED = EDITIONS[:3]

#: The measures of :data:`dragonkit.topics.editions.MEASURES` as the lesson names them: name -> label msgid.
MEASURES = {
    "expected_gain": N_("expected gain (gems)"),
    "p_loss": N_("P(loss)"),
    "std": N_("standard deviation (gems)"),
    "expected_cards": N_("expected cards revealed"),
    "p_head": N_("P(head)"),
    "p_first_ends": N_("P(the first card ends the turn)"),
}


def deck_chart(editions=EDITIONS) -> LiveFigure:
    """:func:`deck_figure` of presets, with its :func:`deck_figure_text`, as a widget that follows the language."""
    entries = {e: Ruleset.preset(e) for e in editions}

    def make():
        labels = {e: edition_label(e) for e in entries}
        return deck_figure(entries, labels), deck_figure_text(entries, labels)

    return LiveFigure(make)


# -- the widgets ------------------------------------------------------------------------------------------------


def _table_html(table: pd.DataFrame, labels: Mapping[str, str], exact: bool) -> str:
    """The comparison as an HTML table: decimals, and exact fractions on request."""

    def fraction(value: Fraction, digits: int) -> str:
        shown = decimal_text(value, digits)
        return shown + (
            f'<br><span style="white-space:nowrap">{format_fraction(value)}</span>'
            if exact and value.denominator != 1
            else ""
        )

    head = "".join(
        f"<th>{h}</th>" for h in [tr("edition"), tr("stage"), tr("cards"), *(tr(MEASURES[m]) for m in MEASURES)]
    )
    rows = []
    for (edition, stage), row in zip(table.index.tolist(), table.to_dict("records"), strict=True):
        cells = [
            escape(labels[edition]),
            str(stage),
            str(row["cards"]),
            fraction(row["expected_gain"], 2),
            percent_text(row["p_loss"], 1),
            decimal_text(row["std"], 1),
            decimal_text(row["expected_cards"], 2),
            percent_text(row["p_head"], 2),
            fraction(row["p_first_ends"], 3),
        ]
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return f'<table class="dk-table"><tr>{head}</tr>{"".join(rows)}</table>'


class EditionComparison(LessonWidget):
    """The comparison widget: the editions' fresh turns, stage by stage, as a table
    and as bars of a chosen measure, under optimal play or a hold-at-h policy.

    Parameters
    ----------
    editions : sequence of str
        Preset names to compare.
    policy : "optimal" or int
    measure : str
        The measure drawn, a key of :data:`MEASURES`.

    Attributes
    ----------
    widget : ipywidgets.VBox
    entries : dict of str to Ruleset
        What is compared: the presets and, after :meth:`set_custom`, the learner's deck.
    table : pandas.DataFrame
        :func:`compare_editions` of :attr:`entries` under the chosen policy.
    """

    def __init__(self, editions=EDITIONS, policy="optimal", measure: str = "p_loss"):
        self.entries: dict[str, Ruleset] = {e: Ruleset.preset(e) for e in editions}
        if measure not in MEASURES:
            raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {measure!r}")
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, not {policy!r}")
        self.policy = widgets.Dropdown(
            value=policy, style={"description_width": "initial"}, options=[(str(p), p) for p in POLICIES]
        )
        self.measure = widgets.Dropdown(
            value=measure,
            style={"description_width": "initial"},
            options=[(m, m) for m in MEASURES],
            layout=widgets.Layout(width="420px"),
        )
        self.exact = widgets.Checkbox(value=False, indent=False)
        self.html = widgets.HTML(layout=widgets.Layout(overflow="auto", max_width="980px"))
        self.note = widgets.HTML()
        self.plot = FigureView("760px", layout=widgets.Layout(width="760px", max_width="100%"))
        self.widget = widgets.VBox(
            [widgets.HTML(CSS), widgets.HBox([self.policy, self.measure, self.exact]), self.plot, self.html, self.note]
        )
        self.widget.add_class("dk-app")
        self._compute()
        self.policy.observe(self._on_policy, names="value")
        for control in (self.measure, self.exact):
            control.observe(self._redraw, names="value")
        self._follow_language()

    def _compute(self) -> None:
        self.table = compare_editions(self.entries, self.policy.value)

    def _on_policy(self, _change=None) -> None:
        if not self._muted:
            self._compute()
            self._redraw()

    def set_custom(self, rules: Ruleset) -> None:
        """Add (or replace) the learner's deck in the comparison."""
        if not isinstance(rules, Ruleset):
            raise ValueError(f"expected a Ruleset, not {type(rules).__name__}")
        self.entries[CUSTOM] = rules
        self._compute()
        self._redraw()

    def labels(self) -> dict[str, str]:
        """Edition key -> the name shown, in the current language."""
        return {key: edition_label(key, rules) for key, rules in self.entries.items()}

    def _redraw(self, _change=None) -> None:
        if self._muted:
            return
        with self.muted():  # relabelling the menus is not the learner's choice
            relabel(self.policy, [(policy_label(p), p) for p in POLICIES])
            relabel(self.measure, [(tr(label), m) for m, label in MEASURES.items()])
        self.policy.description = tr("Play")
        self.measure.description = tr("Chart")
        self.exact.description = tr("show exact fractions")
        labels = self.labels()
        measure = self.measure.value
        name = tr(MEASURES[measure])
        self.plot.show(
            comparison_figure(self.table, measure, labels, name),
            comparison_figure_text(self.table, measure, labels, name),
        )
        self.html.value = _table_html(self.table, labels, self.exact.value)
        self.note.value = (
            '<p class="dk-note">'
            + tr(
                "A fresh turn: the full deck without the dangers of earlier stages, the starting gems, the whole "
                "treasure. P(loss) is the chance of ending the turn with fewer gems than it started with."
            )
            + "</p>"
        )


# -- the deck designer ------------------------------------------------------------------------------------------

#: Bounds of the designer's controls, which keep every analysis within seconds.
DESIGN_LIMITS = {
    "name": 40,
    "steps": 6,
    "count": 20,
    "stops": 20,
    "dangers": 4,
    "stripes": 24,
    "gems": 200,
    "treasure": 1000,
}

_FIELD_LABELS = {
    "name": N_("Name"),
    "starting_gems": N_("Starting gems"),
    "treasure": N_("Treasure"),
    "stripe_values": N_("Stripe values"),
    "footprints": N_("Footprint cards"),
    "stop_cards": N_("Stop cards"),
    "danger_cards": N_("Danger cards"),
    "stages": N_("Stages"),
    "final_danger": N_("The final danger costs"),
    "deck": N_("the whole deck"),
}


def parse_stripes(text: str) -> tuple[int, ...]:
    """Stripe values as a learner types them: ``"1-17"``, ``"1, 2, 5, 8"`` or ``"1-5, 10, 10"``.

    Raises
    ------
    ValueError
        (translated) For anything else, or more than ``DESIGN_LIMITS["stripes"]`` stripes.
    """
    values: list[int] = []
    items = [p for p in re.split(r"[,;\s]+", str(text).strip()) if p]
    for item in items:
        match = re.fullmatch(r"([0-9]{1,4})(?:-([0-9]{1,4}))?", item)
        if not match:
            raise ValueError(Message("Write the stripe values as numbers or ranges, such as 1-17 or 1, 2, 5."))
        low, high = int(match[1]), int(match[2] or match[1])
        if high < low:
            raise ValueError(
                Message(
                    "The range {text} is backwards: write the smaller number first, such as {fixed}.",
                    text=item,
                    fixed=f"{high}-{low}",
                )
            )
        if len(values) + high - low + 1 > DESIGN_LIMITS["stripes"]:
            raise ValueError(Message("A deck designed here has from 1 to {n} stripes.", n=DESIGN_LIMITS["stripes"]))
        values += range(low, high + 1)
    if not values:
        raise ValueError(Message("A deck designed here has from 1 to {n} stripes.", n=DESIGN_LIMITS["stripes"]))
    return tuple(values)


def format_stripes(values) -> str:
    """Inverse of :func:`parse_stripes`: ``(1, 2, 3, 7)`` -> ``"1-3, 7"``."""
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in consecutive_runs(values))


def parse_stages(text: str) -> list[tuple[str, int]]:
    """Stages as a learner types them: ``"1/4 x1; 1/2 x2"`` -> ``[("1/4", 1), ("1/2", 2)]``.

    The rates are left as text for :class:`~dragonkit.rules.Ruleset` to check.

    Raises
    ------
    ValueError
        (translated) For anything that is not ``rate x multiplier`` items separated by ``;``.
    """
    stages = []
    for item in [p for p in str(text).split(";") if p.strip()]:
        match = re.fullmatch(r"\s*([0-9./]{1,12})\s*[x×*]\s*([0-9]{1,4})\s*", item)
        if not match:
            raise ValueError(Message("Write the stages as rate x multiplier, separated by ;, such as 1/4 x1; 1/2 x2."))
        stages.append((match[1], int(match[2])))
    if not stages:
        raise ValueError(Message("Write the stages as rate x multiplier, separated by ;, such as 1/4 x1; 1/2 x2."))
    return stages


def format_stages(stages) -> str:
    """Inverse of :func:`parse_stages` for a ruleset's stages: ``"1/4 x1; 1/2 x2"``."""
    return "; ".join(f"{s.rate} x{s.multiplier}" for s in stages)


#: What the designer says for the rules' refusals it can meet, by the rules' msgid: a sentence about its own
#: boxes (the rules' message names the Ruleset's fields, which a learner does not see).
_REWORDED = {
    "footprints must hold at least one card": N_("Put at least one footprint card in the deck."),
    "the deck may hold at most {limit} cards, not {n}": N_("The deck has {n} cards; a deck may hold at most {limit}."),
    "name must be a non-empty string, not {value}": N_("Give the deck a name."),
    "{name}.rate must lie between 0 and 1, not {rate}": N_("Stage {k}: the rate must lie between 0 and 1, not {rate}."),
    "{name} must be a number such as 1/4, not {value}": (
        N_("Stage {k}: the rate must be a fraction such as 1/4, not {value}.")
    ),
    "{name} must be a simple fraction (terms up to {limit}), not {value}": (
        N_("Stage {k}: the rate must be a simple fraction (terms up to {limit}), not {value}.")
    ),
}


#: The rules' refusal of a stage table that does not fit the danger cards, which the designer says with two counts.
_STAGES_MISFIT = (
    "stages must list one stage per number of dangers revealed, from 0 to {last} ({wanted} in all, for "
    "danger_cards={dangers}), not {n}"
)


def _stages_misfit(fields: dict) -> str:
    """The Stages box lists the wrong number of stages for the danger cards: both counts in words that agree."""
    n, dangers = int(fields["n"]), int(fields["dangers"])
    listed = ntr("The Stages box lists {n} stage,", "The Stages box lists {n} stages,", n, n=n)
    needed = ntr(
        "but a deck with {dangers} danger card needs {wanted}: one for each number of dangers already revealed, "
        "from 0 to {last}.",
        "but a deck with {dangers} danger cards needs {wanted}: one for each number of dangers already revealed, "
        "from 0 to {last}.",
        dangers,
        dangers=dangers,
        wanted=fields["wanted"],
        last=fields["last"],
    )
    return f"{listed} {needed}"


def designer_reason(exc: ValueError) -> str:
    """Why the designer refuses a deck, in the current language and in the words of its own boxes.

    The rules' messages that name a Ruleset field (``stages``, ``danger_cards`` ...) are
    reworded (:data:`_REWORDED`; stages that do not fit the danger cards: both counts in words that
    agree); the designer's own messages and any other are shown as raised.
    """
    message = Message.of(exc)
    if isinstance(message, Message) and message.msgid == _STAGES_MISFIT:
        return _stages_misfit(dict(message.fields))
    if isinstance(message, Message) and message.msgid in _REWORDED:
        fields = dict(message.fields)
        index = re.match(r"stages\[(\d+)\]", str(fields.get("name", "")))
        if index:
            fields["k"] = int(index[1]) + 1
        if message.msgid.startswith("{name} must") and not index:
            return error_text(exc)
        return tr(_REWORDED[message.msgid], **{k: v for k, v in fields.items() if k != "name"})
    return error_text(exc)


def _whole(control, label, maximum: int) -> int:
    """A count typed in a box of the designer, checked: a whole number from 0 to ``maximum``.

    Raises
    ------
    ValueError
        (translated) Naming the box, for a value outside 0..maximum (the box does not clip it silently).
    """
    if not 0 <= control.value <= maximum:
        raise ValueError(
            Message(
                "{field} must be a whole number from 0 to {maximum}, not {value}.",
                field=label if isinstance(label, Card) else i18n.Phrase(label),
                maximum=maximum,
                value=control.value,
            )
        )
    return control.value


def _refusal(message: str) -> str:
    """Which field a ruleset error is about, from the rules' own message (its first word)."""
    if message.startswith("the deck"):
        return "deck"
    return next((field for field in _FIELD_LABELS if re.match(rf"{field}\b", message)), "")


class DeckDesigner(LessonWidget):
    """The deck designer: build a deck from counts of cards, stripe values and
    stages, see at once whether the rules accept it, and add it to the comparison.

    A deck the rules refuse shows the reason (and the field to fix) and changes
    nothing: :attr:`rules` keeps the last valid deck.

    Parameters
    ----------
    start : str
        The preset the controls start from.
    comparison : EditionComparison, optional
        Where *Analyse* puts the deck (default: a new comparison with Dragon Stripes and the mini deck).

    Attributes
    ----------
    widget : ipywidgets.VBox
    rules : Ruleset
        The last valid deck.
    error : ValueError or None
        Why the deck in the controls is refused (None if valid).
    """

    def __init__(self, start: str = "mini", comparison: EditionComparison | None = None):
        limits = DESIGN_LIMITS
        base = Ruleset.preset(start)
        self.rules = base
        self.error: ValueError | None = None
        small = widgets.Layout(width="180px")  # a label and its number: "Starting gems", and a longer language
        style = {"description_width": "initial"}
        self.start = widgets.Dropdown(options=[(edition_label(e), e) for e in EDITIONS], value=start, style=style)
        self.name = widgets.Text(value=tr("my deck"), style=style, layout=widgets.Layout(width="260px"))
        # plain number boxes, checked by build(): a bounded box would clip -1 to 0 without a word
        self.footprints = {
            s: widgets.IntText(layout=widgets.Layout(width="110px"), style=style) for s in range(1, limits["steps"] + 1)
        }
        self.stops = widgets.IntText(layout=small, style=style)
        self.dangers = widgets.IntText(layout=small, style=style)
        self.stripes = widgets.Text(style=style, layout=widgets.Layout(width="330px"), continuous_update=False)
        self.starting_gems = widgets.IntText(layout=small, style=style)
        self.treasure = widgets.IntText(layout=small, style=style)
        self._stages_typed: list[tuple[str, int]] = []  # the stages as the learner last typed them
        self._note = ""  # what the designer changed by itself (the stages, after a new number of dangers)
        self.stages = widgets.Text(style=style, layout=widgets.Layout(width="330px"), continuous_update=False)
        self.final_danger = widgets.Dropdown(
            options=list(FinalDanger), style=style, layout=widgets.Layout(width="480px")
        )
        self.analyse = widgets.Button(icon="bar-chart", button_style="primary", layout=widgets.Layout(width="260px"))
        self.status, self.heading = widgets.HTML(), widgets.HTML()
        self.comparison = (
            comparison if comparison is not None else EditionComparison(editions=("dragon-stripes", "mini"))
        )
        self._load(base)
        self.start.observe(self._on_start, names="value")
        for control in (
            self.name,
            self.stops,
            self.stripes,
            self.starting_gems,
            self.treasure,
            self.final_danger,
            *self.footprints.values(),
        ):
            control.observe(self._on_change, names="value")
        self.stages.observe(self._on_stages, names="value")
        self.dangers.observe(self._on_dangers, names="value")
        self.analyse.on_click(lambda _b: self.add_to_comparison())
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox([self.start, self.name]),
                self.heading,
                widgets.HBox(list(self.footprints.values())),
                widgets.HBox([self.stops, self.dangers, self.starting_gems, self.treasure]),
                widgets.HBox([self.stripes, self.stages]),
                self.final_danger,
                self.status,
                self.analyse,
                self.comparison.widget,
            ]
        )
        self.widget.add_class("dk-app")
        self._follow_language()

    def close(self) -> None:
        """Close the designer and the comparison it feeds (closing twice is harmless)."""
        self.comparison.close()
        super().close()

    def _on_start(self, _change=None) -> None:
        if not self._muted and self.start.value is not None:  # a menu emptied by the browser keeps the deck
            self._load(Ruleset.preset(self.start.value))

    def _load(self, rules: Ruleset) -> None:
        """Fill the controls from ``rules`` (a preset chosen as the starting point)."""
        with self.muted():
            counts = dict(rules.footprints)
            for steps, control in self.footprints.items():
                control.value = min(counts.get(steps, 0), DESIGN_LIMITS["count"])
            self.stops.value, self.dangers.value = rules.stop_cards, rules.danger_cards
            self.stripes.value = format_stripes(rules.stripe_values)
            self.starting_gems.value, self.treasure.value = rules.starting_gems, rules.treasure
            self.stages.value = format_stages(rules.stages)
            self.final_danger.value = rules.final_danger
            self._stages_typed = parse_stages(self.stages.value)
            self._note = ""
        self._on_change()

    def build(self) -> Ruleset:
        """The ruleset the controls describe.

        Raises
        ------
        ValueError
            Why the rules refuse it (the rules' message, or a translated one for a
            stripe or stage text that cannot be read).
        """
        limits = DESIGN_LIMITS
        footprints = {s: _whole(c, Card.footprint(s), limits["count"]) for s, c in self.footprints.items()}
        stops = _whole(self.stops, "Stop cards", limits["stops"])
        dangers = _whole(self.dangers, "Danger cards", limits["dangers"])
        gems = _whole(self.starting_gems, "Starting gems", limits["gems"])
        treasure = _whole(self.treasure, "Treasure", limits["treasure"])
        name = self.name.value.strip()
        if len(name) > limits["name"]:
            raise ValueError(Message("A deck name has at most {n} characters.", n=limits["name"]))
        return Ruleset.from_dict(  # the mapping of footprints and the typed stages are checked and stored by the rules
            dict(
                name=name,
                starting_gems=gems,
                treasure=treasure,
                stripe_values=parse_stripes(self.stripes.value),
                footprints={s: c for s, c in footprints.items() if c},
                stop_cards=stops,
                danger_cards=dangers,
                stages=parse_stages(self.stages.value),
                final_danger=self.final_danger.value,
                bounty_rate=self.rules.bounty_rate,
            )
        )

    def _on_dangers(self, _change=None) -> None:
        """Keep one stage per danger card, from the stages the learner typed: the first ones as
        typed, then copies of the last (the dropped ones come back with more dangers), and say so."""
        if self._muted:
            return
        typed = self._stages_typed
        if not typed or not 0 <= self.dangers.value <= DESIGN_LIMITS["dangers"]:
            self._note = ""
            self._on_change()
            return
        stages = fit_stages(typed, self.dangers.value)
        text = "; ".join(f"{rate} x{mult}" for rate, mult in stages)
        if text != self.stages.value:
            with self.muted():
                self.stages.value = text
            self._note = (
                N_(
                    "The Stages box now lists one stage per danger card; the stages you typed are kept and "
                    "come back if you add danger cards again."
                )
                if len(typed) > len(stages)
                else N_(
                    "The Stages box now lists one stage per danger card: the new ones copy your last stage; "
                    "change them if you like."
                )
            )
        self._on_change()

    def _on_stages(self, _change=None) -> None:
        """The learner typed stages: remember them (for :meth:`_on_dangers`) and validate."""
        if self._muted:
            return
        with contextlib.suppress(ValueError):
            self._stages_typed = parse_stages(self.stages.value)
        self._note = ""
        self._on_change()

    def _on_change(self, _change=None) -> None:
        """Validate the controls; a valid deck becomes :attr:`rules`, a refused one changes nothing."""
        if self._muted:
            return
        if _change is not None:  # the learner changed another box: the note on the stages is old news
            self._note = ""
        try:
            rules = self.build()
        except ValueError as exc:
            self.error = exc
        else:
            self.error = None
            self.rules = rules
        self._redraw()

    def add_to_comparison(self) -> None:
        """Analyse the last valid deck next to the presets (nothing happens while the controls are refused)."""
        if self.error is None:
            self.comparison.set_custom(self.rules)

    def _redraw(self, _change=None) -> None:
        with self.muted():  # relabelling the menus is not the learner's choice
            relabel(self.start, [(edition_label(e), e) for e in EDITIONS])
            relabel(
                self.final_danger,
                [
                    (tr("all the revealer's gems"), FinalDanger.ALL_GEMS),
                    (tr("only the pot (no penalty)"), FinalDanger.POT_ONLY),
                ],
            )
        self.start.description = tr("Start from")
        self.name.description = tr("Name")
        for steps, control in self.footprints.items():
            control.description = Card.footprint(steps).describe()
        self.stops.description = tr("Stop cards")
        self.dangers.description = tr("Danger cards")
        self.stripes.description = tr("Stripe values")
        self.starting_gems.description = tr("Starting gems")
        self.treasure.description = tr("Treasure")
        self.stages.description = tr("Stages (rate x multiplier)")
        self.final_danger.description = tr("The final danger costs")
        self.analyse.description = tr("Analyse and compare")
        self.analyse.disabled = self.error is not None
        self.heading.value = "<b>" + tr("Footprint cards, by number of steps") + "</b>"
        rules = self.rules
        comp = rules.composition
        summary = tr(
            "{cards} cards: footprints {footprints}, stops {stops}, dangers {dangers}; {n} stripes worth "
            "{values}; P(the first card ends the turn) = {p}.",
            cards=comp.total,
            footprints=footprint_cards(comp),
            stops=comp.stops,
            dangers=comp.dangers,
            n=rules.n_stripes,
            values=format_stripes(rules.stripe_values),
            p=number_html(first_card_ends(comp)),
        )
        note = f'<div class="dk-message dk-note">{tr(self._note)}</div>' if self._note else ""
        if self.error is None:
            self.status.value = (
                note + f'<div class="dk-message dk-success">{tr("The rules accept this deck.")} {summary}</div>'
            )
        else:
            field = _refusal(str(self.error))
            check = ("<br>" + tr("Check: {field}.", field=tr(_FIELD_LABELS[field]))) if field else ""
            self.status.value = (
                note
                + '<div class="dk-message dk-danger">'
                + tr("This deck is refused: {reason}", reason=escape(designer_reason(self.error)))
                + check
                + "<br>"
                + tr("The last valid deck is kept: {summary}", summary=summary)
                + "</div>"
            )


# -- the exercises' answers --------------------------------------------------------------------------------------


def answers() -> dict:
    """The answers of the lesson's exercises, computed from the presets (exact where a fraction is asked).

    Returns
    -------
    dict
        ``kali_first_ends`` (P(the first card of a Kali game ends the turn)),
        ``two_footprints`` (P(the first two cards of a Dragon Stripes game are footprints),
        two hypergeometric draws), ``first_pot`` (the expected gems the first card of a
        Dragon Stripes game puts in the pot), ``riskiest_p_loss`` and ``riskiest_std``
        (the index in :data:`PUBLISHED` of the edition whose fresh optimal turn at stage 0
        has the largest P(loss), the largest standard deviation).
    """
    stripes = Ruleset.preset("dragon-stripes")
    table = compare_editions({e: Ruleset.preset(e) for e in PUBLISHED}, "optimal", stages=False)
    return {
        "kali_first_ends": first_card_ends(Ruleset.preset("kali").composition),
        "two_footprints": footprints_in_a_row(stripes.composition, 2),
        "first_pot": expected_first_pot(stripes),
        "riskiest_p_loss": PUBLISHED.index(riskiest(table, "p_loss")),
        "riskiest_std": PUBLISHED.index(riskiest(table, "std")),
    }
