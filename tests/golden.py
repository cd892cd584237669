"""Golden playthroughs: one seeded game per preset, written out action by action.

Regenerate the files after an intended change of the rules, the engine or the bots,
from the repository root::

    python -m tests.golden --write

Without ``--write`` the command only compares, prints the first differing action of
each preset, and exits with status 1 when a file is out of date (``tests/test_golden.py``
makes the same comparison in the test suite).

Each file in ``tests/golden/`` (``<preset>.txt``) starts with a header that records the
preset, the seed, the players, the bots and the ruleset, one ``key: value`` line each
(values in JSON).  Then comes one block per action::

    ## 7. Bob (seat 1): hold
    events:
    - Bob holds with 9 gems in the pot; the bounty is 9.
    - Cid may take over for 9 gems.
    state:
      active_player: 1
      bounty: 9
      ...

``events`` are the sentences (:attr:`Event.text`) the action produced, and ``state`` is
:meth:`Game.public_state` after it, one key a line in sorted order, so that a changed
rule shows up in a diff as the few lines it changes.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from dragonkit.bots import Bot, CoachBot, RandomBot, ThresholdBot
from dragonkit.engine import Game
from dragonkit.rules import PRESETS, Ruleset

GOLDEN_DIR = Path(__file__).parent / "golden"
COMMAND = "python -m tests.golden --write"
BLOCK_START = "## "


@dataclass(frozen=True)
class Playthrough:
    """The seeded game written out for one preset.

    Attributes
    ----------
    preset : str
        A name in :data:`dragonkit.rules.PRESETS`.
    seed : int
        The seed of the deck's shuffle.
    players : tuple of str
        Player names in seating order.
    bots : callable
        Returns fresh bots, one per seat (bots such as ``RandomBot`` keep state, so
        every replay needs new ones).
    """

    preset: str
    seed: int
    players: tuple[str, ...]
    bots: Callable[[], tuple[Bot, ...]]

    @property
    def path(self) -> Path:
        """The golden file of this preset."""
        return GOLDEN_DIR / f"{self.preset}.txt"


#: One game per preset.  Together they reveal, hold, offer takeovers, take over and decline,
#: and end both at the head and with the final danger.
PLAYTHROUGHS = {
    p.preset: p
    for p in (
        Playthrough("dragon-stripes", 5, ("Ann", "Bob", "Cid"), lambda: (CoachBot(), ThresholdBot(20), RandomBot(5))),
        Playthrough("kali", 5, ("Ann", "Bob"), lambda: (ThresholdBot(15), CoachBot())),
        Playthrough("drago-rosso", 4, ("Ann", "Bob"), lambda: (RandomBot(4), ThresholdBot(12))),
        Playthrough("mini", 3, ("Ann", "Bob", "Cid"), lambda: (ThresholdBot(4), RandomBot(3), CoachBot())),
    )
}


def _value(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _mapping(title: str, mapping: dict[str, Any]) -> list[str]:
    return [f"{title}:"] + [f"  {key}: {_value(mapping[key])}" for key in sorted(mapping)]


def play(playthrough: Playthrough) -> tuple[Game, str]:
    """Play the seeded game of ``playthrough`` and write it out.

    Parameters
    ----------
    playthrough : Playthrough

    Returns
    -------
    game : Game
        The finished game.
    text : str
        The golden file's text: the header, then one block per action.
    """
    bots = playthrough.bots()
    game = Game(playthrough.players, Ruleset.preset(playthrough.preset), seed=playthrough.seed)
    lines = [
        f"# Golden playthrough of the preset {playthrough.preset}: one seeded game, action by action.",
        f"# Written by `{COMMAND}`; compared by tests/test_golden.py.",
        f"preset: {_value(playthrough.preset)}",
        f"seed: {_value(playthrough.seed)}",
        f"players: {_value(list(game.players))}",
        f"bots: {_value([repr(bot) for bot in bots])}",
        *_mapping("rules", game.rules.to_dict()),
        "",
    ]
    while not game.is_over:
        seat, seen = game.to_move, len(game.events)
        action = bots[seat].choose(game)
        game.apply(action, by=seat)
        lines.append(f"{BLOCK_START}{len(game.actions)}. {game.players[seat]} (seat {seat}): {action.value}")
        lines.append("events:")
        lines.extend(f"- {event.text}" for event in game.events[seen:])
        lines.extend(_mapping("state", game.public_state()))
        lines.append("")
    return game, "\n".join(lines)


def split(text: str) -> tuple[str, list[str]]:
    """The header and the action blocks of a golden file's text.

    Returns
    -------
    header : str
        Everything before the first block.
    blocks : list of str
        One block per action, in order, each starting with its ``## n.`` line.
    """
    header, *blocks = text.split(f"\n{BLOCK_START}")
    return header, [BLOCK_START + block for block in blocks]


def parse(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read a golden file's text back.

    Returns
    -------
    header : dict
        ``preset``, ``seed``, ``players``, ``bots`` and ``rules`` (a dict).
    blocks : list of dict
        Per action: ``title`` (the ``## n.`` line without its marks), ``events``
        (list of str) and ``state`` (the public state, a dict).
    """
    header_text, block_texts = split(text)
    return _sections(header_text.splitlines()), [_block(block) for block in block_texts]


