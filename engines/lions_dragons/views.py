"""What each seat sees: the whole board (nothing is secret), and a one-line summary."""

from __future__ import annotations

from typing import Any

from engines.clone import clone
from engines.lions_dragons import board
from engines.lions_dragons.pieces import SIDES
from engines.lions_dragons.rules import turn_number
from engines.lions_dragons.state import State, seat_of

_ORDER = {c: i for i, c in enumerate(board.CELLS)}


def view(state: State, seat: int | None) -> dict[str, Any]:
    outcome = state["result"]
    over = outcome is not None
    pieces = [
        {"cell": cell, "kind": p["kind"], "side": p["side"], "dir": p.get("dir")}
        for cell, p in sorted(state["pieces"].items(), key=lambda kv: _ORDER[kv[0]])
    ]
    result = None
    if outcome is not None:
        winner = outcome["winner"]
        result = {
            "winner": winner,
            "winners": [seat_of(state, winner)] if winner else [],
            "reason": outcome["reason"],
            "text": outcome["text"],
        }
    view: dict[str, Any] = {
        "game": "lions-dragons",
        "cells": [{"name": n, "q": board.COORD[n][0], "r": board.COORD[n][1]} for n in board.CELLS],
        "lions": list(state["lions"]),
        "lions_mode": state["setup"]["lions"],
        "goals": dict(state["goals"]),
        "pieces": pieces,
        "reserves": dict(state["reserves"]),
        "seats": {side: seat_of(state, side) for side in SIDES},
        "to_move": None if over else state["to_move"],
        "last": clone(state["last"]),
        "ply": state["ply"],
        "turn": turn_number(state),
        "quiet": state["quiet"],
        "cap": state["options"]["cap"],
        "result": result,
        "summary": _summary(state),
    }
    if seat is not None:
        view["private"] = ""
    return view


def _summary(state: State) -> str:
    """One line: whose turn (or the result), the turn number, the last action."""
    if state["result"] is not None:
        head = state["result"]["text"]
    else:
        head = f"{state['to_move'].capitalize()} to move (turn {turn_number(state)})."
        left = state["options"]["cap"] - state["quiet"]
        if left <= 20:
            plies = "1 ply" if left == 1 else f"{left} plies"
            head += f" Draw in {plies} without a capture, drop or Fireball hit."
    reserves = state["reserves"]
    hand = f"In hand: White {reserves['white']}, Black {reserves['black']} Proto-Dragons."
    last = state["last"]
    tail = ""
    if last:
        hits = [f["text"] for f in last["fireballs"] if f["outcome"] != "flew"]
        tail = " ".join([f" Last: {last['text']}", *hits])
    return f"{head} {hand}{tail}"
