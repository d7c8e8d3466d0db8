"""St. George and the Dragon: a wheel board, one die, Knights racing to the Dragon's Lair.

Importing the package registers the game as ``"stgeorge"``.
"""

from engines.stgeorge.game import GAME, StGeorge

__all__ = ["GAME", "StGeorge"]
