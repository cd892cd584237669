"""The play app, its coach, its plots and its error messages in English and Italian."""

from __future__ import annotations

import ast
import html
import json
import os
import pickle
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import matplotlib
import pytest

from dragonkit import Game, Phase, Ruleset, i18n
from dragonkit.analysis import HoldAtPot, TurnState, compare_policies, evaluate_policy, policy_map, turn_chain
from dragonkit.bots import BotKind, make_bot
from dragonkit.coach import views
from dragonkit.coach.views import Coach
from dragonkit.engine import IllegalActionError
from dragonkit.plots.chain import chain_graph
from dragonkit.plots.game import gems_over_game
from dragonkit.plots.policy import outcome_bars, policy_heatmap, threshold_curve
from dragonkit.rules import Message
from dragonkit.teach import ChoiceExercise, FractionExercise, language_picker
from dragonkit.ui import GameConfig, HandTrainer, PlayApp, SeatConfig, SetupForm
from dragonkit.ui.board import render_board
from dragonkit.ui.coach_panel import render_coach
from dragonkit.ui.panels import render_log, render_players, render_status

from .. import catalogs
from ..test_rules import INVALID

matplotlib.use("Agg")

PACKAGE = Path(i18n.__file__).parents[1]
PRESETS = ("dragon-stripes", "kali", "drago-rosso", "mini")

#: Words of the English views; none may be left in the Italian ones ("stop" and "bot" are Italian too).
ENGLISH_WORDS = {
    "reveal",
    "reveals",
    "hold",
    "holds",
    "held",
    "gem",
    "gems",
    "coach",
    "turn",
    "owner",
    "must",
    "may",
    "take",
    "takes",
    "over",
    "decline",
    "declines",
    "bounty",
    "fair",
    "best",
    "push",
    "value",
    "values",
    "next",
    "card",
    "cards",
    "left",
    "chance",
    "exact",
    "compulsory",
    "allowed",
    "yet",
    "knight",
    "treasure",
    "deck",
    "last",
    "none",
    "step",
    "steps",
    "danger",
    "dangers",
    "head",
    "stage",
    "of",
    "the",
    "and",
    "for",
    "with",
    "winner",
    "player",
    "events",
    "human",
    "threshold",
    "random",
    "optimum",
    "pot",
    "penalty",
    "stripe",
    "your",
    "game",
    "wins",
    "win",
    "pays",
    "moves",
    "grows",
    "collects",
    "nobody",
    "begins",
    "reaches",
    "expected",
    "changes",
    "play",
    "optimal",
    "takeover",
    "rules",
    "final",
    "offered",
    "not",
    "is",
}


def _click(app: PlayApp, name: str) -> None:
    app._last_click = (None, 0.0)  # clicks in a test are not double clicks
    app.buttons[name].click()


def _text(html: str) -> str:
    """What a reader sees of some HTML or SVG: the text between the tags."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'").strip()


def _words(html: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ]+", _text(html))}


def _numbers(html: str, lang: str = "en") -> Counter:
    """Every number a reader sees (integers, decimals, fractions), counted; a decimal read with the
    language's decimal symbol (Italian ``0,375``) and counted as written in English (``0.375``)."""
    point = {"en": ".", "it": ","}[lang]
    found = re.findall(r"-?\d+(?:/\d+|" + re.escape(point) + r"\d+)?", _text(html))
    return Counter(n.replace(point, ".") for n in found)


def _widget_texts(root: widgets.Widget) -> list:
    """Every word-bearing trait of every widget under ``root``, in a fixed order."""
    out, stack = [], [root]
    while stack:
        w = stack.pop(0)
        for trait in ("value", "description", "tooltip", "placeholder", "_options_labels"):
            if w.has_trait(trait):
                out.append((type(w).__name__, trait, getattr(w, trait)))
        stack.extend(getattr(w, "children", ()))
    return out


def _at_offer() -> PlayApp:
    """Two humans reveal until one of them may hold, then hold: the other is offered the turn."""
    config = GameConfig(seats=(SeatConfig("Ann", BotKind.HUMAN), SeatConfig("Bo", BotKind.HUMAN)), seed=5)
    app = PlayApp(autoplay=False, config=config)
    while app.game.phase is not Phase.CHOOSE:
        _click(app, "reveal")
    _click(app, "hold")
    assert app.game.phase is Phase.OFFER
    return app


