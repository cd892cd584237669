"""Tournaments (dragonkit.simulate.tournament): the round robin's standings, the same with processes and
with dask, flat memory, and ``dragonkit tournament`` on the command line."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from dragonkit import Ruleset
from dragonkit.bots import BOTS, BotKind
from dragonkit.cli import main
from dragonkit.plots.tournament import win_rates
from dragonkit.simulate import TournamentResult, round_robin


def test_round_robin_standings_and_pairs():
    bots = ["threshold:10", "random", "random", "threshold:30"]
    result = round_robin(bots, 60, seed=2, rules=Ruleset.preset("kali"), level=0.99)
    assert list(result.pairs.index) == ["threshold:10", "random", "random#2", "threshold:30"]
    assert result.standings["games"].tolist() == [180] * 4
    assert result.standings["wins"].sum() == pytest.approx(6 * 60)  # every game has one (shared) win
    pairs = result.pairs.to_numpy()
    off = ~np.eye(4, dtype=bool)
    assert np.allclose((pairs + pairs.T)[off], 1.0)
    s = result.standings
    assert ((s["ci_low"] <= s["estimate"]) & (s["estimate"] <= s["ci_high"])).all()
    assert result.endings.sum() == 6 * 60 and result.mean_turns > 1
    assert isinstance(win_rates(result), Figure)
    assert "<table" in result._repr_html_()
    kept = TournamentResult.from_json(result.to_json())  # kept as text and read back: the same tables
    pd.testing.assert_frame_equal(kept.standings, result.standings)
    pd.testing.assert_frame_equal(kept.pairs, result.pairs)
    pd.testing.assert_series_equal(kept.endings, result.endings)
    assert (kept.mean_turns, kept.level) == (result.mean_turns, 0.99)
    for text in ("[]", '{"standings": 3}', "not json"):
        with pytest.raises(ValueError, match=r"tournament|Expecting"):
            TournamentResult.from_json(text)


@pytest.mark.slow
def test_round_robin_gives_the_same_result_with_processes_and_with_dask():
    distributed = pytest.importorskip("dask.distributed")
    bots = ["threshold:15", "random", "threshold:40"]
    alone = round_robin(bots, 40, seed=9)
    assert round_robin(bots, 40, seed=9, workers=2).standings.equals(alone.standings)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = round_robin(bots, 40, seed=9, client=client)
    assert on_dask.standings.equals(alone.standings)
    assert on_dask.pairs.equals(alone.pairs)


@pytest.mark.load
def test_tournament_memory_stays_flat():
    bots = ["threshold:10", "threshold:30"]

    def peak(games: int) -> int:
        tracemalloc.start()
        round_robin(bots, games, seed=1, rules=Ruleset.preset("mini"))
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    small, large = peak(500), peak(5000)
    assert large < 1.5 * small + 200_000  # ten times the games, not ten times the memory


def test_cli_tournament_prints_a_table(capsys):
    assert (
        main(["tournament", "--bots", "threshold:10", "random", "--games", "20", "--seed", "3", "--preset", "mini"])
        == 0
    )
    out = capsys.readouterr().out
    assert "Round robin, mini, 20 games per pair, seed 3" in out
    assert "threshold:10" in out and "random" in out and "win rate" in out
    with pytest.raises(SystemExit):
        main(["tournament", "--bots", "wizard", "random"])


def test_cli_tournament_takes_every_kind_of_bot(capsys):
    """Every kind of bot, with its number where it takes one, read by the one parser of a spec: a new kind of bot
    plays in ``dragonkit tournament`` once it is in BOTS, with no other change."""
    specs = []
    for kind in BotKind:
        if kind is BotKind.HUMAN:
            continue
        parameter = BOTS[kind].spec_parameter  # KeyError: a kind of bot that nothing plays
        specs += [kind.value] if parameter is None else [kind.value, f"{kind.value}:{parameter.default + 1}"]
    assert main(["tournament", "--bots", *specs, "--games", "1", "--seed", "4", "--preset", "mini"]) == 0
    out = capsys.readouterr().out
    table = {line.split()[0] for line in out.splitlines()[2:] if line and not line.startswith("endings")}
    assert table == set(specs), out  # a row of standings for each bot


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--games", "-3"], "--games must be a whole number of games from 1 to 10,000,000, not -3"),
        (["--games", "99999999999999999999"], "--games must be a whole number of games from 1 to 10,000,000"),
        (["--level", "0"], "--level must lie strictly between 0 and 1"),
        (["--level", "2"], "--level must lie strictly between 0 and 1"),
        (["--seed", "-5"], "--seed must be 0 or more"),
        (["--workers", "0"], "--workers must be from 1 to"),
        (["--edition", "nope"], "invalid choice: 'nope'"),
        (["--bots", "win"], "--bots needs at least two bots to play each other, not 1"),
        (["--bots", "foo", "coach"], "--bots: unknown bot 'foo'"),
    ],
)
def test_cli_tournament_refusals_name_the_flag(arguments, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", *arguments])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "usage: dragonkit tournament" in err  # the subcommand's usage, not the program's


def test_cli_tournament_takes_the_edition_by_either_name_and_counts_shared_wins(capsys):
    assert main(["tournament", "--bots", "win", "coach", "--games", "10", "--edition", "mini"]) == 0
    out = capsys.readouterr().out
    assert "Round robin, mini, 10 games per pair" in out
    assert ".000 " not in out.split("\n")[2]  # wins as counts (a shared win a half), not 5.000
