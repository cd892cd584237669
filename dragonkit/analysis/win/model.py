"""Which model answers a game's chance of winning, and the tables those models need, prepared ahead of need.

The one place that says it (the coach and the win bot both ask here):

* two players, a final danger that costs all the revealer's gems (``dragon-stripes``, ``mini``): the race model's
  table (:class:`~dragonkit.analysis.win.race.WinTable`), :attr:`WinModel.RACE`;
* two players, a final danger that costs only the pot (``kali``, ``drago-rosso``): exact once at most
  :data:`~dragonkit.analysis.win.late.LATE_CARDS` cards are left (:class:`~dragonkit.analysis.win.late.LateGame`),
  :attr:`WinModel.LATE`, and the gems model's table before (:class:`~dragonkit.analysis.win.gems.GemsWinTable`),
  :attr:`WinModel.GEMS`;
* more players: no model (the coach estimates by Monte Carlo, the win bot plays for the turn's expected gems).

A table is solved once per machine and kept in the kit's cache (:class:`~dragonkit.cache.SavedArray`): about 2 s for
``dragon-stripes``, about a minute for each gems table.  :func:`table` with ``wait=False`` never makes a page wait:
where the table is not saved yet it starts :func:`prepare_in_background` (a process of its own, at low priority) and
raises :class:`TablePreparing`; the coach says so and shows the expected gems meanwhile.  ``dragonkit serve`` starts
that process for every preset at once, with a progress bar in its terminal (``python -m
dragonkit.analysis.win.model``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from enum import Enum
from typing import TYPE_CHECKING

from ...game_state import GameState
from ...rules import PRESETS, Ruleset
from . import gems, race
from .late import LateGame, is_late

if TYPE_CHECKING:
    from ...cache import SavedArray
    from .solver import TwoPlayerWinSolver

__all__ = [
    "EQUAL",
    "TablePreparing",
    "WinModel",
    "model_for",
    "prepare_in_background",
    "prepare_tables",
    "solver_for",
    "table",
    "table_model",
]

#: Two chances of winning closer than this are equally good (the float tables' rounding): the win bot's ties and
#: lesson 10's ties of the win coach (:func:`dragonkit.topics.gems_or_wins.win_reveals`).
EQUAL = 1e-9


class WinModel(str, Enum):
    """Where a chance of winning comes from: the model that gives it.  The coach's source where a model gives its
    chances (:class:`dragonkit.coach.views.TwoViews`); each value is the word the class's record keeps for it."""

    RACE = "table"
    LATE = "exact"
    GEMS = "model"


class TablePreparing(LookupError):
    """The table a chance of winning needs is being solved (in a process of its own): ask again later."""


def table_model(rules: Ruleset, players: int) -> WinModel | None:
    """The model whose table answers games of ``players`` players of ``rules`` before their last cards:
    :attr:`WinModel.RACE`, :attr:`WinModel.GEMS`, or ``None`` (more than two players; a custom deck too large, or
    without danger cards)."""
    if race.models(rules, players):
        return WinModel.RACE
    if gems.models(rules, players):
        return WinModel.GEMS
    return None


def model_for(state: GameState) -> WinModel | None:
    """The model that answers ``state``'s chances of winning: the race table wherever it applies, else the late game
    once few cards are left, else the gems table; ``None`` where none does (more than two players)."""
    kind = table_model(state.rules, state.n_players)
    if kind is not WinModel.RACE and is_late(state):
        return WinModel.LATE
    return kind


def solver_for(state: GameState, late: LateGame, wait: bool = True) -> tuple[TwoPlayerWinSolver, WinModel] | None:
    """The solver of ``state``'s chances of winning and its model (:func:`model_for`): ``late`` in the last cards,
    else the table (:func:`table`, with ``wait``); ``None`` where no model answers (more than two players).

    Parameters
    ----------
    state : GameState
    late : LateGame
        The caller's late-game solver (it keeps what it solved, for the next decisions of the same game).
    wait : bool
        Whether to wait for a table being solved.

    Raises
    ------
    TablePreparing
        With ``wait=False``, while the table is not saved yet.
    """
    kind = model_for(state)
    if kind is None:
        return None
    return (late if kind is WinModel.LATE else table(state.rules, wait)), kind  # type: ignore[return-value]


def _saved(rules: Ruleset) -> SavedArray[TwoPlayerWinSolver]:
    """The cache's file of ``rules``'s table.

    Raises
    ------
    ValueError
        If no table models two-player games of ``rules``.
    """
    kind = table_model(rules, 2)
    if kind is WinModel.RACE:
        return race.saved_win_table(rules)  # type: ignore[return-value]
    if kind is WinModel.GEMS:
        return gems.saved_gems_win_table(rules)  # type: ignore[return-value]
    raise ValueError(f"no table models two-player games of {rules.name!r}")


