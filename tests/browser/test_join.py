"""The join page and the teacher's page in Chromium, in English and in Italian: a student joins with the keyboard
alone (the field has the focus, Tab reaches the button, Enter sends), a refused nickname is read aloud, the teacher's
page says whose it is; axe-core finds nothing blocking on any of them (a server with a record: tests/record_server.py).
"""

from __future__ import annotations

import pytest

from ..record_server import TOKEN, marker
from .axe import _assert_clean, _audit

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "title": "Join the class",
        "label": "Your nickname",
        "refused": "A nickname cannot hold “<”",
        "teacher": "teacher's",
    },
    "it": {
        "title": "Entra nella classe",
        "label": "Il tuo soprannome",
        "refused": "Un soprannome non può contenere «<»",
        "teacher": "insegnante",
    },
}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_student_joins_with_the_keyboard_and_the_pages_pass_axe(record_server, browser, lang):
    words, probe, nickname = WORDS[lang], marker(), f"Ada {lang}"  # one browser each: the record server is shared
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{record_server.url}/voila/render/lesson.ipynb?token={TOKEN}&lang={lang}&probe={probe}")
    page.wait_for_selector("form")
    assert page.get_attribute("html", "lang") == lang and page.inner_text("h1") == words["title"]
    assert page.get_by_label(words["label"]).count() == 1
    assert page.evaluate("document.activeElement.id") == "nickname"  # the field has the focus
    results = {"join": _audit(page, f"join-{lang}")}

    page.keyboard.type("<>")
    page.keyboard.press("Enter")
    page.wait_for_selector("[role=alert]")
    assert words["refused"] in page.inner_text("[role=alert]")
    assert page.get_attribute("#nickname", "aria-invalid") == "true"
    results["refused"] = _audit(page, f"join-refused-{lang}")

    page.fill("#nickname", "")
    page.focus("#nickname")
    page.keyboard.type(nickname)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.type") == "submit"
    page.keyboard.press("Enter")
    page.get_by_text("a stand-in page").wait_for(timeout=90_000)
    assert f"nickname=Ada+{lang}" in record_server.probe(probe)["QUERY_STRING"]

    teacher = context.new_page()
    teacher.goto(f"{record_server.url}/voila/render/dashboard.ipynb?lang={lang}")
    assert teacher.get_attribute("html", "lang") == lang and words["teacher"] in teacher.inner_text("h1")
    results["teacher"] = _audit(teacher, f"teacher-page-{lang}")
    context.close()
    _assert_clean(results)
