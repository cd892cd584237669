"""The widgets and figures of the lesson notebooks, one module per lesson topic.

The notebooks in ``notebooks/`` import from these modules, so a lesson's code
cell is a line or two; every number comes from :mod:`dragonkit.analysis`,
:mod:`dragonkit.markov` and :mod:`dragonkit.simulate`, every rule from
:mod:`dragonkit.rules`.
"""
