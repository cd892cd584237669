"""Exercises whose answers a widget checks: a number (exact fraction, decimal or
percentage) or a choice among options, with right/wrong feedback and hints.

Texts given to an exercise (question, hints, options, explanation) are English
msgids, translated through the kit's catalogs (a lesson's texts are extracted
from its notebook by :mod:`dragonkit.i18n.notebooks`), or, for a text with
fields, a :class:`~dragonkit.rules.Message`; a lesson written in another language
gives their translations, which the exercise reads back to their msgids
(:func:`dragonkit.i18n.msgid`). The widget shows them in the current language of
:mod:`dragonkit.i18n` and redraws when it changes.

On a lesson's page, every answer an exercise judges goes to the class's record, where the kernel has one: the
lesson, the exercise's number in it, the answer, right or wrong, and the hints open (:mod:`dragonkit.teach.attempts`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import i18n
from ..i18n import Describable, tr
from ..i18n.numbers import decimal_text, fraction_text, parse_number, percent_text
from ..rules import Message, whole_number
from ..style import CSS
from .attempts import exercise_key, write_attempt
from .notes import close_widgets

__all__ = ["LATE_CHOICE", "ChoiceExercise", "FractionExercise"]

#: A choice that reaches the kernel at most this long (seconds) after a Check was made before it: ipywidgets holds
#: a widget's next state back while the kernel is answering an earlier one, but sends a click at once, so a
#: learner quick with the arrow keys may have Check judged on an option passed on the way.
LATE_CHOICE = 3.0


def _text(text: str | Describable, lang: str) -> str:
    """An exercise text in ``lang``: a msgid translated, or a text with fields (a ``Message``) written in ``lang``."""
    return text.describe(lang) if isinstance(text, Describable) else tr(text, lang)


def _as_msgid(text: str | Describable) -> str | Describable:
    """A text as the exercise keeps it: its msgid, where a lesson written in another language gave its translation
    (:func:`dragonkit.i18n.msgid`; a ``Message`` keeps its fields)."""
    if isinstance(text, Message):
        return Message(i18n.msgid(text.msgid), **text.fields)
    return i18n.msgid(text) if isinstance(text, str) else text


def _check_text(text: object, what: str) -> None:
    if not (isinstance(text, (str, Describable)) and str(text)):
        raise ValueError(f"{what} must be a non-empty string (an English msgid) or a Message")


class _Exercise:
    """What both kinds of exercise share: the question, hints, feedback, attempts, redraw on language change."""

    answer_widget: widgets.Widget

    def check(self, answer: Any) -> bool:
        """Judge ``answer`` and show the feedback; each kind of exercise says how."""
        raise NotImplementedError

    def _message(self, kind: str, args: list[Any], lang: str) -> str:
        raise NotImplementedError

    def answer_text(self, lang: str) -> str:
        """The right answer as the learner is told it, in ``lang``; each kind of exercise says how."""
        raise NotImplementedError

    def question_text(self, lang: str) -> str:
        """The question in ``lang`` (HTML, as the page shows it)."""
        return _text(self.question, lang)

    def hint_texts(self, lang: str) -> list[str]:
        """Every hint in ``lang``, in order (HTML)."""
        return [_text(hint, lang) for hint in self.hints]

    def explanation_text(self, lang: str) -> str | None:
        """The explanation shown with the right answer, in ``lang`` (HTML), if the exercise has one."""
        return None if self.explanation is None else _text(self.explanation, lang)

    def __init__(self, question, hints, explanation):
        _check_text(question, "question")
        hints = [hints] if isinstance(hints, (str, Describable)) else list(hints or [])
        for hint in hints:
            _check_text(hint, "a hint")
        if explanation is not None:
            _check_text(explanation, "explanation")
        self.question, self.hints = _as_msgid(question), [_as_msgid(hint) for hint in hints]
        self.explanation = None if explanation is None else _as_msgid(explanation)
        self.key = exercise_key(_text(question, "en"))  # where its answers go in the class's record, if anywhere
        self.attempts = 0
        self.solved = False
        self.hints_shown = 0
        self._feedback_key: tuple | None = None
        self.question_html = widgets.HTML()
        self.check_button = widgets.Button(icon="check", button_style="primary")
        self.hint_button = widgets.Button(icon="lightbulb-o", layout=widgets.Layout(display=None if hints else "none"))
        self.feedback = widgets.HTML()
        self.hint_html = widgets.HTML()
        self.check_button.on_click(lambda _b: self._on_check())
        self.hint_button.on_click(lambda _b: self.show_hint())

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def _assemble(self, answer_widget, buttons_below: bool = False) -> None:
        self.answer_widget = answer_widget
        buttons = [self.check_button, self.hint_button]
        answer_row = (
            [answer_widget, widgets.HBox(buttons)] if buttons_below else [widgets.HBox([answer_widget, *buttons])]
        )
        self.widget = widgets.VBox([widgets.HTML(CSS), self.question_html, *answer_row, self.feedback, self.hint_html])
        self.widget.add_class("dk-exercise")
        i18n.settings.observe(self._redraw, names="language")
        self._closed = False
        self._redraw()

    def close(self) -> None:
        """Stop following the language and close the exercise's widgets (a kernel keeps them, and redraws them on a
        language switch, until they are closed; closing twice is harmless)."""
        if getattr(self, "_closed", True):  # closed, or never assembled
            return
        self._closed = True
        i18n.settings.unobserve(self._redraw, names="language")
        close_widgets(self.widget)

    def show_hint(self) -> None:
        """Show the next hint (all of them, one per click)."""
        self.hints_shown = min(self.hints_shown + 1, len(self.hints))
        self._redraw()

    def _on_check(self) -> None:
        self.check(self.answer_widget.value)

    def _judge(self, key: tuple) -> None:
        self._feedback_key = key
        self._redraw()

    def _redraw(self, _change=None) -> None:
        lang = i18n.get_language()
        self.question_html.value = f'<div class="dk-question">{self.question_text(lang)}</div>'
        self.check_button.description = tr("Check", lang)
        if isinstance(self.answer_widget, widgets.Text):  # its name, and examples in the learner's writing
            self.answer_widget.description = tr("Your answer", lang)
            self.answer_widget.placeholder = tr(
                "e.g. {fraction}; {decimal}; {percent}",
                lang,
                fraction="13/47",
                decimal=decimal_text(Fraction(277, 1000), 3, lang),
                percent=percent_text(Fraction(277, 1000), 1, lang),
            )
        self.hint_button.description = tr("Hint", lang)
        hints = "".join(f"<li>{hint}</li>" for hint in self.hint_texts(lang)[: self.hints_shown])
        self.hint_html.value = f'<ul class="dk-hints">{hints}</ul>' if hints else ""
        self.feedback.value = self._feedback_html(lang) if self._feedback_key else ""

    def _feedback_html(self, lang: str) -> str:
        assert self._feedback_key is not None  # drawn only once an answer was judged
        kind, *args = self._feedback_key
        level = {"right": "success", "wrong": "danger"}.get(kind, "warning")
        message = self._message(kind, args, lang)
        explanation = self.explanation_text(lang)
        if kind == "right" and explanation is not None:
            message += f"<br>{explanation}"
        return f'<div class="dk-message dk-{level}">{message}</div>'


class FractionExercise(_Exercise):
    """A question whose answer is a number, typed as a fraction, a decimal or a percentage.

    Parameters
    ----------
    question : str or Message
        The question (HTML allowed): an English msgid, or a :class:`~dragonkit.rules.Message` with fields.
    answer : Fraction, int or str
        The exact answer (a string is read as English writes numbers, :func:`~dragonkit.i18n.numbers.parse_number`).
    hint : str, Message or list of them, optional
        Hints shown one per click on *Hint*.
    tolerance : Fraction or float
        How far a decimal answer may be from the exact one, relative to it
        (default 0.5%: ``0.28`` is accepted for ``13/47``), and never less than
        ``0.001`` in absolute terms.  A fraction must be exactly right.
    exact : bool
        If true, only the exact value is accepted (for "give the exact fraction" questions).
    explanation : str or Message, optional
        Shown with the right answer.

    Attributes
    ----------
    key : ExerciseKey or None
        Where its answers go in the class's record (:func:`dragonkit.teach.attempts.exercise_key`): each answer
        judged, as typed; None outside a lesson's page or without a record.

    Raises
    ------
    ValueError
        For an empty question or hint, or an answer that is not a number.

    Examples
    --------
    ``FractionExercise("P(stop)?", Fraction(10, 51)).check("0.196")`` is ``True``.
    """

    def __init__(
        self, question, answer, hint=None, *, tolerance=Fraction(1, 200), exact: bool = False, explanation=None
    ):
        super().__init__(question, hint, explanation)
        self.answer = parse_number(answer, "en") if isinstance(answer, str) else Fraction(answer)
        self.tolerance = Fraction(tolerance)
        if self.tolerance < 0:
            raise ValueError("tolerance must be >= 0")
        self.exact = exact
        self._judged_text: str | None = None
        box = widgets.Text(continuous_update=False, layout=widgets.Layout(width="180px"))
        box.add_class("dk-sr-label")  # its label is for screen readers: the question above says what to type
        self._assemble(box)
        self.answer_widget.observe(lambda _c: self._on_check(), names="value")  # Enter checks too

    def _on_check(self) -> None:
        # the box sends its text when it loses focus, which a click on Check does: judge a text once
        if self.answer_widget.value != self._judged_text:
            self.check(self.answer_widget.value)

    def is_right(self, value: Fraction, typed_fraction: bool) -> bool:
        """Whether ``value`` counts as the answer (exactly, or for a decimal within the tolerance)."""
        if value == self.answer:
            return True
        return not (self.exact or typed_fraction) and self._close(value)

    def _close(self, value: Fraction) -> bool:
        """Whether ``value`` lies within the tolerance of the answer (a rounded decimal)."""
        return abs(value - self.answer) <= max(self.tolerance * abs(self.answer), Fraction(1, 1000))

    def check(self, text: str) -> bool:
        """Check a typed answer, show the feedback, and return whether it is right.

        An answer that is not a number is not counted as an attempt."""
        self._judged_text = text
        if not str(text).strip():
            self._judge(("empty",))
            return False
        try:
            value = parse_number(text)
        except ValueError as exc:
            self._judge(("unreadable", str(exc)))
            return False
        if str(text).strip().endswith("%") and not 0 <= self.answer <= 1:  # 2000% is no number of points
            self._judge(("unreadable", tr("This answer is not a proportion: write it without %.")))
            return False
        self.attempts += 1
        typed_fraction = "/" in str(text)
        right = self.is_right(value, typed_fraction)
        self.solved = self.solved or right
        write_attempt(self.key, str(text).strip(), right, self.hints_shown)
        if right:
            self._judge(("right",))
        elif self.exact and not typed_fraction and self._close(value):
            self._judge(("want_fraction",))
        else:
            self._judge(("wrong", "high" if value > self.answer else "low"))
        return right

    def answer_text(self, lang: str) -> str:
        """The exact answer, with four decimals as ``lang`` writes them unless it is whole: ``13/47 ≈ 0.2766``
        (``0,2766``), ``34``."""
        answer, exact = self.answer, fraction_text(self.answer)
        return exact if answer.denominator == 1 else f"{exact} ≈ {decimal_text(answer, 4, lang)}"

    def _message(self, kind: str, args: list, lang: str) -> str:
        if kind == "right":
            return tr("Right! The answer is {answer}.", lang, answer=self.answer_text(lang))
        if kind == "wrong":
            direction = tr("too high", lang) if args[0] == "high" else tr("too low", lang)
            return tr(
                "Not quite: your answer is {direction}. Try again (attempt {n}).",
                lang,
                direction=direction,
                n=self.attempts,
            )
        if kind == "want_fraction":
            return tr("Close: now give the exact fraction, such as 13/47.", lang)
        if kind == "empty":
            return tr("Type your answer first.", lang)
        return escape(args[0])


class ChoiceExercise(_Exercise):
    """A question with one right option among several.

    Parameters
    ----------
    question : str or Message
        The question (HTML allowed): an English msgid, or a :class:`~dragonkit.rules.Message` with fields.
    options : sequence of str or Message
        The options, in the order shown.
    answer : int
        The index of the right option.
    hint, explanation : optional
        As for :class:`FractionExercise`.

    Attributes
    ----------
    key : ExerciseKey or None
        Where its answers go in the class's record (:func:`dragonkit.teach.attempts.exercise_key`): each answer
        judged, as the chosen option's index (``"0"`` for the first, in every language); None outside a lesson's
        page or without a record.

    Raises
    ------
    ValueError
        For fewer than two options, or an answer index out of range.
    """

    def __init__(self, question, options: Sequence, answer: int, hint=None, *, explanation=None):
        super().__init__(question, hint, explanation)
        options = list(options)
        if len(options) < 2:
            raise ValueError("a choice needs at least two options")
        for option in options:
            _check_text(option, "an option")
        answer = whole_number(answer, "answer (an option's index)", minimum=0, maximum=len(options) - 1)
        self.options, self.answer = [_as_msgid(option) for option in options], answer
        self._assemble(
            widgets.RadioButtons(
                options=self._labels(i18n.get_language()), value=None, layout=widgets.Layout(width="auto")
            ),
            buttons_below=True,
        )
        self._checked: tuple[float, int, bool] | None = None  # the last Check: when, and attempts and solved before
        self._relabelling = False
        self.answer_widget.observe(self._on_choice, names="value")

    def _on_check(self) -> None:
        self._checked = (time.monotonic(), self.attempts, self.solved)
        super()._on_check()

    def _on_choice(self, change: dict[str, Any]) -> None:
        """A new choice: judged in place of the last one if it arrived right after a Check (:data:`LATE_CHOICE`),
        otherwise the feedback about the option before is taken away."""
        if self._relabelling or self._feedback_key is None:
            return
        if self._checked is not None and time.monotonic() - self._checked[0] <= LATE_CHOICE:
            _, self.attempts, self.solved = self._checked  # the Check was pressed for this choice
            self._checked = None
            self.check(change["new"])
        else:
            self._feedback_key = None
            self._redraw()

    def option_texts(self, lang: str) -> list[str]:
        """The options in ``lang``, in the order shown."""
        return [_text(option, lang) for option in self.options]

    def answer_text(self, lang: str) -> str:
        """The right option, in ``lang``."""
        return self.option_texts(lang)[self.answer]

    def _labels(self, lang: str) -> list[tuple[str, int]]:
        return [(text, i) for i, text in enumerate(self.option_texts(lang))]

    def _redraw(self, _change=None) -> None:
        lang = i18n.get_language()
        if hasattr(self, "answer_widget") and self.answer_widget.options != tuple(self._labels(lang)):
            chosen, self._relabelling = self.answer_widget.value, True
            try:
                self.answer_widget.options = self._labels(lang)
                self.answer_widget.value = chosen
            finally:
                self._relabelling = False
        super()._redraw()

    def check(self, choice: int | None) -> bool:
        """Check the option of index ``choice``, show the feedback, and return whether it is right."""
        if choice is None:
            self._judge(("empty",))
            return False
        try:
            choice = whole_number(choice, "choice", minimum=0, maximum=len(self.options) - 1)
        except ValueError:  # no option's index: the learner is asked to choose, nothing raised
            self._judge(("unreadable", tr("Choose one of the options.")))
            return False
        self.attempts += 1
        right = choice == self.answer
        self.solved = self.solved or right
        write_attempt(self.key, str(choice), right, self.hints_shown)
        self._judge(("right",) if right else ("wrong",))
        return right

    def _message(self, kind: str, args: list, lang: str) -> str:
        if kind == "right":
            return tr("Right!", lang)
        if kind == "wrong":
            return tr("Not this one. Try again (attempt {n}).", lang, n=self.attempts)
        if kind == "empty":
            return tr("Choose an option first.", lang)
        return escape(args[0])
