"""Documents printed to PDF by a headless Chromium, one browser for them all.

Chromium is driven by Playwright (the ``paper`` extra: ``pip install "dragonkit[paper]"``) and is the system's own:
``$DRAGONKIT_CHROMIUM`` where that is set, else the ``chromium`` on the ``PATH`` (Debian's package).  Playwright
never downloads a browser here.  Chromium lays out the documents' MathML and SVG itself, prints the A4 pages of
the stylesheet (``@page``) with their backgrounds, writes the running footer, and tags the PDF (headings,
reading order, the figures' text alternatives) for screen readers.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import TracebackType
from typing import Any

from .document import MARGINS, Document

__all__ = ["CHROMIUM_FLAGS", "Printer", "chromium_executable"]

#: How Chromium is started: headless, without a sandbox (a container has none), a GPU, or anything that calls home.
CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def chromium_executable() -> str:
    """The Chromium to drive: ``$DRAGONKIT_CHROMIUM``, else ``chromium`` on the ``PATH``, else ``/usr/bin/chromium``.

    Raises
    ------
    FileNotFoundError
        If there is none, with how to install one.
    """
    executable = os.environ.get("DRAGONKIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(executable).exists():
        raise FileNotFoundError(
            "Chromium is missing: install Debian's package (apt-get install -y chromium) "
            "or set DRAGONKIT_CHROMIUM to a Chromium binary"
        )
    return executable


class Printer:
    """A headless Chromium that prints :class:`~dragonkit.paper.document.Document` s to PDF, as a context manager.

    Examples
    --------
    >>> with Printer() as printer:  # doctest: +SKIP
    ...     printer.print(document, Path("paper/en"))
    PosixPath('paper/en/rules.pdf')

    Raises
    ------
    ModuleNotFoundError
        On entering, if Playwright is not installed (the ``paper`` extra).
    FileNotFoundError
        On entering, if Chromium is missing (:func:`chromium_executable`).
    """

    def __init__(self) -> None:
        self._playwright: Any = None
        self._page: Any = None

    def __enter__(self) -> Printer:
        try:
            from playwright.sync_api import sync_playwright
        except ModuleNotFoundError as exc:
            raise ModuleNotFoundError('printing paper needs Playwright: pip install "dragonkit[paper]"') from exc
        executable = chromium_executable()
        self._playwright = sync_playwright().start()
        try:
            browser = self._playwright.chromium.launch(executable_path=executable, args=list(CHROMIUM_FLAGS))
            self._page = browser.new_page()
        except BaseException:
            self._playwright.stop()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._playwright.stop()  # and the browser with it
        self._playwright = self._page = None

    def print(self, document: Document, folder: Path) -> Path:
        """Print ``document`` to ``folder/<its name>.pdf`` (the folder is made if missing).

        Returns
        -------
        Path
            The PDF written.
        """
        if self._page is None:
            raise RuntimeError("a Printer prints inside its with block")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{document.name}.pdf"
        self._page.set_content(document.html(), wait_until="load")
        top, right, bottom, left = MARGINS
        self._page.pdf(
            path=str(path),
            format="A4",
            print_background=True,
            prefer_css_page_size=True,
            display_header_footer=True,
            header_template="<span></span>",
            footer_template=document.footer_html(),
            margin={"top": top, "right": right, "bottom": bottom, "left": left},
            tagged=True,
            outline=True,
        )
        return path