# -- switching ---------------------------------------------------------------------------------


def test_switching_redraws_every_view_in_italian_and_back():
    app = _at_offer()
    game = app.game
    offered, owner = game.players[game.offer_to], game.players[game.turn_owner]
    _click(app, "hold")  # illegal during an offer: a message under the board
    english = _widget_texts(app.widget)
    assert (
        f"Not allowed: cannot hold now: {offered} may only take over or decline the offered turn." in app.message.value
    )

    app.language.value = "it"  # the app's own language buttons
    assert i18n.get_language() == "it"
    assert (
        f"Non permesso: ora «fermarsi» non è possibile: {offered} può solo prendere il posto o rinunciare al "
        "turno offerto." in app.message.value
    )
    assert (
        f"Turno {game.turn_number} (di {owner}) · <b>{offered}</b> può prendere il posto per {game.bounty} "
        "gemme, o rinunciare." in app.status.value
    )
    board = _text(app.board.value)
    for text in (
        "Fase",
        "0 di 3 pericoli",
        "penalità di stop 1/4 delle tue gemme · gemme delle strisce x1",
        "tesoro del drago",
        f"{game.treasure} gemme",
        f"piatto {game.pot}",
        "TESTA",
        f"Mazzo: restano {game.remaining.total} carte su 51",
        "ultima carta",
        "1 passo",
        "pericolo",
    ):
        assert text in board, text
    players = app.players.value
    assert "<th>giocatore</th><th>gemme</th>" in players
    assert all(f">{badge}</span>" in players for badge in ("turno", "cavaliere", "offerta"))
    assert ">(umano)</small>" in players
    assert "<b>Eventi</b>" in app.event_log.value
    for event in game.events:  # the log is the engine's own sentences, in Italian
        assert event.describe("it").replace("'", "&#x27;") in app.event_log.value
    coach = app.coach.value
    assert f"Consigli per {offered}" in coach and f"una taglia di <b>{game.bounty}</b> gemme?" in coach
    assert "Taglia equa:" in coach and "I due punti di vista" in coach and "Prossima carta" in coach
    assert '<th scope="col">scelta</th><th scope="col">gemme attese in questo turno</th>' in coach
    assert "probabilità di vincere la partita" in coach and "<b>Prossima carta</b>" in coach
    assert '<th scope="col">carta</th><th scope="col">probabilità</th>' in coach
    assert "Gemme attese: la variazione delle gemme" in coach and "Probabilità di vincere: da un modello" in coach
    assert app.buttons["take_over"].description == f"Prendi il posto per {game.bounty} gemme"
    assert [app.buttons[n].description for n in ("reveal", "hold", "decline", "next", "new_game")] == [
        "Rivela",
        "Fermati",
        "Rinuncia",
        "Prossima mossa del bot",
        "Nuova partita",
    ]
    assert (app.autoplay.description, app.show_coach.description) == ("i bot giocano da soli", "Allenatore")
    form = app.setup_form
    assert (
        form.n_players.description,
        form.preset.description,
        form.seed.description,
        form.seed.placeholder,
        form.start.description,
    ) == ("giocatori", "edizione", "seme", "casuale", "Inizia la partita")
    assert form.names[1].value == "Allenatore"  # a default name follows the language
    assert (form.kinds[1].label, form.kinds[1].value) == ("bot allenatore (più gemme per turno)", BotKind.COACH)
    assert form.thresholds[2].description == "si ferma a (gemme)" and "Scegli i giocatori" in form.intro.value
    # the editions by their names, as the lessons show them, never by their ids; the choice stays
    assert [label for label, _ in form.preset.options] == [
        "Dragon Stripes",
        "Die Augen der Kali",
        "Drago Rosso",
        "mini (mazzo per la classe)",
    ]
    assert form.preset.value == "dragon-stripes" and form.preset.label == "Dragon Stripes"
    assert not _words(app.status.value + app.board.value + app.players.value + app.coach.value) & ENGLISH_WORDS

    i18n.set_language("en")  # the kernel's setting, as any other language picker would
    assert app.language.value == "en"
    assert _widget_texts(app.widget) == english  # every view back to the very same English


