"""The hand trainer: reveal or hold in real situations, with the exact verdict.

The trainer deals a decision point of a real game (:func:`~dragonkit.topics.hands.deal_hand`:
a partly used deck, a stage, the player's gems, the knight mid-turn), the
learner chooses *reveal* or *hold*, and the trainer shows the card that came
next (the engine's own next card), the exact push and hold values, the expected
gems the choice gave up and a running score over the session.  The verdict
weighs expected values (rules §7), never the luck of the card that came.

Like the play app (:mod:`dragonkit.ui.app`), the trainer is a controller: a
click becomes a call of :meth:`HandTrainer.decide`, which refuses what is not
allowed now (a second decision on the same hand) with a message and changes
nothing; every view is redrawn from the hand, the verdict and the score.

On the projector (``?view=projector``, :mod:`dragonkit.view`) the trainer is drawn large; it goes one step at a
time as it is: the hand, its probabilities on a click, the learner's choice, then the verdict and the card that
followed.

A hand can be decided with the keyboard alone: when the button pressed disables or hides itself,
the focus moves on to the next one (Play on or Next hand, then Reveal), and a live region tells
screen readers the new hand and the verdict (:mod:`dragonkit.ui.announce`).

Where the kernel keeps the class's record (``dragonkit serve``), each decision goes to it once the page shows the
verdict (:class:`~dragonkit.ui.recorder.Recorder`): the situation, the action, the card a reveal turned up, the seconds
since the hand was shown, and the coach's two views of the hand (a coach of the trainer's own, whose expected gems are
the verdict's push and hold values).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets

from .. import i18n
from ..analysis import next_card_probabilities
from ..coach.views import Coach
from ..engine import IllegalActionError
from ..game_state import Phase
from ..i18n import N_, Gems, ntr, tr
from ..i18n.numbers import decimal_text, fraction_text, integer_text, percent_text
from ..rules import Message, whole_number
from ..style import CSS
from ..teach.notes import close_widgets, language_picker, mark_view
from ..topics.hands import LEVELS, Hand, Score, Verdict, deal_hand, level_named
from ..turn import Action
from .announce import announcement_html, display_page, is_shown, live_region
from .board import render_board
from .controls import MessageLine, click_time, guarded, is_double_click
from .numbers import format_fraction, gems_html
from .panels import card_label
from .recorder import Recorder

__all__ = ["HandTrainer", "render_score", "render_situation", "render_verdict"]

#: The levels' names as the dropdown shows them (msgids).
LEVEL_LABELS = {"mini": N_("mini deck"), "easy": N_("easy"), "medium": N_("medium"), "late-game": N_("late game")}

#: How many of the last decisions the score panel lists.
RECENT = 5


class HandTrainer(MessageLine):
    """Practice reveal-or-hold decisions in real game situations; displaying it shows :attr:`widget`.

    Parameters
    ----------
    level : {"mini", "easy", "medium", "late-game"}
        The difficulty (see :data:`dragonkit.topics.hands.LEVELS`): ``mini`` deals the
        8-card mini deck; ``easy`` the early game of Dragon Stripes at stage 0;
        ``medium`` stage 1 with a fifth to three fifths of the deck gone;
        ``late-game`` a deep deck at stage 1 or 2 with a richer player.
    seed : int, optional
        Seeds the dealing: the same seed deals the same sequence of hands (for
        the same levels).  Drawn at random when omitted.
    preset : str, optional
        The edition: ``mini`` for the mini level; ``dragon-stripes`` (default),
        ``kali`` or ``drago-rosso`` for the others.
    language_switch : bool
        Show the English/Italian buttons (:func:`dragonkit.teach.language_picker`); a lesson
        that has its own switch may leave them out.

    Attributes
    ----------
    widget : ipywidgets.VBox
        The whole trainer.
    hand : Hand
        The situation being decided.
    verdict : Verdict or None
        The judgement of the decision on :attr:`hand` (None until the learner decides).
    score : Score
    number : int
        The current hand's number in the session (1, 2, ...): a hand counts once it is decided, so a
        new deal that replaces an undecided hand (Next hand, another level or edition) keeps its
        number, and hand ``n`` is the learner's ``n``-th decision.  Resetting the score keeps the count.
    buttons : dict of str to ipywidgets.Button
        ``reveal``, ``hold``, ``play_on``, ``next``, ``reset``.
    announce : ipywidgets.HTML
        The live region (:func:`dragonkit.ui.announce.live_region`): the new hand, then the verdict and
        the card that followed, for screen readers.

    Raises
    ------
    ValueError
        For an unknown level, an edition the level does not deal, or a seed
        that is not a whole number >= 0.
    TypeError
        If ``language_switch`` is not a bool.
    """

    def __init__(
        self, level: str = "easy", seed: int | None = None, preset: str | None = None, language_switch: bool = True
    ):
        if not isinstance(language_switch, bool):
            raise TypeError(f"language_switch must be True or False, not {language_switch!r}")
        spec = level_named(level)
        rules = spec.rules(preset)
        if seed is not None:
            seed = whole_number(seed, "seed", minimum=0)
        self.rng = random.Random(seed)
        self.level, self.preset = spec.name, rules.name
        self.score = Score()
        self.number = 0  # no hand yet: the first deal is hand 1
        self.hand: Hand  # dealt at the end of __init__
        self.verdict: Verdict | None = None
        self._quiet = False  # set while the dropdowns are relabelled: their changes are not the learner's
        self._last_click: tuple[str | None, float] = (None, 0.0)
        self._recorder = Recorder("trainer", Coach())  # the learner's decisions, to the class's record

        self.prompt, self.board = widgets.HTML(), widgets.HTML()
        self.situation, self.result, self.score_view = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.message = widgets.HTML()
        self.announce = live_region()
        self.buttons = {
            "reveal": widgets.Button(icon="eye", button_style="primary"),
            "hold": widgets.Button(icon="hand-paper-o", button_style="warning"),
            "play_on": widgets.Button(icon="play"),
            "next": widgets.Button(icon="step-forward", button_style="info"),
            "reset": widgets.Button(icon="eraser"),
        }
        for name in ("reveal", "hold"):
            self.buttons[name].on_click(functools.partial(self._on_decide, name))
            self.buttons[name].layout.width = "150px"
        self.buttons["play_on"].on_click(lambda _b: self._on_play_on())
        self.buttons["play_on"].layout.width = "170px"
        self.buttons["next"].on_click(lambda _b: self._on_next())
        self.buttons["reset"].on_click(lambda _b: self._on_reset())
        self.level_choice = widgets.Dropdown(layout=widgets.Layout(width="210px"))
        self.edition_choice = widgets.Dropdown(layout=widgets.Layout(width="230px"))
        self.level_choice.observe(self._on_level, names="value")
        self.edition_choice.observe(self._on_edition, names="value")
        self.show_chances = widgets.ToggleButton(value=False, icon="percent", layout=widgets.Layout(width="190px"))
        self.show_chances.observe(self._on_chances, names="value")

        controls = [self.level_choice, self.edition_choice, self.buttons["next"], self.buttons["reset"]]
        top = widgets.HBox(
            controls + ([language_picker()] if language_switch else []), layout=widgets.Layout(flex_flow="row wrap")
        )
        actions = widgets.HBox(
            [self.buttons["reveal"], self.buttons["hold"], self.buttons["play_on"], self.show_chances],
            layout=widgets.Layout(flex_flow="row wrap"),
        )
        # no column wider than the page, and they stack when the page is narrow (200 % zoom, a phone)
        left = widgets.VBox(
            [self.prompt, self.board, actions, self.message, self.result],
            layout=widgets.Layout(width="830px", max_width="100%"),
        )
        right = widgets.VBox([self.situation, self.score_view], layout=widgets.Layout(width="440px", max_width="100%"))
        # standalone (its own page, with the language buttons) the trainer carries the page's title
        self.title = widgets.HTML() if language_switch else None
        heading = [self.title] if self.title is not None else []
        columns = widgets.HBox([left, right])
        columns.add_class("dk-columns")  # side by side; one under the other on a narrow page
        self.widget = widgets.VBox([widgets.HTML(CSS), *heading, top, columns, self.announce])
        self.widget.add_class("dk-app")
        self.widget.add_class("dk-trainer")
        mark_view(self.widget)  # on the projector, drawn large (its hands are one step at a time already)
        i18n.settings.observe(self._redraw, names="language")
        self._closed = False
        self._relabel()
        self.deal()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        return self.widget._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        """IPython's display hook: the page's script for screen readers, then the app (:func:`display_page`)."""
        display_page(self.widget)

    def close(self) -> None:
        """Stop following the language (the trainer's and its language switch's observers go) and close every
        widget of the trainer; closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        self._recorder.close()
        i18n.settings.unobserve(self._redraw, names="language")
        close_widgets(self.widget)

    # -- what the learner does -----------------------------------------------------------

    def deal(self, level: str | None = None, preset: str | None = None) -> Hand:
        """Deal a new hand (the score is kept; an undecided hand is replaced and its number reused).

        Parameters
        ----------
        level : str, optional
            A new level (default: the current one).
        preset : str, optional
            A new edition (default: the current one if the level deals it, else the level's own).

        Raises
        ------
        ValueError
            For an unknown level or an edition the level does not deal; nothing changes.
        """
        spec = level_named(self.level if level is None else level)
        if preset is None:
            preset = self.preset if self.preset in spec.presets else spec.presets[0]
        rules = spec.rules(preset)
        hand = deal_hand(spec.name, rules.name, self.rng)
        self._show_hand(hand)
        self.level, self.preset = spec.name, rules.name
        self._relabel()
        return hand

    def decide(self, action: Action | str) -> Verdict:
        """The learner reveals or holds: judge the choice, show the next card, count it in the score.

        Raises
        ------
        IllegalActionError
            If this hand has been decided already (nothing changes).
        ValueError
            For an action other than reveal or hold.
        """
        if self.verdict is not None:
            raise IllegalActionError(Message("you have already decided on this hand: press Next hand"))
        seconds = self._recorder.seconds()
        verdict = self.hand.judge(action)
        self.verdict = verdict
        self._say("")
        self.score.record(self.number, verdict)
        self._refresh()  # the page first; then the class's record
        game = self.hand.game
        card = verdict.next_card if verdict.action is Action.REVEAL else None
        self._recorder.decided(game.state, game.players, verdict.action, seconds, card=card)
        return verdict

    def play_on(self) -> Hand:
        """After a reveal that left the knight mid-turn, decide again in the same turn
        (the situation the card led to).

        Raises
        ------
        IllegalActionError
            If the learner has not revealed, or the card ended the turn (nothing changes).
        """
        verdict = self.verdict
        if verdict is None or verdict.action is not Action.REVEAL or verdict.after.phase is not Phase.CHOOSE:
            raise IllegalActionError(
                Message("you can play on only after revealing a footprint that keeps the turn going")
            )
        hand = Hand(verdict.after, self.level)
        self._show_hand(hand)
        return hand

    def reset_score(self) -> None:
        """Start the score again from zero (the hand stays)."""
        self.score.reset()
        self._refresh()

    # -- callbacks (errors become messages) -----------------------------------------------

    def _put_message(self, html: str) -> None:
        """Messages (the guard's refusals and errors too) go under the buttons."""
        self.message.value = html

    @guarded
    def _on_decide(self, action: str, _button: object = None) -> None:
        when = click_time()
        if is_double_click(self._last_click, action, when):
            return  # the second half of a double click on the same button
        self.decide(action)
        self._last_click = (action, when)
        self._pressed(self.buttons[action], ("play_on", "next"))

    @guarded
    def _on_play_on(self) -> None:
        self.play_on()
        self._pressed(self.buttons["play_on"], ("reveal",))

    def _pressed(self, control: widgets.DOMWidget, after: tuple[str, ...]) -> None:
        """After a click on ``control``: if the keyboard cannot reach it any more, focus the first
        button of ``after`` that it can reach."""
        if not is_shown(control):
            target = next((self.buttons[n] for n in after if is_shown(self.buttons[n])), None)
            if target is not None:
                target.focus()

    @guarded
    def _on_next(self) -> None:
        self.deal()

    @guarded
    def _on_reset(self) -> None:
        self.reset_score()
        self._say(Message("The score is back to zero."))

    @guarded
    def _on_level(self, change: Mapping[str, Any]) -> None:
        if not self._quiet:
            try:
                self.deal(level=change["new"])
            finally:  # the dropdowns show the level and edition in force, even after an error
                self._relabel()

    @guarded
    def _on_edition(self, change: Mapping[str, Any]) -> None:
        if not self._quiet:
            try:
                self.deal(preset=change["new"])
            finally:
                self._relabel()

    @guarded
    def _on_chances(self, _change: object = None) -> None:
        self._refresh()

    # -- redrawing -------------------------------------------------------------------------

    def _show_hand(self, hand: Hand) -> None:
        if self.number == 0 or self.verdict is not None:  # an undecided hand's number goes to its successor
            self.number += 1
        self.hand, self.verdict = hand, None
        self._last_click = (None, 0.0)
        self._say("")
        self._refresh()
        self._recorder.shown(hand)  # the clock of the decision starts

    @guarded
    def _redraw(self, _change: object = None) -> None:
        """Everything again in the new language."""
        self._relabel()
        self._refresh()
        self._show_message()

    def _relabel(self) -> None:
        """The title, the buttons' and dropdowns' words, and the dropdowns' choices, in the current language."""
        if self.title is not None:
            self.title.value = f"<h1>{escape(tr('Hand trainer'))}</h1>"
        self.buttons["reveal"].description = tr("Reveal")
        self.buttons["hold"].description = tr("Hold")
        self.buttons["play_on"].description = tr("Play on")
        self.buttons["next"].description = tr("Next hand")
        self.buttons["reset"].description = tr("Reset score")
        self.buttons["play_on"].tooltip = tr("Decide again in the same turn, after the card you revealed")
        self.show_chances.description = tr("Show probabilities")
        self.show_chances.tooltip = tr("Show the next card's probabilities before you decide")
        self._quiet = True
        try:
            self.level_choice.description = tr("Level")
            self.level_choice.options = [(tr(LEVEL_LABELS[name]), name) for name in LEVELS]
            self.level_choice.value = self.level
            self.edition_choice.description = tr("Edition")
            self.edition_choice.options = list(LEVELS[self.level].presets)
            self.edition_choice.value = self.preset
            self.edition_choice.disabled = len(LEVELS[self.level].presets) == 1
        finally:
            self._quiet = False

    def _refresh(self) -> None:
        hand, verdict = self.hand, self.verdict
        lang = i18n.get_language()
        game = hand.game
        if verdict is None:
            prompt = tr(
                "Hand {number}: you are {name}, the active player. Reveal or hold?",
                number=self.number,
                name=hand.player,
            )
            said = [prompt]
        else:
            prompt = tr(
                N_("Hand {number}: you chose to reveal.")
                if verdict.action is Action.REVEAL
                else N_("Hand {number}: you chose to hold."),
                number=self.number,
            )
            said = [prompt, _headline(verdict, lang)[0], *_next_card_sentences(hand, verdict, lang, follows=True)]
        self.prompt.value = _status(prompt)
        self.announce.value = announcement_html(said)
        self.board.value = render_board(game)
        show = verdict is not None or self.show_chances.value
        self.situation.value = render_situation(hand, lang, chances=show)
        self.result.value = render_verdict(hand, verdict, lang) if verdict is not None else ""
        self.score_view.value = render_score(self.score, lang)
        for name in ("reveal", "hold"):
            self.buttons[name].disabled = verdict is not None
        can_play_on = verdict is not None and verdict.action is Action.REVEAL and verdict.after.phase is Phase.CHOOSE
        self.buttons["play_on"].layout.display = None if can_play_on else "none"
        self.show_chances.layout.display = "none" if verdict is not None else None


