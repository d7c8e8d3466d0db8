"""Endings the players agree on: Dragon's Cave has no draw by agreement; a step that
resolves the secret answers of a phase reveals them.

The rule text settles every tie itself (closest to the lair, then a shared victory), so a
draw is never agreed: the coins decide. The secret answers of a phase (the cards and the
lair, the Purse splits, the hand picks) are shown when the last one is in and the game moves
to its next phase or round; an answer that only waits for the others reveals nothing, so it
can be taken back.
"""

from __future__ import annotations

from engines.base import Event, IllegalAction
from engines.dragons_cave.state import State

NO_DRAW = (
    "Dragon's Cave has no draw by agreement: the coins decide, and the rules settle ties "
    "themselves. `/game resign` gives up instead."
)


def draw_by_agreement(state: State) -> bool:
    """Never: the game has no drawn ending to agree."""
    return False


def agree_draw(state: State) -> tuple[State, list[Event]]:
    """Always refused (see :data:`NO_DRAW`)."""
    raise IllegalAction(NO_DRAW)


def revealed(before: State, after: State) -> bool:
    """Whether the step resolved a phase (its secrets are shown then) or ended the round."""
    return before["phase"] != after["phase"] or before["round"] != after["round"]
