"""Lesson 8's figures (dragonkit.plots.simulation, win_rates) in words: the running mean with its interval
and the exact mean, the coverage figure's misses, the error figure, the win rates bot by bot."""

from __future__ import annotations

import re
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from dragonkit import Ruleset, i18n
from dragonkit.i18n.numbers import decimal_text, percent_text
from dragonkit.lessons import base, simulation
from dragonkit.plots import simulation as plots
from dragonkit.plots.tournament import win_rates, win_rates_text
from dragonkit.simulate import round_robin
from dragonkit.topics.coverage import ExactTurn, coverage, exact_turn

from .texts import _well_formed, minus

MINI = Ruleset.preset("mini")


def test_the_running_mean_is_told_with_its_interval_and_the_exact_mean():
    exact = exact_turn("mini", 20)
    gains = np.random.default_rng(5).choice([-10, -4, 3, 6, 12], size=1234)
    text = plots.running_mean_figure_text(gains, exact, "hold at 20")
    _well_formed(text)
    mean, sd, n = gains.mean(), gains.std(ddof=1), len(gains)
    half = NormalDist().inv_cdf(0.975) * sd / np.sqrt(n)
    assert text.alt == minus(
        f"The law of large numbers, hold at 20: after 1,234 turns the running mean is {mean:.3f} gems, 95% "
        f"confidence interval [{mean - half:.3f}, {mean + half:.3f}]; the exact expected gain is "
        f"{float(exact.mean):.3f} gems."
    )
    # the table: the running mean at 1, 10, 100, 1000 turns and at the last, and the band the figure draws
    assert [row[0] for row in text.rows] == ["1", "10", "100", "1,000", "1,234"]
    for row in text.rows:
        k = int(row[0].replace(",", ""))
        band = NormalDist().inv_cdf(0.975) * exact.std / np.sqrt(k)
        assert row[1] == minus(f"{gains[:k].mean():.3f}")
        assert row[2] == minus(f"[{float(exact.mean) - band:.3f}, {float(exact.mean) + band:.3f}]")
        assert row[3] == ("yes" if abs(gains[:k].mean() - float(exact.mean)) <= band else "no")
    italian = plots.running_mean_figure_text(gains, exact, "fermati a 20", lang="it")
    _well_formed(italian)
    assert italian.alt.startswith("La legge dei grandi numeri, fermati a 20: dopo 1.234 turni")
    assert decimal_text(mean, 3, "it") in italian.alt and f"{mean:.3f}" not in italian.alt
    assert italian.columns[1] == "media progressiva (gemme)" and italian.rows[3][0] == "1.000"
    one = plots.running_mean_figure_text(gains[:1], exact, "hold at 20")
    assert "after 1 turn the mean is" in one.alt and len(one.rows) == 1
    with pytest.raises(ValueError, match="at least one"):
        plots.running_mean_figure_text(gains[:0], exact, "hold at 20")


def test_the_coverage_figure_tells_its_misses_by_their_style_and_in_words():
    result = coverage(exact_turn("mini", 20), 10, 60, 0.9, seed=4)
    shown = 40
    frame = result.intervals.iloc[:shown]
    mean = result.exact.mean
    missed = [i + 1 for i, (low, high) in enumerate(zip(frame["ci_low"], frame["ci_high"])) if not low <= mean <= high]
    assert 0 < len(missed) < shown  # the seed gives both kinds
    text = plots.coverage_figure_text(result, shown)
    _well_formed(text)
    assert f"among the {shown} shown: {len(missed)};" in text.alt
    covered = sum(low <= mean <= high for low, high in zip(result.intervals["ci_low"], result.intervals["ci_high"]))
    assert f"among all 60 experiments, intervals that contain it: {covered} ({covered / 60:.1%})" in text.alt
    assert len(text.rows) == shown
    assert [int(row[0]) for row in text.rows if row[3] == "misses it"] == missed
    assert {row[3] for row in text.rows} == {"misses it", "contains it"}
    assert text.rows[0][1] == minus(f"{frame['estimate'].iloc[0]:.3f}")
    # the figure: the misses are dashed and marked with a cross, and the legend says which is which
    ax = plots.coverage_figure(result, shown).axes[0]
    bars = {c.get_label(): c for c in ax.collections}
    hit, miss = bars["contains the exact value"], bars["misses the exact value"]
    assert len(miss.get_segments()) == len(missed) and len(hit.get_segments()) == shown - len(missed)
    assert miss.get_linestyle() != hit.get_linestyle()
    assert {line.get_marker() for line in ax.lines if line.get_linestyle() == "None"} == {"o", "X"}
    legend = [t.get_text() for t in ax.figure.legends[0].get_texts()]
    assert "misses the exact value" in legend and "contains the exact value" in legend
    italian = plots.coverage_figure_text(result, shown, lang="it")
    _well_formed(italian)
    assert "non lo contengono" in italian.alt and percent_text(covered / 60, 1, "it") in italian.alt
    assert {row[3] for row in italian.rows} == {"non lo contiene", "lo contiene"}


