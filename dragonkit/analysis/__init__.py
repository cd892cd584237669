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

from ..turn import TurnState
from .optimal import TurnSolution, fair_bounty, solve_turn, takeover_gain
from .state import next_card_probabilities

# The chain laboratory (scipy.sparse, pandas) loads on first use: the play app needs
# only the backward induction above, and every Voilà visitor starts a fresh kernel.
_LAZY = {
    "PolicyEvaluation": "evaluate",
    "Situation": "evaluate",
    "TurnChain": "evaluate",
    "compare_policies": "evaluate",
    "evaluate_policy": "evaluate",
    "turn_chain": "evaluate",
    "FunctionPolicy": "policies",
    "HoldAfterReveals": "policies",
    "HoldAtPot": "policies",
    "OptimalPolicy": "policies",
    "Policy": "policies",
    "optimal_policy": "policies",
    "PolicyTable": "table",
    "policy_map": "table",
    "policy_shift": "table",
    "policy_table": "table",
}

__all__ = ["TurnState", "TurnSolution", "solve_turn", "next_card_probabilities", "fair_bounty", "takeover_gain", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