def _sections(lines: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    section: dict[str, Any] | None = None
    for line in lines:
        if not line or line.startswith("#"):
            continue
        key, _, value = line.strip().partition(":")
        if line.startswith("  ") and section is not None:
            section[key] = json.loads(value)
        elif value.strip():
            out[key], section = json.loads(value), None
        else:
            out[key] = section = {}
    return out


def _block(text: str) -> dict[str, Any]:
    title, *lines = text.splitlines()
    events = [line[2:] for line in lines if line.startswith("- ")]
    rest = [line for line in lines if line != "events:" and not line.startswith("- ")]
    return {"title": title[len(BLOCK_START) :], "events": events, **_sections(rest)}


def first_difference(expected: str, actual: str) -> str | None:
    """Describe where ``actual`` departs from the golden ``expected`` text.

    Parameters
    ----------
    expected : str
        The golden file's text.
    actual : str
        The text of the game played now (:func:`play`).

    Returns
    -------
    str or None
        ``None`` when the texts are equal; otherwise the diff of the header (if it
        differs), the first differing action with the diff of its block, and the
        command that regenerates the files.
    """
    if expected == actual:
        return None
    (old_header, old_blocks), (new_header, new_blocks) = split(expected), split(actual)
    parts = []
    if old_header != new_header:
        parts.append("the header differs:\n" + _diff(old_header, new_header))
    if len(old_blocks) != len(new_blocks):
        parts.append(f"the golden game has {len(old_blocks)} actions, the game played now {len(new_blocks)}")
    for old, new in zip_longest(old_blocks, new_blocks, fillvalue=""):
        if old != new:
            title = (old or new).splitlines()[0][len(BLOCK_START) :]
            parts.append(f"first differing action: {title}\n" + _diff(old, new))
            break
    parts.append(f"If the change is intended, regenerate the golden files with `{COMMAND}` and review the diff.")
    return "\n".join(parts)


def _diff(old: str, new: str) -> str:
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), "golden", "now", lineterm="")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Compare (or with ``--write``, regenerate) every golden file; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="regenerate the files in tests/golden/")
    args = parser.parse_args(argv)
    status = 0
    for name in PRESETS:
        playthrough = PLAYTHROUGHS[name]
        _, text = play(playthrough)
        if args.write:
            GOLDEN_DIR.mkdir(exist_ok=True)
            playthrough.path.write_text(text, encoding="utf-8")
            print(f"wrote {playthrough.path} ({len(text.encode()):,} bytes)")
            continue
        old = playthrough.path.read_text(encoding="utf-8") if playthrough.path.exists() else ""
        report = first_difference(old, text)
        if report:
            print(f"{playthrough.path.name}: {report}\n")
            status = 1
        else:
            print(f"{playthrough.path.name}: unchanged")
    return status


if __name__ == "__main__":
    sys.exit(main())
