"""St. George and the Dragon: a wheel board, one die, Knights racing to the Dragon's Lair.

Its slug is ``"stgeorge"``; :mod:`games` registers it.
"""

from engines.stgeorge.game import GAME

__all__ = ["GAME"]
