"""Geometry of the 91-cell hexagonal board (side 6) with Glinski cell names.

Cells are named like Glinski's hexagonal chess: files ``a b c d e f g h i k l`` (no ``j``)
from left to right, ranks from 1 at White's end (the bottom). File ``f`` is the middle one
with 11 cells; ``a`` and ``l`` have 6. Hexes are flat-topped, so a file is a vertical column.

Internally a cell is also an axial coordinate ``(q, r)``: ``q`` is the file's offset from
``f`` (-5..5, left negative) and ``r`` grows downwards, with the centre ``f6`` at ``(0, 0)``.
A cell is on the board when ``max(|q|, |r|, |q + r|) <= 5``.

Everything here is about the full 91 cells; which cells are non-hexes ("Lions") is part of a
game's state, so callers skip those themselves.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

FILES = "abcdefghikl"
RADIUS = 5

Coord = tuple[int, int]

# The six directions through a hex's sides, clockwise from north ("straight" lines).
EDGE_DIRECTIONS: dict[str, Coord] = {
    "n": (0, -1),
    "ne": (1, -1),
    "se": (1, 0),
    "s": (0, 1),
    "sw": (-1, 1),
    "nw": (-1, 0),
}
DIRECTION_NAMES = tuple(EDGE_DIRECTIONS)

# The six directions through a hex's corners: the sum of two neighbouring side directions.
VERTEX_DIRECTIONS: dict[str, Coord] = {
    "nne": (1, -2),
    "e": (2, -1),
    "sse": (1, 1),
    "ssw": (-1, 2),
    "w": (-2, 1),
    "nnw": (-1, -1),
}


def on_board(coord: Coord) -> bool:
    """Whether axial ``coord`` is one of the 91 cells."""
    q, r = coord
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


def name_of(coord: Coord) -> str:
    """The Glinski name (``"f6"``) of an on-board axial coordinate."""
    q, r = coord
    doubled_height = 10 - q - 2 * r  # half-cells above the bottom cell f1
    rank = (doubled_height - abs(q)) // 2 + 1
    return f"{FILES[q + RADIUS]}{rank}"


COORDS: tuple[Coord, ...] = tuple(
    sorted(
        (
            (q, r)
            for q in range(-RADIUS, RADIUS + 1)
            for r in range(-RADIUS, RADIUS + 1)
            if on_board((q, r))
        ),
        key=lambda c: (c[0], -c[1]),
    )
)
CELLS: tuple[str, ...] = tuple(name_of(c) for c in COORDS)
"""All 91 cell names, file by file (a1..a6, b1..b7, ...)."""
COORD: dict[str, Coord] = dict(zip(CELLS, COORDS, strict=True))
NAME: dict[Coord, str] = {c: n for n, c in COORD.items()}


def parse_cell(text: str) -> str | None:
    """The canonical name of cell ``text`` (case-insensitive), or ``None`` if no such cell."""
    text = text.strip().lower()
    return text if text in COORD else None


def offset(cell: str, delta: Coord, times: int = 1) -> str | None:
    """The cell ``times`` steps of ``delta`` away from ``cell``, or ``None`` if off the board."""
    q, r = COORD[cell]
    target = (q + delta[0] * times, r + delta[1] * times)
    return NAME.get(target)


def distance(a: str, b: str) -> int:
    """Number of side-to-side steps between two cells."""
    (q1, r1), (q2, r2) = COORD[a], COORD[b]
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


def _turning_leaps(outward: int) -> tuple[Coord, ...]:
    """Leaps of ``outward`` steps in a side direction, then one step turned 60° left or right."""
    names = DIRECTION_NAMES
    leaps = []
    for i, name in enumerate(names):
        dq, dr = EDGE_DIRECTIONS[name]
        for turn in (-1, 1):
            tq, tr = EDGE_DIRECTIONS[names[(i + turn) % 6]]
            leaps.append((outward * dq + tq, outward * dr + tr))
    return tuple(leaps)


DRAGON_LEAPS = _turning_leaps(2)
"""The 12 "2 out and 1 left or right" leaps (the Glinski knight)."""
ROC_LEAPS = _turning_leaps(5)
"""The 12 "5 out and 1 left or right" leaps; at most 4 land on this board from any cell."""


def _targets(cell: str, deltas: Iterable[Coord]) -> tuple[str, ...]:
    found = (offset(cell, d) for d in deltas)
    return tuple(t for t in found if t is not None)


SIDE_NEIGHBOURS: dict[str, tuple[str, ...]] = {
    c: _targets(c, EDGE_DIRECTIONS.values()) for c in CELLS
}
"""Cells sharing a side with each cell (up to 6)."""
CORNER_NEIGHBOURS: dict[str, tuple[str, ...]] = {
    c: _targets(c, VERTEX_DIRECTIONS.values()) for c in CELLS
}
"""Cells touching each cell across a corner (up to 6): the diagonal steps."""
WIZARD_STEPS: dict[str, tuple[str, ...]] = {
    c: SIDE_NEIGHBOURS[c] + CORNER_NEIGHBOURS[c] for c in CELLS
}
DRAGON_MOVES: dict[str, tuple[str, ...]] = {
    c: SIDE_NEIGHBOURS[c] + _targets(c, DRAGON_LEAPS) for c in CELLS
}
ROC_MOVES: dict[str, tuple[str, ...]] = {c: _targets(c, ROC_LEAPS) for c in CELLS}


def mirror(cell: str) -> str:
    """The cell seen from the other side: same file, rank order reversed (White <-> Black)."""
    q, r = COORD[cell]
    return NAME[(q, -q - r)]


def point_reflection(cell: str) -> str:
    """The cell opposite ``cell`` through the centre f6."""
    q, r = COORD[cell]
    return NAME[(-q, -r)]


def connected(cells: Iterable[str]) -> bool:
    """Whether ``cells`` form one region through shared sides (an empty set counts as one)."""
    remaining = set(cells)
    if not remaining:
        return True
    start = next(iter(remaining))
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in SIDE_NEIGHBOURS[queue.popleft()]:
            if nxt in remaining and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen) == len(remaining)
