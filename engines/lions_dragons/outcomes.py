"""What a legal action does where it lands, in words, for menus: the piece it takes, the
Ball it picks up, the goal it enters, what its Fireball hits, and a win by it.

Worked out with the engine's own rules (:mod:`engines.lions_dragons.rules` for a move,
:func:`engines.lions_dragons.fireballs.fly` for a shot, flown over a copy of the pieces);
the Fireball phase that follows every action is not foreseen here.
"""

from __future__ import annotations

from engines.lions_dragons import fireballs
from engines.lions_dragons.moves import Move
from engines.lions_dragons.pieces import describe, other, piece
from engines.lions_dragons.state import State

_SHOT_WORDS = {
    "destroyed": "destroys the {who} on {cell}",
    "converted": "turns the {who} on {cell} into a Dragon",
    "ball_left": "destroys the {who} on {cell}, leaving a Ball",
}
"""How a shot's flight outcome is told; the other outcomes (flying on, off the edge, into a
Lion, burning out on a piece it cannot harm) change nothing a player must see first."""


def outcome(state: State, side: str, move: Move) -> str:
    """What ``side``'s ``move`` does, in a few words, or ``""`` when nothing notable
    happens (a plain step, a drop, a Fireball that harms nothing)."""
    if move.kind == "drop":
        return ""
    if move.kind == "fire":
        return _shot(state, move)
    return _move(state, side, move)


def _the(who: str) -> str:
    return who if who.startswith("a ") else f"the {who}"


def _move(state: State, side: str, move: Move) -> str:
    """As :func:`engines.lions_dragons.rules.make_move` carries the move out."""
    mover = state["pieces"][move.mover]
    target = state["pieces"].get(move.target)
    words = []
    kind = mover["kind"]
    if target is not None:
        words.append(f"takes {_the(describe(target))}")
        if kind == "dragon" and target["kind"] in ("ball", "dragon_ball"):
            kind = "dragon_ball"
            words.append("becomes a Dragon-with-Ball")
        elif kind == "dragon_ball" and target["kind"] == "ball":
            words[-1] += ", which is out of play"
    if target is not None and target["kind"] == "wizard":
        words.append("wins the game")
    elif kind == "dragon_ball" and move.target == state["goals"][other(side)]:
        words.append("enters the goal and wins the game")
    if len(words) > 1:
        return ", ".join(words[:-1]) + " and " + words[-1]
    return "".join(words)


def _shot(state: State, move: Move) -> str:
    """As the shot's flight goes (over a copy of the pieces)."""
    pieces = dict(state["pieces"])
    ball = piece("fireball")
    flight = fireballs.fly(pieces, set(state["lions"]), move.mover, move.direction, ball)
    words = _SHOT_WORDS.get(flight["outcome"])
    if words is None:
        return ""
    return words.format(who=describe(flight["target"]), cell=flight["hit"])
