"""Lions and Dragons Chess: a ball game for two Wizards on an 84-hex board."""

from engines import register
from engines.lions_dragons.game import LionsDragons

GAME = register(LionsDragons())
