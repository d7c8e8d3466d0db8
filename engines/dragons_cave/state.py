"""The state of a game of Dragon's Cave: a JSON-ready dict, and small queries on it.

Keys (all JSON types, so ``dump``/``load`` are plain copies):

* ``board``: the path, lair and kinds copied from the data file at set-up.
* ``roles``, ``names``: per seat. ``two_player``: the 2-player variation is on.
* ``dwarves``: ``[{"seat", "dwarf", "square"}]``; one Dwarf per seat (numbered 1), or two
  per seat (1 and 2) in the 2-player game.
* ``hands`` / ``played``: per seat, cards in hand and cards lying face up.
* ``purses``, ``chests``: per seat, coins. ``treasure``: the Dragon's Treasure.
  ``undistributed``: coins left over when a short Treasure was shared out.
* ``dragon_seat``, ``round``, ``phase`` (``"choose"``, ``"split"``, ``"hand"``, ``"over"``).
* ``cards``: per seat, this round's secret card ``{"card", "dwarf"}`` or ``None``;
  ``lair_choice``: the Dragon's secret square or ``None``.
* ``catches``: caught players still settling their Purse ``{"seat", "dwarf", "purse",
  "split": [left, right] or None, "hand": "left"/"right" or None}``.
* ``last_round``: public summary of the last revealed round; ``last_action``: public
  note of the last accepted action; ``outcome``: final scores once the game is over.
* ``departed``: seats that forfeited and left the game for good (3-4 players), in the order
  they left. Their Dwarf is off the board, their Purse is back in the Treasure and their
  Chest stays sealed in ``chests`` (it still holds its coins but no longer counts).
"""

from __future__ import annotations

from typing import Any

from engines.base import Result
from engines.clone import clone
from engines.dragons_cave.board import START, Board, in_lair, kind_keys
from engines.dragons_cave.notation import CHEST
from engines.snapshot import check_format

TREASURE = 44
"""Gold coins in the box: the Dragon's Treasure at the start (given by the rule text)."""
LAIR_BONUS = 4
"""Coins won by a player who reaches the Dragon's lair (given by the rule text)."""
CARDS_PER_SET = 6
"""Each player's set: one card per kind of square plus the Treasure Chest card."""

State = dict[str, Any]

FORMAT = 1
"""The snapshot format :func:`dump` writes (kept in the state as ``"format"``)."""


def full_hand(board: Board) -> list[str]:
    """A complete set of cards: every kind in board order, then the Chest card."""
    return [*kind_keys(board), CHEST]


def new_state(roles: list[str], names: list[str], board: Board, first_dragon: int) -> State:
    """A game at the start of round 1: every Dwarf on Start, all 44 coins in the Treasure."""
    seats = len(roles)
    two_player = seats == 2
    per_seat = 2 if two_player else 1
    return {
        "format": FORMAT,
        "board": board,
        "roles": list(roles),
        "names": list(names),
        "two_player": two_player,
        "dwarves": [
            {"seat": seat, "dwarf": number, "square": START}
            for seat in range(seats)
            for number in range(1, per_seat + 1)
        ],
        "hands": [full_hand(board) for _ in range(seats)],
        "played": [[] for _ in range(seats)],
        "purses": [0] * seats,
        "chests": [0] * seats,
        "treasure": TREASURE,
        "undistributed": 0,
        "dragon_seat": first_dragon,
        "round": 1,
        "phase": "choose",
        "cards": [None] * seats,
        "lair_choice": None,
        "catches": [],
        "last_round": None,
        "last_action": None,
        "outcome": None,
        "departed": [],
    }


def dump(state: State) -> dict[str, Any]:
    """The state as JSON-ready data: a copy (it holds its ``format``)."""
    return clone(state)


def load(data: dict[str, Any]) -> State:
    """The state :func:`dump` wrote; an unknown or newer format raises ``UnknownFormat``."""
    check_format(data, FORMAT, "Dragon's Cave")
    state = clone(data)
    state.setdefault("departed", [])  # snapshots stored before seats could leave
    return state


def result(state: State) -> Result | None:
    """The winners and the ending in words once the game is over."""
    outcome = state["outcome"]
    if outcome is None:
        return None
    return Result(winners=tuple(outcome["winners"]), text=outcome["text"])


def seats(state: State) -> range:
    """All seat numbers."""
    return range(len(state["roles"]))


def present(state: State) -> list[int]:
    """The seats still in the game (not departed)."""
    return [seat for seat in seats(state) if seat not in state["departed"]]


def dragon_away(state: State) -> bool:
    """Whether this round's Dragon has left the game (its choices are then drawn)."""
    return state["dragon_seat"] in state["departed"]


def dwarves_of(state: State, seat: int) -> list[dict[str, Any]]:
    """The Dwarves of ``seat`` (one, or two in the 2-player game)."""
    return [dwarf for dwarf in state["dwarves"] if dwarf["seat"] == seat]


def dwarf(state: State, seat: int, number: int) -> dict[str, Any]:
    """Dwarf ``number`` (1 or 2) of ``seat``."""
    for candidate in dwarves_of(state, seat):
        if candidate["dwarf"] == number:
            return candidate
    raise KeyError((seat, number))


def movable(state: State, seat: int) -> list[int]:
    """Numbers of ``seat``'s Dwarves that are not yet in the lair."""
    return [d["dwarf"] for d in dwarves_of(state, seat) if not in_lair(d["square"])]


def card_seats(state: State) -> list[int]:
    """Seats that play a card this round: everyone still in the game but the Dragon with a
    Dwarf that can still move (a Dwarf already in the lair does not play)."""
    return [s for s in present(state) if s != state["dragon_seat"] and movable(state, s)]


def name(state: State, seat: int) -> str:
    """Display name of ``seat`` (its colour, e.g. ``"Red"``)."""
    return state["names"][seat]


def seat_of_word(state: State, word: str) -> int | None:
    """The seat a player word names: its role key (``"blue"``) or its seat number."""
    word = word.lower()
    if word in state["roles"]:
        return state["roles"].index(word)
    if word.isdecimal() and int(word) < len(state["roles"]):
        return int(word)
    return None
