"""Dragonslayer (SPI, 1981): magicians roam the island of Urland gathering companions and
things, dodge the King's men, then face the Dragon Vermithrax Pejorative.

The game is being built: so far only its data (the map, the tiles, the parties) and their
validating loaders in :mod:`engines.dragonslayer.model`. It is not registered in
``engines.GAMES`` yet.
"""
