"""Figures from games and analyses, each with its text alternative (:class:`~dragonkit.plots.text.FigureText`).

Most are matplotlib figures, built with the object-oriented API (:class:`matplotlib.figure.Figure`),
never through pyplot's global state, so a long-running app leaks none.  Titles,
axis labels and legends are in the current language of :mod:`dragonkit.i18n`
(draw the figure again after switching), and so are their numbers (``0.375`` /
``0,375``: :mod:`dragonkit.i18n.numbers`); :func:`figure_png` writes the axes'
tick labels the same way.

The gems over a game (:func:`gems_over_game`), which the play app shows at the end of every game, is an
SVG written as text instead (:mod:`dragonkit.plots.game`).  Importing this package loads no matplotlib:
each function that draws with it imports it, so that a visitor's kernel, which draws only that SVG, never
pays for matplotlib (about half a CPU-second).
"""
