"""Who must decide now (the seat to roll or to move) and every action it may take."""

from __future__ import annotations

from dataclasses import replace

from engines.base import MENU_LIMIT, Choice, Prompt
from engines.stgeorge import rules
from engines.stgeorge.board import LAIR, Board, current_board
from engines.stgeorge.moves import DRAGON, can_step, destinations, pieces_of
from engines.stgeorge.notation import write_move
from engines.stgeorge.state import State
from engines.stgeorge.turns import castle_name, ending_of, owners_of, seat_name

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
    """``roll``, or every move ``from-to``, in :func:`legal_moves` order, each going ``to``
    its end point with what happens there (:func:`move_outcome`).

    Moves are grouped by the piece's point; a piece with more than ``MENU_LIMIT``
    destinations has them split by spokes instead (:func:`region_groups`).
    """
    if state.phase == "over" or seat != state.to_move:
        return []
    if state.phase == "roll":
        return [Choice("roll", "Roll the die")]
    board = current_board()
    found = moves(state)
    ends: dict[str, list[str]] = {}
    for start, end, _path in found:
        ends.setdefault(start, []).append(end)
    groups: dict[tuple[str, str], str] = {}
    for start, reached in ends.items():
        groups.update(region_groups(board, state, start, reached))
    choices = []
    for start, end, _path in found:
        outcome = move_outcome(board, state, start, end)
        choices.append(
            Choice(
                write_move(start, end),
                move_label(state, start, end),
                groups[start, end],
                to=end,
                outcome=outcome,
                notable=bool(outcome),
            )
        )
    return choices


def spoke_of(board: Board, point: str) -> int:
    """The spoke a point lies on: a ring point's number, a castle point's castle spoke,
    0 for the Lair."""
    if point == LAIR:
        return 0
    castle = board.castle_of_point(point)
    return castle.spoke if castle is not None else int(point[:-1])


def region_groups(
    board: Board, state: State, start: str, ends: list[str]
) -> dict[tuple[str, str], str]:
    """The group of each move of the piece on ``start``: its point while it has at most
    ``MENU_LIMIT`` destinations; else runs of whole neighbouring spokes of at most
    ``MENU_LIMIT`` destinations each, named by the piece and the spokes
    (``"Dragon → spokes 1–3"``, ``"4e → Lair, spokes 1–2"``, ``"4e → spoke 9"``)."""
    if len(ends) <= MENU_LIMIT:
        return {(start, end): start for end in ends}
    by_spoke: dict[int, list[str]] = {}
    for end in ends:
        by_spoke.setdefault(spoke_of(board, end), []).append(end)
    runs: list[list[int]] = []
    size = 0
    for spoke in sorted(by_spoke):
        if not runs or size + len(by_spoke[spoke]) > MENU_LIMIT:
            runs.append([])
            size = 0
        runs[-1].append(spoke)
        size += len(by_spoke[spoke])
    piece = "Dragon" if state.pieces[start] == DRAGON else start
    groups = {}
    for run in runs:
        name = f"{piece} → {_spokes_words(run)}"
        for spoke in run:
            groups.update({(start, end): name for end in by_spoke[spoke]})
    return groups


def _spokes_words(run: list[int]) -> str:
    """``"spokes 1–3"``, ``"spoke 9"``, ``"Lair, spokes 1–2"`` (spoke 0 is the Lair)."""
    words = ["Lair"] if run[0] == 0 else []
    spokes = [s for s in run if s]
    if len(spokes) == 1:
        words.append(f"spoke {spokes[0]}")
    elif spokes:
        words.append(f"spokes {spokes[0]}–{spokes[-1]}")
    return ", ".join(words)


def move_outcome(board: Board, state: State, start: str, end: str) -> str:
    """What the move ``start``-``end`` does, in words, when it matters: a Knight taken, a
    Knight reaching the Lair, and the game won or drawn by it (as the move itself would
    end the game); ``""`` for an ordinary move that ends nothing."""
    owner = state.pieces[start]
    captured = state.pieces.get(end)
    scores = owner != DRAGON and end == LAIR
    pieces = dict(state.pieces)
    del pieces[start]
    if not scores:
        pieces[end] = owner
    if captured is None and not scores:
        # Only a blocked board can end the game after an ordinary move, and a board where
        # the moved piece can still step is not blocked.
        if can_step(board, pieces, end) or not rules.board_blocked(board, pieces):
            return ""
        return "blocks the board: the game is drawn"
    taken, scored = state.taken, state.scored
    if captured is not None:
        taken = {**taken, captured: taken[captured] + 1}
        told = f"takes a Knight of {castle_name(board, captured)}"
    else:
        scored = {**scored, owner: scored[owner] + 1}
        told = "reaches the Lair"
    after = replace(state, pieces=pieces, taken=taken, scored=scored)
    ending = ending_of(board, after)
    if ending is None:
        return told
    if not ending[0]:
        return f"{told}: the game is drawn"
    return f"{told} and wins the game"


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
