"""An assessment on the game: three one-hour tests with their marking grid (after lessons 1–3 and 6, the school's
core path; after lessons 4–6, the chain, backward induction and risk; after lessons 7–10, the market, simulation,
the editions and playing to win), and a long problem in the style of the Italian
final exam (the *maturità*), each with its solutions, in every language of the kit.

Every number in them is the kit's: the situations are played on the engine (:meth:`dragonkit.engine.Game.redealt`
stacks the deck, :meth:`~dragonkit.analysis.TurnState.from_game` reads the turn), the chances come from the deck's
exact composition, the expected values and variances from the absorbing chain of the policy
(:func:`~dragonkit.analysis.evaluate_policy`, exact), the one-card value from :func:`dragonkit.topics.one_push.one_push`
and the best move from backward induction (:func:`~dragonkit.analysis.solve_turn`). :func:`answers` returns them as
fractions; :func:`assessment_markdown` writes the students' sheet or the teacher's (with the solutions and the
marking grid) as Markdown with ``$...$`` formulas, for the page or for paper.

>>> answers().first_stop_or_danger
Fraction(1, 4)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from .. import i18n
from ..analysis import (
    HoldAfterReveals,
    HoldAtPot,
    TurnState,
    evaluate_policy,
    held_turn,
    solve_turn,
    takeover,
    turn_chain,
)
from ..engine import Game
from ..i18n import N_
from ..i18n.numbers import decimal_text
from ..rules import STOP_CARD, Card, CardKind, Ruleset
from ..simulate.stats import normal_quantile
from ..topics.editions import first_card_ends
from ..topics.gems_or_wins import best_holds_at
from ..topics.one_push import one_push
from ..turn import Action, takeover_step

__all__ = [
    "CHAIN_GEMS",
    "FIRST_TURN",
    "PROBLEM_GEMS",
    "Answers",
    "Item",
    "answers",
    "assessment_markdown",
    "chain_items",
    "chain_turn",
    "items",
    "later_items",
    "problem_gain",
]

#: The cards of the first turn in the test's game of *Dragon Stripes*: a 1-step and a 3-step footprint, then a stop.
FIRST_TURN = (Card.footprint(1), Card.footprint(3), STOP_CARD)

#: The problem's player's gems, for the variance (part d).
PROBLEM_GEMS = 20

#: The gems of the player of the test after lessons 4–6 (on the classroom deck ``mini``).
CHAIN_GEMS = 8

#: The test after lessons 7–10: the mini turn held after these footprints (the knight on the last stripe), the
#: taker's gems, the simulation's turns, mean and standard deviation (gems), and the sides of its Pig's die.
LATER_DRAWN, LATER_TAKER = (2, 2, 1), 16
LATER_TURNS, LATER_MEAN, LATER_SD = 900, Fraction(-3, 2), 15
LATER_SIDES = 8

#: The gems of the problem's function study (part b) and of its inequality (part c): 0..40.
_PROBLEM_RANGE = range(0, 41)


@dataclass(frozen=True)
class Item:
    """One question of the assessment.

    Attributes
    ----------
    label : str
        Its number or letter as printed ("1a", "b").
    question : str
        The question, a msgid (English Markdown with ``{fields}``).
    points : int
        The points it is worth.
    solution : str
        The worked solution, a msgid.
    criteria : str
        How to give part of the points, a msgid.
    """

    label: str
    question: str
    points: int
    solution: str
    criteria: str


def _second_turn() -> TurnState:
    """The start of the second turn of a two-player game whose first turn revealed :data:`FIRST_TURN`."""
    game = Game(["Ann", "Bo"], Ruleset.preset("dragon-stripes"))
    rest = list(game.remaining.cards())
    for card in FIRST_TURN:
        rest.remove(card)
    game = game.redealt([*rest, *reversed(FIRST_TURN)], events=False)
    for _ in FIRST_TURN:
        game = game.child(Action.REVEAL)
    return TurnState.from_game(game)


def chain_turn() -> TurnState:
    """The turn of the test after lessons 4–6: a fresh turn of the classroom deck ``mini`` for a player with
    :data:`CHAIN_GEMS` gems, played by *hold after two cards*."""
    return TurnState.fresh(Ruleset.preset("mini"), gems=CHAIN_GEMS)


def problem_gain(gems: int) -> TurnState:
    """The problem's turn: a fresh turn of the classroom deck ``mini`` for a player with ``gems`` gems."""
    return TurnState.fresh(Ruleset.preset("mini"), gems=gems)


def _problem_penalty(gems: int) -> int:
    """What a stop costs the problem's player with ``gems`` gems (gems): the rules' penalty
    (:meth:`~dragonkit.rules.Ruleset.penalty`) in :func:`problem_gain`'s turn, ⌊g/4⌋ in ``mini``."""
    turn = problem_gain(gems)
    return turn.rules.penalty(gems, turn.dangers_revealed)