def test_the_error_figure_is_told_from_its_table():
    exact = ExactTurn(base.fresh_turn(MINI), 20, exact_turn("mini", 20).mean, 6.5)
    errors = pd.DataFrame(
        {"rms_error": [2.1, 0.61, 0.2], "theory": [6.5 / np.sqrt(10), 6.5 / np.sqrt(100), 6.5 / np.sqrt(1000)]},
        index=pd.Index([10, 100, 1000], name="n"),
    )
    text = plots.error_figure_text(errors, exact)
    _well_formed(text)
    assert "2.10 gems at n = 10, 0.20 gems at n = 1,000" in text.alt and "σ = 6.50, gives 2.06 and 0.21" in text.alt
    assert text.rows == (("10", "2.100", "2.055"), ("100", "0.610", "0.650"), ("1,000", "0.200", "0.206"))
    italian = plots.error_figure_text(errors, exact, lang="it")
    assert italian.alt.startswith("L'errore della media") and "0,20 gemme con n = 1.000" in italian.alt
    assert italian.rows[2] == ("1.000", "0,200", "0,206")


def test_the_win_rates_are_told_bot_by_bot():
    result = round_robin(["threshold:5", "threshold:20", "random"], 12, seed=2, rules=MINI)
    labels = {spec: simulation.bot_label(spec) for spec in result.standings.index}
    text = win_rates_text(result, labels)
    _well_formed(text)
    assert text.alt.startswith("Win rates, 95% Wilson intervals: ")
    standings = result.standings
    told = [(name, float(rate), float(low), float(high)) for name, rate, low, high in _rates(text.alt)]
    expected = [(labels[s], r["estimate"], r["ci_low"], r["ci_high"]) for s, r in standings.iterrows()]
    assert [t[0] for t in told] == [e[0] for e in expected]  # best first, as the bars
    assert np.allclose([t[1:] for t in told], [e[1:] for e in expected], atol=0.005)
    assert [row[0] for row in text.rows] == [labels[s] for s in standings.index]
    assert [row[1] for row in text.rows] == [str(int(g)) for g in standings["games"]]
    assert [row[2] for row in text.rows] == [minus(f"{r:.3f}") for r in standings["estimate"]]
    i18n.set_language("it")
    labels = {spec: simulation.bot_label(spec) for spec in standings.index}
    italian = win_rates_text(result, labels, lang="it")
    assert italian.alt.startswith("Percentuali di vittorie, intervalli di Wilson al 95%: ")
    for spec, row in standings.iterrows():
        assert f"{labels[spec]} {decimal_text(row['estimate'], 2, 'it')} [" in italian.alt
    low, high = standings["ci_low"].iloc[0], standings["ci_high"].iloc[0]
    assert italian.rows[0][3] == minus(f"[{low:.3f}; {high:.3f}]".replace(".", ","))
    # the bars are outlined: a light bar is not told from the page by its colour only
    bars = win_rates(result, labels).axes[0].patches
    assert bars and all(bar.get_linewidth() > 0 for bar in bars)


def _rates(alt: str) -> list[tuple[str, str, str, str]]:
    """The bots and their rates in an English text alternative of :func:`win_rates_text`."""
    return re.findall(r"(?:: |; )([^;:]+?) (\d\.\d\d) \[(\d\.\d\d), (\d\.\d\d)\]", alt)
