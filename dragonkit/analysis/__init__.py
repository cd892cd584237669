"""Exact analysis of a turn: push versus hold, optimal stopping, and any policy
as an absorbing Markov chain.

* :mod:`.state` — :class:`TurnState`, a decision point, and the next card's law;
* :mod:`.graph` — the reachable decision points, layer by layer;
* :mod:`.optimal` — backward induction: :func:`solve_turn`, :func:`fair_bounty`, :func:`takeover_gain`;
* :mod:`.policies` — optimal, hold-at-t, hold-after-k and custom policies;
* :mod:`.evaluate` — :func:`turn_chain`, :func:`evaluate_policy`, :func:`compare_policies`;
* :mod:`.table` — :func:`policy_table`, :func:`policy_shift`: the policy map.

Rewards are changes of the active player's own gems to the end of the turn
(RULES.md section 7); every chance outcome comes from the engine's own rule
arithmetic in :mod:`dragonkit.rules`.
"""

# Explicit imports: the chain laboratory's heavy libraries (pandas, scipy.sparse) load
# inside the functions that use them, so a Voilà kernel's play app starts without them.
from ..turn import TurnState
from .evaluate import PolicyEvaluation, Situation, TurnChain, compare_policies, evaluate_policy, turn_chain
from .optimal import TurnSolution, fair_bounty, solve_turn, takeover_gain
from .policies import FunctionPolicy, HoldAfterReveals, HoldAtPot, OptimalPolicy, Policy, optimal_policy
from .state import next_card_probabilities
from .table import PolicyTable, policy_map, policy_shift, policy_table

__all__ = [
    "FunctionPolicy",
    "HoldAfterReveals",
    "HoldAtPot",
    "OptimalPolicy",
    "Policy",
    "PolicyEvaluation",
    "PolicyTable",
    "Situation",
    "TurnChain",
    "TurnSolution",
    "TurnState",
    "compare_policies",
    "evaluate_policy",
    "fair_bounty",
    "next_card_probabilities",
    "optimal_policy",
    "policy_map",
    "policy_shift",
    "policy_table",
    "solve_turn",
    "takeover_gain",
    "turn_chain",
]