@dataclass(frozen=True)
class Answers:
    """The assessment's answers, computed by the kit (see :func:`answers`).

    Attributes
    ----------
    cards, footprints : int
        Cards, and footprints among them, left at the start of Bo's turn (cards).
    first_stop_or_danger, three_footprints, three_footprints_with_replacement : Fraction
        P(the first card is a stop or a danger); P(the first three are footprints), without replacement
        (hypergeometric) and with replacement (binomial).
    one_card_gain, one_card_variance : Fraction
        E[X] (gems) and Var X (gems²) of revealing the compulsory card, then holding.
    after_three_pot : int
        The pot after a 3-step footprint (gems).
    after_three_value : Fraction
        E1 there: one more card, then hold (gems).
    after_three_action : str
        ``"reveal"`` or ``"hold"``, by backward induction.
    gain_by_gems : tuple of Fraction
        The problem's E[X_g] for g = 0..40 (gems).
    largest_gems_at_least : int
        The largest g with E[X_g] ≥ −2 (gems).
    problem_variance, problem_loss : Fraction
        Var X_20 (gems²) and P(X_20 < 0).
    chain_cards : Fraction
        The test after lessons 4–6 (:func:`chain_turn`, *hold after two cards*): the expected number of cards
        revealed, :math:`t = N\\mathbf 1` at the start (cards).
    chain_stopped, chain_danger, chain_held : Fraction
        Its absorption probabilities from the start: a stop, the final danger, a hold (any pot).
    chain_push, chain_push_after_one, chain_push_after_two : Fraction
        The push values (gems): :math:`W` after a 1-step footprint (pot 1), and the ones it needs, after a second
        footprint of 1 step (pot 3) and of 2 steps (pot 4), by backward induction.
    chain_gain, chain_variance, chain_loss : Fraction
        :math:`E[X]` (gems), Var X (gems²) and P(X < 0) of *hold after two cards*.
    chain_optimal : Fraction
        The turn's value under the optimal policy (gems).
    later_bounty, later_left : int
        The test after lessons 7–10: the bounty of the mini turn held after :data:`LATER_DRAWN` (gems), and what the
        taker plays with after paying it (gems).
    later_value, later_gain : Fraction
        :math:`F` at those gems and the taker's net gain :math:`F(g - b) - b` (gems).
    hold_20_value : float
        The expected gem change of a fresh turn of ``dragon-stripes`` played by *hold at 20* (gems).
    drago_first_ends, dragon_first_ends : Fraction
        P(the first card ends the turn) in ``drago-rosso`` and in ``dragon-stripes``.
    pig_best : tuple of int
        The turn totals at which Pig with a die of :data:`LATER_SIDES` sides is best held for points.
    """

    cards: int
    footprints: int
    first_stop_or_danger: Fraction
    three_footprints: Fraction
    three_footprints_with_replacement: Fraction
    one_card_gain: Fraction
    one_card_variance: Fraction
    after_three_pot: int
    after_three_value: Fraction
    after_three_action: str
    gain_by_gems: tuple[Fraction, ...]
    largest_gems_at_least: int
    problem_variance: Fraction
    problem_loss: Fraction
    chain_cards: Fraction
    chain_stopped: Fraction
    chain_danger: Fraction
    chain_held: Fraction
    chain_push: Fraction
    chain_push_after_one: Fraction
    chain_push_after_two: Fraction
    chain_gain: Fraction
    chain_variance: Fraction
    chain_loss: Fraction
    chain_optimal: Fraction
    later_bounty: int
    later_left: int
    later_value: Fraction
    later_gain: Fraction
    hold_20_value: float
    drago_first_ends: Fraction
    dragon_first_ends: Fraction
    pig_best: tuple[int, ...]


