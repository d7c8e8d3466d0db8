"""Legal actions of a position, and their menu labels.

Actions are written in the notation of :mod:`engines.lions_dragons.notation` (``f2-f4``,
``f2xf4``, ``drop e3``, ``fire f2-f4``); :func:`parse` is re-exported from there.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.lions_dragons import board
from engines.lions_dragons.notation import parse, write
from engines.lions_dragons.pieces import KIND_NAMES, Piece, can_capture, describe
from engines.lions_dragons.state import State

__all__ = ["Move", "drops", "label", "legal_moves", "parse", "playable", "wizard_cell"]


@dataclass(frozen=True)
class Move:
    """One legal action: ``kind`` is ``move``, ``drop`` or ``fire``.

    ``origin`` is the acting piece's cell (``None`` for a drop); ``target`` the destination,
    the drop cell or the Fireball's landing cell; ``direction`` the Fireball's direction.
    """

    kind: str
    origin: str | None
    target: str
    capture: bool = False
    direction: str = ""

    @property
    def mover(self) -> str:
        """The cell of the piece that moves or shoots (a drop moves none)."""
        if self.origin is None:
            raise ValueError(f"{self.action} moves no piece")
        return self.origin

    @property
    def action(self) -> str:
        """The move in notation: ``f2-f4``, ``f2xf4``, ``drop e3``, ``fire f2-f4``."""
        return write(self.kind, self.origin, self.target, self.capture)


def playable(state: State, cell: str | None) -> bool:
    """Whether ``cell`` is a board cell that is not a non-hex."""
    return cell is not None and cell not in state["lions"]


def _piece_moves(state: State, cell: str, mover: Piece) -> list[Move]:
    pieces = state["pieces"]
    kind = mover["kind"]
    if kind == "wizard":
        targets = board.WIZARD_STEPS[cell]
    elif kind == "dragon":
        targets = board.DRAGON_MOVES[cell]
    elif kind == "dragon_ball":
        targets = board.SIDE_NEIGHBOURS[cell]
    elif kind == "roc":
        targets = board.ROC_MOVES[cell]
    else:  # Proto-Dragons never move
        return []
    moves = []
    for target in targets:
        if not playable(state, target):
            continue
        occupant = pieces.get(target)
        if occupant is None:
            moves.append(Move("move", cell, target))
        elif can_capture(mover, occupant):
            moves.append(Move("move", cell, target, capture=True))
    return moves


def _shots(state: State, cell: str) -> list[Move]:
    shots = []
    for name, delta in board.EDGE_DIRECTIONS.items():
        landing = board.offset(cell, delta, 2)
        if landing is not None and playable(state, landing):
            shots.append(Move("fire", cell, landing, direction=name))
    return shots


def wizard_cell(state: State, side: str) -> str | None:
    """Where ``side``'s Wizard stands (``None`` once captured)."""
    for cell, p in state["pieces"].items():
        if p["kind"] == "wizard" and p["side"] == side:
            return cell
    return None


def drops(state: State, side: str) -> list[Move]:
    """Proto-Dragon drops: empty cells one Wizard step from the own Wizard, if any in reserve."""
    home = wizard_cell(state, side)
    if state["reserves"][side] <= 0 or home is None:
        return []
    return [
        Move("drop", None, cell)
        for cell in board.WIZARD_STEPS[home]
        if playable(state, cell) and cell not in state["pieces"]
    ]


def legal_moves(state: State, side: str) -> list[Move]:
    """Every action ``side`` may take in this position (ignores whose turn it is)."""
    moves: list[Move] = []
    order = {c: i for i, c in enumerate(board.CELLS)}
    for cell in sorted(state["pieces"], key=order.__getitem__):
        p = state["pieces"][cell]
        if p["side"] != side:
            continue
        moves.extend(_piece_moves(state, cell, p))
        if p["kind"] == "wizard":
            moves.extend(_shots(state, cell))
    moves.extend(drops(state, side))
    return moves


def label(state: State, move: Move) -> str:
    """Menu text for ``move`` in ``state`` (before it is made)."""
    if move.kind == "drop":
        return f"Drop a Proto-Dragon on {move.target}"
    if move.kind == "fire":
        return f"Wizard {move.origin} shoots a Fireball {move.direction.upper()} to {move.target}"
    mover = state["pieces"][move.mover]
    text = f"{KIND_NAMES[mover['kind']]} {move.action}"
    if move.capture:
        text += f" takes {describe(state['pieces'][move.target])}"
    return text
