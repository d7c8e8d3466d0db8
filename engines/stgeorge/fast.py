"""The fast model of St. George and the Dragon: the board as numbered points and bitmasks.

These are the same rules as the engine in a compact form for search: a point is a number,
a set of points a bitmask, and a piece's moves are found for all six rolls at once from
every exact-length walk of up to six steps on the empty board, worked out once per piece
and point and remembered. It mirrors:

* :func:`engines.stgeorge.moves.destinations` (exactly ``roll`` points, never a point twice,
  never onto or over an occupied point; the Dragon may end on a Knight and pass the empty
  Lair, a Knight may end on the Lair but never pass it): :func:`reach`;
* the engine's legal move list (``game._legal_moves``: piece by piece, each piece's
  destinations in board order): :func:`moves`;
* the move itself in ``StGeorge._move`` (a capture, a Knight scoring on the Lair):
  :meth:`Position.knight_moved`, :meth:`Position.dragon_moved`, :meth:`Position.without`;
* :func:`engines.stgeorge.rules.dragon_has_won` and ``castle_winner``:
  :meth:`Position.dragon_won`, :meth:`Position.castle_won`.

Left out, because a search does not need them: the draws (nobody can still win, a blocked
board) and the turn order. ``tests/engines/test_stgeorge_fast.py`` plays random games on
both and checks the moves and the positions after them agree. Pure and deterministic; the
only shared state is the board's geometry and its walks, filled in once with the same
values whichever thread gets there first.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from engines.stgeorge.board import LAIR, Board, current_board
from engines.stgeorge.moves import DRAGON
from engines.stgeorge.rules import DIE_SIDES, PIECES_TO_WIN
from engines.stgeorge.seats import seat as role_of

FACES = tuple(range(1, DIE_SIDES + 1))

# --- the board as bits -----------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """The board as numbered points: neighbours, steps to the Lair, distances between points."""

    names: tuple[str, ...]
    index: dict[str, int]
    adjacent: tuple[tuple[int, ...], ...]
    lair: int
    to_lair: tuple[int, ...]
    apart: tuple[tuple[int, ...], ...]
    passable: tuple[int, ...]
    """Per point, the mask of points a roll can pass over on its way (within five steps)."""
    routes: dict[tuple[int, bool], Routes] = field(default_factory=dict, compare=False)
    """Walks from a point, worked out the first time they are needed (see ``_routes``)."""


def _distances(adjacent: tuple[tuple[int, ...], ...], start: int) -> list[int]:
    far = len(adjacent) + 1
    dist = [far] * len(adjacent)
    dist[start] = 0
    frontier = [start]
    while frontier:
        following = []
        for point in frontier:
            for step in adjacent[point]:
                if dist[step] == far:
                    dist[step] = dist[point] + 1
                    following.append(step)
        frontier = following
    return dist


def build_geometry(board: Board) -> Geometry:
    """The numbered form of ``board`` (points in the board's own order)."""
    names = board.points
    index = {name: number for number, name in enumerate(names)}
    adjacent = tuple(tuple(index[n] for n in board.neighbours[name]) for name in names)
    apart = tuple(tuple(_distances(adjacent, point)) for point in range(len(names)))
    lair = index[LAIR]
    passable = tuple(
        sum(1 << other for other, d in enumerate(row) if 0 < d < DIE_SIDES) for row in apart
    )
    return Geometry(names, index, adjacent, lair, apart[lair], apart, passable)


_geometry: list[tuple[Board, Geometry]] = []


def geometry() -> Geometry:
    """The geometry of the engine's current board (rebuilt only when the board changes)."""
    board = current_board()
    if not _geometry or _geometry[0][0] is not board:
        _geometry[:] = [(board, build_geometry(board))]
    return _geometry[0][1]


Routes = tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
"""Per roll (index 0 unused): every end point as a bit, with the smallest sets (as masks) of
points a walk of exactly that many steps must pass over to get there on an empty board."""


def _routes(geo: Geometry, start: int, dragon: bool) -> Routes:
    """Every walk of up to six steps from ``start`` on the empty board, kept per (roll, end)
    as its minimal sets of points passed over. A Knight's walks never pass over the Lair."""
    passed: dict[tuple[int, int], set[int]] = {}
    adjacent, lair = geo.adjacent, geo.lair

    def walk(point: int, depth: int, visited: int, over: int) -> None:
        nxt = depth + 1
        for step in adjacent[point]:
            bit = 1 << step
            if visited & bit:
                continue
            passed.setdefault((nxt, step), set()).add(over)
            if nxt < DIE_SIDES and (dragon or step != lair):
                walk(step, nxt, visited | bit, over | bit)

    walk(start, 0, 1 << start, 0)
    table: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(DIE_SIDES + 1)]
    for (roll, end), masks in sorted(passed.items()):
        minimal: list[int] = []
        for mask in sorted(masks, key=lambda m: (m.bit_count(), m)):
            if not any(kept & mask == kept for kept in minimal):
                minimal.append(mask)
        table[roll].append((1 << end, tuple(minimal)))
    return tuple(tuple(row) for row in table)


