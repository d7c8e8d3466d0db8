"""Setting up St. George and the Dragon: no options, the seats of a table, the first state."""

from __future__ import annotations

from typing import Any

from engines import options as schema
from engines.base import BadOptions, Role
from engines.stgeorge.board import LAIR, current_board
from engines.stgeorge.moves import DRAGON
from engines.stgeorge.seats import LAYOUTS, castles_in_play, layout
from engines.stgeorge.state import State

TITLE = "St. George and the Dragon"

OPTIONS: schema.Schema = ()
"""The game has no options."""


def normalize(options: dict[str, Any]) -> dict[str, Any]:
    """An empty dict, or BadOptions naming the unknown keys."""
    return schema.normalize(OPTIONS, options, TITLE)


def roles(players: int, options: dict[str, Any]) -> list[Role]:
    """The seats for ``players`` (2-5), Knights first and the Dragon last."""
    normalize(options)
    if players not in LAYOUTS:
        raise BadOptions(f"St. George and the Dragon is played by 2 to 5 players, not {players}.")
    return [Role(s.key, s.name) for s in layout(players)]


def setup(roles_: list[str], options: dict[str, Any]) -> State:
    """Knights on their castles' three points, the Dragon on the Lair, first seat to roll."""
    normalize(options)
    keys = tuple(roles_)
    if keys not in LAYOUTS.values():
        tables = "; ".join(", ".join(seats) for seats in LAYOUTS.values())
        raise BadOptions(f"The seats must be one of these, in order: {tables}.")
    board = current_board()
    in_play = castles_in_play(keys)
    pieces = {LAIR: DRAGON}
    for castle in in_play:
        for point in board.castles[castle].points:
            pieces[point] = castle
    return State(
        roles=list(keys),
        pieces=pieces,
        taken=dict.fromkeys(in_play, 0),
        scored=dict.fromkeys(in_play, 0),
        to_move=0,
        phase="roll",
        roll=None,
        roll_seat=None,
        passed=False,
        last=None,
        turn=1,
        winners=None,
        result_text=None,
    )
