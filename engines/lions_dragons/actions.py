"""Applying an action: reading it, checking it against the legal moves (saying what to do
instead), making it, then the Fireball phase and the end-of-turn draws.

Text that is not notation (:func:`notation.read` refuses it) is refused with
:class:`UnreadableAction`; when the position refuses every action (the game is over, it is
the other side's turn) the message says so, else it says how actions are written."""

from __future__ import annotations

import random
from typing import Any

from engines.base import Event, IllegalAction, UnreadableAction, unreadable
from engines.clone import clone
from engines.lions_dragons import board, rules
from engines.lions_dragons.moves import Move, legal_moves, wizard_cell
from engines.lions_dragons.notation import Action, read
from engines.lions_dragons.pieces import KIND_NAMES
from engines.lions_dragons.state import State, check_turn

_ORDER = {c: i for i, c in enumerate(board.CELLS)}


def apply(state: State, seat: int, action: str, rng: random.Random) -> tuple[State, list[Event]]:
    """The state after ``seat`` plays ``action`` and what happened; UnreadableAction if it
    is not notation, IllegalAction if the rules do not allow it now."""
    try:
        written = read(action)
    except UnreadableAction as error:
        raise unreadable(error, lambda: check_turn(state, seat)) from None
    side = check_turn(state, seat)
    move = _resolve(state, side, written)

    new = clone(state)
    captured, shot, text = rules.make_move(new, side, move)
    events = [
        Event(
            text,
            data={
                "side": side,
                "action": move.action,
                "kind": move.kind,
                "from": move.origin,
                "to": move.target,
                "captured": captured,
            },
        )
    ]
    flights: list[dict[str, Any]] = []
    if new["result"] is None:
        flights = rules.fireball_phase(new)
        events.extend(Event(f["text"], data={"fireball": f}) for f in flights)
        rules.end_of_turn(new, rules.progressed(captured, move, flights))
    else:
        new["ply"] += 1
    new["last"] = {
        "seat": seat,
        "side": side,
        "action": move.action,
        "kind": move.kind,
        "from": move.origin,
        "to": move.target,
        "captured": captured,
        "shot": shot or None,
        "fireballs": flights,
        "text": text,
    }
    if new["result"] is not None:
        events.append(Event(new["result"]["text"], data={"result": dict(new["result"])}))
    return new, events


def _pieces_of(state: State, side: str) -> str:
    """``"Wizard f2, Rocs d1 h1, ..."``: where ``side``'s pieces stand, for error messages."""
    by_kind: dict[str, list[str]] = {}
    for cell in sorted(state["pieces"], key=_ORDER.__getitem__):
        p = state["pieces"][cell]
        if p["side"] == side:
            by_kind.setdefault(KIND_NAMES[p["kind"]], []).append(cell)
    return "; ".join(f"{kind} {' '.join(cells)}" for kind, cells in by_kind.items())


def _resolve(state: State, side: str, action: Action) -> Move:
    """The legal move ``action`` names, or :class:`IllegalAction` saying what to do instead."""
    kind, origin, target = action.kind, action.origin, action.target
    moves = legal_moves(state, side)

    if kind == "drop":
        options = [m for m in moves if m.kind == "drop"]
        for m in options:
            if m.target == target:
                return m
        if state["reserves"][side] <= 0:
            raise IllegalAction("You have no Proto-Dragons left in hand; move or shoot instead.")
        home = wizard_cell(state, side)
        cells = " ".join(m.target for m in options) or "none free"
        raise IllegalAction(
            f"A Proto-Dragon is dropped on an empty cell next to your Wizard on {home}: {cells}."
        )

    home = wizard_cell(state, side)
    if kind == "fire":
        if origin is not None and origin != home:
            raise IllegalAction(f"Only your Wizard shoots Fireballs, and it stands on {home}.")
        fired = [m for m in moves if m.kind == "fire"]
        for m in fired:
            if m.target == target:
                return m
        cells = " ".join(m.target for m in fired) or "nowhere"
        raise IllegalAction(
            "A Fireball flies two cells in a straight line through the Wizard's sides, never "
            f"to an adjacent cell; from {home} it can land on: {cells}."
        )

    mover = None if origin is None else state["pieces"].get(origin)
    if mover is None or mover["side"] != side:
        raise IllegalAction(
            f"{origin} is not one of your pieces; yours are: {_pieces_of(state, side)}."
        )
    name = KIND_NAMES[mover["kind"]]
    own = [m for m in moves if m.kind == "move" and m.origin == origin]
    for m in own:
        if m.target == target:
            return m
    if mover["kind"] == "proto":
        raise IllegalAction("A Proto-Dragon never moves; shoot it with a Fireball to wake it.")
    lion = ""
    if target in state["lions"]:
        lion = f"{target} is a non-hex (a Lion): nothing may enter it. "
    # A Wizard that cannot step (or not there) may still shoot: say so.
    shots = [m.action for m in moves if m.kind == "fire" and m.origin == origin]
    shoot = f" It can also shoot: {', '.join(shots)}." if shots else ""
    if not own:
        if shots:
            raise IllegalAction(
                f"{lion}Your {name} on {origin} cannot step now, but it can shoot: "
                f"{', '.join(shots)}."
            )
        raise IllegalAction(f"{lion}Your {name} on {origin} has no move now; choose another piece.")
    cells = " ".join(m.target for m in own)
    raise IllegalAction(f"{lion}Your {name} on {origin} can go to: {cells}.{shoot}")
