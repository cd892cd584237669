"""Monte Carlo of turns, whole games and tournaments."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from dragonkit import Ruleset, plots
from dragonkit.analysis import HoldAfterReveals, HoldAtPot, TurnState, evaluate_policy, optimal_policy
from dragonkit.cli import main
from dragonkit.rules import PRESETS
from dragonkit.simulate import TournamentResult, round_robin, simulate_games, simulate_turns
from dragonkit.simulate.games import BotSpec
from dragonkit.simulate.turns import OUTCOMES

Z999 = 3.2905


def fresh(name: str, **changes) -> TurnState:
    rules = Ruleset.preset(name)
    fields = dict(
        rules=rules,
        footprints=dict(rules.footprints),
        stops=rules.stop_cards,
        dangers=rules.danger_cards,
        dangers_revealed=0,
        gems=rules.starting_gems,
        treasure=rules.treasure,
    )
    fields.update(changes)
    return TurnState(**fields)


SITUATIONS = [
    fresh("dragon-stripes"),
    fresh(
        "dragon-stripes",
        footprints={1: 9, 2: 7, 3: 6, 4: 2},
        stops=7,
        dangers=1,
        dangers_revealed=2,
        gems=90,
        treasure=120,
        position=6,
        pot=14,
        must_reveal=False,
    ),
    fresh("kali", stops=9, dangers=1, dangers_revealed=1, gems=25, treasure=300),
    fresh("drago-rosso", footprints={1: 10, 2: 9, 3: 5, 4: 3}, stops=8, position=3, pot=5, must_reveal=False),
    fresh("mini"),
]


@pytest.mark.parametrize("state", SITUATIONS, ids=lambda s: s.rules.name)
@pytest.mark.parametrize(
    "make_policy",
    [lambda s: optimal_policy(s), lambda s: HoldAtPot(12), lambda s: HoldAfterReveals(2)],
    ids=["optimal", "hold12", "after2"],
)
def test_simulated_turns_agree_with_the_exact_evaluation(state, make_policy):
    policy = make_policy(state)
    exact = evaluate_policy(state, policy)
    sim = simulate_turns(state, policy, 100_000, rng=np.random.default_rng(7))
    table = sim.summary(level=0.999)
    for row, value in [
        ("expected_gain", exact.expected_gain),
        ("expected_cards", exact.expected_cards),
        ("p_stopped", exact.p_stopped),
        ("p_danger", exact.p_danger),
        ("p_head", exact.p_head),
        ("p_loss", exact.p_loss),
    ]:
        low, high = table.loc[row, "ci_low"], table.loc[row, "ci_high"]
        assert low - 1e-12 <= value <= high + 1e-12, (row, value, low, high)
    mean, se = table.loc["expected_gain", "estimate"], table.loc["expected_gain", "std_error"]
    assert abs(mean - exact.expected_gain) <= Z999 * se + 1e-12


def test_simulation_is_seeded_and_validates():
    state = SITUATIONS[0]
    a = simulate_turns(state, HoldAtPot(20), 5000, rng=3)
    b = simulate_turns(state, HoldAtPot(20), 5000, rng=np.random.default_rng(3))
    assert np.array_equal(a.gain, b.gain) and np.array_equal(a.outcome, b.outcome)
    assert not np.array_equal(a.gain, simulate_turns(state, HoldAtPot(20), 5000, rng=4).gain)
    assert set(np.unique(a.outcome)) <= set(range(len(OUTCOMES)))
    assert (a.cards >= 1).all()  # a compulsory reveal
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="n must be"):
            simulate_turns(state, HoldAtPot(20), bad)
    with pytest.raises(ValueError, match="TurnState"):
        simulate_turns(None, HoldAtPot(20), 10)


def test_a_policy_that_holds_at_once_keeps_the_pot():
    state = SITUATIONS[1]
    sim = simulate_turns(state, HoldAtPot(5), 100, rng=1)
    assert (sim.gain == state.pot).all() and (sim.cards == 0).all()


def test_running_mean_converges_to_the_exact_value():
    state = SITUATIONS[2]
    exact = float(evaluate_policy(state, HoldAtPot(20)).expected_gain)
    sim = simulate_turns(state, HoldAtPot(20), 200_000, rng=11)
    path = sim.running_mean()
    assert len(path) == sim.n and path[-1] == pytest.approx(sim.gain.mean())
    assert abs(path[-1] - exact) < abs(path[99] - exact) + 1.0


def test_games_have_one_row_each_and_do_not_depend_on_workers():
    bots = ["threshold:10", "random", "threshold:30"]
    one = simulate_games(bots, 300, seed=5, rules=Ruleset.preset("drago-rosso"))
    two = simulate_games(bots, 300, seed=5, rules=Ruleset.preset("drago-rosso"), workers=2)
    assert one.equals(two)
    assert list(one["game"]) == list(range(300))
    assert set(one["ending"]) <= {"head", "final_danger"}
    assert {f"gems[{b}]" for b in bots} <= set(one.columns)
    assert (one["turns"] >= 1).all()
    # seats rotate: each bot opens a third of the games
    openers = one["seating"].str.split(",").str[0].value_counts()
    assert set(openers) == {100}
    # a winner has the most gems
    for _, row in one.iterrows():
        best = max(row[f"gems[{b}]"] for b in bots)
        assert all(row[f"gems[{w}]"] == best for w in row["winners"].split(","))
    assert not simulate_games(bots, 50, seed=6).equals(one.head(50))


def test_bad_bot_lists_are_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        simulate_games(["coach", "wizard"], 10)
    with pytest.raises(ValueError, match="2 to 6 bots"):
        simulate_games(["coach"], 10)
    with pytest.raises(ValueError, match="games must be"):
        simulate_games(["coach", "random"], 0)
    with pytest.raises(ValueError, match="at least two bots"):
        round_robin(["random"], 10)
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        BotSpec("wizard").make(seed=1)
    for spec in ("win:3", "coach:20", "random:1"):  # only the threshold bot takes a number
        with pytest.raises(ValueError, match=f"unknown bot '{spec}'"):
            round_robin(["threshold:3", spec], 10)


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
    assert isinstance(plots.win_rates(result), Figure)
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


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_simulates(name):
    state = fresh(name)
    sim = simulate_turns(state, HoldAtPot(10), 2000, rng=0)
    assert sim.summary().loc["expected_gain", "n"] == 2000
