r"""The chance of winning the game after each option, estimated by Monte Carlo from what the table shows.

Where no exact model of the game applies (more than two players, or editions whose final danger
costs only the pot), the coach estimates each option's chance of winning by playing the rest of
the game many times:

1. **Public information only.**  The order of the cards not yet revealed is hidden; their
   composition is not.  Each simulated game starts from a fresh shuffle of that composition
   (:meth:`Game.redealt <dragonkit.engine.Game.redealt>`), never from the real deck.
2. **Every option on the same shuffles** (common random numbers).  The :math:`i`-th shuffle is
   played once after each option, so the options are compared on the same cards and the difference
   between two options is far less noisy than either estimate alone.
3. **Bots finish the game.**  After the option, every seat (the player's own included) is played by
   one policy, ``threshold:20`` by default (:class:`~dragonkit.bots.ThresholdBot`: hold at a pot of
   20 gems): about 1,800 games a second on one core, where the coach bot, solving every turn
   exactly, plays fewer than 100 (``benchmarks/bench_win_chance.py``).  The estimate is the chance
   of winning *when everyone plays on that way*: a rollout policy, not the best play.
4. **An interval for each option** (the win share, a tie counting ``1/k``, with its Wilson score
   interval, :func:`~dragonkit.simulate.stats.proportion_estimate`) and one for each **difference**
   between options, from the paired games (:func:`~dragonkit.simulate.stats.mean_estimate`).
5. **Deterministic.**  The generator (:func:`numpy.random.default_rng`) is seeded from the public
   state: the same situation gives the same shuffles, whatever the hidden order.  A time budget may
   stop the run early; the games played are always the first ones of the same sequence, and their
   number is reported.

The estimator is unbiased for the rollout policy's game; its standard error shrinks as
:math:`1/\sqrt{n}` with the number of shuffles :math:`n`.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass

import numpy as np

from ..bots import bot_seed
from ..engine import Game
from ..game_state import GameState
from ..rules import whole_number
from ..turn import Action
from .games import BotSpec, parse_bots
from .stats import mean_estimate, proportion_estimate

__all__ = [
    "ROLLOUT_POLICY",
    "ROLLOUT_THRESHOLD",
    "OptionEstimate",
    "WinChanceEstimate",
    "estimate_win_chances",
    "public_seed",
]

#: The rollout policy by default: the kit's threshold bot, holding at a pot of 20 gems (a :class:`BotSpec`).
ROLLOUT_THRESHOLD = 20
ROLLOUT_POLICY = f"threshold:{ROLLOUT_THRESHOLD}"


@dataclass(frozen=True)
class OptionEstimate:
    """One option's estimated chance of winning.

    Attributes
    ----------
    action : Action
    estimate : float
        The mover's mean win share over the games (a tie counts ``1/k``).
    ci_low, ci_high : float
        The Wilson score interval at :attr:`WinChanceEstimate.level`.
    """

    action: Action
    estimate: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class WinChanceEstimate:
    """The result of :func:`estimate_win_chances`.

    Attributes
    ----------
    player : int
        Seat of the player whose chance is estimated (the one to move).
    options : tuple of OptionEstimate
        One per legal action, in the order of ``game.legal_actions()``.
    games : int
        Shuffles played, each once after every option (games per option).
    policy : str
        The rollout policy (a bot spec, e.g. ``"threshold:20"``).
    level : float
        The intervals' confidence level.
    seconds : float
        Wall time of the run.
    cards_left : int
        Cards in the deck that were shuffled.
    seed : int
        The generator's seed (:func:`public_seed` by default).
    shares : ndarray, shape (options, games)
        The mover's win share in each game, by option and shuffle (the paired data).
    """

    player: int
    options: tuple[OptionEstimate, ...]
    games: int
    policy: str
    level: float
    seconds: float
    cards_left: int
    seed: int
    shares: np.ndarray

    def option(self, action: Action | str) -> OptionEstimate:
        """The estimate of ``action``.

        Raises
        ------
        KeyError
            If ``action`` was not an option.
        """
        for option in self.options:
            if option.action == action:
                return option
        raise KeyError(action)

    @property
    def best(self) -> Action:
        """The option of the highest estimate (the first one on a tie)."""
        return max(self.options, key=lambda o: o.estimate).action

    def difference(self, first: Action | str, second: Action | str) -> tuple[float, float, float]:
        """``first``'s chance minus ``second``'s, from the paired games, with its normal interval.

        Returns
        -------
        tuple of three floats
            ``(difference, low, high)``: the mean difference of the paired win shares and its
            confidence interval at :attr:`level`.

        Raises
        ------
        KeyError
            If either action was not an option.
        """
        actions = [o.action for o in self.options]
        try:
            pairs = self.shares[actions.index(Action(first))] - self.shares[actions.index(Action(second))]
        except ValueError:
            raise KeyError((first, second)) from None
        if self.games < 2:
            return float(pairs.mean()), -1.0, 1.0
        est = mean_estimate(pairs, self.level)
        return est["estimate"], est["ci_low"], est["ci_high"]


def public_seed(state: GameState) -> int:
    """A seed drawn from the public state alone (its numbers, never the deck's order): the same
    situation gives the same seed in every process (Python's ``hash`` of strings would not).

    Parameters
    ----------
    state : GameState
        What the table shows.

    Returns
    -------
    int
        A seed in ``0 .. 2**63 - 1``: the first 63 bits of a SHA-256 of the rules and the state's numbers.
    """
    data = [
        state.rules.to_dict(),
        state.gems,
        state.treasure,
        [count for _, count in state.deck.counts()],
        state.stage,
        state.owner,
        state.active,
        state.phase.value,
        state.offer_queue,
        state.position,
        state.pot,
    ]
    digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def estimate_win_chances(
    game: Game,
    games: int = 2000,
    seconds: float | None = 1.5,
    policy: str = ROLLOUT_POLICY,
    level: float = 0.95,
    seed: int | None = None,
) -> WinChanceEstimate:
    """Estimate the chance of winning of the player to move after each of their legal actions.

    Parameters
    ----------
    game : Game
        A game going on; it is not changed.
    games : int
        Shuffles to play (each after every option): the games per option.
    seconds : float or None
        A time budget: no new shuffle is started once it is spent (at least two are played).
        None plays all ``games``, as a test must to be repeatable.
    policy : str
        The bot spec that plays every seat after the option (see :class:`~dragonkit.simulate.games.BotSpec`).
    level : float
        Confidence level of the intervals.
    seed : int, optional
        Seeds the shuffles; by default :func:`public_seed` of the public state.

    Returns
    -------
    WinChanceEstimate

    Raises
    ------
    ValueError
        If the game is over, ``games < 1``, or the policy is not a bot spec.
    """
    if game.is_over:
        raise ValueError("the game is over: there is no option to estimate")
    games = whole_number(games, "games", minimum=1)
    (spec,) = parse_bots([policy])
    state = game.state
    seed = public_seed(state) if seed is None else seed
    mover = game.to_move
    assert mover is not None  # the game goes on
    actions = game.legal_actions()
    cards = game.remaining.cards()
    rng = np.random.default_rng(seed)
    shares = np.zeros((len(actions), games))
    start = time.perf_counter()
    played = 0
    for played in range(1, games + 1):
        order = [cards[i] for i in rng.permutation(len(cards))]
        for k, action in enumerate(actions):
            shares[k, played - 1] = _play_out(game.redealt(order, events=False), mover, action, spec, seed, played)
        if seconds is not None and played >= 2 and time.perf_counter() - start > seconds:
            break
    shares = shares[:, :played]
    options = []
    for action, row in zip(actions, shares, strict=True):
        est = proportion_estimate(float(row.sum()), played, level)
        options.append(OptionEstimate(action, float(row.mean()), est["ci_low"], est["ci_high"]))
    return WinChanceEstimate(
        player=mover,
        options=tuple(options),
        games=played,
        policy=str(spec),
        level=level,
        seconds=time.perf_counter() - start,
        cards_left=len(cards),
        seed=seed,
        shares=shares,
    )


def _play_out(game: Game, mover: int, action: Action, spec: BotSpec, seed: int, index: int) -> float:
    """``mover`` takes ``action`` in ``game`` (a redealt copy), then bots play to the end: the mover's win share.
    A random policy's bots are seeded by the shuffle and the seat alone, the same after every option."""
    game.apply(action, by=mover)
    bots = [spec.make(bot_seed(seed + index, seat)) for seat in range(len(game.players))]
    while (seat := game.to_move) is not None:  # None once the game is over
        game.apply(bots[seat].choose(game), by=seat)
    return float(game.returns()[mover])