@cache
def answers() -> Answers:
    """The assessment's answers, computed by the kit: the deck's composition for the chances, the policy's absorbing
    chain for the expected values and variances (:func:`~dragonkit.analysis.evaluate_policy`, exact), one push for
    E1 and backward induction for the best move."""
    start = _second_turn()
    chances = dict(start.chance_outcomes())
    cards = start.cards_left
    footprints = sum(start.footprints.values())
    one_card = evaluate_policy(start, HoldAfterReveals(1), exact=True)
    after = start.child(Card.footprint(3))
    gains = tuple(
        Fraction(evaluate_policy(problem_gain(g), HoldAfterReveals(1), exact=True).expected_gain)
        for g in _PROBLEM_RANGE
    )
    problem = evaluate_policy(problem_gain(PROBLEM_GEMS), HoldAfterReveals(1), exact=True)
    middle = chain_turn()
    chain = turn_chain(middle, HoldAfterReveals(2), exact=True)
    absorbed = chain.absorption_probabilities().iloc[0]
    two = evaluate_policy(middle, HoldAfterReveals(2), exact=True)
    after_one = middle.child(Card.footprint(1))
    offer = takeover(held_turn(Ruleset.preset("mini"), LATER_DRAWN), LATER_TAKER)
    if offer.net_gain is None or offer.value_after_paying is None:
        raise RuntimeError("the test's taker must be able to pay the bounty")
    dragon = Ruleset.preset("dragon-stripes")
    return Answers(
        cards=cards,
        footprints=footprints,
        first_stop_or_danger=sum(
            (p for card, p in chances.items() if card.kind is not CardKind.FOOTPRINT), Fraction(0)
        ),
        three_footprints=Fraction(math.comb(footprints, 3), math.comb(cards, 3)),
        three_footprints_with_replacement=Fraction(footprints, cards) ** 3,
        one_card_gain=Fraction(one_card.expected_gain),
        one_card_variance=Fraction(one_card.variance),
        after_three_pot=after.pot,
        after_three_value=one_push(after).value,
        after_three_action=solve_turn(after, exact=True).best_action.value,
        gain_by_gems=gains,
        largest_gems_at_least=max(g for g, gain in zip(_PROBLEM_RANGE, gains, strict=True) if gain >= -2),
        problem_variance=Fraction(problem.variance),
        problem_loss=Fraction(problem.p_loss),
        chain_cards=Fraction(chain.expected_steps().iloc[0]),
        chain_stopped=Fraction(absorbed["stopped"]),
        chain_danger=Fraction(absorbed["final danger"]),
        chain_held=Fraction(sum(p for label, p in absorbed.items() if str(label).startswith("held"))),
        chain_push=Fraction(solve_turn(after_one, exact=True).push_value),
        chain_push_after_one=Fraction(solve_turn(after_one.child(Card.footprint(1)), exact=True).push_value),
        chain_push_after_two=Fraction(solve_turn(after_one.child(Card.footprint(2)), exact=True).push_value),
        chain_gain=Fraction(two.expected_gain),
        chain_variance=Fraction(two.variance),
        chain_loss=Fraction(two.p_loss),
        chain_optimal=Fraction(solve_turn(middle, exact=True).value),
        later_bounty=offer.bounty,
        later_left=takeover_step(LATER_TAKER, 0, offer.bounty)[0],  # the rules' payment: what the taker plays with
        later_value=Fraction(offer.value_after_paying),
        later_gain=Fraction(offer.net_gain),
        hold_20_value=float(evaluate_policy(TurnState.fresh(dragon), HoldAtPot(20)).expected_gain),
        drago_first_ends=first_card_ends(Ruleset.preset("drago-rosso").composition),
        dragon_first_ends=first_card_ends(dragon.composition),
        pig_best=tuple(best_holds_at(range(1, 61), sides=LATER_SIDES)),
    )


