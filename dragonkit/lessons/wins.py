"""Lesson 10, gems or wins: the policy that maximises a turn's expected gems against the policy that maximises the
probability of winning the game — Pig's exact solution as a warm-up (Neller & Presser 2004), then Dragon Stripes.

Every number comes from :mod:`dragonkit.topics.gems_or_wins` (Pig's solution, the two coaches' values, the
first player's chance) and :func:`dragonkit.simulate.round_robin`; the figures from :mod:`dragonkit.plots.wins`
and :func:`dragonkit.plots.tournament.win_rates`.

* :func:`pig_policy_chart` — where Pig's win-optimal player holds, by the two scores;
* :class:`PigFacts` — Pig's numbers: the first player's chance, the expected points of "hold at h";
* :class:`FirstMove` — the first player's probability of winning in Pig, Dragon Stripes and the mini deck;
* :class:`CoachMap` — where the gem coach and the win coach choose differently, and one situation in numbers;
* :class:`HeadToHead` — the win bot against the gem coach, a seeded round robin with its interval;
* :func:`versus_win_bot` — a two-player game against the win bot, for the play app;
* :func:`answers` — the answers of the lesson's exercises.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import ipywidgets as widgets

from ..bots import BotKind
from ..cache import cached_file, computed_once
from ..i18n import N_, Gems, tr
from ..i18n.numbers import decimal_text, integer_text, percent_interval_text, percent_text
from ..plots.tournament import win_rates, win_rates_text
from ..plots.wins import (
    AGREEMENT_LABELS,
    coach_map_figure,
    coach_map_figure_text,
    pig_policy_figure,
    pig_policy_figure_text,
)
from ..rules import DANGER_CARD, Ruleset
from ..simulate import TournamentResult, round_robin
from ..style import CSS
from ..topics.gems_or_wins import (
    AGREEMENTS,
    PIG_GOAL,
    after_first_card,
    agreement,
    best_hold_at,
    best_holds_at,
    coach_map,
    first_player_chances,
    game_gems,
    gem_advice,
    hold_at_ladder,
    pig_solution,
    situation,
    typical_deck,
    win_advice,
    win_reveals,
)
from ..topics.sliders import stage_range
from ..turn import Action
from ..ui.figures import FigureView
from ..ui.numbers import number_html
from ..ui.setup import GameConfig, SeatConfig
from .base import LessonWidget, LiveFigure

__all__ = [
    "ADVICE_OPTIONS",
    "DUEL",
    "EXERCISE",
    "VERDICTS",
    "CoachMap",
    "FirstMove",
    "HeadToHead",
    "PigFacts",
    "Situation",
    "answers",
    "duel_verdict",
    "head_to_head",
    "pig_policy_chart",
    "versus_win_bot",
]

#: The edition of the lesson's Dragon Stripes (the win table needs a final danger that costs all the gems).
STRIPES = "dragon-stripes"
#: The opponents' scores of Pig's chart (points).
PIG_OPPONENTS = (0, 25, 50, 75, 90)
#: The "hold at h" turns of Pig's table (points).
PIG_LADDER = (15, 20, 21, 25, 30)
#: The two bots of the head-to-head: the win-optimal and the gem-optimal (the bot specs of :func:`round_robin`).
DUEL = (BotKind.WIN, BotKind.COACH)
#: The head-to-head the lesson plays first: games per pair and the seed.
DUEL_GAMES, DUEL_SEED = 100, 1


class Situation(NamedTuple):
    """A decision of a two-player game of Dragon Stripes, for :func:`~dragonkit.topics.gems_or_wins.situation`."""

    stage: int
    cards: int  #: cards left in the deck (:func:`~dragonkit.topics.gems_or_wins.typical_deck`)
    gems: tuple[int, int]  #: the mover's and the opponent's (gems)
    position: int
    pot: int  #: gems


#: The situation of the exercises and of :class:`CoachMap`'s first view.
EXERCISE = Situation(stage=2, cards=25, gems=(40, 40), position=3, pot=10)
#: The largest pot :class:`CoachMap` maps (gems).
MAX_POT = 80
#: The labels of the head-to-head's bots (msgids).
BOT_LABELS = {BotKind.WIN: N_("win bot (plays to win)"), BotKind.COACH: N_("gem coach (most gems per turn)")}
#: The answers of the question "what do the two coaches advise?" (msgids), in the order of :data:`AGREEMENTS`.
ADVICE_OPTIONS = tuple(AGREEMENT_LABELS[a] for a in AGREEMENTS)
#: The head-to-head's conclusions (msgids), in the order of :func:`duel_verdict`.
VERDICTS = (
    N_("The win bot plays better: its whole interval lies above 50%."),
    N_("The gem coach plays better: the win bot's whole interval lies below 50%."),
    N_("These games cannot tell the two apart: the interval contains 50%. Play more games."),
)


# -- Pig --------------------------------------------------------------------------------------------------------


def pig_policy_chart(opponents=PIG_OPPONENTS) -> LiveFigure:
    """Pig's win-optimal policy (:func:`~dragonkit.plots.wins.pig_policy_figure`) with its text, as a widget that
    follows the language.

    Parameters
    ----------
    opponents : sequence of int
        The opponent's scores drawn, one line each.
    """
    solution = pig_solution()
    t = best_hold_at()
    return LiveFigure(
        lambda: (pig_policy_figure(solution, opponents, t), pig_policy_figure_text(solution, opponents, t))
    )


class PigFacts(LessonWidget):
    """Pig's numbers: the first player's probability of winning when both play to win, and one "hold at h"
    turn's expected points and probability of banking nothing, for a few ``t`` (exact fractions on request).

    Parameters
    ----------
    ladder : sequence of int
        The turn totals ``t`` of the table (points).

    Attributes
    ----------
    widget : ipywidgets.VBox
    """

    def __init__(self, ladder=PIG_LADDER):
        self.ladder = hold_at_ladder(ladder)
        self.first = pig_solution().first_player_wins
        self.bests = best_holds_at()
        self.best = self.bests[0]
        self.best_points = hold_at_ladder([self.best])[self.best][0]
        self.exact = widgets.Checkbox(value=False, indent=False)
        self.html = widgets.HTML(layout=widgets.Layout(overflow="auto", max_width="760px"))
        self.widget = widgets.VBox([widgets.HTML(CSS), self.html, self.exact])
        self.widget.add_class("dk-app")
        self.exact.observe(self._redraw, names="value")
        self._follow_language()

    def _redraw(self, _change=None) -> None:
        self.exact.description = tr("show exact fractions")

        def shown(value: Fraction, digits: int) -> str:
            return number_html(value, digits) if self.exact.value else decimal_text(value, digits)

        head = "".join(f"<th>{h}</th>" for h in (tr("hold at h"), tr("expected points per turn"), tr("P(0 points)")))
        rows = "".join(
            "<tr>"
            + "".join(
                f"<td><b>{cell}</b></td>" if t == self.best else f"<td>{cell}</td>"
                for cell in (integer_text(t), shown(points, 3), shown(nothing, 3))
            )
            + "</tr>"
            for t, (points, nothing) in self.ladder.items()
        )
        self.html.value = (
            '<p class="dk-status">'
            + tr(
                "Both players play to win: the first player wins with probability {p}.",
                p=f"<b>{decimal_text(self.first, 4)}</b>",
            )
            + "</p>"
            + f'<table class="dk-table"><caption>{tr("One turn of hold at h")}</caption><tr>{head}</tr>{rows}</table>'
            + '<p class="dk-note">'
            + tr(
                "Hold at {t} gives the most expected points of one turn: {points}.",
                t=self.best,
                points=decimal_text(self.best_points, 3),
            )
            + (
                " " + tr("So does hold at {others}.", others=", ".join(integer_text(t) for t in self.bests[1:]))
                if len(self.bests) > 1
                else ""
            )
            + "</p>"
        )


# -- the first move ---------------------------------------------------------------------------------------------


class FirstMove(LessonWidget):
    """The first player's probability of winning when both players play to win: Pig, Dragon Stripes (the race
    model of :class:`~dragonkit.analysis.win.race.WinTable`) and the mini deck (exact).

    Attributes
    ----------
    widget : ipywidgets.VBox
    chances : dict
        :func:`~dragonkit.topics.gems_or_wins.first_player_chances`.
    """

    def __init__(self):
        self.chances = first_player_chances()
        self.html = widgets.HTML(layout=widgets.Layout(overflow="auto", max_width="860px"))
        self.widget = widgets.VBox([widgets.HTML(CSS), self.html])
        self.widget.add_class("dk-app")
        self._follow_language()

    def _redraw(self, _change=None) -> None:
        c = self.chances
        rows = (
            (tr("Pig (to {goal})", goal=PIG_GOAL), decimal_text(c["pig"], 4), tr("value iteration (Neller & Presser)")),
            (
                "Dragon Stripes",
                decimal_text(c[STRIPES], 4),
                tr("the race model, backward induction over every deck"),
            ),
            (tr("mini (classroom deck)"), number_html(c["mini"]), tr("exact, in fractions")),
        )
        head = "".join(f"<th>{h}</th>" for h in (tr("game"), tr("P(the first player wins)"), tr("how")))
        body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
        self.html.value = f'<table class="dk-table"><tr>{head}</tr>{body}</table>'


# -- the two coaches --------------------------------------------------------------------------------------------


def _deck_text(rules: Ruleset, stage: int, cards: int) -> str:
    """The deck of :func:`typical_deck` in words: ``1 step ×5, 2 steps ×5, …, stop ×4, danger ×1``."""
    deck = typical_deck(rules, stage, cards)
    return ", ".join(f"{card.describe()} ×{count}" for card, count in deck.counts() if count)


def _advice(reveals: bool | None) -> str:
    return tr("either") if reveals is None else tr("reveal") if reveals else tr("hold")


class CoachMap(LessonWidget):
    """Where the gem coach (the most expected gems of the turn) and the win coach (the highest probability of
    winning the game) choose differently: a map by knight position and pot for a deck at a stage, and one
    situation in numbers.

    Parameters
    ----------
    stage, cards : int
        The deck (:func:`~dragonkit.topics.gems_or_wins.typical_deck`).
    gems, other : int
        The mover's gems and the opponent's (gems).
    position, pot : int
        The situation looked at closely.

    Attributes
    ----------
    widget : ipywidgets.VBox
    cells : pandas.DataFrame
        The map (:func:`~dragonkit.topics.gems_or_wins.coach_map`).
    state : GameState
        The situation looked at closely.
    """

    def __init__(
        self,
        stage: int = EXERCISE.stage,
        cards: int = EXERCISE.cards,
        gems: int = EXERCISE.gems[0],
        other: int = EXERCISE.gems[1],
        position: int = EXERCISE.position,
        pot: int = EXERCISE.pot,
    ):
        self.rules = Ruleset.preset(STRIPES)
        rules = self.rules
        stages = stage_range(rules)
        style = {"description_width": "initial"}

        def slider(value: int, low: int, high: int, step: int = 1) -> widgets.IntSlider:
            return widgets.IntSlider(
                value=value,
                min=low,
                max=high,
                step=step,
                continuous_update=False,
                style=style,
                layout=widgets.Layout(width="420px", max_width="100%"),
            )

        self.stage = slider(stage, stages.low, stages.high)
        self.cards = slider(cards, *self._card_range(stage))
        self.gems = slider(gems, 0, 3 * rules.starting_gems, 5)
        self.other = slider(other, 0, 3 * rules.starting_gems, 5)
        self.position = slider(position, 1, rules.n_stripes)
        self.pot = slider(pot, 0, MAX_POT)
        self.plot = FigureView("760px", layout=widgets.Layout(width="760px", max_width="100%"))
        self.readout = widgets.HTML(layout=widgets.Layout(max_width="860px"))
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox([self.stage, self.cards], layout=widgets.Layout(flex_flow="row wrap")),
                widgets.HBox([self.gems, self.other], layout=widgets.Layout(flex_flow="row wrap")),
                self.plot,
                widgets.HBox([self.position, self.pot], layout=widgets.Layout(flex_flow="row wrap")),
                self.readout,
            ]
        )
        self.widget.add_class("dk-app")
        self._compute()
        self.stage.observe(self._on_stage, names="value")
        for control in (self.cards, self.gems, self.other):
            control.observe(self._on_deck, names="value")
        for control in (self.position, self.pot):
            control.observe(self._redraw, names="value")
        self._follow_language()

    def _card_range(self, stage: int) -> tuple[int, int]:
        """The cards a deck at ``stage`` may have left: from 8 to the full deck without the dangers revealed."""
        return 8, self.rules.deck_size - stage

    def _on_stage(self, _change=None) -> None:
        if self._muted:
            return
        low, high = self._card_range(self.stage.value)
        with self.muted():
            self.cards.max = high
            self.cards.min = low
        self._on_deck()

    def _on_deck(self, _change=None) -> None:
        if not self._muted:
            self._compute()
            self._redraw()

    def _compute(self) -> None:
        self.cells = coach_map(
            self.rules, self.stage.value, self.cards.value, (self.gems.value, self.other.value), MAX_POT
        )

    def _title(self) -> str:
        return tr(
            "Stage {d}, {n} cards left; your gems {g}, your opponent's {h}",
            d=self.stage.value,
            n=self.cards.value,
            g=self.gems.value,
            h=self.other.value,
        )

    def _redraw(self, _change=None) -> None:
        if self._muted:
            return
        self.stage.description = tr("Stage")
        self.cards.description = tr("Cards left")
        self.gems.description = tr("Your gems")
        self.other.description = tr("Your opponent's gems")
        self.position.description = tr("Knight position")
        self.pot.description = tr("Pot (gems)")
        chosen = (self.position.value, self.pot.value)
        title = self._title()
        self.plot.show(coach_map_figure(self.cells, title, chosen), coach_map_figure_text(self.cells, title))
        self.state = situation(
            self.rules,
            typical_deck(self.rules, self.stage.value, self.cards.value),
            self.stage.value,
            (self.gems.value, self.other.value),
            self.position.value,
            self.pot.value,
        )
        self.readout.value = self._readout()

    def _readout(self) -> str:
        state, rules = self.state, self.rules
        gem = gem_advice(state)
        gem_reveals = gem.best_action is Action.REVEAL
        win = win_advice(state)
        reveals = win_reveals(win)
        treasure = game_gems(rules) - self.gems.value - self.other.value - self.pot.value
        lines = [
            tr(
                "Knight on stripe {k}, pot {pot}; stage {d}, treasure {treasure}.",
                k=state.position,
                pot=Gems(state.pot),
                d=state.stage,
                treasure=Gems(treasure),
            ),
            tr(
                "Deck left ({n} cards): {cards}.",
                n=state.deck.total,
                cards=_deck_text(rules, state.stage, self.cards.value),
            ),
        ]
        cell = self.cells[state.position].get(state.pot) if state.pot in self.cells.index else None
        if not isinstance(cell, str):
            lines.append(tr("This pot cannot be reached at this position: the map leaves it blank."))
        head = "".join(f"<th>{h}</th>" for h in (tr("coach"), tr("reveal"), tr("hold"), tr("advice")))
        rows = (
            (
                tr("gem coach: expected gems to the end of the turn"),
                decimal_text(gem.push_value, 2),
                integer_text(gem.hold_value),
                _advice(gem_reveals),
            ),
            (
                tr("win coach: probability of winning the game"),
                decimal_text(win[Action.REVEAL], 4),
                decimal_text(win[Action.HOLD], 4),
                _advice(reveals),
            ),
        )
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
        best_win = max(float(p) for p in win.values())
        if reveals is None or reveals == gem_reveals:
            verdict = tr("The two coaches agree here.")
        else:
            gem_action = Action.REVEAL if gem_reveals else Action.HOLD
            gems_given_up = abs(float(gem.push_value) - gem.hold_value)
            verdict = tr(
                "The coaches disagree. Following the gem coach lowers the probability of winning by {p} "
                "percentage points; following the win coach gives up {g} expected gems of this turn.",
                p=decimal_text(100 * (best_win - float(win[gem_action])), 2),
                g=decimal_text(gems_given_up, 2),
            )
        return (
            '<div class="dk-status">'
            + "<br>".join(lines)
            + f'</div><table class="dk-table"><tr>{head}</tr>{body}</table>'
            + f'<p class="dk-note" aria-live="polite">{verdict}</p>'
        )


# -- the head-to-head -------------------------------------------------------------------------------------------

_DUELS: dict[tuple[int, int], TournamentResult] = {}


def head_to_head(games: int = DUEL_GAMES, seed: int = DUEL_SEED, progress: bool = False) -> TournamentResult:
    """The win bot against the gem coach: :func:`~dragonkit.simulate.round_robin` of :data:`DUEL`, ``games`` games
    of Dragon Stripes seated in turn.  The same seed gives the same games, so they are played once per machine
    (:func:`~dragonkit.cache.computed_once`: 100 games take about 2 CPU-seconds, which a class opening the lesson
    together would otherwise pay once per learner) and kept for the kernel's life.

    Parameters
    ----------
    games : int
    seed : int
    progress : bool
        Show a progress bar while the games are played.
    """
    key = (games, seed)
    if key not in _DUELS:
        _DUELS[key] = computed_once(
            # the games' code: the bots, the rules, the tournament
            cached_file(f"duel-{games}-{seed}.json", "dragonkit.simulate.tournament"),
            build=lambda: round_robin(list(DUEL), games, seed=seed, rules=Ruleset.preset(STRIPES), progress=progress),
            save=lambda result, file: file.write(result.to_json().encode()),
            load=lambda path: TournamentResult.from_json(path.read_text(encoding="utf-8")),
        )
    return _DUELS[key]


def duel_verdict(result: TournamentResult) -> int:
    """What a head-to-head says, as the index of :data:`VERDICTS`: 0 if the win bot's interval lies above 1/2,
    1 if below, 2 if it contains 1/2."""
    row = _win_row(result)
    return 0 if row["ci_low"] > 0.5 else 1 if row["ci_high"] < 0.5 else 2


def _win_row(result: TournamentResult) -> dict[str, float]:
    """The win bot's row of a head-to-head's standings: ``wins``, ``games``, ``estimate``, ``ci_low``, ``ci_high``."""
    columns = ["wins", "games", "estimate", "ci_low", "ci_high"]
    return dict(zip(columns, result.standings.loc[["win"], columns].to_numpy(dtype=float)[0].tolist()))


class HeadToHead(LessonWidget):
    """The win bot against the gem coach: choose a number of games and a seed, play them (a progress bar shows),
    and see the win rates with their confidence intervals (what they allow one to conclude is the learner's
    exercise: :func:`duel_verdict`).

    Parameters
    ----------
    games : int
        Games in all (each bot opens half of them).
    seed : int
    run : bool
        Play the first games at once.

    Attributes
    ----------
    widget : ipywidgets.VBox
    result : TournamentResult or None
    """

    def __init__(self, games: int = DUEL_GAMES, seed: int = DUEL_SEED, run: bool = True):
        style = {"description_width": "initial"}
        self.games = widgets.IntSlider(
            value=games,
            min=20,
            max=400,
            step=20,
            continuous_update=False,
            style=style,
            layout=widgets.Layout(width="420px", max_width="100%"),
        )
        self.seed = widgets.BoundedIntText(
            value=seed, min=0, max=10**6, style=style, layout=widgets.Layout(width="160px")
        )
        self.run_button = widgets.Button(icon="play", button_style="primary", layout=widgets.Layout(width="220px"))
        self.run_button.on_click(lambda _b: self.run())
        self.progress = widgets.Output()
        self.plot = FigureView("720px", layout=widgets.Layout(width="720px", max_width="100%", display="none"))
        self.report = widgets.HTML()
        self.result: TournamentResult | None = None
        self.widget = widgets.VBox(
            [
                widgets.HTML(CSS),
                widgets.HBox([self.games, self.seed], layout=widgets.Layout(flex_flow="row wrap")),
                self.run_button,
                self.progress,
                self.plot,
                self.report,
            ]
        )
        self.widget.add_class("dk-app")
        self._follow_language()
        if run:
            self.run()

    def run(self) -> TournamentResult:
        """Play the games chosen (each pair of seats in turn) and show the result."""
        self.run_button.disabled = True
        self.progress.clear_output()
        try:
            with self.progress:
                self.result = head_to_head(self.games.value, self.seed.value, progress=True)
        finally:
            self.run_button.disabled = False
        self._redraw()
        return self.result

    def _redraw(self, _change=None) -> None:
        self.games.description = tr("Games")
        self.seed.description = tr("Seed")
        self.run_button.description = tr("Play the games")
        result = self.result
        if result is None:
            return
        labels = {spec: tr(BOT_LABELS[spec]) for spec in result.standings.index}
        self.plot.show(win_rates(result, labels), win_rates_text(result, labels))
        self.plot.layout.display = None
        row = _win_row(result)
        wins, games, rate, low, high = (row[c] for c in ("wins", "games", "estimate", "ci_low", "ci_high"))
        self.report.value = (
            '<p class="dk-status">'
            + tr(
                "The win bot won {wins} of {games} games against the gem coach: {rate}, {level} interval {interval}.",
                wins=integer_text(int(wins)) if wins == int(wins) else decimal_text(wins, 1),
                games=integer_text(int(games)),
                rate=percent_text(rate, 1),
                level=percent_text(result.level, 0),
                interval=percent_interval_text(low, high, 1),
            )
            + "</p>"
        )


# -- a game against the win bot ---------------------------------------------------------------------------------


def versus_win_bot(seed: int | None = None) -> GameConfig:
    """A two-player game of Dragon Stripes: a learner (Alex, who opens) against the win bot (Ada).

    For :class:`~dragonkit.ui.PlayApp`'s ``config``; the coach beside the table advises the learner the most
    gems of the turn, the bot plays to win.
    """
    return GameConfig(seats=(SeatConfig("Alex", BotKind.HUMAN), SeatConfig("Ada", BotKind.WIN)), seed=seed)


# -- the exercises' answers --------------------------------------------------------------------------------------


def answers() -> dict:
    """The answers of the lesson's exercises, computed by the solvers.

    Returns
    -------
    dict
        ``pig_hold`` (the smallest h whose "hold at h" Pig turn has the most expected points),
        ``mini_not_danger`` (P(the first player wins a mini game | the first card is not the danger), exact),
        ``danger_next`` (P(the next card is the last danger) in the situation :data:`EXERCISE`, exact),
        ``coaches`` (the index in :data:`AGREEMENTS` of what the two coaches advise there),
        ``duel`` (the index in :data:`VERDICTS` of what the lesson's head-to-head allows one to conclude),
        ``situation`` (the :class:`~dragonkit.game_state.GameState` of :data:`EXERCISE`).
    """
    rules = Ruleset.preset(STRIPES)
    first = after_first_card(Ruleset.preset("mini"))
    not_danger = [(p, win) for card, (p, win) in first.items() if card != DANGER_CARD]
    p_not_danger = sum((p for p, _ in not_danger), Fraction(0))
    deck = typical_deck(rules, EXERCISE.stage, EXERCISE.cards)
    state = situation(rules, deck, EXERCISE.stage, EXERCISE.gems, EXERCISE.position, EXERCISE.pot)
    return {
        "pig_hold": best_hold_at(),
        "mini_not_danger": sum((p * Fraction(win) for p, win in not_danger), Fraction(0)) / p_not_danger,
        "danger_next": next(p for card, p in state.chance_outcomes() if card == DANGER_CARD),
        "coaches": AGREEMENTS.index(agreement(state)),
        "duel": duel_verdict(head_to_head()),
        "situation": state,
    }
