"""The coach's two views: the turn's expected gems and the game's chance of winning, for each option.

Two players of ``dragon-stripes`` and ``mini``: the race model's table (:mod:`dragonkit.analysis.win.race`); of
``kali`` and ``drago-rosso``: the gems model (``tests/analysis/win/test_gems.py``) and the late game's exact values
(``tests/analysis/win/test_late.py``).  More players: a Monte Carlo estimate from the public state, shown with its
intervals (the estimate itself: ``tests/simulate/test_win_chance.py``).  The setup form offers every bot."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from dragonkit import Action, Game, Phase
from dragonkit.analysis import TurnState, solve_turn, takeover_gain
from dragonkit.analysis.turn import options as turn_options
from dragonkit.analysis.win.race import win_table
from dragonkit.analysis.win.solver import WinSolver
from dragonkit.bots import BOTS, BotKind, ThresholdBot, make_bot
from dragonkit.coach import views as coach_views
from dragonkit.coach.reasons import Reason, ReasonKind
from dragonkit.coach.views import Coach
from dragonkit.coach.words import reason_sentence
from dragonkit.game_state import GameState
from dragonkit.i18n.numbers import percent_text
from dragonkit.rules import Ruleset
from dragonkit.ui import GameConfig, PlayApp, SeatConfig
from dragonkit.ui.coach_panel import render_coach
from dragonkit.ui.setup import SEAT_KINDS, SetupForm

from ..situations import _mini_disagreement, _three_players_at_a_choice


def _rows(html: str) -> dict[str, str]:
    """The options table: each option's row (its cells' HTML), by the option's name."""
    table = re.search(r'<table class="dk-values dk-views">(.*?)</table>', html, flags=re.S)
    assert table is not None
    return dict(re.findall(r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>', table.group(1), flags=re.S))


def _cells(row: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)


BEST = '<strong class="dk-mark"><span aria-hidden="true">✓ </span>best choice</strong>'


def test_two_players_show_both_views_of_each_option_with_headers():
    coach = Coach()
    game = Game(["Ann", "Bob"], seed=5)
    while game.phase is not Phase.CHOOSE:
        game.reveal()
    html = render_coach(coach, game, "en")
    assert (
        '<th scope="col">option</th><th scope="col">expected gems, this turn</th>'
        '<th scope="col">chance of winning the game</th>' in html
    )
    solution = solve_turn(TurnState.from_game(game), exact=True)
    chances = win_table(game.rules).action_values(GameState.from_game(game))
    rows = _rows(html)
    assert list(rows) == ["reveal", "hold"]
    for name, gems in (("reveal", solution.push_value), ("hold", solution.hold_value)):
        gems_cell, win_cell = _cells(rows[name])
        assert f'<span class="dk-frac">{Fraction(gems)}</span>' in gems_cell
        assert f"<b>{percent_text(chances[Action(name)], 1, 'en')}</b>" in win_cell  # the model's value: no ≈
        assert (BEST in gems_cell) == (name == solution.best_action)
        assert (BEST in win_cell) == (chances[Action(name)] == max(chances.values()))
    assert "Chance of winning: from a model of the two-player game" in html


def test_an_offer_shows_taking_over_and_declining_in_both_views():
    coach = Coach()
    game = Game(["Ann", "Bob"], seed=5)
    while game.phase is not Phase.CHOOSE:
        game.reveal()
    game.hold()
    taker = game.offer_to
    assert taker is not None
    state = TurnState.from_game(game)
    html = render_coach(coach, game, "en")
    rows = _rows(html)
    assert list(rows) == ["take over", "decline"]
    gain = takeover_gain(state, game.gems[taker], game.bounty, exact=True)
    assert f'<span class="dk-frac">{Fraction(gain)}</span>' in _cells(rows["take over"])[0]
    assert '<span class="dk-frac">0</span>' in _cells(rows["decline"])[0]
    chances = win_table(game.rules).action_values(GameState.from_game(game))
    for name, action in (("take over", Action.TAKE_OVER), ("decline", Action.DECLINE)):
        assert percent_text(chances[action], 1, "en") in _cells(rows[name])[1]
    assert f"Coach for {game.players[taker]}" in html and "Fair bounty" in html


def test_a_disagreement_is_flagged_in_words_with_its_reason():
    coach = Coach()
    game = _mini_disagreement()
    views = coach.views(game)
    exact = WinSolver(exact=True).action_values(GameState.from_game(game))
    assert exact == {Action.REVEAL: Fraction(2, 5), Action.HOLD: Fraction(3, 5)}  # the table is exact here
    assert {o.action: o.win for o in views.options} == pytest.approx({a: float(p) for a, p in exact.items()})
    assert {o.action: o.gems for o in views.options} == {Action.REVEAL: Fraction(71, 30), Action.HOLD: 1}
    assert views.verdict == "disagree" and views.best_gems == {Action.REVEAL} and views.best_win == {Action.HOLD}
    assert views.reason == Reason(
        "last_danger_pass", Action.HOLD, name="Bob", gems=9, pot=1, bounty=1, steps=5, takes_over=False
    )
    html = render_coach(coach, game, "en")
    assert (
        '<div class="dk-verdict dk-disagree" role="note"><p><strong><span aria-hidden="true">⚠ </span>'
        'The two views disagree: <span class="dk-advice">REVEAL</span> for the expected gems, '
        '<span class="dk-advice">HOLD</span> for winning the game.</strong></p>' in html
    )
    sentence = (
        "Why: The last danger card is still in the deck: the expected gems count it as a loss of 9 gems, but for "
        "winning it is the loss of the game, and if you hold, Bob reveals the next card."
    )
    assert sentence in html
    rows = _rows(html)
    assert "40.0%" in rows["reveal"] and BEST not in _cells(rows["reveal"])[1] and BEST in _cells(rows["reveal"])[0]
    assert "60.0%" in rows["hold"] and BEST in _cells(rows["hold"])[1] and BEST not in _cells(rows["hold"])[0]


def test_the_disagreement_in_italian():
    coach = Coach()
    html = render_coach(coach, _mini_disagreement(), "it")
    assert "I due punti di vista non concordano" in html
    assert '<span class="dk-advice">RIVELARE</span> per le gemme attese' in html
    assert '<span class="dk-advice">FERMARSI</span> per vincere la partita' in html
    assert (
        "Perché: L&#x27;ultima carta pericolo è ancora nel mazzo: le gemme attese la contano come una perdita di 9 "
        "gemme, ma per vincere è la perdita della partita, e se ti fermi, la prossima carta la rivela Bob." in html
    )
    assert "<b>40,0%</b>" in html and "<b>60,0%</b>" in html and "migliore</strong>" in html
    assert '<th scope="col">probabilità di vincere la partita</th>' in html


@pytest.mark.parametrize(
    "kind, action, name, takes, english",
    [
        ("last_danger_twice", Action.DECLINE, None, False, "so by taking over you would reveal now and again"),
        ("last_danger_twice", Action.HOLD, None, False, "every card you reveal now is one more chance of drawing"),
        ("head_hold", Action.REVEAL, "Bob", True, "Bob can pay the bounty of 3 gems, take the turn over"),
        ("head_hold", Action.REVEAL, "Bob", False, "the next turn, and that chance, go to Bob"),
        ("head_hold", Action.REVEAL, None, False, "another player reveals the next card and has that chance"),
        ("head_restart", Action.REVEAL, None, False, "you start your next turn from the tail"),
        ("head_decline", Action.TAKE_OVER, "Ann", False, "if you decline, Ann reveals the next card, not you"),
        ("general", Action.DECLINE, None, False, "from here the better choice for winning is to decline"),
    ],
)
def test_each_reason_has_its_sentence_in_both_languages(kind, action, name, takes, english):
    reason = Reason(ReasonKind(kind), action, name=name, gems=9, pot=3, bounty=3, steps=1, takes_over=takes)
    assert english in reason_sentence(reason, "en")
    italian = reason_sentence(reason, "it")
    assert italian != reason_sentence(reason, "en") and italian.count(".") == 1  # one sentence
    if kind.startswith("head"):
        assert "a 1 passo" in italian and "1 step away" in reason_sentence(reason, "en")


@pytest.mark.slow
def test_the_reasons_follow_the_situation():
    """The sentence is chosen from the situation: who reveals next, whether the next turn is the mover's, how far
    the head is; several two-player games of both table editions give several kinds, each with its facts."""
    coach = Coach()
    kinds = {}
    for preset in ("mini", "dragon-stripes"):
        for seed in range(40 if preset == "mini" else 12):
            game = Game(["Ann", "Bob"], Ruleset.preset(preset), seed=seed)
            bots = [ThresholdBot(3 + seed % 9), ThresholdBot(20)]
            while not game.is_over:
                views = coach.views(game)
                if views.verdict == "disagree":
                    reason = views.reason
                    assert reason is not None and reason.action in views.best_win
                    assert reason.gems == game.gems[game.to_move] and reason.pot == game.pot
                    if reason.kind == "last_danger_pass":
                        assert game.remaining.dangers == 1 and reason.name == game.players[1 - game.to_move]
                    kinds.setdefault(reason.kind, reason)
                game.apply(bots[game.to_move].choose(game))
    assert {"last_danger_pass", "head_hold"} <= set(kinds)


def test_the_table_path_is_fast_enough_to_redraw_at_every_move():
    """≤ 50 ms a decision is the budget (measured in benchmarks/bench_win_chance.py); here only the work is checked:
    a decision reads the table, it does not simulate."""
    coach = Coach()
    game = _mini_disagreement()
    views = coach.views(game)
    assert views.source == "table" and views.estimate is None


def test_the_games_of_an_estimate_come_from_the_kernels_environment():
    """``dragonkit serve --coach-games`` gives its kernels ``DRAGONKIT_COACH_GAMES``: a kernel's coach plays that many
    games per option (2,000 where it is not set); anything but a whole number of at least 1 is refused, saying so."""
    assert coach_views.estimate_games({}) == coach_views.DEFAULT_ESTIMATE_GAMES == 2000
    assert coach_views.estimate_games({"DRAGONKIT_COACH_GAMES": " 37 "}) == 37
    for bad in ("0", "-3", "2.5", "many"):
        with pytest.raises(ValueError, match=f"DRAGONKIT_COACH_GAMES must be a whole number .* not {bad!r}"):
            coach_views.estimate_games({"DRAGONKIT_COACH_GAMES": bad})
    script = (
        "from dragonkit.coach import views\n"
        "from tests.situations import _three_players_at_a_choice\n"
        "views.ESTIMATE_SECONDS = None\n"
        "print(views.ESTIMATE_GAMES, views.Coach().estimate_for(_three_players_at_a_choice()).games)"
    )
    root = Path(__file__).parents[2]
    env = {**os.environ, "DRAGONKIT_COACH_GAMES": "37", "PYTHONPATH": str(root)}
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert shown.stdout.split() == ["37", "37"], shown.stderr


@pytest.fixture
def quick_estimates(monkeypatch):
    """Estimates of a fixed number of games, without a time budget: the same numbers on any machine."""
    monkeypatch.setattr(coach_views, "ESTIMATE_GAMES", 300)
    monkeypatch.setattr(coach_views, "ESTIMATE_SECONDS", None)


@pytest.mark.slow
def test_three_players_get_a_labelled_estimate_with_intervals(quick_estimates):
    coach = Coach()
    game = _three_players_at_a_choice()
    views = coach.views(game)
    assert views.source == "estimate" and views.estimate is not None and views.estimate.games == 300
    for option in views.options:
        assert option.ci is not None and option.win is not None
        low, high = option.ci
        assert 0 <= low <= option.win <= high <= 1 and high - low < 0.15  # 300 games: about ±5 points
    html = render_coach(coach, game, "en")
    assert '<th scope="col">chance of winning the game (estimate)</th>' in html
    rows = _rows(html)
    for name in ("reveal", "hold"):
        win_cell = _cells(rows[name])[1]
        assert re.search(r"<b>≈ \d+\.\d%</b>", win_cell) and re.search(r"\[\d+\.\d%, \d+\.\d%\]", win_cell)
    assert (
        "Chance of winning: an estimate, not an exact value, from 300 games per option, each on a fresh shuffle of "
        f"the {game.remaining.total} cards left (the same shuffles for every option), played to the end by "
        "threshold bots holding at a pot of 20 gems in every seat; the brackets are 95% confidence intervals" in html
    )
    assert "Difference on the same shuffles: reveal − hold = " in html
    assert views.verdict in ("agree", "disagree", "unclear")
    if views.verdict == "unclear":
        assert "The estimate cannot tell the options apart" in html


@pytest.mark.slow
def test_the_estimate_in_italian(quick_estimates):
    coach = Coach()
    game = _three_players_at_a_choice()
    html = render_coach(coach, game, "it")
    assert '<th scope="col">probabilità di vincere la partita (stima)</th>' in html
    assert re.search(r"<b>≈ \d+,\d%</b>", html) and re.search(r"\[\d+,\d%; \d+,\d%\]", html)
    assert "Probabilità di vincere: una stima, non un valore esatto, da 300 partite per ogni scelta" in html
    assert "intervalli di confidenza al 95%" in html and "punti percentuali" in html


def test_no_estimate_where_there_is_no_choice_or_none_is_asked(quick_estimates):
    coach = Coach()
    game = Game(["Ann", "Bob", "Cy"], seed=5)
    html = render_coach(coach, game, "en")  # a compulsory reveal
    assert "chance of winning" not in html.split("</table>")[0]  # no column for it
    assert "The chance of winning is estimated by simulation when there is a choice to make." in html
    game = _three_players_at_a_choice()
    html = render_coach(coach, game, "en", estimate=False)  # a bot's move, say
    assert "chance of winning" not in html.split("</table>")[0]
    assert "Best for the expected gems: <span" in html
    assert "(about 2 s) when a human player has a choice to make" in html
    assert coach.estimate_needed(game)
    render_coach(coach, game, "en")  # now estimated, and kept
    assert not coach.estimate_needed(game)
    assert "(estimate)" in render_coach(coach, game, "en", estimate=False)


def test_the_app_shows_the_move_at_once_and_the_estimate_just_after(quick_estimates):
    """In Jupyter and Voilà (an event loop runs) the board is redrawn first; the estimate follows."""

    async def scenario() -> tuple[str, str]:
        seats = tuple(SeatConfig(name, BotKind.HUMAN) for name in ("Ann", "Bob", "Cy"))
        app = PlayApp(autoplay=False, config=GameConfig(seats=seats, seed=5))
        while app.game.phase is not Phase.CHOOSE:
            app.act("reveal")
        first = app.coach.value
        for _ in range(400):
            await asyncio.sleep(0.02)
            if "(estimate)" in app.coach.value:
                break
        return first, app.coach.value

    first, then = asyncio.run(scenario())
    assert "Estimating the chance of winning by simulation…" in first
    assert "chance of winning the game (estimate)" in then and "Estimating" not in then


def test_the_form_offers_every_bot_and_the_win_bot_in_italian():
    assert set(SEAT_KINDS) - {BotKind.HUMAN} == set(BOTS)
    form = SetupForm()
    assert ("win bot (plays to win the game)", BotKind.WIN) in form.kinds[1].options
    from dragonkit import i18n

    i18n.set_language("it")
    try:
        labels = [label for label, _ in form.kinds[1].options]
        assert "bot per la vittoria (gioca per vincere la partita)" in labels
    finally:
        i18n.set_language("en")


def test_seats_and_bots_are_named_by_kind_not_by_label():
    assert [kind.value for kind in BotKind] == ["human", "coach", "win", "threshold", "random"]  # stable keys
    assert list(SEAT_KINDS) == list(BotKind)  # the form offers every kind, in this order
    assert SeatConfig("Ann", "random").kind is BotKind.RANDOM and SeatConfig("Ann").is_human
    assert SeatConfig("Ann", BotKind.COACH).label == "coach bot"  # a msgid, for display only
    with pytest.raises(ValueError, match="unknown kind of seat 'random bot'; choose one of human, coach"):
        SeatConfig("Ann", "random bot")  # a label is no key
    with pytest.raises(ValueError, match="unknown bot 'human'; choose one of coach, win, threshold, random"):
        make_bot(BotKind.HUMAN)
    assert make_bot(BotKind.THRESHOLD, threshold=5).kind is BotKind.THRESHOLD


def test_a_game_against_the_win_bot():
    config = GameConfig(seats=(SeatConfig("Ann", BotKind.HUMAN), SeatConfig("Bob", BotKind.WIN)), seed=4)
    app = PlayApp(autoplay=False, config=config)
    assert app.kinds == (BotKind.HUMAN, BotKind.WIN)
    while not app.game.is_over:
        if app.game.to_move == 0:
            app.act("reveal" if "reveal" in {a.value for a in app.game.legal_actions()} else "decline")
        else:
            app.step()
    assert "win bot" in app.players.value


def test_best_marks_follow_the_chances_as_shown() -> None:
    from dragonkit.coach.views import _best_shown

    reveal, hold = Action.REVEAL, Action.HOLD
    assert _best_shown({reveal: 0.48149, hold: 0.4819}) == {hold}  # 48.1 % and 48.2 %: one best
    assert _best_shown({reveal: 0.4816, hold: 0.4819}) == {reveal, hold}  # both 48.2 %
    assert [percent_text(p, 1, "en") for p in (0.48149, 0.4819)] == ["48.1%", "48.2%"]


def test_a_fair_bounty_below_zero_is_explained() -> None:
    coach = Coach()
    game = Game(["a", "b"], Ruleset.preset("dragon-stripes"), seed=0)
    bots = [ThresholdBot(5), ThresholdBot(5)]
    while len(game.actions) < 65:  # seeded: the 65th move is a hold whose turn is worth less than nothing
        game.apply(Action.DECLINE if game.offer_to is not None else bots[game.to_move].choose(game))
    assert game.offer_to is not None
    en, it = render_coach(coach, game, "en", estimate=False), render_coach(coach, game, "it", estimate=False)
    assert "Fair bounty: <b>≈ −1.8182</b> gems" in en and "−20/11" in en
    assert "even for free, taking this turn over would lose gems on average" in en
    assert "anche gratis, prendere il posto in questo turno farebbe perdere gemme in media" in it


def test_while_a_table_is_being_solved_the_coach_says_so_and_shows_the_expected_gems(tmp_path, monkeypatch):
    """On a new machine (an empty cache) the page does not wait for the gems model's table: the coach starts its
    process once, says in the page's language that the chance of winning is being prepared, and shows the expected
    gems meanwhile; once the table is saved, the chances come back."""
    coach = Coach()
    from dragonkit.analysis.win import model as win_model

    monkeypatch.setenv("DRAGONKIT_CACHE", str(tmp_path))
    monkeypatch.delenv("DRAGONKIT_WAIT_FOR_TABLES")
    monkeypatch.setattr(win_model, "_held", set())
    started = []
    monkeypatch.setattr(win_model, "prepare_in_background", lambda rulesets, **_: started.append(rulesets))
    game = Game(["Ann", "Bob"], Ruleset.preset("kali"), seed=3)
    game.reveal()
    assert game.phase is Phase.CHOOSE  # a footprint: reveal or hold
    views = coach.views(game)
    assert views.source == "preparing" and all(o.win is None for o in views.options)
    assert [[r.name for r in rulesets] for rulesets in started] == [["kali"]]
    html = render_coach(coach, game, "it")
    assert "Probabilità di vittoria in preparazione" in html and "gemme attese" in html
    assert "probabilità di vincere la partita" not in html.lower()  # no column of chances yet
    assert "Preparing the chance of winning" in render_coach(coach, game, "en")


def test_the_views_of_a_kept_state_are_the_views_of_its_game():
    """The class's record asks about the situation before a move once the game has moved on: the public state and the
    names say everything the views need."""
    game = _mini_disagreement()
    before = game.state
    expected = Coach().views(game, estimate=False)
    game.hold()  # the game moves on; the state kept does not
    coach = Coach()
    assert coach.views_of(before, game.players) == expected  # the reason names Bob, as in the game
    with pytest.raises(ValueError, match="1 names for 2 players"):
        coach.views_of(before, ["Ann"])
    while not game.is_over:
        game.apply(Action.REVEAL if Action.REVEAL in game.legal_actions() else Action.DECLINE)
    with pytest.raises(ValueError, match="the game is over"):
        coach.views_of(game.state, game.players)


def test_the_views_of_a_kept_state_use_an_estimate_made_but_never_make_one(quick_estimates):
    game = _three_players_at_a_choice()
    coach = Coach()
    unmade = coach.views_of(game.state, game.players)
    assert unmade.estimate is None and unmade.verdict == "none" and coach.estimate_needed(game)
    made = coach.views(game)
    assert made.estimate is not None and coach.views_of(game.state, game.players) == made


def test_the_coach_keeps_the_turn_before_the_page(monkeypatch):
    """The decision that ended a turn is looked up, not solved again, once the page shows the next turn; a third
    turn lets the first go."""
    solved = []

    class Counted(turn_options.SolvedTurn):
        def __init__(self, state, exact=False):
            solved.append(state)
            super().__init__(state, exact)

    monkeypatch.setattr(turn_options, "SolvedTurn", Counted)
    coach = Coach()
    game = Game(["Ann", "Bob"], Ruleset.preset("dragon-stripes"), seed=3)
    moments = []
    while len(moments) < 3:
        if game.phase is Phase.CHOOSE:
            moments.append(game.state)
            coach.views(game)  # the page shows the decision
            game.hold()
        else:
            game.apply(Action.REVEAL if Action.REVEAL in game.legal_actions() else Action.DECLINE)
    expected = Coach().views_of(moments[1], game.players)  # a coach of its own solves it
    turns = len(solved)
    assert coach.views_of(moments[1], game.players) == expected and len(solved) == turns  # the turn before: kept
    coach.views_of(moments[0], game.players)
    assert len(solved) == turns + 1  # two turns before: solved again
