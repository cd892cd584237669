"""Paper for the classroom, from the same sources as the pages: worksheets, teacher's guides, the rules, a mini deck.

``dragonkit paper [--out DIR] [--lang en it]`` (or ``python -m dragonkit.paper``) prints, for each language, each
lesson's worksheet and teacher's guide, the rules on one page and the mini deck to cut out, as A4 PDFs in
``DIR/<lang>/`` (default ``paper/``), with one headless Chromium for them all (the ``paper`` extra: Playwright and
latex2mathml; Chromium is the system's, as for the browser tests).

Nothing is written twice.  A worksheet takes its exercises from the English lesson notebook, evaluated as the page
evaluates them, and their texts from the catalogs as the page does (:mod:`~dragonkit.paper.lesson`); its figures are
drawn by the lesson's own widgets, as SVG; a teacher's guide takes the lesson's opening (goals, time,
prerequisites), its exercises' answers and its teacher's notes; the rules' page and the mini deck take every number
from the editions' :class:`~dragonkit.rules.Ruleset`.  The words paper adds (Worksheet, Name, Class, Date ...) are
msgids of the kit's catalog.

The modules, one job each:

- :mod:`~dragonkit.paper.document`: the document model, :class:`~dragonkit.paper.document.Document` (a name, a
  language, a title, a body of HTML) and the stylesheet of every paper (A4, margins, nothing cut across pages);
- :mod:`~dragonkit.paper.markdown`: Markdown with ``$...$`` formulas into HTML with MathML;
- :mod:`~dragonkit.paper.printer`: :class:`~dragonkit.paper.printer.Printer`, Chromium printing documents to PDF;
- :mod:`~dragonkit.paper.lesson`: a lesson notebook read: its sections, exercises, figures and notes;
- :mod:`~dragonkit.paper.worksheet`, :mod:`~dragonkit.paper.guide`, :mod:`~dragonkit.paper.rules_page`,
  :mod:`~dragonkit.paper.deck` (with :mod:`~dragonkit.paper.pieces`, the game's pieces drawn from a ruleset): the
  documents;
- :mod:`~dragonkit.paper.build` (and :mod:`~dragonkit.paper.arguments`): the command.

Another kind of paper (an assessment with a marking grid, a curriculum map) is another function that returns a
:class:`~dragonkit.paper.document.Document`: write its body as HTML (with
:func:`~dragonkit.paper.document.heading_html` on top), or as Markdown with
:func:`~dragonkit.paper.document.markdown_document`, its words through :func:`dragonkit.i18n.tr` (or an English
Markdown text translated block by block with :func:`dragonkit.i18n.notebooks.translate_markdown`), then yield it
from :func:`dragonkit.paper.build.documents`, so that the command prints it with the rest::

    from dragonkit.paper.document import markdown_document
    from dragonkit.paper.printer import Printer

    sheet = markdown_document("assessment-1", "en", "Assessment 1", "1. What is $P(\\\\text{stop})$? ...",
                              kind="Assessment")
    with Printer() as printer:
        printer.print(sheet, Path("paper/en"))
"""
