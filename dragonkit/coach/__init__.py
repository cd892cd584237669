"""The coach: the turn's expected gems and the game's chance of winning for each option of the player to move, which
option each view prefers, and why they disagree when they do.

* :mod:`.views` — :class:`Coach`, one per app, with what it keeps between decisions, and :class:`TwoViews`, its
  answer as data;
* :mod:`.reasons` — why the two views disagree, read from the game's public state;
* :mod:`.words` — the coach's sentences, in the page's language;
* :mod:`.rows` — what the coach said of a learner's decision, as a row of the class's record.

The panel that shows them is :mod:`dragonkit.ui.coach_panel`.
"""
