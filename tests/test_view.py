"""The view a page is drawn for (dragonkit.view): the projector asked for by ``?view=projector``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from dragonkit import view


@pytest.mark.parametrize(
    "query, asked",
    [
        ("view=projector", True),
        ("lang=it&view=projector", True),
        ("view=projector&lang=it", True),
        ("view=Projector", False),
        ("view=", False),
        ("lang=it", False),
        ("", False),
    ],
)
def test_the_projector_is_asked_for_by_the_address(query, asked):
    assert view.requested_projector({"QUERY_STRING": query}) is asked


def test_a_page_is_drawn_larger_on_the_projector(projector):
    assert view.zoom() == view.PROJECTOR_ZOOM == 2
    view.settings.projector = False
    assert view.zoom() == 1


@pytest.mark.parametrize("query, projector", [("lang=it&view=projector", True), ("lang=it", False), ("", False)])
def test_a_kernel_starts_in_the_view_its_page_asked_for(query, projector):
    env = {k: v for k, v in os.environ.items() if k != "DRAGONKIT_LANG"}
    env["QUERY_STRING"] = query  # what Voilà gives the kernel of a page opened with ?lang=it&view=projector
    code = (
        "import json; from dragonkit import i18n, view; "
        "print(json.dumps([view.settings.projector, i18n.get_language()]))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == [projector, "it" if "lang=it" in query else "en"]
