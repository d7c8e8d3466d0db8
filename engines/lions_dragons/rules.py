"""Carrying out a legal action: the move itself, the Fireball phase, and how a game ends.

A turn is one player's action followed by the automatic Fireball phase ("White, Fireballs,
Black, Fireballs"). These functions change the state they are given; the game object hands
them a copy.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engines.lions_dragons import fireballs
from engines.lions_dragons.moves import Move, legal_moves
from engines.lions_dragons.pieces import KIND_NAMES, Piece, describe, other, piece
from engines.lions_dragons.state import State


def position_key(state: State) -> str:
    """A digest of the whole position: side to move, reserves, every piece (with directions).

    Two positions with the same key offer the same future, so threefold repetition compares
    these keys.
    """
    parts = [state["to_move"], f"{state['reserves']['white']},{state['reserves']['black']}"]
    for cell in sorted(state["pieces"]):
        p = state["pieces"][cell]
        parts.append(f"{cell}:{p['kind']}:{p['side'] or '-'}:{p.get('dir', '')}")
    # A short digest keeps the stored history small (up to `cap` keys per game).
    return hashlib.blake2b("|".join(parts).encode(), digest_size=10).hexdigest()


def make_move(state: State, side: str, move: Move) -> tuple[list[Piece], dict[str, Any], str]:
    """Carry out ``side``'s ``move``.

    Returns ``(captured, shot, text)``: pieces the action removed (each with its ``cell``),
    the Fireball flight record of a shot (or ``{}``), and the action told in words. A win by
    the move (a Wizard captured, a Dragon-with-Ball in the opposing goal) is stored in
    ``state["result"]``.
    """
    pieces = state["pieces"]
    lions = set(state["lions"])
    name = side.capitalize()
    if move.kind == "drop":
        pieces[move.target] = piece("proto", side)
        state["reserves"][side] -= 1
        left = state["reserves"][side]
        return [], {}, f"{name} dropped a Proto-Dragon on {move.target} ({left} left in hand)."
    if move.kind == "fire":
        ball = {"kind": "fireball", "side": None, "dir": move.direction, "born": state["ply"]}
        shot = fireballs.fly(pieces, lions, move.mover, move.direction, ball)
        text = f"{name}'s Wizard on {move.origin} shot a Fireball towards {move.target}. "
        return _hit_victims(shot), shot, text + shot["text"]

    mover = pieces.pop(move.mover)
    target = pieces.get(move.target)
    text = f"{name} {KIND_NAMES[mover['kind']]} {move.action}"
    captured: list[Piece] = []
    if target is not None:
        captured.append({"cell": move.target, **target})
        text += f" took {describe(target)}"
        if mover["kind"] == "dragon" and target["kind"] in ("ball", "dragon_ball"):
            mover = piece("dragon_ball", side)
            text += " and is now a Dragon-with-Ball"
        elif mover["kind"] == "dragon_ball" and target["kind"] == "ball":
            text += ", which is out of play"
    pieces[move.target] = mover
    text += "."
    if target is not None and target["kind"] == "wizard":
        _win(state, side, "wizard", f"{name} captured the {other(side).capitalize()} Wizard.")
    elif mover["kind"] == "dragon_ball" and move.target == state["goals"][other(side)]:
        _win(state, side, "goal", f"{name}'s Dragon-with-Ball entered the goal on {move.target}.")
    return captured, {}, text


def _hit_victims(flight: dict[str, Any]) -> list[Piece]:
    """The piece a flight removed or changed, as a captured-list (empty if none)."""
    if flight["outcome"] in fireballs.PROGRESS_OUTCOMES:
        return [{"cell": flight["hit"], **flight["target"]}]
    return []


def fireball_phase(state: State) -> list[dict[str, Any]]:
    """Move every Fireball already in flight two cells, oldest first; returns the flights.

    A Fireball shot on this ply has just made its two-cell shot and waits for the next phase.
    """
    pieces = state["pieces"]
    lions = set(state["lions"])
    flights = []
    in_flight = sorted(
        (p["born"], cell)
        for cell, p in pieces.items()
        if p["kind"] == "fireball" and p["born"] < state["ply"]
    )
    for born, _ in in_flight:
        # An earlier Fireball of this phase may have hit this one, so look it up again.
        found = [(c, p) for c, p in pieces.items() if p["kind"] == "fireball" and p["born"] == born]
        if not found:
            continue
        cell, ball = found[0]
        flights.append(fireballs.fly(pieces, lions, cell, ball["dir"], ball))
    return flights


def progressed(captured: list[Piece], move: Move, flights: list[dict[str, Any]]) -> bool:
    """Whether a turn made irreversible progress: a capture, a drop, or a Fireball hit that
    removed or changed a piece. Such a turn resets the quiet-ply count and repetition history.
    """
    if captured or move.kind == "drop":
        return True
    return any(f["outcome"] in fireballs.PROGRESS_OUTCOMES for f in flights)


TURN_NAME = "turn"

ENDED_BY_PLAY = frozenset({"wizard", "goal", "stuck", "repetition", "quiet"})
"""The endings that come from a turn played to its end (its ply counted); any other
(a forfeit, a draw agreed) comes during the turn in progress."""


def turn_number(state: State) -> int:
    """The turn ``state`` is in, from 1: a turn is one side's action and the Fireball phase
    after it (White's turn 1, Black's turn 2, ...). A finished game stays on the turn it
    ended in."""
    result = state["result"]
    if result is not None and result["reason"] in ENDED_BY_PLAY:
        return int(state["ply"])  # the ply of the ending turn was counted
    return int(state["ply"]) + 1


def end_of_turn(state: State, progress: bool) -> None:
    """Pass the turn and decide a stalled game (no legal action, repetition, quiet plies)."""
    state["ply"] += 1
    state["to_move"] = mover = other(state["to_move"])
    if progress:
        state["quiet"] = 0
        state["seen"] = {}
    else:
        state["quiet"] += 1
    key = position_key(state)
    state["seen"][key] = state["seen"].get(key, 0) + 1
    if not legal_moves(state, mover):
        name = mover.capitalize()
        _win(state, other(mover), "stuck", f"{name} has no legal action and loses.")
    elif state["seen"][key] >= 3:
        _draw(state, "repetition", "Draw: the same position occurred three times.")
    elif state["quiet"] >= state["options"]["cap"]:
        cap = state["options"]["cap"]
        _draw(state, "quiet", f"Draw: {cap} plies without a capture, drop or Fireball hit.")


def _win(state: State, side: str, reason: str, text: str) -> None:
    state["result"] = {"winner": side, "reason": reason, "text": text}


def _draw(state: State, reason: str, text: str) -> None:
    state["result"] = {"winner": None, "reason": reason, "text": text}


def material(state: State) -> dict[str, int]:
    """Counts used by invariants and summaries: pieces per kind and side, plus reserves."""
    counts: dict[str, int] = {}
    for p in state["pieces"].values():
        key = f"{p['side'] or 'neutral'}_{p['kind']}"
        counts[key] = counts.get(key, 0) + 1
    for side, n in state["reserves"].items():
        counts[f"{side}_reserve"] = n
    return counts
