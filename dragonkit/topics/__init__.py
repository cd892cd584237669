"""What the lessons show, topic by topic: the view-models of the lesson notebooks and the apps, above the domain
(:mod:`dragonkit.analysis`) and the simulator (:mod:`dragonkit.simulate`), below the figures and the widgets.

* :mod:`.deck` — the deck a player can count (lesson 2); :mod:`.first_guess` — the first guesses of lesson 1;
* :mod:`.one_push` — one more card against holding (lesson 3);
* :mod:`.chain` — a turn's chain as tables (lesson 4); :mod:`.stopping` — backward induction step by step (lesson 5);
* :mod:`.coverage` — the Monte Carlo coverage lab (lesson 6); :mod:`.risk` — the spread of a turn's gems (lesson 7);
* :mod:`.editions` — the editions by the numbers (lesson 9); :mod:`.gems_or_wins` and :mod:`.pig` — the gem-optimal
  turn against the win-optimal game, and Pig, the warm-up (lesson 10);
* :mod:`.named` — the policies the lessons name, with their labels; :mod:`.sliders` — the ranges of the lessons'
  sliders; :mod:`.hands` — the hand trainer's deals and scores;
* :mod:`.sample_class` — a simulated class's record, for a page without a record (labelled a sample).

Every number comes from the domain below: a topic never re-implements a rule or a solver.
"""
