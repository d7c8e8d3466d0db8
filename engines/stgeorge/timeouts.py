"""When a turn runs out of time: the turn passes (``skip``) or the seat leaves for good
(``forfeit``)."""

from __future__ import annotations

import random

from engines.base import Event
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


def forfeit(state: State, seat: int, rng: random.Random) -> tuple[State, list[Event]]:
    """The seat leaves for good. The Dragon leaving ends the game, every Knight seat
    still playing winning together. A Knight seat leaving takes its castles out of play
    (its Knights leave the board and the Dragon no longer needs two of them); the others
    play on, and the Dragon wins once no Knight seat is left. The rng is not used."""
    check_prompted(state, seat)
    board = current_board()
    new = state.copy()
    new.departed.append(seat)
    new.timed_out = {"seat": seat, "forfeit": True}
    who = seat_name(state, seat)
    if state.roles[seat] == DRAGON:
        knights = seats_playing(new, knights_only=True)
        names = and_list([seat_name(new, index) for index in knights])
        if len(knights) > 1:
            verb = "win together"
        else:
            verb = "wins" if len(owners_of(new, knights[0])) == 1 else "win"
        ending: tuple[list[int], str] | None = (
            knights,
            f"The Dragon left the game: the Knights have driven it off. {names} {verb}.",
        )
        text = f"{who} ran out of time and leaves the game."
        data = {"seat": seat, "forfeit": True, "removed": []}
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
            f"{who} ran out of time and leaves the game: the Knights of {names} leave the "
            f"board and {out} out of play."
        )
        data = {"seat": seat, "forfeit": True, "removed": removed, "castles": list(castles)}
        if not seats_playing(new, knights_only=True):
            dragon = new.roles.index(DRAGON)
            ending = ([dragon], "The Dragon wins: no Knight is left to face it.")
        else:
            ending = ending_of(board, new)
    return new, [Event(text, data=data), *end_turn(new, ending)]
