"""Dragonslayer (SPI, 1981): magicians roam the island of Urland gathering companions and
things, dodge the King's men, then face the Dragon Vermithrax Pejorative.

:mod:`~engines.dragonslayer.model` reads and checks the data (the map, the tiles, the
parties); :mod:`~engines.dragonslayer.game` is the engine the host plays through.
"""

from engines.dragonslayer.game import GAME

__all__ = ["GAME"]
