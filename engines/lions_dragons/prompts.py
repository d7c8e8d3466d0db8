"""Who must decide now (the side to move) and every action it may take."""

from __future__ import annotations

from engines.base import Choice, Prompt
from engines.lions_dragons.moves import label, legal_moves
from engines.lions_dragons.outcomes import outcome
from engines.lions_dragons.state import State, seat_of


def prompts(state: State) -> list[Prompt]:
    if state["result"] is not None:
        return []
    side = state["to_move"]
    text = f"{side.capitalize()}: move a piece, drop a Proto-Dragon or shoot a Fireball."
    return [Prompt(seat_of(state, side), "move", text)]


def legal_actions(state: State, seat: int) -> list[Choice]:
    """Every move, drop and shot of the side to move, grouped by the acting piece's cell
    (``"drop"`` for drops), each going ``to`` its target cell (a shot's: the cell two
    cells on it is aimed at) with what happens there (:func:`outcome`); notable when
    anything does. No piece has more than 25 actions nor a side more than 25 pieces."""
    side = state["to_move"]
    if state["result"] is not None or state["seats"][seat] != side:
        return []
    choices = []
    for m in legal_moves(state, side):
        told = outcome(state, side, m)
        choices.append(
            Choice(m.action, label(state, m), m.origin or "drop", m.target, told, bool(told))
        )
    return choices
