"""The starting position: initial array, goals, reserves and the seven non-hexes (Lions).

The array, the goals, the reserve and the agreed Lion arrangement are reconstructed values
kept in ``data/setup.json`` (the rule text's diagram is missing).
"""

from __future__ import annotations

import random
from typing import Any

from engines.data import Fields, load
from engines.lions_dragons import board
from engines.lions_dragons.pieces import SIDES, Piece, piece

PACKAGE = "lions_dragons"


def setup_data() -> dict[str, Any]:
    """The (possibly server-corrected) ``setup.json``, checked (see :func:`check_setup`)."""
    data = load(PACKAGE, "setup")
    # engines.data.load returns the same dict until overrides change; keeping a reference
    # to it makes the identity check safe.
    if not _checked or _checked[0] is not data:
        check_setup(data)
        _checked[:] = [data]
    return data


_checked: list[dict[str, Any]] = []
STARTING_KINDS = ("wizard", "proto", "dragon", "dragon_ball", "roc")


def check_setup(data: dict[str, Any]) -> None:
    """Every field the rules read, checked; BadDataFile names the field. Each side starts
    with exactly one Wizard, and no two starting pieces, Balls or goals share a cell."""
    check = Fields("setup.json")
    cells = set(board.CELLS)

    def cell(value: Any, where: str) -> str:
        if not isinstance(value, str) or value not in cells:
            raise check.fail(where, "must be a cell of the board, such as f6")
        return value

    check.whole(check.get(data, "lions_count"), "lions_count", 0, 12)
    check.whole(check.get(data, "reserve"), "reserve", 0, 12)
    check.whole(check.get(data, "quiet_ply_cap"), "quiet_ply_cap", 2, 2000)
    goals = check.record(check.get(data, "goals"), "goals")
    taken = [cell(check.get(goals, side, "goals"), f"goals.{side}") for side in SIDES]
    pieces = check.record(check.get(data, "pieces"), "pieces")
    for side in SIDES:
        entries = check.items(check.get(pieces, side, "pieces"), f"pieces.{side}", 1)
        kinds = []
        for index, entry in enumerate(entries):
            where = f"pieces.{side}[{index}]"
            entry = check.record(entry, where)
            taken.append(cell(check.get(entry, "cell", where), f"{where}.cell"))
            kinds.append(check.one_of(check.get(entry, "kind", where), f"{where}.kind",
                                      STARTING_KINDS))  # fmt: skip
        if kinds.count("wizard") != 1:
            raise check.fail(f"pieces.{side}", "must hold exactly one wizard")
    balls = check.items(check.get(data, "balls"), "balls")
    taken += [cell(value, f"balls[{index}]") for index, value in enumerate(balls)]
    if len(set(taken)) != len(taken):
        raise check.fail("pieces", "goals, pieces and balls must each have a cell of their own")
    lions = check.items(check.get(data, "symmetric_lions"), "symmetric_lions")
    for index, value in enumerate(lions):
        cell(value, f"symmetric_lions[{index}]")


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
