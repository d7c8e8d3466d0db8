"""The text notation of St. George actions: ``roll``, and a move ``<from>-<to>`` between
points (``G2-1d``, ``3c-lair``); the route a move takes is never written.

:func:`read` turns text into an :class:`Action` (raising :class:`UnreadableAction` for text
that is not notation) and :func:`write` gives an action's canonical text: ``roll``, or the
two canonical point names joined by ``-`` (``G2-1d``, ``4a-lair``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.base import UnreadableAction
from engines.options import clip
from engines.stgeorge.board import BadPoint, Board, current_board

ROLL = "roll"
MOVE = "move"


@dataclass(frozen=True)
class Action:
    """A read action: ``roll``, or a ``move`` from point ``start`` to point ``end``
    (canonical point names; empty for a roll)."""

    kind: str
    start: str = ""
    end: str = ""


def read(text: str, board: Board | None = None) -> Action:
    """The action ``text`` writes (case, spaces and the kind of dash do not matter).

    Raises :class:`UnreadableAction` saying how actions are written if it is neither
    ``roll`` nor a move between two points of ``board`` (the current board by default).
    """
    if is_roll(text):
        return Action(ROLL)
    start, end = parse_move(board or current_board(), text)
    return Action(MOVE, start, end)


def write(action: Action) -> str:
    """The canonical text of ``action``: ``"roll"`` or ``"3c-lair"``."""
    return ROLL if action.kind == ROLL else write_move(action.start, action.end)


def readable(text: str, board: Board | None = None) -> bool:
    """Whether :func:`read` reads ``text``."""
    try:
        read(text, board)
    except UnreadableAction:
        return False
    return True


def write_move(start: str, end: str) -> str:
    """A move in notation: ``"3c-lair"``."""
    return f"{start}-{end}"


def is_roll(action: str) -> bool:
    """Whether ``action`` says ``roll`` (any case and spacing)."""
    return " ".join(action.split()).lower() == ROLL


def parse_move(board: Board, action: str) -> tuple[str, str]:
    """The canonical ``(from, to)`` of a move written ``from-to``; UnreadableAction if
    malformed."""
    compact = "".join(action.split())
    # Phones and menus turn "-" into dashes or arrows; all mean the same.
    for dash in ("–", "—", "→"):
        compact = compact.replace(dash, "-")
    parts = compact.split("-")
    if len(parts) != 2 or not all(parts):
        raise UnreadableAction(
            "Write a move as `from-to`: the point your piece is on, a dash, and the point "
            "it ends on, e.g. `G2-1d` or `3c-lair`. The route it takes does not matter."
        )
    return _point(board, parts[0]), _point(board, parts[1])


def _point(board: Board, text: str) -> str:
    """The canonical name of point ``text``; UnreadableAction saying what points are."""
    try:
        return board.parse_point(text)
    except BadPoint as error:
        raise UnreadableAction(str(error)) from None
    except ValueError:
        # Digits int() does not take (①, ²) pass the board's isdigit() check.
        raise UnreadableAction(
            f"`{clip(text)}` is not a point. Points are a spoke number and a ring letter (`4c`), "
            "`lair`, or a castle point such as `G1`."
        ) from None
