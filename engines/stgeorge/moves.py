"""Where a piece may go with a roll of the die.

The movement rule: a piece moves exactly ``roll`` points along the lines, in any
combination of directions, never crossing or landing on a point twice (its starting point
included), never moving to or over an occupied point. The Dragon may end its move on a
Knight, which captures it, and may pass through the empty Lair; a Knight may end on the
Lair but never pass over it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engines.stgeorge.board import LAIR, Board

DRAGON = "dragon"


def destinations(
    board: Board, pieces: Mapping[str, str], start: str, roll: int
) -> dict[str, tuple[str, ...]]:
    """Every point the piece on ``start`` can end on with ``roll``, with one path to each.

    ``pieces`` maps occupied points to their owner (a castle key or ``"dragon"``). A path
    lists every point from ``start`` to the destination. When several paths lead to the same
    point, the first one found is kept; the search tries neighbours in the board's point
    order, so the kept path is always the same.
    """
    dragon = pieces[start] == DRAGON
    found: dict[str, tuple[str, ...]] = {}
    path = [start]
    visited = {start}

    def extend(point: str) -> None:
        last_step = len(path) == roll
        for step in board.neighbours[point]:
            if step in visited:
                continue
            occupant = pieces.get(step)
            if last_step:
                if step in found:
                    continue
                if occupant is None or (dragon and occupant != DRAGON):
                    found[step] = (*path, step)
                continue
            # Passing over a point: it must be empty, and a Knight may not pass the Lair.
            if occupant is not None or (step == LAIR and not dragon):
                continue
            visited.add(step)
            path.append(step)
            extend(step)
            path.pop()
            visited.remove(step)

    if roll >= 1:
        extend(start)
    return found


def can_step(board: Board, pieces: Mapping[str, str], start: str) -> bool:
    """Whether the piece on ``start`` has a move of one point.

    Every longer move begins with a step onto an empty neighbour, which is itself a legal
    one-point move, so a piece that cannot step cannot move with any roll.
    """
    dragon = pieces[start] == DRAGON
    for step in board.neighbours[start]:
        occupant = pieces.get(step)
        if occupant is None or (dragon and occupant != DRAGON):
            return True
    return False


def pieces_of(board: Board, pieces: Mapping[str, str], owners: Iterable[str]) -> list[str]:
    """The points holding pieces of ``owners``: by owner in the given order, then board order."""
    wanted = list(owners)
    return sorted(
        (point for point, owner in pieces.items() if owner in wanted),
        key=lambda point: (wanted.index(pieces[point]), board.index[point]),
    )
