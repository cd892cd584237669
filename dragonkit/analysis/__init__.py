"""Exact analysis of a turn: push versus hold, optimal stopping, and any policy
as an absorbing Markov chain.

* :mod:`.state` — :class:`TurnState`, a decision point, and the next card's law;
* :mod:`.graph` — the reachable decision points, layer by layer;
* :mod:`.optimal` — backward induction: :func:`solve_turn`, :func:`fair_bounty`, :func:`takeover_gain`;
* :mod:`.policies` — optimal, hold-at-t, hold-after-k and custom policies;
* :mod:`.evaluate` — :func:`turn_chain`, :func:`evaluate_policy`, :func:`compare_policies`;
* :mod:`.table` — :func:`policy_table`, :func:`policy_shift`: the policy map;
* :mod:`.stochastic_game` — :class:`StochasticGame`, :func:`solve_game`: two-player win
  probabilities by layered value iteration;
* :mod:`.pig` — :func:`solve_pig`, :func:`hold_at_outcomes`, :func:`hold_at_expected_score`:
  Pig, the warm-up, solved by that code;
* :mod:`.win` — :class:`WinSolver`: exact win probabilities of a two-player game of Dragon Stripes
  from its public state (:class:`~dragonkit.game_state.GameState`), the action values and the optimal policy;
  :mod:`.win_reduced` (the same, exact, on a smaller state), :mod:`.win_table` (the race model's table:
  ``dragon-stripes``, ``mini``), :mod:`.win_gems` (the gems model's table: ``kali``, ``drago-rosso``),
  :mod:`.win_late` (their last cards, exactly): imported from their modules.

What the lessons show, topic by topic (their main functions are exported here too):

* :mod:`.start` — :func:`fresh_turn`, the first decision of a turn at a stage;
* :mod:`.walk` — :func:`after_cards`, the situation after known cards;
* :mod:`.deck` — :func:`deck_after`, :func:`all_footprints`: the deck a player can count;
* :mod:`.one_push` — :func:`one_push`, :func:`break_even_pot`: one more card against holding;
* :mod:`.thresholds` — :func:`every_threshold`, :func:`threshold_verdict`: the hold-at-t policies;
* :mod:`.named` — :func:`named_policy`: the policies the lessons name;
* :mod:`.chain_tables` — :func:`threshold_chain`, :func:`chain_matrices`: a turn's chain as tables;
* :mod:`.stopping` — :func:`solved_graph`, :func:`bellman_terms`: backward induction step by step;
* :mod:`.risk` — :func:`moments_table`, :func:`catch_up`: the spread of a turn's gem change;
* :mod:`.market` — :func:`held_turn`, :func:`takeover`, :func:`fair_bounty_curve`,
  :func:`break_even_bid`, :func:`run_auction`: the takeover market;
* :mod:`.editions` — :func:`edition_profile`, :func:`compare_editions`: the editions by the numbers;
* :mod:`.gems_or_wins` — :func:`coach_map`, :func:`first_player_chances`, :func:`typical_deck`: the
  gem-optimal turn against the win-optimal game (and Pig's warm-up).

Rewards are changes of the active player's own gems to the end of the turn
(RULES.md section 7); every chance outcome comes from the engine's own rule
arithmetic in :mod:`dragonkit.rules`.
"""

# Explicit imports: the chain laboratory's heavy libraries (pandas, scipy.sparse) load
# inside the functions that use them, so a Voilà kernel's play app starts without them.
from ..turn import TurnState
from .chain_tables import chain_matrices, threshold_chain
from .deck import all_footprints, deck_after
from .editions import compare_editions, edition_profile
from .evaluate import PolicyEvaluation, Situation, TurnChain, compare_policies, evaluate_policy, turn_chain
from .gems_or_wins import coach_map, first_player_chances, typical_deck
from .market import break_even_bid, fair_bounty_curve, held_turn, run_auction, takeover
from .named import named_policy
from .one_push import break_even_pot, one_push
from .optimal import SolvedTurn, TurnSolution, fair_bounty, solve_turn, takeover_gain
from .pig import PigSolution, hold_at_expected_score, hold_at_outcomes, pig_game, solve_pig
from .policies import FunctionPolicy, HoldAfterReveals, HoldAtPot, OptimalPolicy, Policy, optimal_policy
from .risk import catch_up, moments_table
from .start import fresh_turn
from .state import next_card_probabilities
from .stochastic_game import GameSolution, StochasticGame, solve_game
from .stopping import bellman_terms, solved_graph
from .table import PolicyTable, policy_map, policy_shift, policy_table
from .thresholds import every_threshold, threshold_verdict
from .walk import after_cards
from .win import WinSolver

__all__ = [
    "FunctionPolicy",
    "GameSolution",
    "HoldAfterReveals",
    "HoldAtPot",
    "OptimalPolicy",
    "PigSolution",
    "Policy",
    "PolicyEvaluation",
    "PolicyTable",
    "Situation",
    "SolvedTurn",
    "StochasticGame",
    "TurnChain",
    "TurnSolution",
    "TurnState",
    "WinSolver",
    "after_cards",
    "all_footprints",
    "bellman_terms",
    "break_even_bid",
    "break_even_pot",
    "catch_up",
    "chain_matrices",
    "coach_map",
    "compare_editions",
    "compare_policies",
    "deck_after",
    "edition_profile",
    "evaluate_policy",
    "every_threshold",
    "fair_bounty",
    "fair_bounty_curve",
    "first_player_chances",
    "fresh_turn",
    "held_turn",
    "hold_at_expected_score",
    "hold_at_outcomes",
    "moments_table",
    "named_policy",
    "next_card_probabilities",
    "one_push",
    "optimal_policy",
    "pig_game",
    "policy_map",
    "policy_shift",
    "policy_table",
    "run_auction",
    "solve_game",
    "solve_pig",
    "solve_turn",
    "solved_graph",
    "takeover",
    "takeover_gain",
    "threshold_chain",
    "threshold_verdict",
    "turn_chain",
    "typical_deck",
]
