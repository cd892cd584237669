"""The document model and its printer (dragonkit/paper/document.py, printer.py): the way to add a paper of another
kind."""

from __future__ import annotations

import pytest

from dragonkit.paper.document import PAPER_CSS, markdown_document
from dragonkit.paper.printer import Printer

from .pdfs import pages


def assessment(lang: str):
    """A paper of a kind the kit does not have, as another engineer would write it."""
    return markdown_document(
        "assessment-1", lang, "Assessment 1", "1. What is $P(\\text{stop})$ for a fresh deck?", kind="Assessment"
    )


def test_a_markdown_document_is_a_page_of_the_papers_stylesheet_in_its_language():
    document = assessment("it")
    html = document.html()
    assert html.startswith('<!DOCTYPE html>\n<html lang="it">') and PAPER_CSS in html
    assert "<h1>Assessment 1</h1>" in html and "<math" in html and "$" not in html
    assert "pagina" in document.footer_html() and "Assessment · Assessment 1" in document.footer_html()


@pytest.mark.browser
def test_the_printer_prints_a_document_to_a_pdf(tmp_path):
    with Printer() as printer:
        path = printer.print(assessment("en"), tmp_path / "en")
    assert path == tmp_path / "en" / "assessment-1.pdf"
    (page,) = pages(path)
    assert page.startswith("ASSESSMENT Assessment 1 1. What is P(stop) for a fresh deck?")
    assert page.endswith("Assessment · Assessment 1 page 1 of 1")
