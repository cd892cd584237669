"""A lesson page's frame (dragonkit.teach.notes): teacher's notes folded in Jupyter and absent from Voilà
pages, the language picker, the links to the lesson in the other languages, the mark of the projector's view."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from dragonkit import i18n, view
from dragonkit.style import PROJECTOR_CLASS
from dragonkit.teach import in_voila, language_picker, lesson_page, teacher_notes
from dragonkit.teach.notes import mark_view


def test_lesson_page_links_the_other_languages_and_follows_a_requested_one(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    try:
        page = lesson_page("03-one-more-card.ipynb", "it")
        assert i18n.get_language() == "it"
        html = page.links.value
        assert 'href="../03-one-more-card.ipynb" hreflang="en"' in html and 'aria-current="page" lang="it"' in html
        assert 'aria-label="Lingua"' in html and page.redirect_html() is None
        monkeypatch.setenv("QUERY_STRING", "lang=it&token=x")
        english = lesson_page("03-one-more-card.ipynb", "en")
        assert 'href="it/03-one-more-card.ipynb" hreflang="it"' in english.links.value
        assert english.redirect_html() == (
            '<script>window.location.replace("it/03-one-more-card.ipynb" + window.location.search);</script>'
        )
        with pytest.raises(ValueError, match="file name"):
            lesson_page("../secret.ipynb", "en")
        with pytest.raises(ValueError, match="language"):
            lesson_page("03-one-more-card.ipynb", "fr")
    finally:
        i18n.set_language("en")


def test_teacher_notes_are_folded_in_jupyter_and_absent_in_voila(monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **kw: shown.extend(objs))
    notes = teacher_notes("**Solution:** $10/51$.")
    monkeypatch.delenv("VOILA_BASE_URL", raising=False)
    notes._ipython_display_()
    assert shown[0]["text/markdown"].startswith("<details>") and "$10/51$" in shown[0]["text/markdown"]
    monkeypatch.setenv("VOILA_BASE_URL", "/")
    shown.clear()
    notes._ipython_display_()
    assert in_voila() and shown == []  # not even a repr
    with pytest.raises(TypeError):
        teacher_notes(42)


def test_the_language_picker_switches_the_kernel_both_ways():
    picker = language_picker()
    picker.value = "it"
    assert i18n.get_language() == "it"
    i18n.set_language("en")
    assert picker.value == "en"
    assert [value for _label, value in picker.options] == ["en", "it"]


def test_a_lesson_page_on_the_projector_marks_itself_and_keeps_the_view_in_its_links(monkeypatch):
    """``?lang=it&view=projector`` on the English page: the links to the other languages carry the view, the page is
    marked for the projector's stylesheet, and the redirection keeps the address's own query."""
    monkeypatch.setenv("QUERY_STRING", "lang=it&view=projector")
    view.settings.projector = view.requested_projector()
    try:
        page = lesson_page("03-one-more-card.ipynb", "en")
        assert PROJECTOR_CLASS in page.links._dom_classes
        assert 'href="it/03-one-more-card.ipynb?view=projector" hreflang="it"' in page.links.value
        assert page.redirect_html() == (
            '<script>window.location.replace("it/03-one-more-card.ipynb" + window.location.search);</script>'
        )
        italian = lesson_page("03-one-more-card.ipynb", "it")
        assert 'href="../03-one-more-card.ipynb?view=projector" hreflang="en"' in italian.links.value
        assert italian.redirect_html() is None
    finally:
        view.settings.projector = False
        i18n.set_language("en")
    assert PROJECTOR_CLASS not in lesson_page("03-one-more-card.ipynb", "en").links._dom_classes


def test_mark_view_follows_the_kernel_s_view():
    box = widgets.HTML()
    view.settings.projector = True
    try:
        mark_view(box)
        assert box._dom_classes == (PROJECTOR_CLASS,)
    finally:
        view.settings.projector = False
    mark_view(box)
    assert box._dom_classes == ()
