"""A document to print: a title, a language and a body of HTML, laid out on A4 by one stylesheet.

Every paper of the kit is a :class:`Document`; :class:`~dragonkit.paper.printer.Printer` prints one to PDF.  The
stylesheet :data:`PAPER_CSS` sets the page (A4, its margins), the type, the tables, the formulas (MathML), the
figures and the room to write, and keeps a figure, a table or an exercise from being cut across two pages; the
running footer (the document's name and ``page 2 of 3``) is Chromium's, from :meth:`Document.footer_html`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from .. import palette
from ..i18n import N_, tr
from .markdown import markdown_html

__all__ = ["MARGINS", "PAPER_CSS", "WHO", "Document", "heading_html", "lines_html", "markdown_document", "who_html"]

#: The lines at the top of a student's sheet, for the student to fill in.
WHO = (N_("Name"), N_("Class"), N_("Date"))

#: The page's margins (top, right, bottom, left); the running footer sits in the bottom one.
MARGINS = ("14mm", "15mm", "16mm", "15mm")

#: The stylesheet of every document: A4, black on white, nothing cut across two pages that should stay whole.
PAPER_CSS = f"""
@page {{ size: A4; margin: {" ".join(MARGINS)}; }}
html {{ font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.38; color: {palette.PRINT_INK};
        background: {palette.WHITE}; -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
body {{ margin: 0; }}
h1 {{ font-size: 16pt; line-height: 1.2; margin: 0 0 2mm 0; }}
h2 {{ font-size: 12.5pt; margin: 5mm 0 1.5mm 0; break-after: avoid; }}
h3 {{ font-size: 11pt; margin: 4mm 0 1.5mm 0; break-after: avoid; }}
h4 {{ font-size: 10pt; margin: 3mm 0 1mm 0; break-after: avoid; }}
p {{ margin: 0 0 2mm 0; orphans: 3; widows: 3; }}
ul, ol {{ margin: 0 0 2mm 0; padding-left: 6mm; }}
li {{ margin: 0 0 0.8mm 0; }}
a {{ color: {palette.PRINT_INK}; }}
code {{ font-family: "DejaVu Sans Mono", monospace; font-size: 0.92em; }}
pre {{ font-size: 8.5pt; white-space: pre-wrap; border-left: 0.6mm solid {palette.GRID}; padding-left: 3mm;
       break-inside: avoid; }}
table {{ border-collapse: collapse; margin: 1.5mm 0 3mm 0; font-size: 9pt; break-inside: avoid; }}
th, td {{ border: 0.25mm solid {palette.PRINT_BORDER}; padding: 0.8mm 2mm; text-align: left; vertical-align: top; }}
th {{ background: {palette.PRINT_FILL}; }}
math {{ font-family: "DejaVu Math TeX Gyre", math; font-size: 1.08em; }}
math[display="block"] {{ margin: 1.5mm 0; }}
figure {{ margin: 2mm 0 3mm 0; break-inside: avoid; }}
figure svg {{ display: block; margin: 0 auto; max-width: 100%; height: auto; max-height: 105mm; }}
figcaption {{ font-size: 8pt; line-height: 1.3; color: {palette.INK}; margin-top: 1mm; }}
.dk-kicker {{ font-size: 8.5pt; letter-spacing: 0.06em; text-transform: uppercase; color: {palette.PRINT_SOFT};
              margin: 0 0 1mm 0; }}
.dk-who {{ display: flex; gap: 5mm; margin: 3mm 0 4mm 0; font-size: 10pt; }}
.dk-who div {{ border-bottom: 0.3mm solid {palette.PRINT_INK}; padding: 3mm 0 0.8mm 0; }}
.dk-who div:nth-child(1) {{ flex: 3; }} .dk-who div:nth-child(2), .dk-who div:nth-child(3) {{ flex: 1.2; }}
.dk-exercise {{ break-inside: avoid; margin: 3mm 0 4mm 0; }}
.dk-question {{ display: flex; gap: 2mm; }}
.dk-number {{ font-weight: bold; min-width: 6mm; }}
.dk-lines {{ margin: 1mm 0 0 8mm; }}
.dk-lines div {{ border-bottom: 0.25mm solid {palette.GRID}; height: 7.5mm; }}
.dk-answer {{ margin: 2.5mm 0 0 8mm; font-weight: bold; }}
.dk-answer span {{ display: inline-block; width: 60mm; border-bottom: 0.3mm solid {palette.PRINT_INK}; }}
.dk-options {{ list-style: none; margin: 1.5mm 0 0 8mm; padding: 0; }}
.dk-options li {{ display: flex; gap: 2.5mm; margin: 0 0 1.5mm 0; }}
.dk-box {{ flex: none; width: 3.6mm; height: 3.6mm; border: 0.35mm solid {palette.PRINT_INK}; margin-top: 0.4mm; }}
.dk-letter {{ flex: none; font-weight: bold; min-width: 4mm; }}
.dk-key {{ width: 100%; }}
.dk-key td:first-child {{ width: 8mm; font-weight: bold; }}
.dk-hints {{ font-size: 8.5pt; color: {palette.INK}; margin: 1mm 0 0 0; }}
"""


@dataclass(frozen=True)
class Document:
    """A document to print: its HTML body, in one language, and what names it.

    Attributes
    ----------
    name : str
        The PDF's file name without ``.pdf`` (``03-one-more-card-worksheet``); the same in every language, each
        language in a folder of its own.
    lang : str
        The language of its words (``<html lang>``: hyphenation, a screen reader's voice).
    title : str
        Its title in that language: the PDF's title and, with ``kind``, the running footer.
    body : str
        HTML: what is on its pages, from its first heading on (:func:`heading_html`).
    kind : str
        What it is, in that language (``Worksheet``), written before the title in the footer; may be empty.
    css : str
        Rules of its own, after :data:`PAPER_CSS` (the mini deck's cards, the rules' page).
    """

    name: str
    lang: str
    title: str
    body: str
    kind: str = ""
    css: str = ""

    def html(self) -> str:
        """The whole page: the stylesheet, the language, the title and the body."""
        return (
            f'<!DOCTYPE html>\n<html lang="{escape(self.lang, quote=True)}"><head><meta charset="utf-8">'
            f"<title>{escape(self.title)}</title><style>{PAPER_CSS}{self.css}</style></head>"
            f"<body>{self.body}</body></html>"
        )

    def footer_html(self) -> str:
        """Chromium's footer template: what the document is on the left, ``page 2 of 3`` on the right (Chromium
        fills the page numbers in its ``pageNumber`` and ``totalPages`` elements)."""
        page = tr(
            "page {page} of {pages}",
            self.lang,
            page='<span class="pageNumber"></span>',
            pages='<span class="totalPages"></span>',
        )
        name = escape(f"{self.kind} · {self.title}" if self.kind else self.title)
        return (
            f"<div style=\"font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 7.5pt; "
            f"color: {palette.PRINT_SOFT}; width: 100%; display: flex; justify-content: space-between; "
            f'margin: 0 {MARGINS[1]} 0 {MARGINS[3]};">'
            f"<span>{name}</span><span>{page}</span></div>"
        )


def lines_html(count: int) -> str:
    """``count`` ruled lines to write on."""
    return '<div class="dk-lines">' + "<div></div>" * count + "</div>"


def who_html(lang: str) -> str:
    """The lines for the student's name, class and date (:data:`WHO`), in ``lang``."""
    return '<div class="dk-who">' + "".join(f"<div>{escape(tr(label, lang))}:</div>" for label in WHO) + "</div>"


def heading_html(kind: str, title: str) -> str:
    """The top of a document: what it is (``Dragon Stripes · Worksheet``, small) over its title."""
    return f'<p class="dk-kicker">{escape(kind)}</p><h1>{escape(title)}</h1>'


def markdown_document(name: str, lang: str, title: str, markdown: str, kind: str = "", css: str = "") -> Document:
    """A document written in Markdown (with HTML and ``$...$`` formulas, as the lessons are), under its title.

    The way to add a paper of another kind (an assessment, a curriculum map): write its Markdown in ``lang``, or
    translate an English one block by block with :func:`dragonkit.i18n.notebooks.translate_markdown`, and print it
    with :class:`~dragonkit.paper.printer.Printer`.

    Parameters
    ----------
    name : str
        The PDF's file name without ``.pdf``.
    lang : str
        The language it is written in.
    title : str
        Its title (the first heading and the PDF's title).
    markdown : str
        Its text, after the title.
    kind : str
        What it is (``Assessment``), written over the title and in the footer; may be empty.
    css : str
        Rules of its own, after :data:`PAPER_CSS`.
    """
    body = heading_html(kind, title) + markdown_html(markdown)
    return Document(name=name, lang=lang, title=title, body=body, kind=kind, css=css)
