"""Fireball flight: two cells at a time, cell by cell, stopping at the first thing it hits.

What a hit does, from the rule text:

* a Dragon-with-Ball: both removed, a Ball is left behind;
* a Proto-Dragon: both removed, a Dragon (of the Proto-Dragon's owner) is left behind;
* a Wizard, a Fireball, a Ball, the edge of the board or a non-hex (Lion): the Fireball is
  removed and the thing it hit stays;
* a Dragon or a Roc: both removed.
"""

from __future__ import annotations

from typing import Any

from engines.lions_dragons import board
from engines.lions_dragons.pieces import Piece, describe, piece

FLIGHT = 2
"""Cells a Fireball covers when shot and in every Fireball phase."""

# Outcomes that remove or change a piece other than the Fireball itself.
PROGRESS_OUTCOMES = frozenset({"destroyed", "converted", "ball_left"})


def fly(
    pieces: dict[str, Piece], lions: set[str], start: str, direction: str, fireball: Piece
) -> dict[str, Any]:
    """Move ``fireball`` from ``start`` two cells in ``direction``, resolving what it hits.

    ``pieces`` is changed in place: the Fireball is taken off ``start`` if it stands there,
    and ends on its last cell unless it was removed. Returns the flight record:
    ``{"start", "dir", "path", "end", "hit", "target", "outcome", "text"}`` where ``path``
    lists the cells it moved into, ``end`` is where it now stands (``None`` if removed),
    ``hit`` the cell of what it hit (``None`` for nothing or the board's edge), ``target`` the
    piece it hit (or ``None``), and ``outcome`` one of ``flew``, ``edge``, ``lion``,
    ``stopped``, ``destroyed``, ``converted``, ``ball_left``.
    """
    if pieces.get(start) is fireball:
        del pieces[start]
    delta = board.EDGE_DIRECTIONS[direction]
    record: dict[str, Any] = {
        "start": start,
        "dir": direction,
        "path": [],
        "end": None,
        "hit": None,
        "target": None,
        "outcome": "flew",
    }
    cell = start
    for _ in range(FLIGHT):
        nxt = board.offset(cell, delta)
        if nxt is None:
            record["outcome"] = "edge"
            record["text"] = f"The Fireball from {start} flew off the board's edge."
            return record
        if nxt in lions:
            record.update(hit=nxt, outcome="lion")
            record["text"] = f"The Fireball from {start} hit the non-hex {nxt} and burnt out."
            return record
        target = pieces.get(nxt)
        if target is not None:
            _hit(pieces, nxt, target, record)
            return record
        record["path"].append(nxt)
        cell = nxt
    pieces[cell] = fireball
    record["end"] = cell
    record["text"] = f"A Fireball flew from {start} to {cell}."
    return record


def _hit(pieces: dict[str, Piece], cell: str, target: Piece, record: dict[str, Any]) -> None:
    """Resolve the Fireball hitting ``target`` on ``cell`` (the Fireball is already gone)."""
    record.update(hit=cell, target=dict(target))
    kind = target["kind"]
    who = describe(target)
    if kind == "dragon_ball":
        pieces[cell] = piece("ball")
        record["outcome"] = "ball_left"
        record["text"] = f"A Fireball hit the {who} on {cell}: both are gone and a Ball is left."
    elif kind == "proto":
        pieces[cell] = piece("dragon", target["side"])
        record["outcome"] = "converted"
        record["text"] = f"A Fireball hit the {who} on {cell}: it is now a Dragon."
    elif kind in ("dragon", "roc"):
        del pieces[cell]
        record["outcome"] = "destroyed"
        record["text"] = f"A Fireball hit the {who} on {cell}: both are destroyed."
    else:  # Wizard, Fireball, Ball
        record["outcome"] = "stopped"
        record["text"] = f"A Fireball hit {_article(who)} on {cell} and burnt out."


def _article(who: str) -> str:
    """``"White Wizard"`` -> ``"the White Wizard"``; ``"a Ball"`` unchanged."""
    return who if who.startswith("a ") else f"the {who}"
