"""Building blocks of the lessons: exercises checked by a widget, teacher's
notes hidden from students in Voilà, and the language switch.

>>> from fractions import Fraction
>>> from dragonkit.teach import FractionExercise
>>> ex = FractionExercise("P(next card is a stop)?", Fraction(10, 51), hint="stops / cards left")
>>> ex.check("10/51"), ex.check("0.196"), ex.check("1/2")
(True, True, False)
"""

from ..i18n.numbers import parse_number
from .exercises import ChoiceExercise, FractionExercise
from .notes import in_voila, language_picker, lesson_page, teacher_notes

__all__ = [
    "ChoiceExercise",
    "FractionExercise",
    "in_voila",
    "language_picker",
    "lesson_page",
    "parse_number",
    "teacher_notes",
]
