"""The turn as a decision problem: push versus hold, optimal stopping, and any policy as an absorbing Markov chain.

* :mod:`.state` — the next card's law at a decision point (:class:`~dragonkit.turn.TurnState`);
* :mod:`.start` — :func:`fresh_turn`, the first decision of a turn at a stage;
* :mod:`.walk` — :func:`after_cards`, the situation after known cards;
* :mod:`.graph` — the reachable decision points, layer by layer;
* :mod:`.optimal` — backward induction: :func:`solve_turn`, :func:`fair_bounty`, :func:`takeover_gain`;
* :mod:`.options` — :class:`TurnOptions`, each option of the player to move in expected gems;
* :mod:`.policies` — optimal, hold-at-h, hold-after-k, never-hold and custom policies;
* :mod:`.evaluate` — :func:`turn_chain`, :func:`evaluate_policy`, :func:`compare_policies`: a policy's turn as an
  absorbing chain, its fundamental matrix N = (I − Q)⁻¹ and absorption probabilities B = N R;
* :mod:`.table` — :func:`policy_table`, :func:`policy_shift`, :func:`hold_from`: the policy map;
* :mod:`.thresholds` — :func:`every_threshold`, :func:`threshold_verdict`: the hold-at-h policies compared;
* :mod:`.one_card` — the value of one more card, then the optimal play;
* :mod:`.market` — :func:`held_turn`, :func:`takeover`, :func:`fair_bounty_curve`, :func:`break_even_bid`,
  :func:`run_auction`: the takeover market.

Rewards are changes of the active player's own gems to the end of the turn (RULES.md section 7); every chance
outcome comes from the engine's own rule arithmetic in :mod:`dragonkit.rules`.
"""

# Explicit imports: the chain laboratory's heavy libraries (pandas, scipy.sparse) load inside the functions that use
# them, so a Voilà kernel's play app starts without them.
from ...turn import TurnState
from .evaluate import PolicyEvaluation, Situation, TurnChain, compare_policies, evaluate_policy, turn_chain
from .market import break_even_bid, fair_bounty_curve, held_turn, run_auction, takeover
from .optimal import SolvedTurn, TurnSolution, fair_bounty, solve_turn, takeover_gain
from .options import TurnOptions
from .policies import FunctionPolicy, HoldAfterReveals, HoldAtPot, NeverHold, OptimalPolicy, Policy, optimal_policy
from .start import fresh_turn
from .state import next_card_probabilities
from .table import PolicyTable, hold_from, policy_map, policy_shift, policy_table
from .thresholds import every_threshold, threshold_verdict
from .walk import after_cards

__all__ = [
    "FunctionPolicy",
    "HoldAfterReveals",
    "HoldAtPot",
    "NeverHold",
    "OptimalPolicy",
    "Policy",
    "PolicyEvaluation",
    "PolicyTable",
    "Situation",
    "SolvedTurn",
    "TurnChain",
    "TurnOptions",
    "TurnSolution",
    "TurnState",
    "after_cards",
    "break_even_bid",
    "compare_policies",
    "evaluate_policy",
    "every_threshold",
    "fair_bounty",
    "fair_bounty_curve",
    "fresh_turn",
    "held_turn",
    "hold_from",
    "next_card_probabilities",
    "optimal_policy",
    "policy_map",
    "policy_shift",
    "policy_table",
    "run_auction",
    "solve_turn",
    "takeover",
    "takeover_gain",
    "threshold_verdict",
    "turn_chain",
]
