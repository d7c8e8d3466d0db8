"""Applying an action: rolling the die, or moving a piece by the roll (with a message
saying what to do instead when the move is not allowed).

Text that is not notation (:func:`notation.read` refuses it) is refused with
:class:`UnreadableAction`; the message is still the one the position gives (``Roll the die
first``, whose turn it is), else the notation's own."""

from __future__ import annotations

import random

from engines.base import Event, IllegalAction, UnreadableAction, unreadable
from engines.stgeorge import rules
from engines.stgeorge.board import LAIR, Board, current_board
from engines.stgeorge.moves import DRAGON, destinations, pieces_of
from engines.stgeorge.notation import MOVE, Action, read
from engines.stgeorge.prompts import legal_moves, moves, points
from engines.stgeorge.state import State
from engines.stgeorge.turns import (
    advance,
    castle_name,
    end_turn,
    ending_of,
    owners_of,
    seat_name,
)


def apply(state: State, seat: int, action: str, rng: random.Random) -> tuple[State, list[Event]]:
    """Roll the die or make a move; IllegalAction (state untouched) if not allowed now,
    UnreadableAction if ``action`` is not notation at all."""
    try:
        read_action = read(action, current_board())
    except UnreadableAction as error:
        raise unreadable(error, lambda: _apply(state, seat, action, None, rng)) from None
    return _apply(state, seat, action, read_action, rng)


def _apply(
    state: State, seat: int, action: str, read_action: Action | None, rng: random.Random
) -> tuple[State, list[Event]]:
    """The rules' answer to ``action`` (``read_action`` once read; ``None`` when it does
    not read, so only the position's own refusal is wanted)."""
    if state.phase == "over":
        raise IllegalAction(f"The game is over. {state.result_text}")
    if seat != state.to_move:
        doing = "roll" if state.phase == "roll" else "move"
        raise IllegalAction(
            f"It is not your turn: {seat_name(state, state.to_move)} is to {doing}."
        )
    rolls = read_action is not None and read_action.kind != MOVE
    if state.phase == "roll":
        if not rolls:
            raise IllegalAction("Roll the die first: send `roll`.")
        return _roll(state, rng)
    if rolls:
        start, end, _path = moves(state)[0]
        raise IllegalAction(
            f"You already rolled {state.roll}; now move a piece exactly "
            f"{points(state.die)}, e.g. `{start}-{end}`."
        )
    if read_action is None:
        read_action = read(action, current_board())
    return _move(state, read_action)


def _roll(state: State, rng: random.Random) -> tuple[State, list[Event]]:
    new = state.copy()
    new.timed_out = None
    value = rng.randint(1, rules.DIE_SIDES)
    who = seat_name(state, state.to_move)
    new.roll, new.roll_seat = value, state.to_move
    data = {"seat": state.to_move, "roll": value}
    if moves(new):
        new.phase, new.passed = "move", False
        return new, [Event(f"{who} rolled {value}.", data={**data, "passed": False})]
    new.passed = True
    advance(new)
    text = f"{who} rolled {value} and has no legal move: turn passes."
    return new, [Event(text, data={**data, "passed": True})]


def _move(state: State, action: Action) -> tuple[State, list[Event]]:
    board = current_board()
    start, end = action.start, action.end
    mover = state.to_move
    owners = owners_of(state, mover)
    if state.pieces.get(start) not in owners:
        raise IllegalAction(_not_yours(board, state, start))
    reachable = destinations(board, state.pieces, start, state.die)
    if end not in reachable:
        raise IllegalAction(_cannot_reach(board, state, start, end, reachable))
    path = reachable[end]

    new = state.copy()
    new.timed_out = None
    owner = new.pieces.pop(start)
    captured = new.pieces.pop(end, None)
    if captured is not None:
        new.taken[captured] += 1
    scored = owner != DRAGON and end == LAIR
    if scored:
        new.scored[owner] += 1
    else:
        new.pieces[end] = owner
    new.last = {
        "seat": mover,
        "owner": owner,
        "from": start,
        "to": end,
        "path": list(path),
        "captured": captured,
        "scored": scored,
        "roll": state.roll,
    }
    events = [Event(_move_text(new), data={**new.last, "path": list(path)})]
    return new, events + end_turn(new, ending_of(board, new))


def _not_yours(board: Board, state: State, start: str) -> str:
    owners = owners_of(state, state.to_move)
    mine = ", ".join(pieces_of(board, state.pieces, owners)) or "nowhere"
    yours = "the Dragon is" if owners == (DRAGON,) else "your Knights are"
    if start not in state.pieces:
        return f"There is no piece on {start}; {yours} on {mine}."
    return f"{start} is not one of your pieces; {yours} on {mine}."


def _cannot_reach(
    board: Board, state: State, start: str, end: str, reachable: dict[str, tuple[str, ...]]
) -> str:
    roll = state.die
    if not reachable:
        movable = list(dict.fromkeys(m[0] for m in legal_moves(board, state)))
        return (
            f"The piece on {start} cannot move exactly {points(roll)}. "
            f"Pieces that can: {', '.join(movable)}."
        )
    ends = ", ".join(sorted(reachable, key=board.index.__getitem__))
    knight = state.pieces[start] != DRAGON
    occupant = state.pieces.get(end)
    why = ""
    if end == start:
        why = "A piece may not end where it started. "
    elif occupant == DRAGON:
        why = f"The Dragon is on {end}, and Knights may not capture it. "
    elif occupant is not None and knight:
        why = f"{end} is occupied, and only the Dragon may end a move on a Knight. "
    if knight:
        rule = "never onto or over an occupied point, never over the Lair, never onto a point twice"
    else:
        rule = "never over an occupied point or onto a point twice; it may end on a Knight"
    return (
        f"The piece on {start} cannot end on {end} with a roll of {roll}. {why}"
        f"It moves exactly {points(roll)} along the lines, {rule}. It can reach: {ends}."
    )


def _piece_words(board: Board, state: State, index: int, owner: str) -> str:
    """How to name the moved piece: plain for one castle, with its castle for several."""
    if owner == DRAGON or len(owners_of(state, index)) == 1:
        return ""
    return f" a Knight of {castle_name(board, owner)}"


def _move_text(state: State) -> str:
    """One sentence about ``state.last`` (the move just made), for the public event."""
    board = current_board()
    last = state.last
    if last is None:
        raise ValueError("no move has been made yet")
    owner = last["owner"]
    text = (
        f"{seat_name(state, last['seat'])} moved{_piece_words(board, state, last['seat'], owner)} "
        f"{last['from']}-{last['to']} (rolled {last['roll']}: {'-'.join(last['path'])})"
    )
    if last["captured"]:
        castle = last["captured"]
        text += (
            f" and took a Knight of {castle_name(board, castle)} "
            f"({state.taken[castle]} taken from that castle)"
        )
    if last["scored"]:
        text += (
            f"; the Knight reached the Lair and is set behind its castle "
            f"({state.scored[owner]} scored for {castle_name(board, owner)})"
        )
    return text + "."
