"""Piece kinds, sides and how they are named in words.

A piece on the board is a small JSON-ready dict: ``{"kind": ..., "side": ...}``, plus for a
Fireball ``"dir"`` (its direction of flight) and ``"born"`` (the ply it was shot on).
"""

from __future__ import annotations

from typing import Any

Piece = dict[str, Any]

SIDES = ("white", "black")
KINDS = ("wizard", "ball", "proto", "dragon", "dragon_ball", "roc", "fireball")
NEUTRAL = ("ball", "fireball")

KIND_NAMES = {
    "wizard": "Wizard",
    "ball": "Ball",
    "proto": "Proto-Dragon",
    "dragon": "Dragon",
    "dragon_ball": "Dragon-with-Ball",
    "roc": "Roc",
    "fireball": "Fireball",
}

# What each moving kind may capture (opposing pieces only; Balls are neutral).
# The Roc's own sentence lists "Rocs or Dragons"; the Proto-Dragon's sentence adds that a Roc
# may capture a Proto-Dragon, so both sentences hold.
CAPTURES = {
    "wizard": frozenset(),
    "proto": frozenset(),
    "dragon": frozenset({"ball", "dragon_ball", "proto", "dragon", "roc"}),
    "dragon_ball": frozenset({"ball", "roc", "proto", "dragon", "dragon_ball", "wizard"}),
    "roc": frozenset({"roc", "dragon", "proto"}),
}


def other(side: str) -> str:
    """The opposing side."""
    return "black" if side == "white" else "white"


def piece(kind: str, side: str | None = None) -> Piece:
    """A fresh piece dict (neutral kinds have side ``None``)."""
    return {"kind": kind, "side": None if kind in NEUTRAL else side}


def describe(p: Piece) -> str:
    """The piece in words: ``"White Dragon"``, ``"a Ball"``, ``"a Fireball"``."""
    name = KIND_NAMES[p["kind"]]
    if p.get("side"):
        return f"{p['side'].capitalize()} {name}"
    return f"a {name}"


def can_capture(mover: Piece, target: Piece) -> bool:
    """Whether ``mover`` may capture ``target`` (a Ball, or an opposing piece it is allowed)."""
    kind = target["kind"]
    if kind not in CAPTURES[mover["kind"]]:
        return False
    return kind == "ball" or bool(target["side"] == other(mover["side"]))
