"""Winning the whole game: the chance of winning of each player from a public state, both playing to win.

* :mod:`.solver` — :class:`WinSolver`: exact win probabilities of a two-player game from its public state
  (:class:`~dragonkit.game_state.GameState`), the action values and the optimal policy;
* :mod:`.reduced` — the same, exact, on a smaller state;
* :mod:`.race` — the race model's table (``dragon-stripes``, ``mini``): whoever reaches the head wins, whoever
  reveals the last danger card loses;
* :mod:`.gems` — the gems model's table (``kali``, ``drago-rosso``): the game ends on the gems;
* :mod:`.late` — the last cards of any two-player game, exactly;
* :mod:`.model` — which of them answers a game (:func:`~.model.model_for`, :func:`~.model.solver_for`), with one
  tolerance for "equally good" (:data:`~.model.EQUAL`), and the tables solved once per machine in the background.
"""
