"""Setting up Lions and Dragons Chess: the options, the two seats, the first position (and
any position, for puzzles and tests)."""

from __future__ import annotations

import random
from typing import Any

from engines import options as schema
from engines.base import BadOptions, Role
from engines.lions_dragons import layout, rules
from engines.lions_dragons.pieces import SIDES
from engines.lions_dragons.state import State

TITLE = "Lions and Dragons Chess"

OPTIONS: schema.Schema = (
    schema.Option(
        "lions",
        "the Lions placed at random or in the fixed agreed pattern",
        default="random",
        choices=("random", "symmetric"),
        example="lions=symmetric",
    ),
    schema.Option(
        "reserve",
        "Proto-Dragons each side has in hand",
        default=lambda: layout.setup_data()["reserve"],
        number=(0, 12),
        example="reserve=4",
    ),
    schema.Option(
        "cap",
        "quiet plies before a draw",
        default=lambda: layout.setup_data()["quiet_ply_cap"],
        number=(2, 2000),
        example="cap=200",
    ),
)


def normalize(options: dict[str, Any]) -> dict[str, Any]:
    """Options split into a mapping, checked, with every default filled."""
    return schema.normalize(OPTIONS, options, TITLE)


def roles(players: int, options: dict[str, Any]) -> list[Role]:
    if players != 2:
        raise BadOptions("Lions and Dragons Chess is for exactly 2 players.")
    return [Role("white", "White"), Role("black", "Black")]


def setup(roles_: list[str], options: dict[str, Any], rng: random.Random) -> State:
    """The starting position; ``rng`` places the Lions unless they are symmetric."""
    if sorted(roles_) != ["black", "white"]:
        raise BadOptions("The two seats must be White and Black.")
    options = normalize(options)
    data = layout.setup_data()
    if options["lions"] == "symmetric":
        lions, draws = layout.symmetric_lions(data), 0
        if not layout.lions_valid(lions, data):
            raise BadOptions(
                "The agreed Lion arrangement of this server does not fit the "
                "board; play with lions=random."
            )
    else:
        lions, draws = layout.random_lions(data, rng)
    state: State = {
        "seats": list(roles_),
        "options": options,
        "lions": lions,
        "goals": dict(data["goals"]),
        "pieces": layout.initial_pieces(data),
        "reserves": {side: options["reserve"] for side in SIDES},
        "to_move": "white",
        "ply": 0,
        "quiet": 0,
        "seen": {},
        "last": None,
        "result": None,
        "setup": {"lions": options["lions"], "draws": draws, "chosen": list(lions)},
    }
    state["seen"][rules.position_key(state)] = 1
    return state


def position(
    pieces: dict[str, str],
    to_move: str = "white",
    lions: list[str] | tuple[str, ...] = (),
    reserves: tuple[int, int] = (0, 0),
    options: dict[str, Any] | None = None,
) -> State:
    """A game in progress with exactly these pieces, for puzzles, analysis and tests.

    ``pieces`` maps a cell to ``"<side> <kind>"`` (``"white dragon"``), ``"ball"`` or
    ``"fireball <dir>"`` (``"fireball ne"``). The Lions are taken as given (no checks);
    the goals are those of the data file. Fireballs count as already in flight.
    """
    state = setup(["white", "black"], {"lions": "symmetric", **(options or {})}, random.Random(0))
    placed: dict[str, Any] = {}
    for cell, spec in pieces.items():
        words = spec.lower().split()
        if words[0] == "fireball":
            placed[cell] = {"kind": "fireball", "side": None, "dir": words[1], "born": -1}
        elif words[0] == "ball":
            placed[cell] = {"kind": "ball", "side": None}
        else:
            placed[cell] = {"kind": words[1], "side": words[0]}
    state["pieces"] = placed
    state["lions"] = list(lions)
    state["to_move"] = to_move
    state["reserves"] = {"white": reserves[0], "black": reserves[1]}
    state["setup"] = {"lions": "given", "draws": 0, "chosen": list(lions)}
    state["seen"] = {rules.position_key(state): 1}
    return state
