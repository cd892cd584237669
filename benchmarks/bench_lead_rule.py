"""Where ``kali`` and ``drago-rosso`` are won: one rule about the lead against the gem coach (an experiment, not a bot).

In these editions the last danger card ends the game on the gems.  The experiment's player follows
:class:`~dragonkit.bots.CoachBot` except for one rule: while the last danger card is in the deck, hold when the pot
banked would put it ahead of the other player and it is not ahead now.  Seeded 2-player games against the coach,
seats alternating; the win rate with its Wilson interval.  It measures how much of these games the expected gems of
the turn miss, for the model of the game still to be written (``docs/win.md``, "Not done yet").

Run: ``PYTHONPATH=. python benchmarks/bench_lead_rule.py [--games 2000] [--presets kali drago-rosso]``
"""

from __future__ import annotations

import argparse

from dragonkit.bots import Bot, CoachBot
from dragonkit.engine import Game
from dragonkit.game_state import GameState, Phase
from dragonkit.rules import Ruleset
from dragonkit.simulate.stats import proportion_estimate
from dragonkit.turn import Action


class LeadRule(Bot):
    """The coach, except: hold to take the lead while the last danger card is in the deck."""

    kind = "lead-rule"

    def __init__(self) -> None:
        self._coach = CoachBot()

    def choose(self, game: Game) -> Action:
        mover = game.to_move
        assert mover is not None
        state = GameState.from_game(game)
        if Action.HOLD in game.legal_actions() and state.last_danger_in_deck:
            banked = state.child(Action.HOLD)
            while banked.phase is Phase.OFFER:  # nobody takes over: the pot is banked
                banked = banked.child(Action.DECLINE)
            before = state.gems[mover], max(g for seat, g in enumerate(state.gems) if seat != mover)
            after = banked.gems[mover], max(g for seat, g in enumerate(banked.gems) if seat != mover)
            if before[0] <= before[1] and after[0] > after[1]:
                return Action.HOLD
        return self._coach.choose(game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--presets", nargs="*", default=["kali", "drago-rosso"])
    parser.add_argument("--seed", type=int, default=10_000)
    args = parser.parse_args()
    for name in args.presets:
        rules, won = Ruleset.preset(name), 0.0
        for i in range(args.games):
            seats: list[Bot] = [LeadRule(), CoachBot()] if i % 2 == 0 else [CoachBot(), LeadRule()]
            game = Game(["a", "b"], rules, seed=args.seed + i)
            while not game.is_over:
                mover = game.to_move
                assert mover is not None
                game.apply(seats[mover].choose(game))
            won += game.returns()[i % 2]
        found = proportion_estimate(won, args.games)
        print(
            f"{name}: the lead rule won {found['estimate']:.3f} of {args.games} games against the coach "
            f"(95 % interval {found['ci_low']:.3f}-{found['ci_high']:.3f})"
        )


if __name__ == "__main__":
    main()
