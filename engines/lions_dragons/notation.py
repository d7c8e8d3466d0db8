"""The text notation of Lions and Dragons Chess actions, read and written.

Notation (case-insensitive, spaces optional):

* ``f2-f4``: move the piece on f2 to f4; ``f2xf4`` for a capture (``f2-f4`` is accepted too);
* ``drop e3``: put a Proto-Dragon from the reserve on e3;
* ``fire f2-f4``: the Wizard on f2 shoots a Fireball towards f4, the cell two steps away in a
  straight line where the Fireball lands (``fire f4`` is accepted too).

:func:`read` turns text into an :class:`Action` (raising :class:`UnreadableAction` for text
that is not notation, or names a cell the board does not have) and :func:`write` gives an
action's canonical text: lower case, no spaces, ``-`` or ``x`` between a move's cells.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from engines.base import UnreadableAction
from engines.lions_dragons import board
from engines.options import clip


class Written(Protocol):
    """What :func:`write` needs: an :class:`Action`, or a legal ``moves.Move``."""

    kind: str
    origin: str | None
    target: str
    capture: bool


@dataclass(frozen=True)
class Action:
    """A read action: ``kind`` is ``move``, ``drop`` or ``fire``; cells are board cells.

    ``origin`` is the acting piece's cell (``None`` for a drop, and for a shot written
    without it: ``fire f4``); ``capture`` says a move was written with ``x`` (or ``:``).
    """

    kind: str
    origin: str | None
    target: str
    capture: bool = False


def write(
    action: Written | str, origin: str | None = None, target: str = "", capture: bool = False
) -> str:
    """The canonical text of an action (an :class:`Action` or a ``Move``): ``f2-f4``,
    ``f2xf4``, ``drop e3``, ``fire f2-f4`` (``fire f4`` without its origin).

    The older spelling ``write(kind, origin, target, capture)`` still works.
    """
    move = Action(action, origin, target, capture) if isinstance(action, str) else action
    if move.kind == "drop":
        return f"drop {move.target}"
    if move.kind == "fire":
        if move.origin is None:
            return f"fire {move.target}"
        return f"fire {move.origin}-{move.target}"
    return f"{move.origin}{'x' if move.capture else '-'}{move.target}"


def read(action: str) -> Action:
    """The action the text ``action`` writes, with canonical cell names.

    Raises :class:`UnreadableAction` saying how actions are written if it is not notation,
    or naming the cell if one is not on the board.
    """
    parsed = parse(action)
    if parsed is None:
        raise UnreadableAction(
            f"I can't read {clip(action)!r}. Write a move as f2-f4 (f2xf4 for a capture), "
            "a drop as 'drop e3', or a shot as 'fire f2-f4'."
        )
    kind, origin, target = parsed
    capture = kind == "move" and bool(_CAPTURE.search(action.lower()))
    return Action(kind, _cell(origin) if origin else None, _cell(target), capture)


def readable(text: str) -> bool:
    """Whether :func:`read` reads ``text``."""
    try:
        read(text)
    except UnreadableAction:
        return False
    return True


def _cell(raw: str) -> str:
    """The board cell ``raw`` names, or UnreadableAction saying what cells are."""
    cell = board.parse_cell(raw)
    if cell is None:
        raise UnreadableAction(
            f"{clip(raw)} is not a cell: files are a-l without j, ranks from 1 "
            "(f has 1-11, a and l 1-6)."
        )
    return cell


_CELL = r"([a-l]\s*\d{1,2})"
_SEP = r"(?:\s*[-x:]\s*|\s+)"
_MOVE = re.compile(rf"^{_CELL}{_SEP}{_CELL}$")
_DROP = re.compile(rf"^drop\s*{_CELL}$")
_FIRE = re.compile(rf"^fire\s*(?:{_CELL}{_SEP})?{_CELL}$")
_CAPTURE = re.compile(r"\d\s*[x:]")


def parse(text: str) -> tuple[str, str | None, str] | None:
    """``(kind, origin, target)`` of an action string, or ``None`` if it is not notation.

    Cell names are returned as written (lower case, spaces removed); they may not exist.
    An omitted Fireball origin is returned as ``None``.
    """
    text = " ".join(text.lower().split())

    def cell(raw: str) -> str:
        return raw.replace(" ", "")

    if m := _DROP.match(text):
        return "drop", None, cell(m.group(1))
    if m := _FIRE.match(text):
        origin = m.group(1)
        return "fire", cell(origin) if origin else None, cell(m.group(2))
    if m := _MOVE.match(text):
        return "move", cell(m.group(1)), cell(m.group(2))
    return None
