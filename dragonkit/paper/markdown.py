"""Markdown with LaTeX, as the lessons write it, into HTML with MathML, for paper.

The Markdown is read by the parser Voilà's pages are rendered with (nbconvert's :class:`MarkdownWithMath`, on
mistune), so a lesson's text is cut into paragraphs, lists and tables on paper as on its page; its formulas,
``$...$`` and ``$$...$$``, become MathML (:mod:`latex2mathml`), which Chromium lays out itself and a screen reader
reads, with no script and no font to fetch.
"""

from __future__ import annotations

from latex2mathml.converter import convert
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

__all__ = ["markdown_html", "math_html"]


def math_html(latex: str, display: bool = False) -> str:
    """A LaTeX formula as a MathML ``<math>`` element (``display="block"`` for a displayed one)."""
    return convert(latex.strip(), display="block" if display else "inline")


class _MathMLRenderer(IPythonRenderer):
    """nbconvert's renderer of notebook Markdown, with its formulas written in MathML rather than left to MathJax."""

    def block_math(self, body: str) -> str:
        """A displayed formula, ``$$...$$``."""
        return math_html(body, display=True)

    def inline_math(self, body: str) -> str:
        """A formula in the text, ``$...$``."""
        return math_html(body)


def markdown_html(markdown: str) -> str:
    """``markdown`` (with HTML and LaTeX in it, as a lesson's cells and teacher's notes are written) as HTML, its
    formulas in MathML and its headings without the pages' anchor links."""
    renderer = _MathMLRenderer(escape=False, exclude_anchor_links=True)
    return MarkdownWithMath(renderer=renderer).render(markdown)
