"""Whose turn it is and how a turn ends: seat names, the owners a seat moves, passing the
turn on, the seats and castles still playing, and the endings of the game."""

from __future__ import annotations

from engines.base import Event, IllegalAction, Termination
from engines.stgeorge import rules
from engines.stgeorge.board import Board
from engines.stgeorge.moves import DRAGON
from engines.stgeorge.seats import castles_in_play, seat
from engines.stgeorge.state import State


def seat_name(state: State, index: int) -> str:
    return seat(state.roles[index]).name


def owners_of(state: State, index: int) -> tuple[str, ...]:
    """The owners whose pieces seat ``index`` moves: its castles, or the Dragon."""
    role = seat(state.roles[index])
    return role.castles or (DRAGON,)


def castle_name(board: Board, castle: str) -> str:
    return board.castles[castle].name


TURN_NAME = "turn"


def turn_number(state: State) -> int:
    """The turn ``state`` is in, from 1: a turn is one round of every seat still playing,
    Knights first and the Dragon last (each seat rolling and moving once), so all Knight
    seats and the Dragon play under the same number. A finished game stays on the turn it
    ended in."""
    return state.turn


def end_turn(
    state: State, ending: tuple[list[int], str] | None, how: Termination = Termination.RULES
) -> list[Event]:
    """Pass the turn on, or end the game with ``ending`` (winners, text), brought about
    ``how``; mutates ``state`` (a fresh copy made by the caller) and returns the events of
    a finished game."""
    if ending is None:
        advance(state)
        return []
    state.phase = "over"
    state.winners, state.result_text = ending
    state.ended_by = how.value
    return [Event(state.result_text, data={"winners": list(state.winners), "over": True})]


def advance(state: State) -> None:
    """Hand the turn to the next seat still playing (Knights first, Dragon last, then round
    again); seats that forfeited are passed over. A round begins each time seat 0's place in
    the order comes round, even if that seat has left."""
    while True:
        state.to_move = (state.to_move + 1) % len(state.roles)
        if state.to_move == 0:
            state.turn += 1
        if state.to_move not in state.departed:
            break
    state.phase = "roll"


def check_prompted(state: State, index: int) -> None:
    """IllegalAction unless seat ``index`` is the one asked to act now."""
    if state.phase == "over":
        raise IllegalAction(f"The game is over. {state.result_text}")
    if index != state.to_move:
        raise IllegalAction(f"It is not your turn: {seat_name(state, state.to_move)} is to act.")


def seats_playing(state: State, knights_only: bool = False) -> list[int]:
    """The seats that have not forfeited, in turn order (only Knight seats if asked)."""
    return [
        index
        for index, key in enumerate(state.roles)
        if index not in state.departed and not (knights_only and key == DRAGON)
    ]


def castles_playing(state: State) -> list[str]:
    """The castles in play: those of the seats that have not forfeited, in board order."""
    return castles_in_play([state.roles[index] for index in seats_playing(state)])


def and_list(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def ending_of(board: Board, state: State) -> tuple[list[int], str] | None:
    """Winners and the reason if the game just ended, else None."""
    in_play = castles_playing(state)
    castle = rules.castle_winner(state.scored, in_play)
    if castle is not None:
        holder = next(i for i, key in enumerate(state.roles) if castle in seat(key).castles)
        verb = "wins" if len(seat(state.roles[holder]).castles) == 1 else "win"
        return [holder], (
            f"{seat_name(state, holder)} {verb}: two Knights of {castle_name(board, castle)} "
            f"reached the Dragon's Lair."
        )
    if rules.dragon_has_won(state.taken, in_play):
        dragon = state.roles.index(DRAGON)
        return [dragon], "The Dragon wins: it took two Knights of every castle in play."
    if rules.nobody_can_win(state.pieces, state.taken, state.scored, in_play):
        return [], "Draw: neither the Dragon nor any castle can still win."
    if rules.board_blocked(board, state.pieces):
        return [], "Draw: no piece can move with any roll of the die (the board is blocked)."
    return None