def _language_observers() -> int:
    """The handlers observing :data:`dragonkit.i18n.settings` (each app, setup form, exercise, lesson widget and
    language switch adds its own)."""
    return sum(len(handlers) for by_type in i18n.settings._trait_notifiers.values() for handlers in by_type.values())


def _all_widgets(root: widgets.Widget) -> list[widgets.Widget]:
    found, stack = [], [root]
    while stack:
        found.append(stack.pop())
        stack.extend(getattr(found[-1], "children", ()))
    return found


def _two_humans() -> PlayApp:
    config = GameConfig(seats=(SeatConfig("Ann", BotKind.HUMAN), SeatConfig("Bo", BotKind.HUMAN)), seed=5)
    return PlayApp(autoplay=False, config=config, language_switch=False)


def _chain_lab():
    from dragonkit.lessons.chain import ChainLab

    return ChainLab(threshold=4)


MADE = {
    "play app": PlayApp,
    "play app in a game, no switch": _two_humans,
    "hand trainer": lambda: HandTrainer(seed=1),
    "hand trainer, no switch": lambda: HandTrainer(seed=1, language_switch=False),
    "setup form": SetupForm,
    "language switch": language_picker,
    "fraction exercise": lambda: FractionExercise("P(stop)?", Fraction(1, 4), hint="stops / cards"),
    "choice exercise": lambda: ChoiceExercise("Which?", ["this one", "that one"], 1),
    "lesson widget": _chain_lab,
}


@pytest.mark.parametrize("make", MADE.values(), ids=MADE)
def test_a_closed_app_or_widget_stops_following_the_language(make):
    """Each of them observes the language setting while it lives; closed, it observes nothing and its widgets are
    closed (a Voilà kernel or a notebook that makes one per run would otherwise keep them all, and redraw them all at
    every switch of language)."""
    before = _language_observers()
    made = make()
    assert _language_observers() > before
    root = made if isinstance(made, widgets.Widget) else made.widget
    every = _all_widgets(root)
    made.close()
    assert _language_observers() == before
    assert [w for w in every if w.comm is not None] == []
    made.close()  # closing twice is harmless
    i18n.set_language("it")  # and a switch of language no longer reaches it
    assert _language_observers() == before


def test_every_observer_of_the_language_is_removed_where_it_is_added():
    """In the package's code, each ``settings.observe(handler, ...)`` has its ``settings.unobserve(handler, ...)``
    in the same module (in a ``close``), and the language switch's link is unlinked."""
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for handler in re.findall(r"settings\.observe\(([\w.]+)", source):
            assert f"settings.unobserve({handler}," in source, f"{path.name}: {handler} is never unobserved"
        if re.search(r"traitlets\.link\([^\n]*settings", source):
            assert ".unlink()" in source, f"{path.name}: a link to the language setting is never unlinked"


def test_the_setup_form_keeps_choices_and_typed_names_across_languages():
    app = PlayApp()
    form = app.setup_form
    form.n_players.value = 4
    form.kinds[3].value = "human"
    form.names[0].value = "Zoe"
    i18n.set_language("it")
    assert form.kinds[3].value == "human" and form.kinds[3].label == "umano"
    assert [n.value for n in form.names[:2]] == ["Zoe", "Allenatore"]  # a typed name stays
    assert form.rows[3].layout.display is None and form.rows[4].layout.display == "none"
    form.seed.value = "9"
    form.start.click()
    assert app.game.players == ("Zoe", "Allenatore", "Tess", "Randi") and app.game.seed == 9
    assert app.kinds == (BotKind.HUMAN, BotKind.COACH, BotKind.THRESHOLD, BotKind.HUMAN)
    assert ">(bot allenatore)</small>" in app.players.value


def test_game_over_status_coach_and_plot_follow_the_language():
    config = GameConfig(
        seats=(SeatConfig("Ann", BotKind.THRESHOLD), SeatConfig("Bo", BotKind.RANDOM)), preset="mini", seed=4
    )
    app = PlayApp(autoplay=False, config=config)
    while not app.game.is_over:
        _click(app, "next")
    game = app.game
    english_plot = app.result_plot.value
    over = game.events[-1]
    assert over.kind == "game_over" and _text(app.status.value) == over.describe("en")
    i18n.set_language("it")
    assert _text(app.status.value) == over.describe("it") and "Partita finita" in app.status.value
    assert "<b>" + game.players[game.winners[0]] + "</b>" in app.status.value
    italian_plot = app.result_plot.value
    assert italian_plot != english_plot and 'aria-label="Gemme durante la partita, dopo ' in italian_plot
    for words in ("turni giocati", "gemme", "Gemme durante la partita", "I numeri della figura"):
        assert f">{words}</" in italian_plot
    assert gems_over_game(game) in italian_plot
    i18n.set_language("en")
    assert app.result_plot.value == english_plot  # the same figure as before, in English