def items() -> tuple[tuple[Item, ...], tuple[Item, ...]]:
    """The test's items and the problem's parts, in order (their texts are msgids; see :func:`assessment_markdown`)."""
    test = (
        Item(
            "1a",
            N_("What is the probability that the first card of Bo's turn is a stop or a danger card?"),
            1,
            N_("Stops and dangers left: {bad} of {cards}, so $P = {p}$."),
            N_("1 point for the fraction (or an equal decimal)."),
        ),
        Item(
            "1b",
            N_(
                "What is the probability that the first three cards of Bo's turn are all footprints? Give the exact "
                "fraction."
            ),
            2,
            N_(
                "Without replacement (hypergeometric): $\\binom{{{f}}}{{3}} \\big/ \\binom{{{cards}}}{{3}} = "
                "\\frac{{{f}}}{{{cards}}}\\cdot\\frac{{{f1}}}{{{c1}}}\\cdot\\frac{{{f2}}}{{{c2}}} = {p} \\approx {d}$."
            ),
            N_("1 point for the product of the three ratios (or the binomial coefficients), 1 for the exact value."),
        ),
        Item(
            "1c",
            N_(
                "If every card were put back and the deck shuffled after each draw, what would that probability be? "
                "Which of the two is larger, and why?"
            ),
            1,
            N_(
                "With replacement (binomial): $\\left(\\frac{{{f}}}{{{cards}}}\\right)^3 = {p} \\approx {d}$, larger: "
                "without replacement each footprint drawn leaves the deck and makes the next one less likely."
            ),
            N_("½ point for the value, ½ for the reason."),
        ),
        Item(
            "2",
            N_(
                "Bo reveals the compulsory first card and then holds at once, whatever it is. What is the expected "
                "change $E[X]$ of Bo's gems? (A stop, or the first danger, costs ⌊40/4⌋ = 10 gems; a footprint of "
                "$n$ steps lands on stripe $n$, worth $n$ gems.)"
            ),
            2,
            N_("$E[X] = \\frac{{{terms}}}{{{cards}}} = {e} \\approx {d}$ gems."),
            N_("1 point for the distribution of X (values and probabilities), 1 for the expected value."),
        ),
        Item(
            "3",
            N_("What is the variance of that change $X$? Give the exact fraction and the standard deviation."),
            2,
            N_(
                "$E[X^2] = \\frac{{{squares}}}{{{cards}}} = {e2}$, so $\\operatorname{{Var}} X = E[X^2] - E[X]^2 = {v} "
                "\\approx {d}$ and $\\sigma \\approx {s}$ gems."
            ),
            N_("1 point for E[X²], 1 for the variance (½ if only the standard deviation is wrong)."),
        ),
        Item(
            "4",
            N_(
                "The first card of Bo's turn is a 3-step footprint: the knight is on stripe 3, the pot holds 3 gems "
                "and {cards} cards are left. Compute $E_1$, the expected value of revealing exactly one more card and "
                "then holding, and decide: does one more card pay? Is revealing then the optimal choice?"
            ),
            2,
            N_(
                "$E_1 = \\frac{{{terms}}}{{{cards}}} = {e} \\approx {d} > {pot}$: one more card pays, so revealing is "
                "optimal (after the card one can still hold, so revealing is worth at least $E_1$)."
            ),
            N_("1 point for E1, ½ for the comparison with the pot, ½ for the reason why revealing is then optimal."),
        ),
    )
    problem = (
        Item(
            "a",
            N_(
                "Write the probability distribution of $X_g$ and show that its expected value is "
                "$E(g) = \\dfrac{{7 - 2\\lfloor g/4 \\rfloor - g}}{{8}}$."
            ),
            5,
            N_(
                "$X_g$ is $+1$ with probability $\\frac38$ (a 1-step footprint), $+2$ with $\\frac28$, "
                "$-\\lfloor g/4 \\rfloor$ with $\\frac28$ (a stop) and $-g$ with $\\frac18$ (the danger). So "
                "$E(g) = \\frac{{3 \\cdot 1 + 2 \\cdot 2 - 2\\lfloor g/4 \\rfloor - g}}{{8}}$. For example "
                "$E(12) = {e12}$ and $E(20) = {e20}$."
            ),
            N_("2 points for the distribution (values and probabilities adding up to 1), 3 for the formula."),
        ),
        Item(
            "b",
            N_(
                "Study the function $f(x) = \\dfrac{{7 - 2\\lfloor x/4 \\rfloor - x}}{{8}}$ on $[0, 40]$: where it is "
                "continuous, its jumps, whether it is monotonic; draw its graph, and show that it lies between the "
                "lines $y = \\frac{{7 - 1.5x}}{{8}}$ and $y = \\frac{{9 - 1.5x}}{{8}}$."
            ),
            6,
            N_(
                "On each interval $[4k, 4k+4)$ $f$ is linear with slope $-\\frac18$; at $x = 4, 8, \\dots, 40$ it "
                "jumps down by $\\frac28 = \\frac14$ (it is continuous from the right). So it is strictly decreasing, "
                "from $f(0) = \\frac78$ to $f(40) = {e40}$. Since $\\frac x4 - 1 < \\lfloor \\frac x4 \\rfloor \\le "
                "\\frac x4$, $\\frac{{7 - 1.5x}}{{8}} \\le f(x) < \\frac{{9 - 1.5x}}{{8}}$: the graph is a staircase "
                "of segments between the two parallel lines, touching the lower one at the multiples of 4."
            ),
            N_(
                "2 points for continuity and the jumps, 1 for monotonicity, 1 for the graph, 2 for the two bounds "
                "(1 each)."
            ),
        ),
        Item(
            "c",
            N_("For which whole numbers of gems $g$, from 0 to 40, does the player lose at most 2 gems on average?"),
            4,
            N_(
                "$E(g) \\ge -2 \\iff g + 2\\lfloor g/4 \\rfloor \\le 23$. For $g = {g}$: ${g} + {twice} = {lhs} "
                "\\le 23$; for $g = {g1}$: ${g1} + {twice1} = {lhs1} > 23$. Since $f$ decreases, the answer is "
                "$0 \\le g \\le {g}$."
            ),
            N_("2 points for the inequality, 2 for the answer (1 if one boundary value is wrong)."),
        ),
        Item(
            "d",
            N_(
                "For a player with {gems} gems, compute the variance and the standard deviation of $X_{{{gems}}}$, and "
                "the probability that the turn ends with fewer gems."
            ),
            5,
            N_(
                "$E[X] = {e}$, $E[X^2] = {e2}$, so $\\operatorname{{Var}} X = {v} \\approx {d}$ and "
                "$\\sigma \\approx {s}$ gems; $P(X < 0) = {loss}$ (a stop or the danger)."
            ),
            N_("3 points for the variance, 1 for the standard deviation, 1 for the probability."),
        ),
    )
    return test, problem


