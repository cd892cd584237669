"""The apps' tests start and end in English."""

from __future__ import annotations

import pytest

from dragonkit import i18n


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language("en")