# -- whole games -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.slow
def test_whole_games_read_in_italian_with_the_same_numbers(preset):
    kinds = (BotKind.COACH, BotKind.THRESHOLD, BotKind.RANDOM)
    for seed in range(3):
        game = Game(["Ann", "Bo", "Cy"], Ruleset.preset(preset), seed=seed)
        bots = [make_bot("coach"), make_bot("threshold", threshold=8 + 4 * seed), make_bot("random", seed=seed)]
        coach = Coach()
        while True:
            panels = {
                lang: (
                    render_status(game, kinds, lang),
                    render_coach(coach, game, lang),
                    render_log(game, lang=lang),
                    render_players(game, kinds, lang),
                    render_board(game, lang),
                )
                for lang in ("en", "it")
            }
            for en, it in zip(panels["en"], panels["it"]):
                leftovers = _words(it) & ENGLISH_WORDS
                assert not leftovers, (leftovers, _text(it))
                assert _numbers(en) == _numbers(it, "it"), (_text(en), _text(it))
                assert en != it
            if game.is_over:
                break
            game.apply(bots[game.to_move].choose(game))


def test_the_coach_gives_the_same_advice_in_both_languages():
    app = _at_offer()
    english = re.findall(r'<span class="dk-advice">([^<]+)</span>', app.coach.value)
    i18n.set_language("it")
    italian = re.findall(r'<span class="dk-advice">([^<]+)</span>', app.coach.value)
    assert [{"TAKE OVER": "PRENDERE IL POSTO", "DECLINE": "RINUNCIARE"}[word] for word in english] == italian
    i18n.set_language("en")
    app.act("decline")
    assert re.findall(r'class="dk-advice">([^<]+)<', render_coach(Coach(), app.game, "it")) == [
        "RIVELARE (obbligatorio)"
    ]


# -- error messages ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edit, english, italian",
    [
        (
            lambda f: setattr(f.seed, "value", "abc"),
            "The seed must be a whole number from 0, of at most 18 digits (or empty for a random one), not 'abc'.",
            "Il seme deve essere un numero intero da 0 in su, di al massimo 18 cifre (o vuoto per uno casuale), "
            "non 'abc'.",
        ),
        (
            lambda f: setattr(f.names[1], "value", "alex"),
            "Each player needs a different name.",
            "Ogni giocatore deve avere un nome diverso.",
        ),
        (lambda f: setattr(f.names[2], "value", " "), "Seat 3 needs a name.", "Il posto 3 non ha un nome."),
        (
            lambda f: setattr(f.names[0], "value", "x" * 41),
            f"Player names must have 1 to 40 characters, not '{'x' * 12}...{'x' * 13}'.",
            f"I nomi dei giocatori devono avere da 1 a 40 caratteri, non '{'x' * 12}...{'x' * 13}'.",
        ),
        (
            lambda f: setattr(f.kinds[1], "index", None),
            "Choose who plays seat 2: a human or a bot.",
            "Scegli chi gioca al posto 2: una persona o un bot.",
        ),
        (lambda f: setattr(f.n_players, "index", None), "Choose 2 to 6 players.", "Scegli da 2 a 6 giocatori."),
        (
            lambda f: setattr(f.preset, "index", None),
            "Choose an edition among dragon-stripes, kali, drago-rosso, mini.",
            "Scegli un'edizione tra dragon-stripes, kali, drago-rosso, mini.",
        ),
    ],
)
def test_setup_form_errors_are_shown_in_the_current_language(edit, english, italian):
    app = PlayApp()
    edit(app.setup_form)
    app.setup_form.start.click()
    assert app.game is None and english in app.setup_form.message.value
    i18n.set_language("it")  # the message shown is redrawn in the new language
    assert italian.replace("'", "&#x27;") in app.setup_form.message.value.replace("'", "&#x27;")
    app.setup_form.start.click()  # and a new one comes in Italian
    assert app.game is None and italian in app.setup_form.message.value


