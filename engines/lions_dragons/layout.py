"""The starting position: initial array, goals, reserves and the seven non-hexes (Lions).

The array, the goals, the reserve and the agreed Lion arrangement are reconstructed values
kept in ``data/setup.json`` (the rule text's diagram is missing).
"""

from __future__ import annotations

import random
from typing import Any

from engines.data import load
from engines.lions_dragons import board
from engines.lions_dragons.pieces import SIDES, Piece, piece

PACKAGE = "lions_dragons"


def setup_data() -> dict[str, Any]:
    """The (possibly server-corrected) ``setup.json``."""
    return load(PACKAGE, "setup")


def initial_pieces(data: dict[str, Any]) -> dict[str, Piece]:
    """Cell -> piece for the initial array and the Balls."""
    pieces: dict[str, Piece] = {}
    for side in SIDES:
        for entry in data["pieces"][side]:
            pieces[entry["cell"]] = piece(entry["kind"], side)
    for cell in data["balls"]:
        pieces[cell] = piece("ball")
    return pieces


def forbidden_for_lions(data: dict[str, Any]) -> set[str]:
    """Cells no Lion may take: every starting piece and both goals."""
    return set(initial_pieces(data)) | set(data["goals"].values())


def lions_valid(lions: list[str], data: dict[str, Any]) -> bool:
    """Whether ``lions`` is a legal set of non-hexes for this array.

    Right count, distinct real cells, none on a starting piece or a goal, and the remaining
    cells stay one connected region (a Lion set must never cut the board in two).
    """
    chosen = set(lions)
    if len(chosen) != len(lions) or len(chosen) != data["lions_count"]:
        return False
    if not chosen <= set(board.CELLS) or chosen & forbidden_for_lions(data):
        return False
    return board.connected(c for c in board.CELLS if c not in chosen)


def random_lions(data: dict[str, Any], rng: random.Random) -> tuple[list[str], int]:
    """Seven non-hexes drawn from ``rng`` among the allowed cells, redrawn until valid.

    Returns the Lions in board order and how many draws it took (recorded in the setup).
    """
    candidates = [c for c in board.CELLS if c not in forbidden_for_lions(data)]
    order = {c: i for i, c in enumerate(board.CELLS)}
    draws = 0
    while True:
        draws += 1
        lions = sorted(rng.sample(candidates, data["lions_count"]), key=order.__getitem__)
        if lions_valid(lions, data):
            return lions, draws


def symmetric_lions(data: dict[str, Any]) -> list[str]:
    """The agreed regular arrangement from the data file, in board order."""
    order = {c: i for i, c in enumerate(board.CELLS)}
    return sorted(data["symmetric_lions"], key=order.__getitem__)