def table(rules: Ruleset, wait: bool = True) -> TwoPlayerWinSolver:
    """The solved table of two-player games of ``rules`` (:func:`table_model` says which).

    Parameters
    ----------
    rules : Ruleset
    wait : bool
        If True, the table is loaded, or built in this process (or waited for while another builds it); if False,
        a table not saved yet is left to a process of its own (:func:`prepare_in_background`, started here unless
        one is building it) and :class:`TablePreparing` is raised at once.  Where the environment variable
        ``DRAGONKIT_WAIT_FOR_TABLES`` is set (to anything but empty), every call waits (the tests set it: what they
        see must not depend on how far a table's process got).

    Returns
    -------
    WinTable or GemsWinTable

    Raises
    ------
    TablePreparing
        With ``wait=False``, while the table is not saved yet.
    ValueError
        If no table models two-player games of ``rules``.
    """
    kind = table_model(rules, 2)
    solved = race.win_table if kind is WinModel.RACE else gems.gems_win_table
    if not wait and rules not in _held and not os.environ.get("DRAGONKIT_WAIT_FOR_TABLES"):
        saved = _saved(rules)
        if not saved.path.is_file():  # saved whole or not at all (renamed into place)
            if not saved.being_built():
                prepare_in_background([rules])
            raise TablePreparing(f"the table of {rules.name!r} is being solved")
    found: TwoPlayerWinSolver = solved(rules)
    _held.add(rules)
    return found


#: The rulesets whose table this process holds.
_held: set[Ruleset] = set()
#: The rulesets whose background build this process started (one start each).
_started: set[Ruleset] = set()


def prepare_in_background(
    rulesets: list[Ruleset] | None = None, lowest_priority: bool = True, progress: bool = True
) -> subprocess.Popen[bytes] | None:
    """Start a process of its own that solves and saves the tables of ``rulesets`` (default: every preset that has
    one) that are not saved yet, the quickest first, with a progress bar on this process's standard error; it ends
    with this process.  Nothing is started for rulesets whose start this process asked already, when every table
    is saved, or while another process solves one of them (it goes on to the others, one at a time: a second
    solver would only wait for its lock, and solve the table again after :data:`dragonkit.cache.BUILD_WAIT`, at
    the lowest priority, on a loaded machine; a page that needs a table nobody solves starts it, :func:`table`).

    Parameters
    ----------
    rulesets : list of Ruleset, optional
    lowest_priority : bool
        Run it at the lowest priority (``nice 19``): a server's pages and kernels come first.
    progress : bool
        Show its progress bar.

    Returns
    -------
    subprocess.Popen or None
        The process, or ``None`` where nothing was left to start.
    """
    files = {r: _saved(r) for r in rulesets or _presets() if r not in _started}
    chosen = [r for r, saved in files.items() if not saved.path.is_file()]
    if not chosen or any(files[r].being_built() for r in chosen):
        return None
    _started.update(chosen)
    rulesets_json = [json.dumps(r.to_dict()) for r in chosen]
    command = [sys.executable, "-m", __name__, "--parent", str(os.getpid()), *rulesets_json]
    if not progress:
        command.insert(3, "--quiet")
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, preexec_fn=_lowest_priority if lowest_priority else None)


def _lowest_priority() -> None:
    os.nice(19)


def _presets() -> list[Ruleset]:
    return [rules for rules in map(Ruleset.preset, PRESETS) if table_model(rules, 2)]


def prepare_tables(rulesets: list[Ruleset] | None = None, progress: bool = False) -> None:
    """Solve (or find in the cache) the two-player tables of ``rulesets`` (default: every preset that has one), in
    this process, the quickest first (``dragon-stripes`` and ``mini``: about 2 s; ``kali`` and ``drago-rosso``: about
    a minute each): what Binder's image does once, and the tests before their servers start.

    Parameters
    ----------
    rulesets : list of Ruleset, optional
    progress : bool
        Show a progress bar (tqdm) on standard error.
    """
    from tqdm import tqdm

    chosen = sorted(rulesets or _presets(), key=lambda rules: table_model(rules, 2) is WinModel.GEMS)
    bar = tqdm(chosen, desc="dragonkit: the win tables", unit="table", disable=not progress, file=sys.stderr)
    for rules in bar:
        bar.set_postfix_str(rules.name)
        table(rules)
    bar.close()


def _follow_parent(parent: int) -> None:
    """End this process when ``parent`` is gone (a server stopped while a table was being solved)."""
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


def main(argv: list[str] | None = None) -> int:
    """``python -m dragonkit.analysis.win.model [--parent PID] [RULESET_JSON ...]``: solve and save the tables."""
    parser = argparse.ArgumentParser(description="solve the two-player win tables into the kit's cache")
    parser.add_argument("--parent", type=int, help="end when this process ends")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("rulesets", nargs="*", help="rulesets as JSON (default: every preset that has a table)")
    args = parser.parse_args(argv)
    if args.parent:
        threading.Thread(target=_follow_parent, args=(args.parent,), daemon=True).start()
    rulesets = [Ruleset.from_dict(json.loads(text)) for text in args.rulesets] or None
    try:
        prepare_tables(rulesets, progress=not args.quiet)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