def test_refused_clicks_are_explained_in_italian():
    i18n.set_language("it")
    config = GameConfig(seats=(SeatConfig("Ann", BotKind.HUMAN), SeatConfig("Bo", BotKind.RANDOM)), seed=3)
    app = PlayApp(autoplay=False, config=config)
    _click(app, "hold")
    assert "Non permesso: ora «fermarsi» non è possibile: Ann deve prima rivelare una carta." in app.message.value
    app.setup_form.start.click()
    assert "Non permesso: c&#x27;è una partita in corso; premi prima «Nuova partita»." in app.message.value.replace(
        "'", "&#x27;"
    )
    _click(app, "next")
    assert "Non permesso: è il turno di Ann, non di un bot." in app.message.value
    while app.bots[app.game.to_move] is None:
        _click(app, app.game.legal_actions()[0].value)
    _click(app, "reveal")
    assert "è il turno di Bo (un bot), non di una persona" in app.message.value
    app.show_setup()
    _click(app, "reveal")
    assert "Non permesso: nessuna partita in corso; prima iniziane una." in app.setup_form.message.value


def test_a_crash_is_reported_in_italian_without_its_details():
    i18n.set_language("it")
    app = PlayApp(
        autoplay=False,
        config=GameConfig(seats=(SeatConfig("Ann", BotKind.THRESHOLD), SeatConfig("Bo", BotKind.HUMAN)), seed=2),
    )

    class Broken:
        def choose(self, game):
            raise RuntimeError("boom")

    app.bots[0] = Broken()
    _click(app, "next")
    assert "Qualcosa è andato storto (RuntimeError). La partita non è cambiata" in app.message.value
    assert "boom" not in app.message.value


def _engine_errors():
    """Illegal moves of every kind, and invalid games."""
    game = Game(["Ann", "Bo"], Ruleset.preset("mini"), seed=1)
    yield (
        lambda: game.apply("hold"),
        "cannot hold now: Ann must reveal a card first",
        "ora «fermarsi» non è possibile: Ann deve prima rivelare una carta",
    )
    yield lambda: game.apply("reveal", by=1), "it is Ann's move, not Bo's", "è il turno di Ann, non di Bo"
    yield (
        lambda: game.apply("push"),
        "unknown action 'push'; actions are reveal, hold, take_over, decline",
        "azione sconosciuta 'push'; le azioni sono reveal, hold, take_over, decline",
    )
    yield lambda: Game(["Ann"]), "a game needs 2 to 6 players, not 1", "una partita richiede da 2 a 6 giocatori, non 1"
    yield (
        lambda: Game(["Ann", "ann "]),
        "player names must be distinct: ['Ann', 'ann ']",
        "i nomi dei giocatori devono essere diversi: ['Ann', 'ann ']",
    )
    yield (
        lambda: Game(["A", "B"], seed=-1),
        "seed must be a whole number from 0 to 2**63 - 1, not -1",
        "il seme deve essere un numero intero da 0 a 2**63 - 1, non -1",
    )
    over = Game(["Ann", "Bo"], Ruleset.preset("mini"), seed=1)
    while not over.is_over:
        over.apply(over.legal_actions()[0])
    yield (
        lambda: over.apply("take_over"),
        "the game is over; no take_over is possible",
        "la partita è finita; «prendere il posto» non è più possibile",
    )


@pytest.mark.parametrize("case", range(7))
def test_engine_errors_keep_their_english_text_and_read_in_italian(case):
    action, english, italian = list(_engine_errors())[case]
    with pytest.raises(ValueError, match=re.escape(english)) as info:
        action()
    assert str(info.value) == english
    message = Message.of(info.value)
    assert message.describe("en") == english and message.describe("it") == italian
    copy = pickle.loads(pickle.dumps(info.value))  # errors cross process boundaries (parallel tournaments)
    assert str(copy) == english and Message.of(copy).describe("it") == italian
    assert isinstance(info.value, IllegalActionError) == (case in (0, 1, 2, 6))


@pytest.mark.parametrize("field_name, value", INVALID, ids=lambda v: repr(v))
def test_every_invalid_ruleset_field_is_explained_in_italian(field_name, value):
    with pytest.raises(ValueError, match=field_name) as info:
        Ruleset(**{field_name: value})
    message = Message.of(info.value)
    italian = message.describe("it")
    assert isinstance(message, Message) and str(message) == str(info.value)
    assert field_name in italian and italian != str(info.value)
    assert not {"must", "not", "number", "whole"} & set(re.findall(r"[a-z]+", italian))


def test_an_unknown_preset_and_a_plain_error():
    with pytest.raises(ValueError) as info:
        Ruleset.preset("dragon")
    assert (
        Message.of(info.value).describe("it")
        == "edizione sconosciuta 'dragon'; scegli tra dragon-stripes, kali, drago-rosso, mini"
    )
    assert Message.of(KeyError("x")) == "'x'"  # an error raised without a Message is shown as it is


#: The modules whose messages this file checks (the lessons check their own).
MODULES = ("rules.py", "engine.py", "ui/app.py", "ui/setup.py")


def _message_msgids() -> set[str]:
    """Literal msgids of Message(...) in :data:`MODULES`, the engine's refusal reasons and the seat labels."""
    found = set()
    for path in (PACKAGE / name for name in MODULES):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "Message"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    from dragonkit.engine import VERBS
    from dragonkit.ui.setup import _DEFAULT_SEATS, _SHORT_KINDS, SEAT_KINDS

    found |= set(VERBS.values()) | set(SEAT_KINDS.values()) | set(_SHORT_KINDS.values()) | {"take_over"}
    found |= {
        "{name} must reveal a card first",
        "{name} may only reveal or hold",
        "{name} may only take over or decline the offered turn",
    }
    found.add(_DEFAULT_SEATS[1][0])  # "Coach": a word, not a name
    return found


def test_every_message_has_an_italian_text_with_the_same_fields():
    italian = catalogs.italian()
    msgids = _message_msgids()
    assert len(msgids) > 40
    assert sorted(m for m in msgids if m not in italian) == []
    for msgid in msgids:
        assert sorted(re.findall(r"(?<!{){\w+}", msgid)) == sorted(re.findall(r"(?<!{){\w+}", italian[msgid])), msgid


# -- plots -------------------------------------------------------------------------------------


def test_analysis_plots_are_labelled_in_italian():
    rules = Ruleset.preset("mini")
    state = TurnState(
        rules, dict(rules.footprints), rules.stop_cards, rules.danger_cards, 0, rules.starting_gems, rules.treasure
    )
    i18n.set_language("it")
    heat = policy_heatmap(policy_map(state))
    assert (heat.axes[0].get_xlabel(), heat.axes[0].get_ylabel(), heat.axes[0].get_title()) == (
        "posizione del cavaliere",
        "piatto (gemme)",
        "Politica ottima: rivelare o fermarsi",
    )
    assert heat.axes[1].get_ylabel() == "rivelare − fermarsi (gemme): blu rivela, rosso si ferma"
    bars = outcome_bars(evaluate_policy(state, HoldAtPot(3), exact=True)).axes[0]
    assert (bars.get_xlabel(), bars.get_ylabel()) == ("variazione di gemme a fine turno", "probabilità")
    assert bars.get_legend().get_texts()[0].get_text().startswith("valore atteso ")
    curve = threshold_curve(compare_policies(state)).axes[0]
    assert curve.get_title() == "Politiche «fermati a h»" and curve.get_xlabel() == "soglia h (gemme)"
    assert [t.get_text() for t in curve.get_legend().get_texts()][::2] == [
        "fermati quando piatto ≥ h",
        "politica ottima",
    ]
    graph = chain_graph(turn_chain(state, HoldAtPot(3), exact=True)).axes[0]
    nodes = {t.get_text() for t in graph.texts}
    assert {"stop", "pericolo\nfinale", "si ferma\n3", "@0\npiatto 0"} <= nodes
    assert graph.get_title() == "Il turno come catena di Markov assorbente"
    assert not {w for n in nodes for w in re.findall(r"[a-z]+", n)} & ENGLISH_WORDS


# -- the language a page starts in -------------------------------------------------------------

START = r"""
import json
from dragonkit.ui import PlayApp
app = PlayApp()
print(json.dumps([app.language.value, app.setup_form.start.description, app.setup_form.names[1].value,
                  app.buttons["reveal"].description]))
"""


@pytest.mark.parametrize(
    "query, expected",
    [
        ("lang=it", ["it", "Inizia la partita", "Allenatore", "Rivela"]),
        ("lang=en", ["en", "Start the game", "Coach", "Reveal"]),
        ("", ["en", "Start the game", "Coach", "Reveal"]),
    ],
)
def test_a_page_opened_with_lang_it_starts_in_italian(query, expected):
    env = {k: v for k, v in os.environ.items() if k != "DRAGONKIT_LANG"}
    env["QUERY_STRING"] = query  # what Voilà gives the kernel of a page opened with ?lang=it
    out = subprocess.run([sys.executable, "-c", START], env=env, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == expected


# -- the pseudo-locale ---------------------------------------------------------------------------------------------

#: Words the play app shows that are not messages: the players' names (the form's defaults but "Coach"), the
#: editions' names (the board's title and the form's menu of presets) and the languages' names in the language
#: switch (each in its own language).
NOT_MESSAGES = {"Alex", "Tess", "Randi", "Ada", "Blaise", "English", "Italiano", "Pseudo"} | {
    "Dragon",
    "Stripes",
    "dragon",
    "stripes",
    "mini",
    "kali",
    "drago",
    "rosso",
}


def _widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _widgets(child)


def _shown_text(widget) -> str:
    """What a widget shows as text: its HTML without the tags, its description, placeholder, tooltip and options."""
    names = ("description", "placeholder", "tooltip")
    if isinstance(widget, (widgets.HTML, widgets.Label, widgets.Text)):  # a selection's value is not shown
        names = ("value", *names)
    parts = [getattr(widget, name, None) for name in names]
    parts += list(getattr(widget, "_options_labels", ()))
    texts = [p for p in parts if isinstance(p, str)]
    return html.unescape(re.sub(r"<style.*?</style>|<[^>]+>", " ", " ".join(texts), flags=re.S))


def _unmarked(text: str) -> list[str]:
    """The words of ``text`` outside the pseudo-locale's markers."""
    while True:
        inner = re.sub(rf"{catalogs.OPEN}[^{catalogs.OPEN}{catalogs.CLOSE}]*{catalogs.CLOSE}", " ", text)
        if inner == text:
            return re.findall(r"[^\W\d_]{2,}", text)
        text = inner


def _pseudo_game(tmp: Path) -> list[str]:
    """The words a whole game of the play app shows outside the pseudo-locale's markers, names aside."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        catalogs.install_pseudo_locale(tmp, monkeypatch)
        monkeypatch.setattr(views, "ESTIMATE_GAMES", 20)  # the coach's estimates in words, not their precision,
        monkeypatch.setattr(views, "ESTIMATE_SECONDS", None)  # all 20 however loaded the machine: the same words
        i18n.set_language(catalogs.PSEUDO)
        app = PlayApp(autoplay=False)
        seen = [_shown_text(w) for w in _widgets(app.widget)]
        app.setup_form.n_players.value = 3  # Alex, Coach (the coach bot) and Tess (a threshold bot)
        app.setup_form.seed.value = str(SEED)  # the same game at each run: the same texts to check
        app.setup_form.start.click()
        for step in range(2000):
            if app.game.is_over:
                break
            app._last_click = (None, 0.0)
            shown = ("reveal", "hold", "take_over", "decline", "next")
            visible = [n for n in shown if app.buttons[n].layout.display != "none"]
            app.buttons[visible[step % len(visible)]].click()
            seen += [_shown_text(w) for w in _widgets(app.widget)]
        assert app.game.is_over  # the whole game: offers, dangers, the end and its plot
    return sorted({word for text in seen for word in _unmarked(text)} - NOT_MESSAGES)


#: The deck of the game whose texts are checked (a random deck showed other texts at each run).
SEED = 2024

PSEUDO_GAME = r"""
import json, sys
from pathlib import Path
from tests.ui.test_app_i18n import _pseudo_game
from dragonkit.bots import BotKind
print(json.dumps(_pseudo_game(Path(sys.argv[1]))))
"""


@pytest.mark.slow
def test_no_text_of_the_play_app_escapes_the_catalogs(tmp_path):
    """In a kernel of its own: the language switches of the other tests' apps know no pseudo-locale."""
    root = Path(__file__).parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run(
        [sys.executable, "-c", PSEUDO_GAME, str(tmp_path)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