def chain_items() -> tuple[Item, ...]:
    """The items of the test after lessons 4–6 (:func:`chain_turn`: the chain of a policy, backward induction, the
    distribution of a turn), in order; their texts are msgids (see :func:`assessment_markdown`)."""
    return (
        Item(
            "5a",
            N_(
                "Under *hold after two cards* the turn is an absorbing chain. Name its transient states and write the "
                "matrix $Q$ between them. Show that $Q^2 = 0$, so that $N = (I - Q)^{{-1}} = I + Q$, and compute the "
                "expected number of cards revealed from the start, $t = N\\mathbf 1$."
            ),
            2,
            N_(
                "The transient states are the start $s_0$ (the tail, pot 0) and the two points after one card: $s_1$ "
                "(a 1-step footprint: stripe 1, pot 1) and $s_2$ (a 2-step footprint: stripe 2, pot 2); after the "
                "second card the player holds, unless the turn has ended. $Q$ has two entries that are not 0, "
                "$Q_{{01}} = \\frac38$ and $Q_{{02}} = \\frac28$: no path of two steps stays among the transient "
                "states, so $Q^2 = 0$ and $N = I + Q$. Then $t_0 = 1 + \\frac38 + \\frac28 = {t}$ cards."
            ),
            N_("½ point for the states, ½ for Q and Q² = 0, 1 for t."),
        ),
        Item(
            "5b",
            N_(
                "From the start, what is the probability that the turn ends with a stop, with the final danger, and "
                "with a hold? (The absorption probabilities, $B = NR$.)"
            ),
            2,
            N_(
                "A stop: $\\frac28 + \\frac38 \\cdot \\frac27 + \\frac28 \\cdot \\frac27 = {stopped}$; the final "
                "danger: $\\frac18 + \\frac38 \\cdot \\frac17 + \\frac28 \\cdot \\frac17 = {danger}$; a hold: "
                "$1 - {stopped} - {danger} = {held}$ (the first row of $B = NR$)."
            ),
            N_(
                "1 point for the stop or the danger (by the paths of the cards or by B = NR), ½ for the other, ½ for "
                "the hold."
            ),
        ),
        Item(
            "6",
            N_(
                "The first card is a 1-step footprint: the knight is on stripe 1, the pot holds 1 gem and 7 cards "
                "are left. At both points the next card can lead to, holding is optimal: on stripe 2 with a pot of 3 "
                "gems (its push value is {w1}) and on stripe 3 with a pot of 4 gems (its push value is {w2}). Compute "
                "by backward induction the push value $W$ on stripe 1, and decide: reveal or hold?"
            ),
            3,
            N_(
                "The next card: a 1-step footprint (2 of 7) leads to stripe 2 with a pot of 3, worth 3 (holding); a "
                "2-step footprint (2 of 7) to stripe 3 with a pot of 4, worth 4; a stop (2 of 7) costs "
                "$\\lfloor {gems}/4 \\rfloor = {penalty}$ gems; the danger (1 of 7), the final one, all {gems}. "
                "$W = \\frac{{2 \\cdot 3 + 2 \\cdot 4 + 2 \\cdot (-{penalty}) + 1 \\cdot (-{gems})}}{{7}} = {w}$, "
                "less than the pot of 1: holding is optimal, so *hold after two cards* is not the optimal policy here."
            ),
            N_("1 point for the values of the two points, 1 for W, 1 for the decision and its reason."),
        ),
        Item(
            "7a",
            N_(
                "Write the distribution of the gem change $X$ under *hold after two cards*, and compute $E[X]$, "
                "$\\operatorname{{Var}} X$ and the standard deviation."
            ),
            2,
            N_(
                "$X$ is {distribution}; $E[X] = {e} \\approx {d}$ gems, $E[X^2] = {e2}$, "
                "$\\operatorname{{Var}} X = {v} \\approx {vd}$ and $\\sigma \\approx {s}$ gems."
            ),
            N_("1 point for the distribution, ½ for E[X], ½ for the variance and the standard deviation."),
        ),
        Item(
            "7b",
            N_(
                "What is the probability that the player ends the turn with fewer gems? Compare the policy's expected "
                "value with the optimal value of the turn, ${optimal}$ gems."
            ),
            1,
            N_(
                "$P(X < 0) = {stopped} + {danger} = {loss}$. $E[X] = {e} < {optimal}$: the optimal policy reveals the "
                "compulsory card and then holds, as item 6 found after a 1-step footprint."
            ),
            N_("½ point for the probability, ½ for the comparison."),
        ),
    )


