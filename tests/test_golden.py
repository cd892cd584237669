"""The golden playthroughs in ``tests/golden/`` still describe the game played now.

Each preset's seeded game is played again by the same bots and compared with its file,
action by action.  After an intended change, regenerate the files with
``python -m tests.golden --write`` (see ``tests/golden.py``) and review their diff.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from dragonkit.rules import PRESETS

from .golden import COMMAND, GOLDEN_DIR, PLAYTHROUGHS, first_difference, parse, play, split

ROOT = Path(__file__).parents[1]


def _golden(name: str) -> str:
    return PLAYTHROUGHS[name].path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def played():
    """Each preset's game played now: ``{preset: (game, text)}``."""
    return {name: play(PLAYTHROUGHS[name]) for name in PRESETS}


def test_every_preset_has_a_golden_file():
    assert set(PLAYTHROUGHS) == set(PRESETS)
    assert {p.path for p in PLAYTHROUGHS.values()} == set(GOLDEN_DIR.iterdir())


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_game_played_now_matches_its_golden_file(name, played):
    report = first_difference(_golden(name), played[name][1])
    if report:
        pytest.fail(f"tests/golden/{name}.txt is out of date.\n{report}", pytrace=False)


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_header_records_preset_seed_players_and_bots(name):
    playthrough = PLAYTHROUGHS[name]
    header, _ = parse(_golden(name))
    assert header["preset"] == name
    assert header["seed"] == playthrough.seed
    assert header["players"] == list(playthrough.players)
    assert header["bots"] == [repr(bot) for bot in playthrough.bots()]
    assert header["rules"] == PRESETS[name].to_dict()


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_golden_game_ends_and_conserves_gems_after_every_action(name, played):
    game, _ = played[name]
    assert game.is_over
    header, blocks = parse(_golden(name))
    rules = header["rules"]
    total = rules["starting_gems"] * len(header["players"]) + rules["treasure"]
    for number, block in enumerate(blocks, start=1):
        state = block["state"]
        assert block["title"].startswith(f"{number}. ")
        assert sum(state["gems"]) + state["treasure"] + state["pot"] == total, block["title"]
        assert (state["phase"] == "over") == (number == len(blocks)), block["title"]
    assert blocks[-1]["state"]["ending"] == game.ending
    assert blocks[-1]["events"][-1].startswith("Game over")


def test_together_the_games_show_every_kind_of_action_and_both_endings():
    games = [parse(_golden(name)) for name in PRESETS]
    actions = Counter(block["title"].rsplit(": ", 1)[1] for _, blocks in games for block in blocks)
    assert set(actions) == {"reveal", "hold", "take_over", "decline"}
    offers = [event for _, blocks in games for block in blocks for event in block["events"] if "may take over" in event]
    assert len(offers) == actions["take_over"] + actions["decline"]
    assert {blocks[-1]["state"]["ending"] for _, blocks in games} == {"head", "final_danger"}
    assert max(len(header["players"]) for header, _ in games) == 3


def test_an_edited_golden_file_is_reported_at_its_first_differing_action(tmp_path):
    header, blocks = split(_golden("mini"))
    edited = blocks[4].replace("  pot: 0", "  pot: 1")
    assert edited != blocks[4]
    copy = tmp_path / "mini.txt"
    copy.write_text("\n".join([header, *blocks[:4], edited, *blocks[5:]]), encoding="utf-8")
    report = first_difference(copy.read_text(encoding="utf-8"), play(PLAYTHROUGHS["mini"])[1])
    assert report is not None
    assert "first differing action: 5. Bob (seat 1): reveal\n" in report
    assert "\n-  pot: 1\n+  pot: 0" in report
    assert "the header differs" not in report
    assert COMMAND in report


def test_a_changed_rule_is_reported_in_the_header_and_at_the_first_action_it_changes(monkeypatch):
    rules = dataclasses.replace(PRESETS["mini"], bounty_rate=Fraction(1, 2))
    monkeypatch.setitem(PRESETS, "mini", rules)
    report = first_difference(_golden("mini"), play(PLAYTHROUGHS["mini"])[1])
    assert report is not None
    assert '-  bounty_rate: "1"\n+  bounty_rate: "1/2"' in report
    assert "first differing action: 1. Ann (seat 0): reveal\n" in report  # the pot of 2 gems now has a bounty of 1
    assert "-  bounty: 2\n+  bounty: 1" in report
    assert COMMAND in report


def test_a_shorter_game_is_reported_at_the_first_missing_action():
    text = _golden("mini")
    header, blocks = split(text)
    shorter = "\n".join([header, *blocks[:-1]])
    report = first_difference(text, shorter)
    assert report is not None
    assert f"the golden game has {len(blocks)} actions, the game played now {len(blocks) - 1}\n" in report
    assert f"first differing action: {len(blocks)}. Ann (seat 0): reveal\n" in report


def test_the_documented_command_checks_the_files_from_the_repository_root():
    result = subprocess.run(
        [sys.executable, "-m", "tests.golden"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("unchanged") == len(PRESETS)
