"""Hand-run benchmarks: ``make bench`` (``python -m bench``) prints figures, never asserts.

:mod:`bench.latency` plays random legal games through the game host and reports how long
an action takes end to end, where that time goes, and how large the board pictures are;
:mod:`bench.boards` what one board picture costs to draw and to encode, per game.
"""