def later_items() -> tuple[Item, ...]:
    """The items of the test after lessons 7–10 (the takeover market, simulation and its intervals, the editions,
    playing to win), in order; their texts are msgids (see :func:`assessment_markdown`)."""
    return (
        Item(
            "8",
            N_(
                "The classroom deck `mini`. The holder revealed 2+2+1 and holds: the knight is on stripe 5, the last "
                "one, the pot holds {bounty} gems, and 5 cards are left: two 1-step footprints, two stops and the "
                "danger, the final one. Any footprint now reaches the head, which pays the pot and the treasure, 20 "
                "gems in all. The bounty is the pot. Should Cy, who has {gems} gems, take over? Compute Cy's net gain "
                "$G = F({gems} - b) - b$."
            ),
            2,
            N_(
                "Cy pays {bounty} and plays with {left} gems; one card decides: "
                "$F({left}) = \\frac{{2 \\cdot 20 - 2 \\cdot \\lfloor {left}/4 \\rfloor - 1 \\cdot {left}}}{{5}} = "
                "{value}$, so $G = {value} - {bounty} = {gain} < 0$: Cy should not take over."
            ),
            N_("1 point for F, ½ for G, ½ for the decision."),
        ),
        Item(
            "9a",
            N_(
                "A class simulates {turns} turns of *hold at 20* on Dragon Stripes (40 gems, stage 0): the sample mean "
                "is ${mean}$ gems and the sample standard deviation $s = {sd}$ gems. Give the 95%&nbsp;confidence "
                "interval for the expected gem change."
            ),
            1,
            N_(
                "${mean} \\pm {z} \\cdot \\frac{{{sd}}}{{\\sqrt{{{turns}}}}} = {mean} \\pm {half}$, that is "
                "from ${low}$ to ${high}$ gems."
            ),
            N_("½ point for the standard error, ½ for the interval."),
        ),
        Item(
            "9b",
            N_("The exact value of *hold at 20* (lesson 4) is ${exact}$ gems. Does the interval cover it?"),
            1,
            N_("Yes: ${low} < {exact} < {high}$."),
            N_("1 point for the comparison."),
        ),
        Item(
            "9c",
            N_("How many turns would halve the interval's width?"),
            1,
            N_("The width goes as $1/\\sqrt n$: four times the turns, $4 \\cdot {turns} = {more}$ turns."),
            N_("½ point for the reason, ½ for the number."),
        ),
        Item(
            "10",
            N_(
                "Drago Rosso's deck has {cards} cards: {footprints} footprints, {stops} stops and {dangers} dangers. "
                "What is the probability that the first card of a turn ends it (a stop or a danger)? Compare it with "
                "Dragon Stripes' ${dragon}$: which edition's first card ends a turn more often?"
            ),
            2,
            N_(
                "$\\frac{{{stops} + {dangers}}}{{{cards}}} = {drago} \\approx {d}$, less than "
                "${dragon} \\approx {dd}$: Dragon Stripes' first card ends a turn more often (the same 13 cards in a "
                "smaller deck)."
            ),
            N_("1 point for the probability, 1 for the comparison."),
        ),
        Item(
            "11",
            N_(
                "Pig with a die of {sides} sides (lesson 10): each roll adds its points to the turn total, unless it "
                "is a 1, which ends the turn with nothing. With a turn total $t$, what is the expected change of the "
                "turn total if the player rolls once more? For which $t$ does one more roll raise it? Why may a player "
                "who is far behind near the end of a game roll on past that total?"
            ),
            3,
            N_(
                "$\\frac{{1}}{{{sides}}}(-t) + \\frac{{1}}{{{sides}}}(2 + 3 + \\dots + {sides}) = "
                "\\frac{{{sum} - t}}{{{sides}}}$: it raises the turn total on average for $t < {sum}$, and holding at "
                "{best} gives the most points per turn. To win the game, a player far behind needs many points before "
                "the opponent gets there: the chance of winning, not the expected points, decides, and it may be worth "
                "a larger risk (lesson 10's win-optimal player)."
            ),
            N_("1 point for the expected change, 1 for the threshold, 1 for the reason about winning."),
        ),
    )


