"""Lions and Dragons Chess: a ball game for two Wizards on an 84-hex board."""

from engines.lions_dragons.game import GAME, LionsDragons

__all__ = ["GAME", "LionsDragons"]
