"""The fast model of Lions and Dragons Chess: the engine's rules on a flat 91-cell list.

These are the same rules as the engine, in a compact form for search. The engine works on
JSON dicts with deep copies and position digests; here a position is a list of small ints
(one per cell), the Fireballs in flight, the hands and the side to move, and every move is
a 4-tuple. It mirrors:

* :func:`engines.lions_dragons.moves.legal_moves` (piece moves, Wizard shots and Proto-Dragon
  drops, non-hexes skipped): :func:`generate`;
* :func:`engines.lions_dragons.pieces.can_capture` (who takes whom; read from
  :data:`engines.lions_dragons.pieces.CAPTURES`): :data:`TAKES` and :data:`TAKES_BALL`;
* :func:`engines.lions_dragons.fireballs.fly` (a Fireball's two-cell flight and what a hit
  does): :func:`fly`;
* :func:`engines.lions_dragons.rules.make_move` (the move itself, a Dragon taking a Ball,
  the wins by the Wizard and by the goal) and :func:`engines.lions_dragons.rules.fireball_phase`
  (older Fireballs fly on, oldest first): :func:`play`.

Left out, because a search decides them itself: the draws by repetition and by the
quiet-ply cap, and the loss of a side with no legal action (an empty :func:`generate`).
``tests/engines/test_lions_dragons_fast.py`` plays random games on both and checks that
they agree action for action and position for position. Pure and deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeGuard

from engines.lions_dragons import board
from engines.lions_dragons.pieces import CAPTURES

N_CELLS = len(board.CELLS)
INDEX = {name: i for i, name in enumerate(board.CELLS)}
DIRS = board.DIRECTION_NAMES

# A piece is one small int: side * 8 + kind for the two sides' pieces, or a neutral code.
WIZARD, PROTO, DRAGON, DWB, ROC = 1, 2, 3, 4, 5
BALL, FIRE = 16, 17
KIND_CODE = {"wizard": WIZARD, "proto": PROTO, "dragon": DRAGON, "dragon_ball": DWB, "roc": ROC}
SIDE_NAMES = ("white", "black")

TAKES = {
    KIND_CODE[kind]: frozenset(KIND_CODE[k] for k in targets if k in KIND_CODE)
    for kind, targets in CAPTURES.items()
    if targets
}
"""Which kinds each mover may take from the opposing side (movers that take anything)."""
TAKES_BALL = frozenset(KIND_CODE[kind] for kind, targets in CAPTURES.items() if "ball" in targets)
"""The movers that may take a Ball."""

# Move kinds in the compact notation (kind, origin, target, direction).
STEP, DROP, SHOOT = 0, 1, 2

Move = tuple[int, int, int, int]
"""``(kind, origin, target, direction)``: origin -1 for a drop, direction only for a shot."""

Fire = tuple[int, int, int]
"""A Fireball in flight: ``(born, cell, direction)``, oldest first in a position."""


@dataclass(frozen=True)
class Tables:
    """Move tables of one Lion arrangement and pair of goals (cell indexes)."""

    wizard: tuple[tuple[int, ...], ...]
    dragon: tuple[tuple[int, ...], ...]
    dwb: tuple[tuple[int, ...], ...]
    roc: tuple[tuple[int, ...], ...]
    shots: tuple[tuple[tuple[int, int], ...], ...]
    """``shots[cell]``: ``(direction, landing cell)`` of each shot a Wizard there may make."""
    step: tuple[tuple[int, ...], ...]
    """``step[d][cell]``: the next cell in side direction ``d``, or -1 (edge or Lion)."""
    goal: tuple[int, int]
    """Each side's target: the goal it scores in (the opponent's)."""

    def targets(self, kind: int) -> tuple[tuple[int, ...], ...]:
        """The move table of a moving kind (Dragon, Dragon-with-Ball or Roc)."""
        return self.dragon if kind == DRAGON else self.dwb if kind == DWB else self.roc


@lru_cache(maxsize=32)
def tables(lions: frozenset[str], white_goal: str, black_goal: str) -> Tables:
    """The tables for a game with these Lions and goals (built once per arrangement)."""

    def ok(name: str | None) -> TypeGuard[str]:
        return name is not None and name not in lions

    def listed(targets: dict[str, tuple[str, ...]]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(INDEX[t] for t in targets[c] if ok(t)) for c in board.CELLS)

    shots = []
    for c in board.CELLS:
        row = []
        for d, name in enumerate(DIRS):
            landing = board.offset(c, board.EDGE_DIRECTIONS[name], 2)
            if ok(landing):
                row.append((d, INDEX[landing]))
        shots.append(tuple(row))
    step = tuple(
        tuple(
            INDEX[t] if ok(t := board.offset(c, board.EDGE_DIRECTIONS[name])) else -1
            for c in board.CELLS
        )
        for name in DIRS
    )
    return Tables(
        wizard=listed(board.WIZARD_STEPS),
        dragon=listed(board.DRAGON_MOVES),
        dwb=listed(board.SIDE_NEIGHBOURS),
        roc=listed(board.ROC_MOVES),
        shots=tuple(shots),
        step=step,
        goal=(INDEX[black_goal], INDEX[white_goal]),
    )


class Position:
    """A position in compact form: cells, Fireballs in flight, hands, side to move, ply.

    ``fires`` lists ``(born, cell, direction)`` oldest first; ``winner`` is set (0 White,
    1 Black) when the move that made this position won the game on the spot.
    """

    __slots__ = ("cells", "fires", "ply", "reserves", "side", "winner")

    def __init__(
        self,
        cells: list[int],
        fires: tuple[Fire, ...],
        reserves: tuple[int, int],
        side: int,
        ply: int,
        winner: int | None = None,
    ) -> None:
        self.cells = cells
        self.fires = fires
        self.reserves = reserves
        self.side = side
        self.ply = ply
        self.winner = winner


def code(p: dict[str, Any]) -> int:
    """The compact code of an engine piece dict."""
    if p["kind"] == "ball":
        return BALL
    if p["kind"] == "fireball":
        return FIRE
    return SIDE_NAMES.index(p["side"]) * 8 + KIND_CODE[p["kind"]]


def from_state(state: dict[str, Any]) -> tuple[Position, Tables]:
    """The compact form of an engine state, and its tables."""
    cells = [0] * N_CELLS
    fires = []
    for name, p in state["pieces"].items():
        i = INDEX[name]
        cells[i] = code(p)
        if cells[i] == FIRE:
            fires.append((p["born"], i, DIRS.index(p["dir"])))
    fires.sort()
    t = tables(frozenset(state["lions"]), state["goals"]["white"], state["goals"]["black"])
    reserves = (state["reserves"]["white"], state["reserves"]["black"])
    side = SIDE_NAMES.index(state["to_move"])
    return Position(cells, tuple(fires), reserves, side, state["ply"]), t


def generate(pos: Position, t: Tables) -> list[Move]:
    """Every legal action of the side to move (as ``legal_moves``, in board order)."""
    cells = pos.cells
    side = pos.side
    base = side * 8
    foe = base ^ 8
    moves = []
    wizard = -1
    for i, c in enumerate(cells):
        if not c or c >= 16 or (c & 8) != base:
            continue
        kind = c & 7
        if kind == PROTO:
            continue
        if kind == WIZARD:
            wizard = i
            for j in t.wizard[i]:
                if not cells[j]:
                    moves.append((STEP, i, j, 0))
            for d, j in t.shots[i]:
                moves.append((SHOOT, i, j, d))
            continue
        targets = t.dragon[i] if kind == DRAGON else t.dwb[i] if kind == DWB else t.roc[i]
        takes = TAKES[kind]
        for j in targets:
            o = cells[j]
            if not o:
                moves.append((STEP, i, j, 0))
            elif o == BALL:
                if kind in TAKES_BALL:
                    moves.append((STEP, i, j, 0))
            elif o < 16 and (o & 8) == foe and (o & 7) in takes:
                moves.append((STEP, i, j, 0))
    if wizard >= 0 and pos.reserves[side] > 0:
        for j in t.wizard[wizard]:
            if not cells[j]:
                moves.append((DROP, -1, j, 0))
    return moves


def captures(pos: Position, t: Tables) -> list[Move]:
    """The side to move's captures and Dragon-with-Ball steps into the goal (a subset of
    :func:`generate`, in the same order)."""
    cells = pos.cells
    side = pos.side
    base = side * 8
    foe = base ^ 8
    goal = t.goal[side]
    moves = []
    for i, c in enumerate(cells):
        if not c or c >= 16 or (c & 8) != base:
            continue
        kind = c & 7
        if kind in (WIZARD, PROTO):
            continue
        targets = t.dragon[i] if kind == DRAGON else t.dwb[i] if kind == DWB else t.roc[i]
        takes = TAKES[kind]
        for j in targets:
            o = cells[j]
            if not o:
                if j == goal and kind == DWB:
                    moves.append((STEP, i, j, 0))
            elif o == BALL:
                if kind in TAKES_BALL:
                    moves.append((STEP, i, j, 0))
            elif o < 16 and (o & 8) == foe and (o & 7) in takes:
                moves.append((STEP, i, j, 0))
    return moves


def surely_movable(pos: Position, t: Tables) -> bool:
    """A quick yes when the side to move has a legal action: its Wizard can shoot (a
    ``False`` means "look at :func:`generate`", unless the Wizard is gone)."""
    try:
        wizard = pos.cells.index(pos.side * 8 | WIZARD)
    except ValueError:
        return False
    return bool(t.shots[wizard])


def fly(cells: list[int], start: int, d: int, t: Tables) -> int:
    """Fly a Fireball two cells from ``start`` (already lifted off it) in direction ``d``,
    resolving what it hits in ``cells``; its end cell, or -1 if it is gone."""
    step = t.step[d]
    cell = start
    for _ in range(2):
        nxt = step[cell]
        if nxt < 0:
            return -1
        hit = cells[nxt]
        if hit:
            if hit < 16:
                kind = hit & 7
                if kind == DWB:
                    cells[nxt] = BALL
                elif kind == PROTO:
                    cells[nxt] = (hit & 8) | DRAGON
                elif kind in (DRAGON, ROC):
                    cells[nxt] = 0
            return -1
        cell = nxt
    cells[cell] = FIRE
    return cell


def play(pos: Position, move: Move, t: Tables) -> Position:
    """The position after ``move`` and the Fireball phase that follows it."""
    cells = pos.cells[:]
    side = pos.side
    kind, origin, target, d = move
    fires = pos.fires
    reserves = pos.reserves
    ply = pos.ply
    if kind == DROP:
        cells[target] = side * 8 | PROTO
        reserves = (reserves[0] - 1, reserves[1]) if side == 0 else (reserves[0], reserves[1] - 1)
    elif kind == SHOOT:
        end = fly(cells, origin, d, t)
        if end >= 0:
            fires = (*fires, (ply, end, d))
    else:
        mover = cells[origin]
        cells[origin] = 0
        taken = cells[target]
        if taken and mover & 7 == DRAGON and (taken == BALL or taken & 7 == DWB):
            mover = side * 8 | DWB
        cells[target] = mover
        if (taken and taken < 16 and taken & 7 == WIZARD) or (
            mover & 7 == DWB and target == t.goal[side]
        ):
            return Position(cells, fires, reserves, side ^ 1, ply + 1, winner=side)
    if fires and fires[0][0] < ply:
        flown = []
        for born, cell, direction in fires:
            if born < ply:
                cells[cell] = 0
                end = fly(cells, cell, direction, t)
                if end >= 0:
                    flown.append((born, end, direction))
            else:
                flown.append((born, cell, direction))
        fires = tuple(flown)
    return Position(cells, fires, reserves, side ^ 1, ply + 1)


def parse_action(action: str) -> Move:
    """The compact move of one of the engine's legal action strings."""
    if action.startswith("drop "):
        return (DROP, -1, INDEX[action[5:]], 0)
    if action.startswith("fire "):
        origin, target = action[5:].split("-")
        d = next(
            d
            for d, name in enumerate(DIRS)
            if board.offset(origin, board.EDGE_DIRECTIONS[name], 2) == target
        )
        return (SHOOT, INDEX[origin], INDEX[target], d)
    sep = next(i for i, ch in enumerate(action) if ch in "-x")  # no cell name has - or x
    return (STEP, INDEX[action[:sep]], INDEX[action[sep + 1 :]], 0)
