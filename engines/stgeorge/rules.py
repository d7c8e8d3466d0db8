"""How the game ends: the Dragon's win, a castle's win, and the draws."""

from __future__ import annotations

from collections.abc import Mapping

from engines.stgeorge.board import Board
from engines.stgeorge.moves import can_step

PIECES_TO_WIN = 2
"""Both sides need two: the Dragon takes two of each castle's pieces; a castle brings two
of its pieces to the Lair."""

DIE_SIDES = 6


def on_board(pieces: Mapping[str, str], castle: str) -> int:
    """How many of ``castle``'s Knights are still on the board."""
    return sum(1 for owner in pieces.values() if owner == castle)


def dragon_has_won(taken: Mapping[str, int], castles: list[str]) -> bool:
    """The Dragon has taken two pieces of every castle in play."""
    return all(taken[castle] >= PIECES_TO_WIN for castle in castles)


def castle_winner(scored: Mapping[str, int], castles: list[str]) -> str | None:
    """The castle with two Knights in the Lair, if any (a move scores one at most)."""
    for castle in castles:
        if scored[castle] >= PIECES_TO_WIN:
            return castle
    return None


def dragon_can_still_win(
    pieces: Mapping[str, str], taken: Mapping[str, int], castles: list[str]
) -> bool:
    """Every castle in play has lost two, or still has enough Knights on the board to lose two."""
    return all(taken[c] + on_board(pieces, c) >= PIECES_TO_WIN for c in castles)


def castle_can_still_win(pieces: Mapping[str, str], scored: Mapping[str, int], castle: str) -> bool:
    """The castle's Knights in the Lair plus those on the board still make two."""
    return scored[castle] + on_board(pieces, castle) >= PIECES_TO_WIN


def nobody_can_win(
    pieces: Mapping[str, str],
    taken: Mapping[str, int],
    scored: Mapping[str, int],
    castles: list[str],
) -> bool:
    """Neither the Dragon nor any castle in play can still win."""
    if dragon_can_still_win(pieces, taken, castles):
        return False
    return not any(castle_can_still_win(pieces, scored, c) for c in castles)


def board_blocked(board: Board, pieces: Mapping[str, str]) -> bool:
    """No piece on the board can move with any roll of the die."""
    return not any(can_step(board, pieces, point) for point in pieces)
