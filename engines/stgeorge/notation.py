"""The text notation of St. George actions: ``roll``, and a move ``<from>-<to>`` between
points (``G2-1d``, ``3c-lair``); the route a move takes is never written."""

from __future__ import annotations

from engines.base import IllegalAction
from engines.stgeorge.board import BadPoint, Board

ROLL = "roll"


def write_move(start: str, end: str) -> str:
    """A move in notation: ``"3c-lair"``."""
    return f"{start}-{end}"


def is_roll(action: str) -> bool:
    """Whether ``action`` says ``roll`` (any case and spacing)."""
    return " ".join(action.split()).lower() == ROLL


def parse_move(board: Board, action: str) -> tuple[str, str]:
    """The canonical ``(from, to)`` of a move written ``from-to``; IllegalAction if malformed."""
    compact = "".join(action.split())
    # Phones and menus turn "-" into dashes or arrows; all mean the same.
    for dash in ("–", "—", "→"):
        compact = compact.replace(dash, "-")
    parts = compact.split("-")
    if len(parts) != 2 or not all(parts):
        raise IllegalAction(
            "Write a move as `from-to`: the point your piece is on, a dash, and the point "
            "it ends on, e.g. `G2-1d` or `3c-lair`. The route it takes does not matter."
        )
    try:
        return board.parse_point(parts[0]), board.parse_point(parts[1])
    except BadPoint as error:
        raise IllegalAction(str(error)) from None
