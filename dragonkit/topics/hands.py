"""Practice hands for the hand trainer: real decision points of real games, the
verdict on a learner's choice, and the score of a session.

Nothing is made up.  A hand is a game of Dragon Stripes that seeded threshold
bots (:class:`~dragonkit.bots.ThresholdBot`) play with the engine from the
first card up to a moment where the active player may **reveal or hold** (phase
``CHOOSE``: the knight is mid-turn); a situation where the reveal is compulsory
is never dealt.  The deck is the engine's shuffled deck, every card before the
decision was revealed by the engine, and the card that follows the decision is
the engine's next card, read by replaying the game with one more reveal
(:meth:`Game.replay <dragonkit.engine.Game.replay>`): the dealt game itself is
never changed.  The values come from :func:`~dragonkit.analysis.solve_turn` in
exact arithmetic, and what a card does from :meth:`TurnState.effect
<dragonkit.turn.TurnState.effect>`, the turn model's one step.

Difficulty levels (:data:`LEVELS`) say which decision points qualify; a game
is played to its end, one of its qualifying points is drawn, and the game is
replayed up to it.  So that clicking the same button every time does not
score well, each deal draws the best action it looks for, reveal or hold at
even odds, and takes the first qualifying point (in random order) whose best
action that is.  Revealing one card and then holding
(:func:`~dragonkit.analysis.turn.one_card.one_card_value`) is worth no more than the
push value, so where it beats the pot the best action is "reveal" without
solving anything; elsewhere the turn is solved in floats.  Early in a game
holding is rarely best (the treasure at the head is worth a lot), so when no
such point turns up within a fixed search (:data:`MAX_CARDS` cards played,
:data:`MAX_WORK` decision points solved) the deal falls back to the first
qualifying point: in ``easy`` hands "hold" is best about a quarter of the time,
in the other levels about half.  Dealing is deterministic given the random
generator's state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from ..analysis import TurnSolution, solve_turn
from ..analysis.turn.one_card import one_card_value
from ..bots import ThresholdBot
from ..engine import Game
from ..game_state import Phase
from ..rules import Card, CardEffect, Ruleset
from ..turn import Action, TurnState

__all__ = ["LEVELS", "MAX_CARDS", "MAX_WORK", "Hand", "Level", "Score", "Verdict", "deal_hand", "level_named"]

#: At most this many cards are revealed in the games played to find a hand whose best action is the one
#: looked for (about 60 games of ``dragon-stripes``, 500 of ``mini``).
MAX_CARDS = 2_500
#: At most this many decision points are solved (in floats, summed over the candidates tried) per deal:
#: about 0.25 s on an idle 2-core machine (6 ms per fresh 7,945-point turn, README).
MAX_WORK = 300_000
#: Names of the seats of a dealt game, in seating order.
PLAYER_NAMES = ("Ann", "Bea", "Cal", "Dan")


@dataclass(frozen=True)
class Level:
    """Which decision points a difficulty level deals.

    Attributes
    ----------
    name : str
    presets : tuple of str
        The editions the level can deal; the first one is its default.
    stages : tuple of (int, int or None)
        The allowed stages (dangers revealed), inclusive; ``None`` as the upper
        bound means the edition's last stage that is not game over.
    revealed : tuple of (Fraction, Fraction)
        Share of the whole deck revealed before the decision, inclusive bounds.
    min_gems : Fraction
        The active player owns at least this times the starting gems.
    """

    name: str
    presets: tuple[str, ...]
    stages: tuple[int, int | None]
    revealed: tuple[Fraction, Fraction]
    min_gems: Fraction = Fraction(0)

    def stage_range(self, rules: Ruleset) -> range:
        """The stages this level deals in ``rules`` (empty if the edition has too few stages)."""
        last = rules.last_stage if self.stages[1] is None else min(self.stages[1], rules.last_stage)
        return range(self.stages[0], last + 1)

    def rules(self, preset: str | None = None) -> Ruleset:
        """The ruleset of ``preset`` (default: the level's first edition).

        Raises
        ------
        ValueError
            If the level does not deal that edition.
        """
        preset = self.presets[0] if preset is None else preset
        if preset not in self.presets:
            raise ValueError(f"level {self.name!r} deals the editions {', '.join(self.presets)}, not {preset!r}")
        return Ruleset.preset(preset)

    def admits(self, game: Game) -> bool:
        """Whether the current moment of ``game`` is a decision point of this level."""
        if game.phase is not Phase.CHOOSE:
            return False
        rules = game.rules
        revealed = len(game.discards)  # the cards gone from the deck
        low, high = self.revealed
        return (
            game.stage in self.stage_range(rules)
            and low * rules.deck_size <= revealed <= high * rules.deck_size
            and game.gems[game.active_player] >= self.min_gems * rules.starting_gems
        )


_EDITIONS = ("dragon-stripes", "kali", "drago-rosso")

#: The difficulty levels, easiest first.  Figures for ``dragon-stripes`` (51 cards, 3 dangers, 40 gems each):
#:
#: * ``mini`` — the 8-card ``mini`` deck, any decision point (it has one stage);
#: * ``easy`` — early game at stage 0: at most a quarter of the deck revealed (12 of 51 cards);
#: * ``medium`` — one danger gone (stage 1) and a fifth to three fifths of the deck revealed (11 to 30 cards);
#: * ``late-game`` — a deep deck, at least 11/20 of it revealed (29 of 51 cards, 22 or fewer left), stage 1 or
#:   later (1-2), and a richer active player: at least 5/4 of the starting gems (50 gems).
#:
#: ``easy``, ``medium`` and ``late-game`` also deal ``kali`` and ``drago-rosso`` with the same shares of the deck.
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("mini", ("mini",), (0, None), (Fraction(0), Fraction(1))),
        Level("easy", _EDITIONS, (0, 0), (Fraction(0), Fraction(1, 4))),
        Level("medium", _EDITIONS, (1, 1), (Fraction(1, 5), Fraction(3, 5))),
        Level("late-game", _EDITIONS, (1, None), (Fraction(11, 20), Fraction(1)), min_gems=Fraction(5, 4)),
    )
}


def level_named(name: str) -> Level:
    """The :class:`Level` called ``name``.

    Raises
    ------
    ValueError
        For an unknown level; the message lists the levels.
    """
    try:
        return LEVELS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown level {name!r}; choose one of {', '.join(LEVELS)}") from None


@dataclass(frozen=True)
class Verdict:
    """The judgement of one decision, and the card that followed it.

    Attributes
    ----------
    action : Action
        What the learner chose: ``Action.REVEAL`` or ``Action.HOLD`` (their values are read as them).
    solution : TurnSolution
        The exact push and hold values of the situation (``Fraction``, gems).
    next_card : Card
        The engine's next card: what revealing did (or would have done).
    effect : CardEffect
        What that card does to the turn (:meth:`TurnState.effect <dragonkit.turn.TurnState.effect>`).
    after : Game
        The game after the active player reveals it (a replay; the hand's game is unchanged).
    """

    action: Action
    solution: TurnSolution
    next_card: Card
    effect: CardEffect
    after: Game

    def __post_init__(self) -> None:
        object.__setattr__(self, "action", Action(self.action))  # "reveal" and "hold" are read as the Actions

    @property
    def chosen_value(self) -> Fraction:
        """The expected gem change of the chosen action (gems): the push value for a reveal,
        the pot for a hold."""
        return Fraction(self.solution.push_value if self.action is Action.REVEAL else self.solution.hold_value)

    @property
    def given_up(self) -> Fraction:
        """Expected gems the choice gave up: the turn value minus :attr:`chosen_value`
        (gems; 0 when the choice is optimal, never negative)."""
        return Fraction(self.solution.value) - self.chosen_value

    @property
    def optimal(self) -> bool:
        """Whether the choice gave nothing up (on a tie, both choices are optimal)."""
        return self.given_up == 0


@dataclass(frozen=True)
class Hand:
    """A decision point of a real game, dealt by :func:`deal_hand`.

    Attributes
    ----------
    game : Game
        The game at the decision point (phase ``CHOOSE``); it is never changed.
    level : str
        The level that dealt it.

    Raises
    ------
    ValueError
        If ``game`` is not at a decision point where the active player may reveal or hold.
    """

    game: Game
    level: str

    def __post_init__(self) -> None:
        if not isinstance(self.game, Game) or self.game.phase is not Phase.CHOOSE:
            raise ValueError("a hand is a game where the active player may reveal or hold")

    @property
    def state(self) -> TurnState:
        """The active player's situation (the analysis's view of it)."""
        return TurnState.from_game(self.game)

    @property
    def stop_penalty(self) -> int:
        """What a stop would cost the active player now (gems): :meth:`Ruleset.penalty
        <dragonkit.rules.Ruleset.penalty>` of their gems at the current stage."""
        game = self.game
        return game.rules.penalty(game.gems[game.active_player], game.stage)

    @property
    def player(self) -> str:
        """The name of the active player, whose shoes the learner is in."""
        return self.game.players[self.game.active_player]

    def revealed(self) -> Game:
        """The game after the active player reveals the next card: a replay of the
        hand's game with one more reveal (the hand's game is unchanged)."""
        game = self.game
        return Game.replay(game.players, game.rules, game.seed, game.actions + (Action.REVEAL,))

    def judge(self, action: Action | str) -> Verdict:
        """Judge ``action`` in this situation and read the card that follows.

        Parameters
        ----------
        action : {"reveal", "hold"} or Action

        Returns
        -------
        Verdict

        Raises
        ------
        ValueError
            For an action other than reveal or hold.
        """
        if action not in (Action.REVEAL, Action.HOLD):  # Action is a str enum: "reveal" matches too
            raise ValueError(f"a decision is 'reveal' or 'hold', not {action!r}")
        state = self.state
        after = self.revealed()
        card = after.last_card
        assert card is not None  # the replay has just revealed it
        return Verdict(Action(action), solve_turn(state, exact=True), card, state.effect(card), after)


def _play(rules: Ruleset, level: Level, rng: random.Random) -> tuple[Game, list[tuple[int, TurnState]]]:
    """Play one game of seeded threshold bots to its end; return it with the qualifying decision
    points as (number of actions before it, situation) pairs."""
    seats = rng.randint(2, len(PLAYER_NAMES))
    game = Game(PLAYER_NAMES[:seats], rules, seed=rng.randrange(2**63))
    low, high = max(1, rules.starting_gems // 8), max(2, 2 * rules.starting_gems)
    bots = [ThresholdBot(rng.randint(low, high)) for _ in range(seats)]
    points = []
    while (seat := game.to_move) is not None:  # None once the game is over
        if level.admits(game):
            points.append((len(game.actions), TurnState.from_game(game)))
        game.apply(bots[seat].choose(game), by=seat)
    return game, points


def deal_hand(level: str = "easy", preset: str | None = None, rng: random.Random | int | None = None) -> Hand:
    """Deal a practice hand: a real decision point of the level (see :data:`LEVELS`).

    Parameters
    ----------
    level : {"mini", "easy", "medium", "late-game"}
    preset : str, optional
        The edition (default: the level's own, ``mini`` or ``dragon-stripes``); ``easy``,
        ``medium`` and ``late-game`` also deal ``kali`` and ``drago-rosso``.
    rng : random.Random or int, optional
        The random generator (advanced by the deal), or a seed for a new one.

    Returns
    -------
    Hand
        Its best action is the one drawn (reveal or hold, even odds) unless the
        search found none (see the module's notes).

    Raises
    ------
    ValueError
        For an unknown level, an edition the level does not deal, or an edition
        with too few stages for the level.
    """
    spec = level_named(level)
    rules = spec.rules(preset)
    if not spec.stage_range(rules):
        raise ValueError(f"level {level!r} needs a stage the edition {rules.name!r} does not have")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    wanted = rng.choice((Action.REVEAL, Action.HOLD))
    fallback, work, cards = None, 0, 0
    while cards < MAX_CARDS:
        game, points = _play(rules, spec, rng)
        cards += len(game.discards)
        rng.shuffle(points)
        for count, state in points:
            if fallback is None:
                fallback = (game, count)
            # revealing one card and holding is one way to push: if it beats the pot, revealing is best
            if one_card_value(state) > state.pot:
                if wanted is Action.REVEAL:
                    return _replayed(game, count, spec.name)
                continue
            if work >= MAX_WORK:
                break
            solution = solve_turn(state)
            work += solution.states
            if solution.best_action is wanted:
                return _replayed(game, count, spec.name)
        if work >= MAX_WORK:
            break
    if fallback is None:
        raise RuntimeError(f"no decision point of level {level!r} in {cards} cards of {rules.name!r}")
    return _replayed(*fallback, spec.name)


def _replayed(game: Game, count: int, level: str) -> Hand:
    """The hand at the decision point after ``count`` actions of ``game``."""
    return Hand(Game.replay(game.players, game.rules, game.seed, game.actions[:count]), level)


@dataclass
class Score:
    """The running score of a practice session: one entry per decision.

    Attributes
    ----------
    given_up : list of Fraction
        The expected gems each decision gave up, in order (gems; 0 for an optimal one).
    hands : list of (int, Action) pairs
        The hand's number and the action chosen, for each decision.
    """

    given_up: list[Fraction] = field(default_factory=list)
    hands: list[tuple[int, Action]] = field(default_factory=list)

    def record(self, number: int, verdict: Verdict) -> None:
        """Add the decision on hand ``number``."""
        self.given_up.append(verdict.given_up)
        self.hands.append((number, verdict.action))

    def reset(self) -> None:
        """Forget every decision."""
        self.given_up.clear()
        self.hands.clear()

    @property
    def decisions(self) -> int:
        """Decisions recorded."""
        return len(self.given_up)

    @property
    def optimal(self) -> int:
        """Decisions that gave nothing up."""
        return sum(1 for g in self.given_up if g == 0)

    @property
    def optimal_share(self) -> Fraction | None:
        """Share of optimal decisions (None before the first decision)."""
        return Fraction(self.optimal, self.decisions) if self.decisions else None

    @property
    def total(self) -> Fraction:
        """Expected gems given up over the session (gems)."""
        return sum(self.given_up, Fraction(0))

    @property
    def average(self) -> Fraction | None:
        """Expected gems given up per decision (gems; None before the first decision)."""
        return self.total / self.decisions if self.decisions else None

    def recent(self, count: int) -> list[tuple[int, Action, Fraction]]:
        """The last ``count`` decisions, newest first: (hand number, action, gems given up)."""
        return [(number, action, g) for (number, action), g in zip(self.hands, self.given_up)][::-1][:count]
