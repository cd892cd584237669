"""Thousands of seeded random games, checked after every single action.

For every preset, 1,000 games with 2 to 6 players and random legal actions.
After each action: gems are conserved, every card is accounted for, the
numbers stay in range, the phase agrees with the legal actions, and an
independent reference model written from shared/RULES.md predicts the state.
Every game must end within a bounded number of actions.

A hypothesis test then throws random action sequences, illegal ones included,
at the engine: a refused action must leave the game exactly as it was.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from math import floor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dragonkit.engine import Game, IllegalActionError
from dragonkit.game_state import Phase
from dragonkit.rules import Card, CardKind, FinalDanger, Ruleset
from dragonkit.turn import Action

PRESET_NAMES = ["dragon-stripes", "kali", "drago-rosso", "mini"]
GAMES_PER_PRESET = 1000
CHUNKS = 4  # the games of a preset are split into a few test cases for readable reports

REVEAL, HOLD, TAKE, DECLINE = Action.REVEAL, Action.HOLD, Action.TAKE_OVER, Action.DECLINE


class Model:
    """A reference model of the public state, written from RULES.md only.

    It is told which card was revealed and predicts everything else.
    """

    def __init__(self, rules: Ruleset, n: int):
        self.rules, self.n = rules, n
        self.gems = [rules.starting_gems] * n
        self.treasure = rules.treasure
        self.pot = self.position = self.stage = self.owner = self.active = 0
        self.phase = Phase.MUST_REVEAL
        self.queue: list[int] = []
        self.ending = None
        self.cards_left = rules.deck_size

    def _rate_mult(self, stage):
        s = self.rules.stages[stage]
        return Fraction(s.rate), s.multiplier

    def _end_turn(self):  # RULES 3.5: the seat after the turn owner
        self.pot = self.position = 0
        if self.cards_left == 0:  # custom decks only
            self.phase, self.ending = Phase.OVER, "deck_empty"
            return
        self.owner = (self.owner + 1) % self.n
        self.active, self.phase = self.owner, Phase.MUST_REVEAL

    def _end_game(self, ending):
        self.treasure += self.pot
        self.pot = 0
        self.phase, self.ending = Phase.OVER, ending

    def reveal(self, card: Card):
        self.cards_left -= 1
        a = self.active
        if card.kind is CardKind.FOOTPRINT:
            self.position += card.steps
            if self.position > len(self.rules.stripe_values):  # past the last stripe: the head
                self.gems[a] += self.pot + self.treasure
                self.pot = self.treasure = 0
                self._end_game("head")
                return
            _, mult = self._rate_mult(self.stage)
            placed = min(self.rules.stripe_values[self.position - 1] * mult, self.treasure)
            self.treasure -= placed
            self.pot += placed
            if self.cards_left == 0:
                self._end_game("deck_empty")
            else:
                self.phase = Phase.CHOOSE
            return
        if card.kind is CardKind.DANGER:
            self.stage += 1
            if self.stage == self.rules.danger_cards:  # the last danger ends the game
                lost = self.gems[a] if self.rules.final_danger is FinalDanger.ALL_GEMS else 0
                self.gems[a] -= lost
                self.treasure += lost
                self._end_game("final_danger")
                return
        rate, _ = self._rate_mult(self.stage)
        fine = floor(rate * self.gems[a])
        self.gems[a] -= fine
        self.treasure += fine + self.pot
        self._end_turn()

    def bounty(self):
        return floor(self.rules.bounty_rate * self.pot)

    def hold(self):
        b = self.bounty()
        self.queue = [(self.active + k) % self.n for k in range(1, self.n)]
        self.queue = [p for p in self.queue if self.gems[p] >= b]
        self._next_offer()

    def _next_offer(self):
        if self.queue:
            self.phase = Phase.OFFER
            return
        self.gems[self.active] += self.pot
        self.pot = 0
        self._end_turn()

    def take_over(self):
        taker, b = self.queue[0], self.bounty()
        self.gems[taker] -= b
        self.gems[self.active] += b
        self.active, self.queue, self.phase = taker, [], Phase.MUST_REVEAL

    def decline(self):
        self.queue.pop(0)
        self._next_offer()


def check(game: Game, model: Model, rules: Ruleset, full: Counter, start_total: int, n: int) -> None:
    # gems are conserved and never negative
    assert sum(game.gems) + game.treasure + game.pot == start_total
    assert min(game.gems) >= 0 and game.treasure >= 0 and game.pot >= 0
    # every card is accounted for
    remaining = game.remaining
    discards = game.discards
    assert len(discards) + remaining.total == rules.deck_size
    assert len(game._deck) == remaining.total
    seen = Counter(discards)
    for card, count in remaining.counts():
        assert seen[card] + count == full[card], card
    assert sum(seen.values()) + sum(c for _, c in remaining.counts()) == sum(full.values())
    # ranges
    assert 0 <= game.position <= rules.head
    assert (game.position == rules.head) == (game.ending == "head")
    assert 0 <= game.stage <= rules.danger_cards
    assert 0 <= game.turn_owner < n and 0 <= game.active_player < n
    assert game.bounty == floor(rules.bounty_rate * game.pot)
    # phase and legal actions agree
    phase, legal = game.phase, game.legal_actions()
    assert game.is_over == (phase is Phase.OVER) == (legal == []) == (game.to_move is None)
    assert (game.ending is None) == (not game.is_over) == (game.winners == ())
    if phase is Phase.MUST_REVEAL:
        assert legal == [REVEAL] and game.to_move == game.active_player and game.offer_to is None
        if game.position == 0:
            assert game.pot == 0
    elif phase is Phase.CHOOSE:
        assert legal == [REVEAL, HOLD] and game.to_move == game.active_player and game.offer_to is None
        assert 1 <= game.position <= rules.n_stripes
    elif phase is Phase.OFFER:
        assert legal == [TAKE, DECLINE]
        assert game.offer_to == game.to_move and game.offer_to != game.active_player
        assert game.gems[game.offer_to] >= game.bounty
        assert 1 <= game.position <= rules.n_stripes
    else:
        assert game.pot == 0
        best = max(game.gems)
        assert game.winners == tuple(i for i, g in enumerate(game.gems) if g == best)
    if rules.danger_cards and game.stage == rules.danger_cards:
        assert game.ending == "final_danger"
    # the reference model agrees
    assert list(game.gems) == model.gems
    assert (game.treasure, game.pot, game.stage, game.phase, game.ending) == (
        model.treasure,
        model.pot,
        model.stage,
        model.phase,
        model.ending,
    )
    if not game.is_over:
        assert (game.position, game.turn_owner, game.active_player) == (model.position, model.owner, model.active)
        if phase is Phase.OFFER:
            assert game.offer_to == model.queue[0]


def play_one(rules: Ruleset, seed: int) -> Game:
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    game = Game([f"P{i}" for i in range(n)], rules, seed=rng.getrandbits(48))
    model = Model(rules, n)
    full = Counter(rules.composition.cards())
    start_total = rules.starting_gems * n + rules.treasure
    p_reveal = rng.uniform(0.2, 0.95)
    p_take = rng.uniform(0.0, 1.0)
    # Each reveal allows at most one hold, each hold at most n-1 answers, each takeover forces a reveal.
    bound = rules.deck_size * (n + 1)
    check(game, model, rules, full, start_total, n)
    for _ in range(bound):
        if game.is_over:
            break
        phase = game.phase
        if phase is Phase.MUST_REVEAL or (phase is Phase.CHOOSE and rng.random() < p_reveal):
            card = game.apply(REVEAL, by=game.to_move)
            assert game.discards[-1] == card and game.last_card == card
            model.reveal(card)
        elif phase is Phase.CHOOSE:
            game.apply(HOLD, by=game.to_move)
            model.hold()
        elif rng.random() < p_take:
            game.apply(TAKE, by=game.to_move)
            model.take_over()
        else:
            game.apply(DECLINE, by=game.to_move)
            model.decline()
        check(game, model, rules, full, start_total, n)
    assert game.is_over, f"game {seed} did not end within {bound} actions"
    assert len(game.actions) <= bound
    if rules.danger_cards:  # the last danger always comes before the deck runs out
        assert game.ending in ("head", "final_danger")
    else:
        assert game.ending in ("head", "deck_empty")
    if game.ending == "head":
        assert game.treasure == 0
    return game


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", PRESET_NAMES)
@pytest.mark.slow
def test_random_games(name, chunk):
    rules = Ruleset.preset(name)
    per_chunk = GAMES_PER_PRESET // CHUNKS
    endings, player_counts, with_takeover = Counter(), Counter(), 0
    for i in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        game = play_one(rules, seed=i * 10007 + PRESET_NAMES.index(name))
        endings[game.ending] += 1
        player_counts[len(game.players)] += 1
        with_takeover += TAKE in game.actions
    # the random games really exercise both endings, every table size and takeovers
    assert endings["final_danger"] > 0 and endings["head"] > 0
    assert set(player_counts) == {2, 3, 4, 5, 6}
    assert with_takeover > 0


def test_random_games_with_a_custom_deck_without_dangers():
    rules = Ruleset(
        name="no-danger",
        stripe_values=tuple(range(1, 31)),
        footprints={1: 6, 2: 4},
        stop_cards=3,
        danger_cards=0,
        stages=((Fraction(1, 3), 2),),
        bounty_rate=Fraction(1, 2),
    )
    endings = Counter(play_one(rules, seed=i).ending for i in range(300))
    assert endings["deck_empty"] > 0


# -- random action sequences, illegal ones included ------------------------------------------

ACTION_CHOICES = [a.value for a in Action] * 3 + ["push", "REVEAL", "", None, 3, "take over"]


def snapshot(game: Game):
    return (
        json.dumps(game.public_state(), sort_keys=True),
        game.events,
        game.actions,
        list(game._deck),
        game.gem_history,
    )


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(PRESET_NAMES),
    n=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    steps=st.lists(
        st.tuples(st.sampled_from(ACTION_CHOICES), st.one_of(st.none(), st.none(), st.integers(-1, 6))),
        max_size=150,
    ),
)
def test_refused_actions_change_nothing(name, n, seed, steps):
    rules = Ruleset.preset(name)
    game = Game([f"P{i}" for i in range(n)], rules, seed=seed)
    start_total = rules.starting_gems * n + rules.treasure
    for action, by in steps:
        legal_values = [a.value for a in game.legal_actions()]
        should_work = action in legal_values and (by is None or by == game.to_move)
        before = snapshot(game)
        try:
            game.apply(action, by=by)
        except IllegalActionError as exc:
            assert isinstance(exc, ValueError) and str(exc)
            assert not should_work, f"{action!r} by {by!r} was refused: {exc}"
            assert snapshot(game) == before
        else:
            assert should_work, f"{action!r} by {by!r} was accepted in phase {before[0]}"
            assert game.actions[-1].value == action
        assert sum(game.gems) + game.treasure + game.pot == start_total
