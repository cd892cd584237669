"""A lesson page's frame (dragonkit.teach.notes): teacher's notes folded in Jupyter and absent from Voilà
pages, the language picker, the links to the lesson in the other languages."""

from __future__ import annotations

import pytest

from dragonkit import i18n
from dragonkit.teach import in_voila, language_picker, lesson_page, teacher_notes


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
