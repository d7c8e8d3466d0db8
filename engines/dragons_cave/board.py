"""The path into the cave: squares, their kinds and coins, and how Dwarves move on it.

A Dwarf's square is written as ``"start"`` (outside the cave), an ``int`` (index on the
path, 0 is the first square after Start) or ``"lair:<kind>"`` (a square of the Dragon's
lair). The board itself is a plain dict copied into each game's state at set-up, so a
corrected data file only affects games started afterwards.
"""

from __future__ import annotations

import re
from typing import Any, TypedDict, TypeGuard

from engines import data

PACKAGE = "dragons_cave"
START = "start"
LAIR_PREFIX = "lair:"

COLOURS = ("red", "blue", "green", "yellow")
"""Role keys in seat order; the next seat is the player "on the left"."""

Square = str | int


class Kind(TypedDict):
    """A kind of square (and of card): ``key`` (``"ruby"``, as typed in actions), display
    ``name``, ``colour`` and ``symbol`` (so the kinds can be told apart without colour)."""

    key: str
    name: str
    colour: str
    symbol: str


class PathSquare(TypedDict):
    """A square of the path: its ``kind`` (a kind's key), the ``coins`` printed on it and
    the ``section`` of the path it lies in (from 1)."""

    kind: str
    coins: int
    section: int


class Board(TypedDict):
    """The board: the ``kinds`` in card order, the ``path`` from the first square after Start
    to the last before the lair, and the ``lair``'s kinds from left to right."""

    kinds: list[Kind]
    path: list[PathSquare]
    lair: list[str]


_KEY = re.compile(r"[a-z][a-z0-9_]*")


def load_board() -> Board:
    """The board from ``data/path.json`` (overrides applied), checked for consistency.

    Returns ``{"kinds": [{"key", "name", "colour", "symbol"}...], "path": [{"kind",
    "coins", "section"}...], "lair": [kind...]}``. Raises
    :class:`~engines.data.BadDataFile` (a ``ValueError``) naming the field if a value is
    missing or of the wrong type, a section or the lair does not hold every kind exactly
    once, or coins are missing or negative.
    """
    raw = data.load(PACKAGE, "path")
    check = data.Fields("path.json")
    entries = check.items(check.get(raw, "kinds"), "kinds", 2, 10)
    kinds: list[Kind] = []
    for index, entry in enumerate(entries):
        where = f"kinds[{index}]"
        entry = check.record(entry, where)
        key = check.text(check.get(entry, "key", where), f"{where}.key")
        if not _KEY.fullmatch(key) or key == "chest":
            raise check.fail(f"{where}.key", "must be lower-case letters, digits and _ (not chest)")
        for field in ("name", "colour", "symbol"):
            check.text(check.get(entry, field, where), f"{where}.{field}")
        if not _is_kind(entry):
            raise check.fail(where, "must have a key, name, colour and symbol")
        kinds.append(entry.copy())
    keys = [kind["key"] for kind in kinds]
    if len(set(keys)) != len(keys):
        raise data.BadDataFile("path.json: kind keys must be distinct")
    sections = check.items(check.get(raw, "sections"), "sections", 1)
    all_coins = check.items(check.get(raw, "coins"), "coins", len(sections), len(sections))
    path: list[PathSquare] = []
    for number, (section, coins) in enumerate(zip(sections, all_coins, strict=True)):
        check.items(section, f"sections[{number}]")
        if not all(isinstance(kind, str) for kind in section) or sorted(section) != sorted(keys):
            raise data.BadDataFile(f"path.json: section {number + 1} must hold each kind once")
        check.items(coins, f"coins[{number}]")
        if len(coins) != len(section):
            raise data.BadDataFile(
                f"path.json: section {number + 1} needs one coin value per square"
            )
        for index, coin in enumerate(coins):
            check.whole(coin, f"coins[{number}][{index}]", 0, 99)
        path.extend(
            {"kind": kind, "coins": int(c), "section": number + 1}
            for kind, c in zip(section, coins, strict=True)
        )
    lair = check.items(check.get(raw, "lair"), "lair")
    if not all(isinstance(kind, str) for kind in lair) or sorted(lair) != sorted(keys):
        raise data.BadDataFile("path.json: the lair must hold each kind once")
    return {"kinds": kinds, "path": path, "lair": list(lair)}


def _is_kind(entry: dict[str, Any]) -> TypeGuard[Kind]:
    """Whether ``entry`` has the fields of a kind, each a text (any other field is kept)."""
    return all(isinstance(entry.get(field), str) for field in Kind.__required_keys__)


def kind_keys(board: Board) -> list[str]:
    """The kinds' keys in their fixed order (the order cards are listed in)."""
    return [kind["key"] for kind in board["kinds"]]


def kind_name(board: Board, key: str) -> str:
    """Display name of a kind (``"Ruby"``), or ``"Chest"`` for the Chest card."""
    for kind in board["kinds"]:
        if kind["key"] == key:
            return kind["name"]
    return "Chest"


def coin_words(count: int) -> str:
    """``"1 coin"``, ``"3 coins"``."""
    return f"{count} coin" if count == 1 else f"{count} coins"


def lair_square(kind: str) -> str:
    """The lair square of ``kind``."""
    return LAIR_PREFIX + kind


def in_lair(square: Square) -> bool:
    """Whether ``square`` is one of the lair's squares."""
    return isinstance(square, str) and square.startswith(LAIR_PREFIX)


def _index(square: Square) -> int:
    """Path index of ``square``; Start is -1. Not meaningful for lair squares."""
    return -1 if square == START else int(square)


def step_ahead(board: Board, square: Square, kind: str) -> Square:
    """The first square of ``kind`` in front of ``square``: on the path if one is left,
    else the lair square of that kind."""
    path = board["path"]
    for index in range(_index(square) + 1, len(path)):
        if path[index]["kind"] == kind:
            return index
    return lair_square(kind)


def step_back(board: Board, square: Square, kind: str) -> Square:
    """The nearest square of ``kind`` behind ``square``, or Start if there is none."""
    path = board["path"]
    for index in range(_index(square) - 1, -1, -1):
        if path[index]["kind"] == kind:
            return index
    return START


def coins_on(board: Board, square: Square) -> int:
    """Coins printed on ``square``: lair squares and Start print none."""
    if square == START or in_lair(square):
        return 0
    return int(board["path"][int(square)]["coins"])


def progress(board: Board, square: Square) -> int:
    """How far into the cave ``square`` is: Start 0, path square i is i + 1, the lair is
    one more than the last path square. Larger is closer to the lair."""
    if in_lair(square):
        return len(board["path"]) + 1
    return _index(square) + 1


def describe(board: Board, square: Square) -> str:
    """A square in words: ``"Start"``, ``"square 7 (Emerald)"``, ``"the lair (Ruby)"``."""
    if square == START:
        return "Start"
    if in_lair(square):
        return f"the lair ({kind_name(board, str(square)[len(LAIR_PREFIX) :])})"
    index = int(square)
    return f"square {index + 1} ({kind_name(board, board['path'][index]['kind'])})"