# -- the views: pure functions of the hand, the verdict and the score ------------------------


def _status(text: str) -> str:
    return f'<div class="dk-status">{escape(text)}</div>'


def _gems_amount(value: Fraction, lang: str) -> str:
    """A number of gems in a sentence: ``3 gems``, or ``≈ 2.3214 gems`` when it is not whole."""
    value = Fraction(value)
    if value.denominator == 1:
        return i18n.gems(int(value), lang)
    return tr("{n} gems", lang, n=f"≈ {decimal_text(value, 4, lang)}")


def _total(value: Fraction, lang: str) -> str:
    """A score's number of gems: like the coach's (the decimal, the exact fraction under it), with a
    long fraction (the sum of many hands' values) kept in the decimal's tooltip instead."""
    value = Fraction(value)
    if len(str(value)) <= 24:
        return gems_html(value, lang)
    exact = escape(tr("exact {value}", lang, value=fraction_text(value)))
    return f'<span title="{exact}">{escape(_gems_amount(value, lang))}</span>'


def _percent(share: Fraction, lang: str) -> str:
    """A share as a percentage with one decimal, in ``lang``: ``62.5%``, ``62,5%``."""
    return percent_text(share, 1, lang)


def render_situation(hand: Hand, lang: str | None = None, chances: bool = False) -> str:
    """The situation panel: the player's gems, the pot, the knight, the stage, the
    deck left with what each card would do and, if ``chances``, the next card's
    exact probabilities."""
    lang = lang or i18n.get_language()
    game, rules = hand.game, hand.game.rules
    me = game.active_player
    stage = rules.stage(game.stage)
    rows = [
        (tr("Edition", lang), f"{escape(rules.name)} · {escape(tr(LEVEL_LABELS[hand.level], lang))}"),
        (tr("Your gems", lang), escape(i18n.gems(game.gems[me], lang))),
        (tr("Pot", lang), f"<b>{escape(i18n.gems(game.pot, lang))}</b>"),
        (tr("Knight", lang), escape(tr("on stripe {n} of {total}", lang, n=game.position, total=rules.n_stripes))),
        (
            tr("Stage", lang),
            escape(
                ntr(
                    "{n} of {total} danger revealed",
                    "{n} of {total} dangers revealed",
                    rules.danger_cards,
                    lang,
                    n=game.stage,
                    total=rules.danger_cards,
                )
            ),
        ),
        (
            tr("Stop penalty", lang),
            escape(
                tr(
                    "{rate} of your gems: {penalty}",
                    lang,
                    rate=str(stage.rate),
                    penalty=Gems(hand.stop_penalty),
                )
            ),
        ),
        (tr("Stripe gems", lang), f"x{stage.multiplier}"),
        (tr("Treasure", lang), escape(i18n.gems(game.treasure, lang))),
    ]
    table = "".join(f"<tr><td>{escape(label)}</td><td>{value}</td></tr>" for label, value in rows)
    state = hand.state
    left, chance = state.composition, next_card_probabilities(state)
    head = [tr("card", lang), tr("in the deck", lang), tr("if revealed", lang)]
    if chances:
        head += [tr("chance", lang), "≈"]
    deck_rows = []
    for card, count in left.counts():
        if not count:
            continue
        cells = [
            escape(card.describe(lang)),
            f"{count}/{rules.composition.count(card)}",
            escape(state.effect(card).describe(lang)),
        ]
        if chances:
            cells += [format_fraction(chance[card]), decimal_text(chance[card], 3, lang)]
        deck_rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    deck_title = ntr("Deck: {n} card left", "Deck: {n} cards left", left.total, lang, n=left.total)
    return (
        f'<div class="dk-coach"><h2>{escape(tr("Your situation", lang))}</h2>'
        f'<table class="dk-values">{table}</table>'
        f"<b>{escape(deck_title)}</b>"
        '<table class="dk-probs dk-deck"><tr>'
        + "".join(f"<th>{escape(h)}</th>" for h in head)
        + "</tr>"
        + "".join(deck_rows)
        + "</table></div>"
    )


