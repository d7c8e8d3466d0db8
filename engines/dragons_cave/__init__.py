"""Dragon's Cave: Dwarves play secret cards to walk into the cave while the Dragon guesses
where to sit; the richest player wins."""

from engines.dragons_cave.game import GAME

__all__ = ["GAME"]