Memo = dict[tuple[int, int, bool], tuple[int, ...]]
"""Walks already worked out: (start, blockers it could pass, Dragon?) to the masks per roll."""


def reach(geo: Geometry, start: int, blockers: int, dragon: bool, memo: Memo) -> tuple[int, ...]:
    """Masks of the points the piece on ``start`` can end on with each roll (index 0 unused).

    ``blockers`` are the occupied points (for the Dragon: the Knights, which it may end on
    but not pass; for a Knight: every other piece, and it may end on none). A Knight never
    passes over the Lair. This is the engine's movement rule, for all six rolls at once.
    """
    key = (start, blockers & geo.passable[start], dragon)
    ends = memo.get(key)
    if ends is None:
        table = geo.routes.get((start, dragon))
        if table is None:
            table = geo.routes[start, dragon] = _routes(geo, start, dragon)
        found = [0] * (DIE_SIDES + 1)
        for roll in FACES:
            landing = 0
            for end, masks in table[roll]:
                for mask in masks:
                    if not mask & blockers:
                        landing |= end
                        break
            found[roll] = landing
        ends = memo[key] = tuple(found)
    if dragon:
        return ends
    return tuple(landing & ~blockers for landing in ends)


def bits(mask: int) -> Iterator[int]:
    """The point numbers set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# --- positions ---------------------------------------------------------------------------


@dataclass
class Position:
    """What the evaluation needs: where the pieces are and the castles' tallies."""

    dragon: int | None
    knights: dict[int, str]
    scored: dict[str, int]
    taken: dict[str, int]
    in_play: tuple[str, ...]
    knight_seats: tuple[tuple[str, ...], ...]
    """The castles of each Knight seat still playing, in turn order."""

    def knight_mask(self, castles: tuple[str, ...] | None = None) -> int:
        return sum(
            1 << point
            for point, castle in self.knights.items()
            if castles is None or castle in castles
        )

    def occupied(self) -> int:
        dragon = 0 if self.dragon is None else 1 << self.dragon
        return self.knight_mask() | dragon

    def without(self, point: int) -> Position:
        """The position after the Dragon takes the Knight on ``point``."""
        knights = dict(self.knights)
        castle = knights.pop(point)
        taken = {**self.taken, castle: self.taken[castle] + 1}
        return replace(self, knights=knights, taken=taken)

    def knight_moved(self, start: int, end: int, lair: int) -> Position:
        """The position after the Knight on ``start`` moves to ``end`` (scoring on the Lair)."""
        knights = dict(self.knights)
        castle = knights.pop(start)
        if end == lair:
            scored = {**self.scored, castle: self.scored[castle] + 1}
            return replace(self, knights=knights, scored=scored)
        knights[end] = castle
        return replace(self, knights=knights)

    def dragon_moved(self, end: int) -> Position:
        """The position after the Dragon moves to ``end`` (taking any Knight there)."""
        moved = self.without(end) if end in self.knights else self
        return replace(moved, dragon=end)

    def dragon_won(self) -> bool:
        return all(self.taken[c] >= PIECES_TO_WIN for c in self.in_play)

    def castle_won(self) -> str | None:
        return next((c for c in self.in_play if self.scored[c] >= PIECES_TO_WIN), None)


def position_of(geo: Geometry, state: Any) -> Position:
    """The evaluation's view of an engine state."""
    seats = [
        role_of(key).castles
        for number, key in enumerate(state.roles)
        if number not in state.departed and key != DRAGON
    ]
    in_play = tuple(c for c in state.taken if any(c in castles for castles in seats))
    dragon = None
    knights = {}
    for point, owner in state.pieces.items():
        if owner == DRAGON:
            dragon = geo.index[point]
        else:
            knights[geo.index[point]] = owner
    return Position(
        dragon=dragon,
        knights=knights,
        scored=dict(state.scored),
        taken=dict(state.taken),
        in_play=in_play,
        knight_seats=tuple(tuple(s) for s in seats),
    )


def moves(
    geo: Geometry, pos: Position, owners: tuple[str, ...], roll: int, memo: Memo
) -> list[tuple[int, int]]:
    """Every legal ``(start, end)`` of the pieces of ``owners`` (castle keys, or
    ``("dragon",)``) with ``roll``, in the engine's order: by owner in the given order, then
    board order, each piece's ends in board order."""
    found: list[tuple[int, int]] = []
    dragon_owned = owners == (DRAGON,)
    if dragon_owned:
        starts = [] if pos.dragon is None else [pos.dragon]
        blockers = pos.knight_mask()
    else:
        wanted = list(owners)
        starts = sorted(
            (p for p, c in pos.knights.items() if c in wanted),
            key=lambda p: (wanted.index(pos.knights[p]), p),
        )
        blockers = pos.occupied()
    for start in starts:
        ends = reach(geo, start, blockers, dragon_owned, memo)[roll]
        found.extend((start, end) for end in bits(ends))
    return found