def _headline(verdict: Verdict, lang: str) -> tuple[str, str]:
    """The verdict in one sentence, marked ✓ (optimal) or ✗, and its message level (its colour)."""
    solution = verdict.solution
    if solution.push_value == solution.hold_value:
        text, level = tr("Revealing and holding are worth exactly the same here.", lang), "success"
    elif verdict.optimal:
        text = tr(
            N_("Revealing was the best choice.")
            if verdict.action is Action.REVEAL
            else N_("Holding was the best choice."),
            lang,
        )
        level = "success"
    else:
        text = tr(
            N_("Holding was better: by revealing you gave up {amount} in expectation.")
            if verdict.action is Action.REVEAL
            else N_("Revealing was better: by holding you gave up {amount} in expectation."),
            lang,
            amount=_gems_amount(verdict.given_up, lang),
        )
        level = "danger"
    mark = "✓" if verdict.optimal else "✗"
    return f"{mark} {text}", level


#: What the card after the decision did, framing :meth:`CardEffect.describe <dragonkit.rules.CardEffect.describe>`
#: (msgids, by the action chosen).
NEXT_CARD_SENTENCES = {
    Action.REVEAL: N_("You revealed it — {what}."),
    Action.HOLD: N_("Had you revealed it instead — {what}."),
}


