"""``dragonkit paper``: every paper of the kit, in every language asked for, printed by one Chromium.

For each language, in ``<out>/<lang>/``: each lesson's worksheet (``NN-name-worksheet.pdf``) and teacher's guide
(``NN-name-teacher-guide.pdf``), the rules on one page (``rules.pdf``), the mini deck to cut out
(``mini-deck.pdf``), the assessment (``assessment.pdf``, and ``assessment-solutions.pdf`` with the marking grid) and
the curriculum map (``curriculum.pdf``).  The lessons are read once (:func:`~dragonkit.paper.lesson.read_lesson`)
and printed in every language.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from ..i18n import LANGUAGES
from ..i18n.notebooks import lessons, notebooks_dir
from .assessment import assessment_sheet
from .curriculum import curriculum_map
from .deck import mini_deck
from .document import Document
from .guide import teacher_guide
from .lesson import read_lesson
from .printer import Printer
from .rules_page import rules_page
from .worksheet import worksheet

__all__ = ["build", "documents", "run"]


def documents(langs: Sequence[str]) -> Iterator[Document]:
    """Every paper, language by language: the lessons' worksheets and teacher's guides, the rules, the mini deck, the
    assessment (the students' sheet and the solutions) and the curriculum map.

    Parameters
    ----------
    langs : sequence of str
        Languages of :data:`~dragonkit.i18n.LANGUAGES`.
    """
    read = [read_lesson(path) for path in lessons(notebooks_dir())]
    for lang in langs:
        for lesson in read:
            yield worksheet(lesson, lang)
            yield teacher_guide(lesson, lang)
        yield rules_page(lang)
        yield mini_deck(lang)
        yield assessment_sheet(lang)
        yield assessment_sheet(lang, teacher=True)
        yield curriculum_map(lang)


def build(out: Path, langs: Sequence[str], report: Callable[[Path], object] = lambda _path: None) -> list[Path]:
    """Print every paper (:func:`documents`) to ``out/<lang>/<name>.pdf``.

    Parameters
    ----------
    out : Path
        The folder (made if missing).
    langs : sequence of str
        The languages.
    report : callable, optional
        Called with each PDF once it is written.

    Returns
    -------
    list of Path
        The PDFs written, in order.

    Raises
    ------
    ValueError
        For a language the kit does not speak.
    """
    unknown = [lang for lang in langs if lang not in LANGUAGES]
    if unknown:
        raise ValueError(f"languages must be among {', '.join(LANGUAGES)}, not {', '.join(unknown)}")
    written = []
    with Printer() as printer:
        for document in documents(langs):
            written.append(printer.print(document, out / document.lang))
            report(written[-1])
    return written


def run(args: argparse.Namespace) -> int:
    """Build the paper that ``args`` ask for (:func:`~dragonkit.paper.arguments.add_arguments`), saying where each
    PDF went and how long it all took; the exit code."""
    start = time.monotonic()
    try:
        written = build(args.out, args.lang, report=lambda path: print(f"dragonkit: wrote {path}", flush=True))
    except (ModuleNotFoundError, FileNotFoundError) as exc:  # no Playwright, or no Chromium: say how to get them
        print(f"dragonkit: {exc}", file=sys.stderr)
        return 1
    seconds = time.monotonic() - start
    print(f"dragonkit: {len(written)} PDFs in {args.out}/ ({', '.join(args.lang)}) in {seconds:.0f} s")
    return 0
