"""Setting up Dragon's Cave: the options, the seats of a table, and the first state."""

from __future__ import annotations

from typing import Any

from engines import options as schema
from engines.base import BadOptions, Role
from engines.dragons_cave.board import COLOURS, load_board
from engines.dragons_cave.state import State, new_state

TITLE = "Dragon's Cave"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

OPTIONS: schema.Schema = (
    schema.Option(
        "first_dragon",
        "the seat, by number from 0 or by colour, that plays the Dragon first",
        default=0,
        choices=COLOURS,
        number=(0, len(COLOURS) - 1),
        value=COLOURS.index,
        example="first_dragon=blue",
    ),
)


def normalize(options: dict[str, Any]) -> dict[str, Any]:
    """Options split into a mapping, checked, with the default first Dragon (seat 0)."""
    return schema.normalize(OPTIONS, options, TITLE)


def first_dragon(options: dict[str, Any]) -> int:
    """The first Dragon's seat from (raw or normalised) options; other keys are ignored."""
    first: int = normalize({"first_dragon": options.get("first_dragon", 0)})["first_dragon"]
    return first


def roles(players: int, options: dict[str, Any]) -> list[Role]:
    """``red``, ``blue``, then ``green`` and ``yellow``; with 2 players each has 2 Dwarves."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadOptions("Dragon's Cave is for 2 to 4 players.")
    first = first_dragon(options)
    if first >= players:
        raise BadOptions(
            f"first_dragon must be a seat from 0 to {players - 1} ({', '.join(COLOURS[:players])})."
        )
    return [Role(key, key.capitalize()) for key in COLOURS[:players]]


def setup(roles_: list[str], options: dict[str, Any]) -> State:
    """All Dwarves on Start, 44 coins in the Treasure, round 1 with the chosen Dragon."""
    expected = [role.key for role in roles(len(roles_), options)]
    if list(roles_) != expected:
        raise BadOptions(f"Dragon's Cave seats are {', '.join(expected)}, in that order.")
    names = [role.capitalize() for role in roles_]
    return new_state(list(roles_), names, load_board(), first_dragon(options))
