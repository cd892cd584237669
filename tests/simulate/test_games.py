"""Monte Carlo of whole games (dragonkit.simulate.games): one row per game, whatever the workers; bad bot
lists refused."""

from __future__ import annotations

import pytest

from dragonkit import Ruleset
from dragonkit.simulate import round_robin, simulate_games
from dragonkit.simulate.games import BotSpec


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
