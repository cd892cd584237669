"""What the lesson widgets share: the widget base (language redraw and close), a
figure that follows the language, sliders for a situation, the editions and policies
the menus offer, and small helpers for menus and error messages.  The start of a
turn, :func:`fresh_turn`, comes from :mod:`dragonkit.analysis.turn.start`, :func:`largest_pot`
from :mod:`dragonkit.analysis.turn.thresholds`.

The lesson topic modules import these from here, not from each other; the kit's
stylesheet is :data:`dragonkit.style.CSS`, its way of writing exact numbers
:mod:`dragonkit.ui.numbers`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from html import escape
from typing import TYPE_CHECKING

import ipywidgets as widgets

from .. import i18n
from ..analysis import OptimalPolicy
from ..analysis.turn.start import fresh_turn
from ..analysis.turn.thresholds import largest_pot
from ..i18n import ntr, tr
from ..i18n.numbers import consecutive_runs, integer_text
from ..record.where import record_url
from ..rules import Message, Ruleset
from ..teach.notes import close_widgets
from ..topics.editions import CUSTOM, EDITIONS, edition_label
from ..topics.our_class import RECORD, ClassData, class_data, refreshed, sample_data
from ..topics.sliders import situation_ranges
from ..ui.figures import FigureView

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..plots.text import FigureText

__all__ = [
    "CUSTOM",
    "EDITIONS",
    "POLICIES",
    "ClassSource",
    "LessonWidget",
    "LiveFigure",
    "consecutive_runs",
    "edition_label",
    "error_text",
    "fresh_turn",
    "largest_pot",
    "policy_label",
    "policy_name",
    "relabel",
    "situation_sliders",
]


# -- widgets ------------------------------------------------------------------------------------------------


class LessonWidget:
    """What the lesson widgets share: the composite :attr:`widget` they display, the
    language they follow, and :meth:`close`.

    A subclass builds ``self.widget`` (an ``ipywidgets`` widget, with
    ``widgets.HTML(CSS)`` in it if it uses the kit's classes), defines ``_redraw``
    and calls :meth:`_follow_language` once it can draw.
    """

    widget: widgets.Widget
    _closed = False
    #: True while the widget sets its own controls (relabelling menus, filling boxes): the
    #: controls' observers skip those changes, which are not the learner's.
    _muted = False

    @contextmanager
    def muted(self):
        """Set controls inside ``with self.muted():`` without their observers reacting."""
        before, self._muted = self._muted, True
        try:
            yield
        finally:
            self._muted = before

    def _follow_language(self) -> None:
        """Draw now and again whenever the learner switches language (:data:`dragonkit.i18n.settings`)."""
        i18n.settings.observe(self._redraw, names="language")
        self._redraw()

    def _redraw(self, _change=None) -> None:
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def close(self) -> None:
        """Stop following the language and close every widget of this one (a kernel keeps
        widgets, and redraws them on a language switch, until they are closed; closing
        twice is harmless)."""
        if self._closed:
            return
        self._closed = True
        i18n.settings.unobserve(self._redraw, names="language")
        close_widgets(self.widget)


class LiveFigure(LessonWidget):
    """A matplotlib figure with its text alternative and its numbers as a table
    (:class:`~dragonkit.ui.figures.FigureView`), drawn again when the learner switches language.

    Parameters
    ----------
    make : callable
        ``make() -> (matplotlib.figure.Figure, FigureText)``: the figure, its labels written through
        :func:`~dragonkit.i18n.tr`, and its :class:`~dragonkit.plots.text.FigureText` in the current language,
        from the same data.
    width : str
        The picture's CSS width.

    Attributes
    ----------
    widget : FigureView
    """

    def __init__(self, make: Callable[[], tuple[Figure, FigureText]], width: str = "740px"):
        self.make = make
        self.widget = FigureView(width, layout=widgets.Layout(width=width, max_width="100%"))
        self._follow_language()

    def _redraw(self, _change=None) -> None:
        self.widget.show(*self.make())


# -- "our class": whose decisions a lesson shows ------------------------------------------------------------------

#: The choices of :class:`ClassSource`: the class's own decisions, or the seeded sample class's.
OUR_CLASS, SIMULATED = "class", "simulated"


class ClassSource(LessonWidget):
    """Whose decisions a lesson's "our class" shows: a toggle between the class's (from the class's record, or the
    sample class where this computer keeps none) and a simulated class's (the seeded sample), a sentence saying
    where the data come from, and a button that reads the class's latest decisions from the record.

    Parameters
    ----------
    on_change : callable
        ``on_change()``, called when the data shown change (the toggle, the button); read :attr:`data` then.

    Attributes
    ----------
    widget : ipywidgets.VBox
    choice : ipywidgets.ToggleButtons
        :data:`OUR_CLASS` or :data:`SIMULATED`.
    refresh : ipywidgets.Button
        Reads the decisions the record has received since (disabled where no record is shown).
    sentence : ipywidgets.HTML
        Where the data come from.
    ours : ClassData
        The class's decisions (:func:`~dragonkit.topics.our_class.class_data`): the sample where there is no record.
    """

    def __init__(self, on_change: Callable[[], None]) -> None:
        self._on_change = on_change
        self.ours = class_data()
        self.choice = widgets.ToggleButtons(
            options=self._options(), value=OUR_CLASS, style={"description_width": "initial", "button_width": "170px"}
        )
        self.refresh = widgets.Button(icon="refresh", layout=widgets.Layout(width="auto"))
        self.refresh.on_click(lambda _b: self.read_again())
        self.sentence = widgets.HTML()
        self.sentence.add_class("dk-status")
        self.widget = widgets.VBox([widgets.HBox([self.choice, self.refresh]), self.sentence])
        self.choice.observe(self._chosen, names="value")
        self._follow_language()

    @staticmethod
    def _options() -> list[tuple[str, str]]:
        return [(tr("our class"), OUR_CLASS), (tr("a simulated class"), SIMULATED)]

    @property
    def data(self) -> ClassData:
        """The decisions shown: the class's, or the simulated class's."""
        return self.ours if self.choice.value == OUR_CLASS else sample_data()

    def read_again(self) -> None:
        """Read the decisions the class's record has received since it was last read, and show them."""
        self.ours = refreshed(self.ours)
        self._redraw()
        self._on_change()

    def _chosen(self, _change=None) -> None:
        if self._muted:
            return
        self._redraw()
        self._on_change()

    def _redraw(self, _change=None) -> None:
        with self.muted():
            relabel(self.choice, self._options())
        self.choice.description = tr("Decisions of")
        self.refresh.description = tr("Read our class's latest decisions")
        self.refresh.disabled = self.data.source != RECORD
        self.sentence.value = f'<div role="status">{escape(source_sentence(self.data))}</div>'


def source_sentence(data: ClassData, lang: str | None = None) -> str:
    """Where ``data`` come from, in a sentence in ``lang``: the class's record today (how many decisions by how many
    students), or the sample class, simulated, and why.

    Parameters
    ----------
    data : ClassData
    lang : str, optional
        Default: the current language.
    """
    decisions = ntr(
        "{n} decision", "{n} decisions", len(data.decisions), lang, n=integer_text(len(data.decisions), lang)
    )
    students = ntr("{n} student", "{n} students", data.students, lang, n=integer_text(data.students, lang))
    if data.source == RECORD:
        if not data.readable:
            return tr(
                "Our class ({name}): the class's record cannot be read now; try again in a moment.",
                lang,
                name=data.class_name,
            )
        if data.decisions.empty:
            return tr(
                "Our class ({name}): no decision recorded yet today. Play a game, then read the latest decisions.",
                lang,
                name=data.class_name,
            )
        return tr(
            "Our class ({name}): {decisions} by {students} today.",
            lang,
            name=data.class_name,
            decisions=decisions,
            students=students,
        )
    if record_url() is None:
        return tr(
            "A sample class (simulated, seed {seed}): no class record on this computer. {decisions} by {students}.",
            lang,
            seed=data.seed,
            decisions=decisions,
            students=students,
        )
    return tr(
        "A sample class (simulated, seed {seed}), to compare with ours: {decisions} by {students}.",
        lang,
        seed=data.seed,
        decisions=decisions,
        students=students,
    )


# -- a situation's sliders --------------------------------------------------------------------------------------


def situation_sliders(
    rules: Ruleset, gems: int | None = None, treasure: int | None = None, stage: int | None = None
) -> dict[str, widgets.IntSlider]:
    """Sliders for the player's gems, the treasure and (if given) the stage, for the lesson widgets.

    Parameters
    ----------
    rules : Ruleset
    gems, treasure : int, optional
        Initial values (gems; default: the ruleset's starting gems and treasure).
        The sliders' ranges are :func:`~dragonkit.analysis.turn.start.situation_ranges`.
    stage : int, optional
        Initial stage; without it there is no stage slider.

    Returns
    -------
    dict
        ``"gems"``, ``"treasure"`` and, with ``stage``, ``"stage"``: IntSliders without
        descriptions (the widget writes them in the current language).

    Raises
    ------
    ValueError
        For gems, a treasure or a stage the ruleset does not allow (as :func:`fresh_turn`).
    """
    state = fresh_turn(rules, stage or 0, gems=gems, treasure=treasure)
    ranges = situation_ranges(state)
    shown = {"gems": state.gems, "treasure": state.treasure, "stage": state.dangers_revealed}
    names = ("gems", "treasure") if stage is None else ("gems", "treasure", "stage")
    sliders = {
        name: widgets.IntSlider(value=shown[name], min=ranges[name].low, max=ranges[name].high, step=ranges[name].step)
        for name in names
    }
    for slider in sliders.values():
        slider.continuous_update = False
        slider.style = {"description_width": "initial"}
        slider.layout = widgets.Layout(width="520px")
    return sliders


# -- the editions and the policies the menus offer -------------------------------------------------------------

#: The policies the menus offer: "optimal" and hold-at-h thresholds (gems).
POLICIES = ("optimal", 10, 20, 40)


def policy_label(policy) -> str:
    """A menu's policy (``"optimal"`` or a threshold in gems) in the current language:
    ``optimal play``, ``hold at 20 gems``."""
    return tr("optimal play") if policy == "optimal" else tr("hold at {t} gems", t=policy)


def policy_name(policy, lang: str | None = None) -> str:
    """An analysis policy's name in ``lang``: ``hold at 4`` / ``fermati a 4``, ``optimal policy`` /
    ``politica ottima``, ``hold after 2 cards``; another policy by its own (translated) name."""
    threshold = getattr(policy, "threshold", None)
    if threshold is not None:
        return tr("hold at {t}", lang, t=threshold)
    reveals = getattr(policy, "reveals", None)
    if reveals is not None:
        return ntr("hold after {k} card", "hold after {k} cards", reveals, lang, k=reveals)
    if isinstance(policy, OptimalPolicy):
        return tr("optimal policy", lang)
    return tr(policy.name, lang)


# -- menus and messages ------------------------------------------------------------------------------------------


def error_text(exc: BaseException) -> str:
    """What an error says, in the current language when it was raised with a
    :class:`~dragonkit.rules.Message` (as the rules and the lessons raise them)."""
    message = Message.of(exc)
    return message.describe() if isinstance(message, Message) else message


def relabel(choice: widgets.widget_selection._Selection, options) -> None:
    """New option labels for a selection widget (a Dropdown, ToggleButtons ...), keeping its value.

    ipywidgets moves the value to the first option when the options change, so
    the value is put back; callers mute their own value observers around the call.
    """
    options = [tuple(option) for option in options]
    if list(choice.options) != options:
        value = choice.value
        choice.options = options
        choice.value = value
