"""The computer player contract and the easy player.

Each game's strong player is registered with its engine in :mod:`games`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from engines.base import Game

LEVELS = ("easy", "strong")
"""Levels a table can ask for: random legal play, or the game's best."""


@dataclass(frozen=True)
class Decision:
    """A computer player's answer: the action, and a short line saying why ("" if none)."""

    action: str
    why: str = ""


class Player(Protocol):
    def choose(self, game: Game[Any], state: Any, seat: int, rng: random.Random) -> Decision:
        """An action ``seat`` may take now in ``state`` (as observed by that seat).

        ``rng`` is the only source of chance; the same inputs give the same answer.
        """


class EasyPlayer:
    """Any legal action, uniformly at random."""

    def choose(self, game: Game[Any], state: Any, seat: int, rng: random.Random) -> Decision:
        choices = game.legal_actions(state, seat)
        return Decision(rng.choice(choices).action)


EASY = EasyPlayer()
