"""``policy_table``, ``policy_map`` and ``policy_shift`` (:mod:`dragonkit.analysis.turn.table`) against
``solve_turn`` on every reachable point."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from dragonkit.analysis import TurnState, hold_from, policy_map, policy_shift, policy_table, solve_turn

from ...situations import fresh_state
from .oracle import PRESET_NAMES, seeded_situations, stage_table

# ---------------------------------------------------------------------------------
# 10. policy_table, policy_map, policy_shift
# ---------------------------------------------------------------------------------


def reachable(state: TurnState) -> dict:
    """Every decision point reachable from ``state`` by footprints that do not end the
    turn, written from RULES.md: {(cards drawn, position, pot): {footprints left}}."""
    rules = state.rules
    mults = stage_table(rules)[1]
    m = mults[state.dangers_revealed]
    bank, n = state.treasure + state.pot, rules.n_stripes
    kinds = tuple(state.footprints)
    others = state.stops + state.dangers
    out: dict = {}
    layer = {(tuple(state.footprints.values()), state.position, state.pot)}
    depth = 0
    while layer:
        nxt = set()
        for fp, pos, pot in layer:
            out.setdefault((depth, pos, pot), set()).add(fp)
            left = sum(fp) + others
            for i, (steps, c) in enumerate(zip(kinds, fp)):
                new = pos + steps
                if c and new <= n and left > 1:
                    nxt.add(
                        (fp[:i] + (c - 1,) + fp[i + 1 :], new, pot + min(rules.stripe_values[new - 1] * m, bank - pot))
                    )
        layer, depth = nxt, depth + 1
    return out


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_policy_table_matches_solve_turn(name):
    rng = random.Random(8000 + PRESET_NAMES.index(name))
    states = seeded_situations(8000 + PRESET_NAMES.index(name), name, 3) + [fresh_state(name)]
    for state in states:
        table = policy_table(state)
        sit = table.situations
        assert list(sit.columns) == [
            "cards_drawn",
            "drawn",
            "position",
            "pot",
            "cards_left",
            "push_value",
            "hold_value",
            "advantage",
            "action",
        ]
        assert (sit.drawn.str.count(r"\d") == sit.cards_drawn).all()
        sol = solve_turn(state)
        first = sit.iloc[0]
        assert (first.cards_drawn, first.position, first.pot, first.cards_left) == (
            0,
            state.position,
            state.pot,
            state.composition.total,
        )
        assert first.push_value == pytest.approx(float(solve_turn(state, exact=True).push_value), rel=1e-12, abs=1e-12)
        assert first.push_value == pytest.approx(sol.push_value, rel=1e-12, abs=1e-12)
        assert first.action == sol.best_action
        assert (sit.hold_value == sit.pot).all()
        assert np.allclose(sit.advantage, sit.push_value - sit.pot)
        assert (sit.cards_left == state.composition.total - sit.cards_drawn).all()
        assert set(sit.action) <= {"reveal", "hold"}
        # Every row is a reachable decision point, and each one appears once.
        points = reachable(state)
        keys = Counter(zip(sit.cards_drawn.tolist(), sit.position.tolist(), sit.pot.tolist()))
        assert keys == Counter({k: len(v) for k, v in points.items()}), state
        # A sample of rows against solve_turn, rebuilt as TurnStates (rows sharing
        # (cards drawn, position, pot) differ only in the deck: compare as multisets).
        sample = rng.sample(sorted(points), min(25, len(points)))
        for depth, pos, pot in sample:
            rows = sit[(sit.cards_drawn == depth) & (sit.position == pos) & (sit.pot == pot)]
            expected = []
            for fp in points[depth, pos, pot]:
                rebuilt = dataclasses.replace(
                    state,
                    footprints=dict(zip(state.footprints, fp)),
                    position=pos,
                    pot=pot,
                    treasure=state.treasure + state.pot - pot,
                    must_reveal=state.must_reveal and depth == 0,
                )
                s = solve_turn(rebuilt)
                expected.append((s.best_action, s.push_value))
            got = sorted(zip(rows.action, rows.push_value), key=lambda x: (x[1], x[0]))
            expected.sort(key=lambda x: (x[1], x[0]))
            assert [a for a, _ in got] == [a for a, _ in expected], (state, depth, pos, pot)
            assert np.allclose([v for _, v in got], [v for _, v in expected], rtol=1e-12, atol=1e-12)
        # The summary grid at the state's own (pot, position), holding allowed.
        free = dataclasses.replace(state, must_reveal=False)
        assert table.summary.loc[state.pot, state.position] == solve_turn(free).best_action, state
        assert table.advantage.loc[state.pot, state.position] == pytest.approx(
            solve_turn(free).push_value - state.pot, rel=1e-12, abs=1e-12
        )


def test_policy_map_grid_matches_solve_turn():
    for name in PRESET_NAMES:
        state = seeded_situations(8100 + PRESET_NAMES.index(name), name, 1)[0]
        grid = policy_map(state)
        table = policy_table(state)
        assert grid.equals(table.advantage)
        assert list(grid.columns) == list(range(state.rules.n_stripes + 1))
        assert list(grid.index) == sorted(grid.index, reverse=True)
        cells = [(pot, pos) for pos in grid.columns for pot in grid.index if pd.notna(grid.loc[pot, pos])]
        rng = random.Random(len(cells))
        for pot, pos in rng.sample(cells, min(12, len(cells))):
            here = dataclasses.replace(
                state,
                position=int(pos),
                pot=int(pot),
                treasure=state.treasure + state.pot - int(pot),
                must_reveal=False,
            )
            sol = solve_turn(here)
            assert grid.loc[pot, pos] == pytest.approx(sol.push_value - pot, rel=1e-12, abs=1e-12)
            assert table.summary.loc[pot, pos] == sol.best_action


def _threshold(x) -> float:
    return math.inf if pd.isna(x) else float(x)


def shift_states() -> list[TurnState]:
    return [
        fresh_state("mini"),
        fresh_state("mini", position=1, pot=1, treasure=19, must_reveal=False, footprints={1: 2, 2: 2}),
        fresh_state("kali"),
        seeded_situations(8200, "dragon-stripes", 1, small=False)[0],
        seeded_situations(8201, "drago-rosso", 1, small=False)[0],
    ]


def test_policy_shift_rows_and_values():
    for state in shift_states():
        gems = [0, 7, 40, 90]
        stages = list(range(len(state.rules.stages)))
        shift = policy_shift(state, gems=gems, stages=stages)
        assert list(shift.index) == ["as is"] + [f"gems={g}" for g in gems] + [f"stage={d}" for d in stages]
        assert list(shift.columns) == list(range(state.rules.n_stripes + 1))
        for g in (0, 40):
            grid = policy_map(dataclasses.replace(state, gems=g))
            for pos in grid.columns:
                col = grid[pos].dropna()
                holds = col.index[col <= 0]
                want = holds.min() if len(holds) else math.nan
                got = shift.loc[f"gems={g}", pos]
                assert (pd.isna(want) and pd.isna(got)) or want == got, (state, g, pos)
    with pytest.raises(ValueError):
        policy_shift(fresh_state("mini"), stages=[1])
    with pytest.raises(ValueError):
        policy_shift(fresh_state("mini"), gems=[-1])


def test_richer_players_hold_no_later():
    """RULES.md: penalties grow with the player's gems, nothing else depends on them,
    so the push value cannot rise with the gems and a richer player holds from a pot
    no larger than a poorer one's, at every position."""
    gems = [0, 5, 12, 30, 60, 120]
    for state in shift_states():
        shift = policy_shift(state, gems=gems)
        for poorer, richer in itertools.pairwise(gems):
            for pos in shift.columns:
                a, b = _threshold(shift.loc[f"gems={poorer}", pos]), _threshold(shift.loc[f"gems={richer}", pos])
                assert b <= a, f"{state}: at position {pos} gems={richer} holds from {b}, gems={poorer} from {a}"
        # The stronger form: cell by cell, the advantage of revealing does not grow with the gems.
        grids = [policy_map(dataclasses.replace(state, gems=g)) for g in gems]
        for poorer, richer in itertools.pairwise(grids):
            p, r = poorer.to_numpy(dtype=float), richer.to_numpy(dtype=float)
            assert (np.isnan(p) == np.isnan(r)).all()
            defined = ~np.isnan(p)
            assert (r[defined] <= p[defined] + 1e-9).all(), state


def test_hold_from_is_the_boundary_of_the_policy_map_and_where_solve_turn_holds():
    """hold_from(state): the column of hold_boundary(policy_map(state)) at the knight's position, in exact arithmetic;
    solve_turn (exact) holds at the same position exactly from that pot on."""
    from dragonkit.analysis.turn.table import hold_boundary

    states = [*shift_states(), *(s for name in PRESET_NAMES for s in seeded_situations(8300, name, 3))]
    for state in states:
        boundary = hold_boundary(policy_map(state))
        got = hold_from(state)
        want = boundary[state.position]
        assert (got is None and pd.isna(want)) or got == want, state
        grid = policy_map(state)[state.position].dropna()
        for pot in grid.index:
            here = dataclasses.replace(state, pot=int(pot), treasure=state.bank - int(pot), must_reveal=False)
            holds = solve_turn(here, exact=True).best_action.value == "hold"
            assert holds == (got is not None and pot >= got), (state, pot)
    assert [hold_from(dataclasses.replace(fresh_state("mini"), position=p)) for p in range(6)] == [0, 0, 0, 3, 8, 11]
