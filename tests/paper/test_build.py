"""``dragonkit paper``: what it prints and where (dragonkit/paper/build.py, arguments.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dragonkit.cli import main
from dragonkit.i18n import LANGUAGES
from dragonkit.i18n.notebooks import lessons, notebooks_dir

from .pdfs import pages


def expected_names() -> list[str]:
    """The PDFs of one language: each lesson's worksheet and teacher's guide, the rules, the mini deck, the assessment
    and its solutions, the curriculum map."""
    names = []
    for path in lessons(notebooks_dir()):
        names += [f"{path.stem}-worksheet.pdf", f"{path.stem}-teacher-guide.pdf"]
    return [*names, "rules.pdf", "mini-deck.pdf", "assessment.pdf", "assessment-solutions.pdf", "curriculum.pdf"]


def test_the_command_prints_every_paper_in_every_language_and_says_where(paper):
    assert paper.code == 0
    for lang in LANGUAGES:
        written = sorted(path.name for path in (paper.folder / lang).iterdir())
        assert written == sorted(expected_names())
        for name in written:
            assert f"dragonkit: wrote {paper.folder / lang / name}" in paper.output
    count = len(LANGUAGES) * len(expected_names())
    assert f"dragonkit: {count} PDFs in {paper.folder}/ (en, it) in " in paper.output


def test_every_pdf_has_a_page_and_its_footer_numbers_it(paper):
    for path in paper.folder.glob("*/*.pdf"):
        read = pages(path)
        assert read, path
        page = "page" if path.parent.name == "en" else "pagina"
        assert read[-1].endswith(f"{page} {len(read)} " + ("of" if page == "page" else "di") + f" {len(read)}"), path


def test_a_language_the_kit_does_not_speak_is_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["paper", "--lang", "fr"])
    assert stopped.value.code == 2
    assert "invalid choice: 'fr'" in capsys.readouterr().err


def test_python_m_dragonkit_paper_takes_the_same_options():
    shown = subprocess.run(
        [sys.executable, "-m", "dragonkit.paper", "--help"], capture_output=True, text=True, check=True, timeout=120
    )
    assert "usage: python -m dragonkit.paper" in shown.stdout and "--lang" in shown.stdout and "--out" in shown.stdout
