"""A figure as a page shows it, read back by the tests of the figures and of the lessons that draw them."""

from __future__ import annotations

import html
import re


def alt_of(value: str) -> str:
    """The text alternative of the first image in the HTML ``value`` (unescaped); fails where there is none."""
    found = re.search(r'<img [^>]*alt="([^"]*)"', value)
    assert found, value[:200]
    return html.unescape(found.group(1))
