"""axe-core in a Chromium page (axe-playwright-python): an audit of the page shown, and the check that it found
nothing blocking. Used by the apps' audit (test_accessibility.py) and the lessons' (test_lesson_pages.py)."""

from __future__ import annotations

import pytest

from ..conftest import ARTIFACTS

#: The impacts a page may not have: axe-core's critical, serious and moderate violations (a minor one, such as an
#: empty corner cell of a table in a lesson's prose, is allowed).
BLOCKING = ("critical", "serious", "moderate")


def _audit(page, name: str) -> dict[str, list[str]]:
    """axe-core's violations on the page, by impact: {impact: [rule id (nodes) ...]}."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page.screenshot(path=str(ARTIFACTS / f"a11y-{name}.png"))
    found: dict[str, list[str]] = {}
    for violation in axe.run(page).response["violations"]:
        found.setdefault(violation["impact"], []).append(f"{violation['id']} ({len(violation['nodes'])})")
    return found


def _assert_clean(results: dict[str, dict[str, list[str]]]) -> None:
    """No state of a page has a critical, serious or moderate violation."""
    blocking = {state: {k: v for k, v in found.items() if k in BLOCKING} for state, found in results.items()}
    assert blocking == {state: {} for state in results}, blocking
