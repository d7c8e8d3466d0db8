"""The computer player contract, the easy player and the registry of strong ones."""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any, Protocol

from engines.base import Game

LEVELS = ("easy", "strong")
"""Levels a table can ask for: random legal play, or the game's best."""

STRONG_MODULES = {
    "stgeorge": "players.stgeorge",
    "dragons-cave": "players.dragons_cave",
    "lions-dragons": "players.lions_dragons",
    "dragonslayer": "players.dragonslayer",
}
"""Where each game's strong player lives (a module exposing ``PLAYER``)."""


@dataclass(frozen=True)
class Decision:
    """A computer player's answer: the action, and a short line saying why ("" if none)."""

    action: str
    why: str = ""


class Player(Protocol):
    def choose(self, game: Game, state: Any, seat: int, rng: random.Random) -> Decision:
        """An action ``seat`` may take now in ``state`` (as observed by that seat).

        ``rng`` is the only source of chance; the same inputs give the same answer.
        """


class EasyPlayer:
    """Any legal action, uniformly at random."""

    def choose(self, game: Game, state: Any, seat: int, rng: random.Random) -> Decision:
        choices = game.legal_actions(state, seat)
        return Decision(rng.choice(choices).action)


EASY = EasyPlayer()


def player_for(slug: str, level: str) -> Player:
    """The computer player of game ``slug`` at ``level`` (``easy`` or ``strong``)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    if level == "easy" or slug not in STRONG_MODULES:
        return EASY
    return importlib.import_module(STRONG_MODULES[slug]).PLAYER