def _tex(value: Fraction | int) -> str:
    """A fraction as LaTeX: ``\\frac{a}{b}``, its sign in front; a whole number as it is."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def _distribution(state: TurnState, cards: int = 1) -> list[tuple[int, Fraction]]:
    """The gem change of revealing ``cards`` cards and holding (unless the turn ends first): (change in gems,
    probability), in order."""
    distribution = evaluate_policy(state, HoldAfterReveals(cards), exact=True).distribution
    return sorted((int(change), Fraction(p)) for change, p in distribution.items())  # type: ignore[call-overload]


def _decimal(value: Fraction | float, digits: int, lang: str) -> str:
    """A decimal for a formula, as ``lang`` writes it: its decimal comma in braces, so TeX adds no space after it."""
    return decimal_text(value, digits, lang).replace(",", "{,}")


def _term(count: int, value: Fraction | int) -> str:
    """``count · value`` in LaTeX, a negative value in brackets."""
    shown = _tex(value)
    return f"{count} \\cdot ({shown})" if value < 0 else f"{count} \\cdot {shown}"


def _chain_fields(lang: str) -> dict[str, dict[str, str]]:
    """The numbers the texts of the test after lessons 4–6 show, written for ``lang``."""
    a = answers()
    values = _distribution(chain_turn(), 2)
    e2 = sum((p * x * x for x, p in values), Fraction(0))
    distribution = ", ".join(f"${x:+d}$ " + i18n.tr("with probability", lang) + f" ${_tex(p)}$" for x, p in values)
    chances = {"stopped": _tex(a.chain_stopped), "danger": _tex(a.chain_danger)}
    return {
        "5a": {"t": _tex(a.chain_cards)},
        "5b": {**chances, "held": _tex(a.chain_held)},
        "6": {
            "w1": f"${_tex(a.chain_push_after_one)}$",
            "w2": f"${_tex(a.chain_push_after_two)}$",
            "w": _tex(a.chain_push),
            "gems": str(CHAIN_GEMS),
            "penalty": str(chain_turn().rules.penalty(CHAIN_GEMS, 0)),
        },
        "7a": {
            "distribution": distribution,
            "e": _tex(a.chain_gain),
            "d": _decimal(a.chain_gain, 2, lang),
            "e2": _tex(e2),
            "v": _tex(a.chain_variance),
            "vd": _decimal(a.chain_variance, 2, lang),
            "s": _decimal(math.sqrt(a.chain_variance), 2, lang),
        },
        "7b": {**chances, "loss": _tex(a.chain_loss), "e": _tex(a.chain_gain), "optimal": _tex(a.chain_optimal)},
    }


def _later_fields(lang: str) -> dict[str, dict[str, str]]:
    """The numbers the texts of the test after lessons 7–10 show, written for ``lang``."""
    a = answers()
    z = normal_quantile(0.95)  # 1.96, as the students read it
    half = z * LATER_SD / math.sqrt(LATER_TURNS)
    interval = {"low": _decimal(LATER_MEAN - half, 2, lang), "high": _decimal(LATER_MEAN + half, 2, lang)}
    rosso = Ruleset.preset("drago-rosso")
    sides = LATER_SIDES
    return {
        "8": {
            "bounty": str(a.later_bounty),
            "gems": str(LATER_TAKER),
            "left": str(a.later_left),
            "value": _tex(a.later_value),
            "gain": _tex(a.later_gain),
        },
        "9a": {
            "turns": str(LATER_TURNS),
            "mean": _decimal(LATER_MEAN, 1, lang),
            "sd": str(LATER_SD),
            "z": _decimal(z, 2, lang),
            "half": _decimal(half, 2, lang),
            **interval,
        },
        "9b": {"exact": _decimal(a.hold_20_value, 3, lang), **interval},
        "9c": {"turns": str(LATER_TURNS), "more": str(4 * LATER_TURNS)},
        "10": {
            "cards": str(rosso.deck_size),
            "footprints": str(sum(n for _, n in rosso.composition.footprints)),
            "stops": str(rosso.stop_cards),
            "dangers": str(rosso.danger_cards),
            "drago": _tex(a.drago_first_ends),
            "d": _decimal(a.drago_first_ends, 3, lang),
            "dragon": _tex(a.dragon_first_ends),
            "dd": _decimal(a.dragon_first_ends, 3, lang),
        },
        "11": {
            "sides": str(sides),
            "sum": str(sum(range(2, sides + 1))),
            "best": i18n.tr("{a} or {b}", lang, a=a.pig_best[0], b=a.pig_best[-1]),
        },
    }


def _fields(lang: str) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """The numbers each item's texts show, written for ``lang``: for the first test's items and the problem's parts."""
    a = answers()
    start = _second_turn()
    after = start.child(Card.footprint(3))
    cards, f = a.cards, a.footprints
    bad = cards - f
    values = _distribution(start)
    terms = " + ".join(_term(round(p * cards), x) for x, p in values)
    squares = " + ".join(f"{round(p * cards)} \\cdot {_tex(x * x)}" for x, p in values)
    e2 = sum((p * x * x for x, p in values), Fraction(0))
    push = one_push(after)
    push_terms = " + ".join(_term(round(o.probability * after.cards_left), o.gain) for o in push.outcomes)
    gains = a.gain_by_gems
    g = a.largest_gems_at_least
    pvalues = _distribution(problem_gain(PROBLEM_GEMS))
    pe2 = sum((p * x * x for x, p in pvalues), Fraction(0))
    test = {
        "1a": {"bad": str(bad), "cards": str(cards), "p": _tex(a.first_stop_or_danger)},
        "1b": {
            "f": str(f),
            "cards": str(cards),
            "f1": str(f - 1),
            "c1": str(cards - 1),
            "f2": str(f - 2),
            "c2": str(cards - 2),
            "p": _tex(a.three_footprints),
            "d": _decimal(a.three_footprints, 4, lang),
        },
        "1c": {
            "f": str(f),
            "cards": str(cards),
            "p": _tex(a.three_footprints_with_replacement),
            "d": _decimal(a.three_footprints_with_replacement, 4, lang),
        },
        "2": {
            "terms": terms,
            "cards": str(cards),
            "e": _tex(a.one_card_gain),
            "d": _decimal(a.one_card_gain, 3, lang),
        },
        "3": {
            "squares": squares,
            "cards": str(cards),
            "e2": _tex(e2),
            "v": _tex(a.one_card_variance),
            "d": _decimal(a.one_card_variance, 2, lang),
            "s": _decimal(math.sqrt(a.one_card_variance), 2, lang),
        },
        "4": {
            "cards": str(after.cards_left),
            "terms": push_terms,
            "e": _tex(a.after_three_value),
            "d": _decimal(a.after_three_value, 2, lang),
            "pot": str(a.after_three_pot),
        },
    }
    parts = {
        "a": {"e12": _tex(gains[12]), "e20": _tex(gains[20])},
        "b": {"e40": _tex(gains[40])},
        "c": {
            "g": str(g),
            "twice": str(2 * _problem_penalty(g)),
            "lhs": str(g + 2 * _problem_penalty(g)),
            "g1": str(g + 1),
            "twice1": str(2 * _problem_penalty(g + 1)),
            "lhs1": str(g + 1 + 2 * _problem_penalty(g + 1)),
        },
        "d": {
            "gems": str(PROBLEM_GEMS),
            "e": _tex(a.gain_by_gems[PROBLEM_GEMS]),
            "e2": _tex(pe2),
            "v": _tex(a.problem_variance),
            "d": _decimal(a.problem_variance, 2, lang),
            "s": _decimal(math.sqrt(a.problem_variance), 2, lang),
            "loss": _tex(a.problem_loss),
        },
    }
    return test, parts