def _next_card_sentences(hand: Hand, verdict: Verdict, lang: str, follows: bool = False) -> list[str]:
    """What the card that followed did, or would have done (plain text); first, if ``follows``,
    which card it was (the verdict panel shows it as a coloured label instead)."""
    effect = verdict.effect.describe(lang, hypothetical=verdict.action is Action.HOLD)
    sentences = [f"{tr('The card that followed:', lang)} {verdict.next_card.describe(lang)}."] if follows else []
    if verdict.action is Action.HOLD:
        sentences.append(tr("By holding you keep the pot: {pot}.", lang, pot=Gems(hand.game.pot)))
    sentences.append(tr(NEXT_CARD_SENTENCES[verdict.action], lang, what=effect))
    return sentences


def render_verdict(hand: Hand, verdict: Verdict, lang: str | None = None) -> str:
    """The verdict panel: was the choice optimal, the exact push and hold values,
    the expected gems given up, and the card that followed."""
    lang = lang or i18n.get_language()
    solution = verdict.solution
    rows = [
        (tr("push value", lang), tr("reveal now, then play on optimally", lang), solution.push_value),
        (tr("hold value", lang), tr("hold now and keep the pot", lang), solution.hold_value),
        (tr("given up", lang), tr("by your choice, in expectation", lang), verdict.given_up),
    ]
    table = "".join(
        f"<tr><td>{escape(label)}<br><small>{escape(note)}</small></td><td>{gems_html(value, lang)}</td></tr>"
        for label, note, value in rows
    )
    note = tr(
        "The verdict weighs expected values, not the card that came: a good choice can meet bad luck. "
        "Values assume that nobody takes over (rules §7).",
        lang,
    )
    headline, level = _headline(verdict, lang)
    followed = "<br>".join(escape(s) for s in _next_card_sentences(hand, verdict, lang))
    return (
        f'<div class="dk-coach"><h2>{escape(tr("Verdict", lang))}</h2>'
        f'<div class="dk-message dk-{level} dk-verdict">{escape(headline)}</div>'
        f'<table class="dk-values dk-verdict-values">{table}</table>'
        f'<div class="dk-next"><b>{escape(tr("The card that followed:", lang))}</b> '
        f"{card_label(verdict.next_card, lang)}<br>{followed}</div>"
        f'<p class="dk-note">{escape(note)}</p></div>'
    )


