"""The text notation of Lions and Dragons Chess actions, read and written.

Notation (case-insensitive, spaces optional):

* ``f2-f4``: move the piece on f2 to f4; ``f2xf4`` for a capture (``f2-f4`` is accepted too);
* ``drop e3``: put a Proto-Dragon from the reserve on e3;
* ``fire f2-f4``: the Wizard on f2 shoots a Fireball towards f4, the cell two steps away in a
  straight line where the Fireball lands (``fire f4`` is accepted too).
"""

from __future__ import annotations

import re


def write(kind: str, origin: str | None, target: str, capture: bool = False) -> str:
    """An action in notation: ``kind`` is ``move``, ``drop`` or ``fire``."""
    if kind == "drop":
        return f"drop {target}"
    if kind == "fire":
        return f"fire {origin}-{target}"
    return f"{origin}{'x' if capture else '-'}{target}"


_CELL = r"([a-l]\s*\d{1,2})"
_SEP = r"(?:\s*[-x:]\s*|\s+)"
_MOVE = re.compile(rf"^{_CELL}{_SEP}{_CELL}$")
_DROP = re.compile(rf"^drop\s*{_CELL}$")
_FIRE = re.compile(rf"^fire\s*(?:{_CELL}{_SEP})?{_CELL}$")


def parse(text: str) -> tuple[str, str | None, str] | None:
    """``(kind, origin, target)`` of an action string, or ``None`` if it is not notation.

    Cell names are returned as written (lower case, spaces removed); they may not exist.
    An omitted Fireball origin is returned as ``None``.
    """
    text = " ".join(text.lower().split())

    def cell(raw: str | None) -> str | None:
        return raw.replace(" ", "") if raw else None

    if m := _DROP.match(text):
        return "drop", None, cell(m.group(1))
    if m := _FIRE.match(text):
        return "fire", cell(m.group(1)), cell(m.group(2))
    if m := _MOVE.match(text):
        return "move", cell(m.group(1)), cell(m.group(2))
    return None