def assessment_markdown(
    lang: str | None = None, teacher: bool = False, room: Callable[[Item], str] | None = None
) -> str:
    """The assessment as Markdown in ``lang`` (default: the current language).

    Parameters
    ----------
    lang : str, optional
        ``"en"`` or ``"it"``.
    teacher : bool
        ``False``: the students' sheet (the questions and their points); ``True``: the teacher's, with each
        solution worked out and the marking grid.
    room : callable, optional
        On the students' sheet, the room to write under each question: HTML for an :class:`Item` (paper gives
        ruled lines in proportion to its points).

    Returns
    -------
    str
        Markdown with ``$...$`` formulas: a title, the three tests (one hour and 10 points each: after lessons 1–3
        and 6, after lessons 4–6, after lessons 7–10) and the problem (20 points).

    Raises
    ------
    ValueError
        For a language the kit does not speak.
    """
    lang = i18n.checked_language(lang)

    def tr(msgid: str, **fields: object) -> str:
        return i18n.tr(msgid, lang, **fields) if fields else i18n.tr(msgid, lang)

    def text(msgid: str, fields: dict[str, str]) -> str:
        """An item's text: every one is a format string (its LaTeX braces doubled), filled after translation."""
        return i18n.tr(msgid, lang).format(**fields)

    a = answers()
    test, problem = items()
    chain = chain_items()
    later = later_items()
    test_fields, problem_fields = _fields(lang)
    title = tr("Assessment: Dragon Stripes") + (" — " + tr("solutions and marking grid") if teacher else "")
    out = [f"# {title}", ""]
    sections = (  # each part: its heading, the situation its items ask about, the items and their numbers
        (
            tr("Test after lessons 1–3 and 6 (one hour, {points} points)", points=sum(i.points for i in test)),
            tr(
                "A game of *Dragon Stripes* for two players, Ann and Bo, each with 40 gems. In the first turn Ann "
                "revealed a 1-step footprint, a 3-step footprint and a stop, and the turn ended. Now it is Bo's turn: "
                "the knight is back on the tail, the pot is empty, and {cards} cards are left in the deck.",
                cards=a.cards,
            ),
            test,
            test_fields,
        ),
        (
            tr("Test after lessons 4–6 (one hour, {points} points)", points=sum(i.points for i in chain)),
            tr(
                "The classroom deck `mini` has 8 cards: three 1-step footprints, two 2-step footprints, two "
                "stops and one danger, the only one, which ends the game and costs the player all their gems. "
                "The dragon has 5 stripes worth 1 to 5 gems, and a footprint puts the value of the stripe it "
                "lands on into the pot. A player with {gems} gems starts a turn (a stop costs "
                "$\\lfloor {gems}/4 \\rfloor = {penalty}$ gems) and plays *hold after two cards*: two cards "
                "revealed, then a hold, unless the turn has ended before.",
                gems=CHAIN_GEMS,
                penalty=chain_turn().rules.penalty(CHAIN_GEMS, 0),
            ),
            chain,
            _chain_fields(lang),
        ),
        (
            tr("Test after lessons 7–10 (one hour, {points} points)", points=sum(i.points for i in later)),
            tr("Each question gives its own situation."),
            later,
            _later_fields(lang),
        ),
        (
            tr("Problem ({points} points)", points=sum(i.points for i in problem)),
            tr(
                "The classroom deck `mini` has 8 cards: three 1-step footprints, two 2-step footprints, two "
                "stops and one danger, the only one, which ends the game and costs the player all their gems. "
                "The dragon has 5 stripes worth 1 to 5 gems. A stop costs a quarter of the player's gems, "
                "rounded down. A player with $g$ gems reveals the compulsory first card of a turn and then "
                "holds at once; $X_g$ is the change of the player's gems."
            ),
            problem,
            problem_fields,
        ),
    )
    for heading, situation, items_, fields in sections:
        out += [f"## {heading}", "", situation, ""]
        for item in items_:
            points = tr("{n} points", n=item.points) if item.points != 1 else tr("1 point")
            values = fields.get(item.label, {})
            out.append(f"**{item.label}.** {text(item.question, values)} *({points})*")
            out.append("")
            if room is not None and not teacher:
                out += [room(item), ""]
            if teacher:
                out.append(f"> {tr('Solution')}: {text(item.solution, values)}")
                out.append(">")
                out.append(f"> {tr('Marking')}: {text(item.criteria, {})}")
                out.append("")
    if teacher:
        out += [f"## {tr('Marking grid')}", ""]
        out.append(f"| {tr('item')} | {tr('points')} | {tr('how to give them')} |")
        out.append("|---|---|---|")
        for label, items_ in ((tr("test"), test), (tr("test"), chain), (tr("test"), later), (tr("problem"), problem)):
            for item in items_:
                out.append(f"| {label} {item.label} | {item.points} | {text(item.criteria, {})} |")
        out.append("")
        out.append(
            tr(
                "Each test is marked out of {test}, the problem out of {problem}. A mark out of ten: a test's "
                "points, or the problem's points divided by two.",
                test=sum(i.points for i in test),
                problem=sum(i.points for i in problem),
            )
        )
        out.append("")
    return "\n".join(out)
