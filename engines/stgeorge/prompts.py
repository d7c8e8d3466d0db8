"""Who must decide now (the seat to roll or to move) and every action it may take."""

from __future__ import annotations

from engines.base import Choice, Prompt
from engines.stgeorge.board import LAIR, Board, current_board
from engines.stgeorge.moves import DRAGON, destinations, pieces_of
from engines.stgeorge.notation import write_move
from engines.stgeorge.state import State
from engines.stgeorge.turns import castle_name, owners_of, seat_name

Move = tuple[str, str, tuple[str, ...]]
"""A legal move: from, to, and the path kept for it (both ends included)."""


def prompts(state: State) -> list[Prompt]:
    """One prompt for the seat to move: ``roll`` or ``move``; none once the game is over."""
    if state.phase == "over":
        return []
    who = seat_name(state, state.to_move)
    if state.phase == "roll":
        return [Prompt(state.to_move, "roll", f"{who}: roll the die (`roll`).")]
    example = first_move(current_board(), state)
    return [
        Prompt(
            state.to_move,
            "move",
            f"{who} rolled {state.roll}: move {what_moves(state)} exactly "
            f"{points(state.die)} (`from-to`, e.g. `{example[0]}-{example[1]}`).",
        )
    ]


def legal_actions(state: State, seat: int) -> list[Choice]:
    """``roll``, or every move ``from-to`` (grouped by the piece's point)."""
    if state.phase == "over" or seat != state.to_move:
        return []
    if state.phase == "roll":
        return [Choice("roll", "Roll the die")]
    return [
        Choice(write_move(start, end), move_label(state, start, end), start)
        for start, end, _path in moves(state)
    ]


def moves(state: State) -> list[Move]:
    """Every legal move of the seat to move with its roll (see :func:`legal_moves`)."""
    return legal_moves(current_board(), state)


def legal_moves(board: Board, state: State) -> list[Move]:
    """Every legal move of the seat to move with the current roll: piece by piece, each
    piece's destinations in board order."""
    moves = []
    for start in pieces_of(board, state.pieces, owners_of(state, state.to_move)):
        found = destinations(board, state.pieces, start, state.die)
        for end in sorted(found, key=board.index.__getitem__):
            moves.append((start, end, found[end]))
    return moves


def first_move(board: Board, state: State) -> Move:
    """The first of :func:`legal_moves` (the one a prompt shows as its example), found
    without working out the others."""
    for start in pieces_of(board, state.pieces, owners_of(state, state.to_move)):
        found = destinations(board, state.pieces, start, state.die)
        if found:
            end = min(found, key=board.index.__getitem__)
            return start, end, found[end]
    raise ValueError("no legal move: a roll without one is passed before it is prompted")


def what_moves(state: State) -> str:
    """What the seat to move moves: the Dragon, or one of its Knights."""
    return "the Dragon" if owners_of(state, state.to_move) == (DRAGON,) else "one of your Knights"


def points(count: int) -> str:
    return "1 point" if count == 1 else f"{count} points"


def move_label(state: State, start: str, end: str) -> str:
    board = current_board()
    label = f"{start} → {end}"
    occupant = state.pieces.get(end)
    if occupant is not None:
        return f"{label} (takes a Knight of {castle_name(board, occupant)})"
    if end == LAIR and state.pieces[start] != DRAGON:
        return f"{label} (reaches the Lair)"
    return label