def render_score(score: Score, lang: str | None = None) -> str:
    """The score panel: decisions, optimal ones, expected gems given up in total and
    per decision, and the last few decisions."""
    lang = lang or i18n.get_language()
    title = f'<div class="dk-coach"><h2>{escape(tr("Score", lang))}</h2>'
    share, average = score.optimal_share, score.average
    if share is None or average is None:  # before the first decision
        return title + f"<p>{escape(tr('No decisions yet.', lang))}</p></div>"
    rows = [
        (tr("decisions", lang), f"<b>{integer_text(score.decisions, lang)}</b>"),
        (tr("optimal decisions", lang), f"<b>{integer_text(score.optimal, lang)}</b> ({_percent(share, lang)})"),
        (tr("expected gems given up", lang), _total(score.total, lang)),
        (tr("average per decision", lang), _total(average, lang)),
    ]
    table = "".join(f"<tr><td>{escape(label)}</td><td>{value}</td></tr>" for label, value in rows)
    recent = "".join(
        f"<tr><td>{number}</td><td>{escape(tr(N_('Reveal') if action is Action.REVEAL else N_('Hold'), lang))}</td>"
        f"<td>{'✓' if given_up == 0 else escape(_gems_amount(given_up, lang))}</td></tr>"
        for number, action, given_up in score.recent(RECENT)
    )
    head = "".join(f"<th>{escape(h)}</th>" for h in (tr("hand", lang), tr("choice", lang), tr("given up", lang)))
    return (
        title + f'<table class="dk-values">{table}</table>'
        f"<b>{escape(tr('Last decisions', lang))}</b>"
        f'<table class="dk-recent"><tr>{head}</tr>{recent}</table></div>'
    )
