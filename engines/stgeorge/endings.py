"""Endings the players agree on: St. George has no draw by agreement, and hides nothing.

The rule text knows only wins (the Dragon's, or a castle's), so the players cannot agree a
draw; a player who wants out resigns. Nothing in the game is hidden, so only the die (chance,
which the host sees by watching the rng) stops a move being taken back.
"""

from __future__ import annotations

from engines.base import Event, IllegalAction
from engines.stgeorge.state import State

NO_DRAW = (
    "St. George and the Dragon has no draw by agreement: the Dragon or a castle wins. "
    "`/game resign` gives up instead."
)


def draw_by_agreement(state: State) -> bool:
    """Never: the game has no drawn ending to agree."""
    return False


def agree_draw(state: State) -> tuple[State, list[Event]]:
    """Always refused (see :data:`NO_DRAW`)."""
    raise IllegalAction(NO_DRAW)


def revealed(before: State, after: State) -> bool:
    """Never: every seat sees the whole board."""
    return False
