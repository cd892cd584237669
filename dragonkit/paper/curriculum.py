"""The curriculum map on paper: ``docs/curriculum.md`` (``docs/curriculum.it.md`` in Italian), as written."""

from __future__ import annotations

from pathlib import Path

from ..i18n import tr
from ..i18n.notebooks import notebooks_dir
from .document import Document, markdown_document

__all__ = ["curriculum_map", "curriculum_source"]

#: Its table of lessons is wide: a smaller type than the other papers'.
_CSS = "table { font-size: 7.6pt; } th, td { padding: 0.6mm 1.2mm; }"


def curriculum_source(lang: str) -> Path:
    """The Markdown file of the map in ``lang``, in the checkout's ``docs/`` beside ``notebooks/``.

    Raises
    ------
    FileNotFoundError
        If the kit has no map in ``lang``.
    """
    path = notebooks_dir().parent / "docs" / ("curriculum.md" if lang == "en" else f"curriculum.{lang}.md")
    if not path.is_file():
        raise FileNotFoundError(f"no curriculum map at {path}")
    return path


def curriculum_map(lang: str) -> Document:
    """The curriculum map in ``lang``, its title the file's first heading."""
    title, _, body = curriculum_source(lang).read_text(encoding="utf-8").partition("\n")
    return markdown_document("curriculum", lang, title.lstrip("# "), body, kind=tr("Curriculum map", lang), css=_CSS)
