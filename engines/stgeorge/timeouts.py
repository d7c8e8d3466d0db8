"""When a turn runs out of time: the turn passes (``skip``) or the seat leaves for good
(``forfeit``)."""

from __future__ import annotations

import random
from typing import Any

from engines.base import Event, ForfeitReason, IllegalAction, Termination
from engines.stgeorge.board import current_board
from engines.stgeorge.moves import DRAGON
from engines.stgeorge.state import State
from engines.stgeorge.turns import (
    advance,
    and_list,
    castle_name,
    check_prompted,
    end_turn,
    ending_of,
    owners_of,
    seat_name,
    seats_playing,
)


def skip(state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
    """The seat's turn passes without a move, from the roll or the move step; the next
    seat is asked to roll. The rng is not used: nothing is left to chance."""
    check_prompted(state, seat)
    new = state.copy()
    new.timed_out = {"seat": seat, "forfeit": False}
    step = state.phase
    advance(new)
    text = f"{seat_name(state, seat)} ran out of time: the turn passes without a move."
    return new, [Event(text, data={"seat": seat, "skipped": True, "phase": step})]


LEAVES: dict[ForfeitReason, tuple[str, str]] = {
    "timeout": ("{who} ran out of time and leaves the game", "The Dragon left the game"),
    "resigned": ("{who} resigned and left the game", "The Dragon resigned"),
    "left": ("{who} {has} left the game", "The Dragon left the game"),
}
"""How a seat giving up is told, per reason: the event, and the Dragon's going in the
result."""


def forfeit(
    state: State, seat: int, rng: random.Random, reason: ForfeitReason = "timeout"
) -> tuple[State, list[Event]]:
    """The seat leaves for good, for ``reason`` (told as what it was). The Dragon leaving
    ends the game, every Knight seat still playing winning together. A Knight seat leaving
    takes its castles out of play (its Knights leave the board and the Dragon no longer
    needs two of them); the others play on, and the Dragon wins once no Knight seat is
    left. Any seat still playing may leave, on its turn or not: out of turn, the seat to
    move keeps its turn (and its roll). The rng is not used."""
    _check_playing(state, seat)
    board = current_board()
    new = state.copy()
    new.departed.append(seat)
    new.timed_out = {"seat": seat, "forfeit": True, "reason": reason}
    who = seat_name(state, seat)
    leaves, dragon_went = LEAVES[reason]
    has = "has" if len(owners_of(state, seat)) == 1 else "have"
    if state.roles[seat] == DRAGON:
        knights = seats_playing(new, knights_only=True)
        names = and_list([seat_name(new, index) for index in knights])
        if len(knights) > 1:
            verb = "win together"
        else:
            verb = "wins" if len(owners_of(new, knights[0])) == 1 else "win"
        ending: tuple[list[int], str] | None = (
            knights,
            f"{dragon_went}: the Knights have driven it off. {names} {verb}.",
        )
        text = leaves.format(who=who, has=has) + "."
        data: dict[str, Any] = {"seat": seat, "forfeit": True, "reason": reason, "removed": []}
    else:
        castles = owners_of(state, seat)
        removed = sorted(
            (point for point, owner in state.pieces.items() if owner in castles),
            key=board.index.__getitem__,
        )
        for point in removed:
            del new.pieces[point]
        names = and_list([castle_name(board, castle) for castle in castles])
        out = "that castle is" if len(castles) == 1 else "those castles are"
        text = (
            f"{leaves.format(who=who, has=has)}: the Knights of {names} leave the board and {out} "
            "out of play."
        )
        data = {"seat": seat, "forfeit": True, "reason": reason, "removed": removed,
                "castles": list(castles)}  # fmt: skip
        if not seats_playing(new, knights_only=True):
            dragon = new.roles.index(DRAGON)
            ending = ([dragon], "The Dragon wins: no Knight is left to face it.")
        else:
            ending = ending_of(board, new)
    if seat != state.to_move and ending is None:
        return new, [Event(text, data=data)]
    return new, [
        Event(text, data=data),
        *end_turn(new, ending, Termination.of_forfeit(reason)),
    ]


def _check_playing(state: State, index: int) -> None:
    """IllegalAction unless seat ``index`` is still playing in a game under way."""
    if state.phase == "over":
        raise IllegalAction(f"The game is over. {state.result_text}")
    if not 0 <= index < len(state.roles):
        raise IllegalAction(f"There is no seat {index} at this table.")
    if index in state.departed:
        raise IllegalAction(f"{seat_name(state, index)} has already left the game.")
