"""A Voilà kernel starts the play app without the chain laboratory's heavy libraries.

Every visitor gets a fresh kernel, so what ``from dragonkit.ui import PlayApp``
imports is paid at every page load: pandas, scipy.sparse, matplotlib and
networkx load only inside the functions of the lessons and the chain lab.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("pandas", "scipy.sparse", "matplotlib", "networkx")


def test_the_play_app_and_the_analysis_import_without_heavy_libraries():
    code = (
        "import json, sys\n"
        "from dragonkit.ui import HandTrainer, PlayApp\n"
        "from dragonkit.analysis import evaluate_policy, policy_table, solve_turn\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []


def test_the_end_of_a_game_loads_no_matplotlib():
    """The figure at the end of a game is an SVG drawn without matplotlib (0.5 CPU-s a visitor saved)."""
    code = (
        "import json, sys\n"
        "import dragonkit.plots\n"
        "from dragonkit.ui import GameConfig, PlayApp, SeatConfig\n"
        "seats = (SeatConfig('Ann', 'threshold'), SeatConfig('Bo', 'random'))\n"
        "app = PlayApp(autoplay=False, config=GameConfig(seats=seats, preset='mini', seed=4))\n"
        "while not app.game.is_over:\n"
        "    app._last_click = (None, 0.0)\n"
        "    app.buttons['next'].click()\n"
        "assert '<svg class=\"dk-gems-over-game\"' in app.result_plot.value, app.message.value\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []
