"""The hand trainer: real situations, exact verdicts checked by a second method, the score,
the engine's next card, refusals, determinism and the Italian texts (no browser)."""

from __future__ import annotations

import ast
import dataclasses
import string
from fractions import Fraction
from html import escape as html_escape
from pathlib import Path

import pytest

from dragonkit import IllegalActionError, i18n
from dragonkit.rules import DANGER_CARD, Outcome
from dragonkit.topics.hands import Hand, deal_hand
from dragonkit.ui import HandTrainer
from dragonkit.ui import trainer as trainer_module

from .. import catalogs
from ..topics.test_hands import brute_force_push


def _click(trainer: HandTrainer, name: str) -> None:
    trainer._last_click = (None, 0.0)  # clicks in a test are not double clicks
    trainer.buttons[name].click()


# -- dealing (the domain's own tests: tests/topics/test_hands.py) --------------------------------------


@pytest.mark.parametrize(
    "level, preset, message",
    [
        ("hard", None, "unknown level 'hard'"),
        ("easy", "mini", "level 'easy' deals the editions"),
        ("mini", "kali", "level 'mini' deals the editions mini"),
    ],
)
def test_bad_levels_and_editions_are_refused(level, preset, message):
    with pytest.raises(ValueError, match=message):
        deal_hand(level, preset, 1)
    with pytest.raises(ValueError, match=message):
        HandTrainer(level=level, seed=1, preset=preset)


@pytest.mark.parametrize("seed", [-1, 1.5, True, "3"])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(ValueError, match="seed must be a whole number"):
        HandTrainer(level="mini", seed=seed)


def test_a_decision_shows_the_card_its_effect_and_the_values():
    trainer = HandTrainer(level="mini", seed=4)
    game = trainer.hand.game
    top, pot = game._deck[-1], game.pot
    assert "chance" not in trainer.situation.value  # probabilities come after the decision
    _click(trainer, "hold")
    verdict = trainer.verdict
    result = trainer.result.value
    assert top.describe("en") in result and f"By holding you keep the pot: {i18n.gems(pot)}" in result
    assert str(verdict.solution.push_value) in result  # the exact fraction
    assert "chance" in trainer.situation.value and "/" in trainer.situation.value
    assert trainer.buttons["reveal"].disabled and trainer.buttons["hold"].disabled


def test_show_probabilities_before_deciding():
    trainer = HandTrainer(level="mini", seed=2)
    trainer.show_chances.value = True
    left = trainer.hand.state.composition
    for _card, p in left.outcomes():
        assert str(p) in trainer.situation.value or p == 1
    assert trainer.verdict is None


# -- the score ---------------------------------------------------------------------------------


def test_the_score_adds_up_exactly_and_resets():
    trainer = HandTrainer(level="mini", seed=11)
    expected = []
    for _i, action in enumerate(["reveal", "hold", "reveal", "hold", "hold", "reveal"]):
        push, pot = brute_force_push(trainer.hand.state), Fraction(trainer.hand.game.pot)
        expected.append(max(push, pot) - (push if action == "reveal" else pot))
        _click(trainer, action)
        assert trainer.verdict.given_up == expected[-1]
        _click(trainer, "next")
    score = trainer.score
    optimal = sum(1 for g in expected if g == 0)
    assert 0 < optimal < 6  # the test exercises both kinds of decision
    assert (score.decisions, score.optimal, score.total) == (6, optimal, sum(expected))
    assert score.optimal_share == Fraction(optimal, 6) and score.average == sum(expected) / 6
    view = trainer.score_view.value
    assert f"{float(Fraction(optimal, 6)) * 100:.1f}%" in view and str(sum(expected)) in view
    _click(trainer, "reset")
    assert trainer.score.decisions == 0 and trainer.score.total == 0 and trainer.score.average is None
    assert "No decisions yet" in trainer.score_view.value and "back to zero" in trainer.message.value


# -- controls, refusals, determinism -----------------------------------------------------------


def test_deciding_twice_is_refused_and_changes_nothing():
    trainer = HandTrainer(level="mini", seed=6)
    _click(trainer, "reveal")
    verdict, score = trainer.verdict, (trainer.score.decisions, trainer.score.total)
    _click(trainer, "hold")  # a forged click: the buttons are disabled
    assert trainer.verdict is verdict and (trainer.score.decisions, trainer.score.total) == score
    assert "already decided on this hand" in trainer.message.value and "Traceback" not in trainer.message.value
    with pytest.raises(IllegalActionError):
        trainer.decide("reveal")
    with pytest.raises(ValueError, match="'reveal' or 'hold'"):
        HandTrainer(level="mini", seed=6).decide("fold")


def test_a_double_click_counts_once():
    trainer = HandTrainer(level="mini", seed=6)
    trainer.buttons["reveal"].click()
    trainer.buttons["reveal"].click()
    assert trainer.score.decisions == 1 and trainer.message.value == ""


def test_play_on_continues_the_same_turn_after_a_footprint():
    for seed in range(40):
        trainer = HandTrainer(level="late-game", seed=seed)
        _click(trainer, "play_on")  # before deciding: refused
        assert "only after revealing" in trainer.message.value and trainer.number == 1
        _click(trainer, "reveal")
        if trainer.verdict.effect.outcome is None:
            break
    after = trainer.verdict.after
    assert trainer.buttons["play_on"].layout.display is None
    _click(trainer, "play_on")
    assert trainer.hand.game is after and trainer.number == 2 and trainer.verdict is None
    assert trainer.buttons["play_on"].layout.display == "none" and not trainer.buttons["reveal"].disabled


def test_the_same_seed_deals_the_same_hands():
    def hands(seed):
        trainer = HandTrainer(level="mini", seed=seed)
        seen = [trainer.hand.game.to_json()]
        for level in ("mini", "medium"):
            trainer.deal(level=level)
            seen.append(trainer.hand.game.to_json())
        return seen

    assert hands(3) == hands(3) and hands(3) != hands(4)


def test_the_dropdowns_deal_a_hand_of_the_level_and_edition():
    trainer = HandTrainer(level="mini", seed=9)
    assert trainer.edition_choice.options == ("mini",) and trainer.edition_choice.disabled
    trainer.level_choice.value = "medium"  # replaces the undecided hand 1: the new hand is hand 1 too
    assert trainer.level == "medium" and trainer.hand.level == "medium" and trainer.number == 1
    assert trainer.hand.game.rules.name == "dragon-stripes" and not trainer.edition_choice.disabled
    _click(trainer, "hold")
    trainer.edition_choice.value = "kali"
    assert trainer.hand.game.rules.name == "kali" and trainer.number == 2
    trainer.level_choice.value = "late-game"  # the edition stays
    assert trainer.hand.game.rules.name == "kali" and trainer.hand.game.stage == 1
    trainer.level_choice.value = "mini"
    assert trainer.hand.game.rules.name == "mini" and trainer.edition_choice.value == "mini"


def test_an_unexpected_error_is_a_message_not_a_traceback(monkeypatch):
    trainer = HandTrainer(level="mini", seed=1)

    def broken(self, action):
        raise RuntimeError("boom")

    monkeypatch.setattr(Hand, "judge", broken)
    _click(trainer, "reveal")
    assert "Something went wrong (RuntimeError)" in trainer.message.value
    assert trainer.verdict is None and trainer.score.decisions == 0


# -- language ----------------------------------------------------------------------------------


def _trainer_msgids() -> set[str]:
    tree = ast.parse(Path(trainer_module.__file__).read_text(encoding="utf-8"))
    found = set(trainer_module.LEVEL_LABELS.values()) | set(trainer_module.NEXT_CARD_SENTENCES.values())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("tr", "ntr", "N_", "Message"):
            found |= {a.value for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return found


def test_every_text_of_the_trainer_has_an_italian_translation_with_the_same_fields():
    italian = catalogs.italian()
    msgids = _trainer_msgids()
    assert len(msgids) > 60

    def fields(text):
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    assert sorted(m for m in msgids if m not in italian) == []
    assert all(fields(italian[m]) == fields(m) for m in msgids)


def test_switching_to_italian_redraws_everything():
    trainer = HandTrainer(level="late-game", seed=5)
    _click(trainer, "hold")
    _click(trainer, "hold")  # a refusal, redrawn in the new language too
    i18n.set_language("it")
    assert [trainer.buttons[n].description for n in ("reveal", "hold", "next", "reset")] == [
        "Rivela",
        "Fermati",
        "Nuova mano",
        "Azzera il punteggio",
    ]
    assert trainer.level_choice.label == "partita avanzata" and trainer.level_choice.value == "late-game"
    assert trainer.number == 1  # relabelling the dropdowns deals nothing
    assert "La tua situazione" in trainer.situation.value and "Verdetto" in trainer.result.value
    assert "Fermandoti tieni il piatto" in trainer.result.value and "Punteggio" in trainer.score_view.value
    assert "hai già deciso su questa mano" in trainer.message.value
    assert "Mano 1: hai scelto di fermarti." in trainer.prompt.value
    i18n.set_language("en")
    assert trainer.buttons["reveal"].description == "Reveal" and "Your situation" in trainer.situation.value


@pytest.mark.slow
def test_every_outcome_is_written_in_both_languages():
    outcomes = {}
    for seed in range(60):
        hand = deal_hand("late-game" if seed % 2 else "mini", None, seed)
        verdict = hand.judge("reveal")
        outcomes.setdefault(verdict.effect.outcome, (hand, verdict))
    assert set(outcomes) == {None, Outcome.HEAD, Outcome.STOPPED, Outcome.DANGER, Outcome.FINAL_DANGER}
    # kali's final danger costs the pot only: worded without "0 gems"
    hand = deal_hand("late-game", "kali", 1)
    game = hand.game
    effect = game.rules.apply_card(
        DANGER_CARD,
        position=game.position,
        pot=game.pot,
        gems=game.gems[game.active_player],
        treasure=game.treasure,
        dangers_revealed=game.stage,
        cards_left=game.remaining.total - 1,
    )
    assert effect.outcome is Outcome.FINAL_DANGER and effect.gems_change == 0
    outcomes["pot only"] = (hand, dataclasses.replace(hand.judge("reveal"), next_card=DANGER_CARD, effect=effect))
    for hand, verdict in outcomes.values():
        for action in ("reveal", "hold"):
            v = dataclasses.replace(verdict, action=action)
            for lang in ("en", "it"):
                html = trainer_module.render_verdict(hand, v, lang)
                assert "{" not in html and verdict.next_card.describe(lang) in html
                # the card's effect in the rules' one wording (the pot-only final danger worded apart)
                wording = verdict.effect.describe(lang, hypothetical=action == "hold")
                assert html_escape(wording) in html
                if verdict.effect.outcome is Outcome.FINAL_DANGER and not verdict.effect.gems_change:
                    assert "0 gem" not in html and "0 gemme" not in html


@pytest.mark.slow
def test_hands_are_numbered_by_decisions_whatever_deals_them():
    """The teacher's session: six decisions, the level changed before some of them; the prompt and the
    score count the same hands, 1 to 6, and a deal that replaces an undecided hand keeps its number."""
    trainer = HandTrainer(level="easy", seed=2)
    levels = [None, None, "medium", "medium", "late-game", "mini", "mini", "easy"]
    for number, level in enumerate(levels[:6], start=1):
        if level is not None:
            trainer.level_choice.value = level
        assert trainer.number == number
        assert f"Hand {number}: you are" in trainer.prompt.value
        _click(trainer, "reveal" if number % 2 == 1 else "hold")
        assert f"Hand {number}: you chose" in trainer.prompt.value
        _click(trainer, "next")
        assert trainer.number == number + 1
    for deal in (
        lambda: _click(trainer, "next"),
        lambda: setattr(trainer.level_choice, "value", "medium"),
        lambda: setattr(trainer.edition_choice, "value", "kali"),
        lambda: trainer.deal(level="late-game"),
    ):
        before = trainer.hand
        deal()  # a new situation replaces the undecided hand 7, which keeps its number
        assert trainer.hand is not before and trainer.number == 7 and "Hand 7: you are" in trainer.prompt.value
    assert [number for number, _ in trainer.score.hands] == [1, 2, 3, 4, 5, 6]
    assert trainer.score.decisions == 6
    _click(trainer, "hold")
    assert trainer.score.hands[-1] == (7, "hold") and ">7</td>" in trainer.score_view.value
    trainer.reset_score()  # the score starts again; the hands' numbering goes on
    _click(trainer, "next")
    assert trainer.number == 8 and trainer.score.decisions == 0


@pytest.mark.parametrize("switch", [0, "no", None])
def test_language_switch_must_be_a_bool(switch):
    with pytest.raises(TypeError, match="language_switch must be True or False"):
        HandTrainer(level="mini", seed=1, language_switch=switch)


@pytest.mark.parametrize("switch, pickers", [(True, 1), (False, 0)])
def test_the_language_switch_can_be_left_out(switch, pickers):
    trainer = HandTrainer(level="mini", seed=1, language_switch=switch)
    found = [w for w in _descendants(trainer.widget) if "dk-language" in getattr(w, "_dom_classes", ())]
    assert len(found) == pickers
    i18n.set_language("it")  # without its own switch the trainer still follows the kernel's language
    assert trainer.buttons["reveal"].description == "Rivela"


def _descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _descendants(child)
