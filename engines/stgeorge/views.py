"""What each seat sees: the whole game (nothing is secret), and a one-line summary."""

from __future__ import annotations

from typing import Any

from engines.stgeorge.board import Board, current_board
from engines.stgeorge.seats import seat
from engines.stgeorge.state import State
from engines.stgeorge.turns import castle_name, castles_playing, seat_name


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The public picture (see :func:`_public_view` for its keys). Nothing in this game
    is secret, so a seat's view is the public one plus ``"private": ""``."""
    picture = _public_view(current_board(), state)
    if seat is not None:
        picture["private"] = ""
    return picture


def _lapse_words(lapse: dict[str, Any]) -> str:
    """What became of the seat in ``timed_out``: a forfeit told by its reason (a snapshot
    from before reasons were kept has none: it was a timeout)."""
    if not lapse["forfeit"]:
        return "ran out of time and the turn passed"
    return {
        "resigned": "resigned and left the game",
        "left": "left the game",
    }.get(lapse.get("reason", "timeout"), "ran out of time and left the game")


def _summary(board: Board, state: State) -> str:
    """One line: whose turn and what to do, and what the last roll did."""
    if state.phase == "over":
        turns = "1 turn" if state.turn == 1 else f"{state.turn} turns"
        return f"Game over after {turns}. {state.result_text}"
    who = seat_name(state, state.to_move)
    if state.phase == "move":
        return f"Turn {state.turn}: {who} rolled {state.roll} and must move a piece."
    now = f"Turn {state.turn}: {who} to roll."
    lapse = state.timed_out
    if lapse is not None:
        return f"{now} Last: {seat_name(state, lapse['seat'])} {_lapse_words(lapse)}."
    if state.passed and state.roll_seat is not None:
        return (
            f"{now} Last: {seat_name(state, state.roll_seat)} rolled {state.roll} "
            f"and had no legal move."
        )
    last = state.last
    if last is None:
        return now
    text = (
        f"{now} Last: {seat_name(state, last['seat'])} rolled {last['roll']} and moved "
        f"{last['from']}-{last['to']}"
    )
    if last["captured"]:
        text += f", taking a Knight of {castle_name(board, last['captured'])}"
    if last["scored"]:
        text += ", reaching the Lair"
    return text + "."


def _public_view(board: Board, state: State) -> dict[str, Any]:
    """The whole game as JSON-ready data. Keys:

    - ``pieces``: ``[{"point", "owner"}]`` in board order; owner is a castle key
      (``"george"``, ``"patrick"``, ``"andrew"``, ``"david"``) or ``"dragon"``.
    - ``taken`` / ``scored``: ``{castle: n}`` for the castles the game began with: Knights
      the Dragon took, Knights that reached the Lair.
    - ``castles_in_play``: castle keys with Knights in this game, in board order; a castle
      whose seat forfeited is no longer in play.
    - ``seats``: ``[{"role", "name", "castles", "departed"}]`` in turn order (the Dragon's
      castles: []; ``departed``: the seat forfeited and no longer plays).
    - ``to_move``: the seat to act, None once over. ``phase``: "roll", "move" or "over".
    - ``roll``: the last roll (None before the first), ``roll_seat``: who rolled it,
      ``passed``: that roll had no legal move and the turn passed.
    - ``last``: the last move, None before the first: ``seat``, ``owner`` (castle key or
      "dragon"), ``from``, ``to``, ``path`` (points from start to end inclusive),
      ``captured`` (castle key or None), ``scored`` (bool), ``roll``.
    - ``turn``: the round number from 1. ``result``: the ending in words or None;
      ``winners``: seats (empty list: a draw) or None while playing. ``summary``: one line.
    """
    over = state.phase == "over"
    pieces = sorted(state.pieces.items(), key=lambda item: board.index[item[0]])
    return {
        "pieces": [{"point": point, "owner": owner} for point, owner in pieces],
        "taken": dict(state.taken),
        "scored": dict(state.scored),
        "castles_in_play": castles_playing(state),
        "seats": [
            {
                "role": key,
                "name": seat(key).name,
                "castles": list(seat(key).castles),
                "departed": index in state.departed,
            }
            for index, key in enumerate(state.roles)
        ],
        "to_move": None if over else state.to_move,
        "phase": state.phase,
        "roll": state.roll,
        "roll_seat": state.roll_seat,
        "passed": state.passed,
        "last": None if state.last is None else {**state.last, "path": list(state.last["path"])},
        "turn": state.turn,
        "result": state.result_text,
        "winners": None if state.winners is None else list(state.winners),
        "summary": _summary(board, state),
    }
