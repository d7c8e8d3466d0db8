"""The wheel board: its points, the lines joining them, the castles, and point names.

The board comes from ``engines/stgeorge/data/board.json`` (see that file's
``"reconstructed"`` notes). Point names: a ring point is its spoke number and ring letter
(``4c``, ``14f``), the centre is ``lair``, a castle point is its castle letter and number
(``G1``, ``G2``, ``G3``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.data import BadDataFile, Fields, load
from engines.options import clip

LAIR = "lair"
CASTLE_KEYS = ("george", "patrick", "andrew", "david")
"""The four castles, whose keys the seats name."""


class BadPoint(ValueError):
    """A name that is not a point of the board; ``str(error)`` says what points look like."""


@dataclass(frozen=True)
class Castle:
    """One Knight's Castle: its key (``"george"``), display name, letter and three points."""

    key: str
    name: str
    letter: str
    spoke: int
    points: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    """The points and lines of the wheel, read from the board data file.

    ``points`` keeps the data file's order (``index`` maps a point to its place in it); it
    is also the order neighbours are tried in when searching for moves, so searches are
    deterministic.
    """

    points: tuple[str, ...]
    index: dict[str, int]
    neighbours: dict[str, tuple[str, ...]]
    castles: dict[str, Castle]
    spokes: int
    rings: tuple[str, ...]
    knights_per_castle: int

    def parse_point(self, text: str) -> str:
        """The canonical name of point ``text`` (case and spaces ignored; ``L`` is the Lair).

        Raises :class:`BadPoint` with an explanation if there is no such point.
        """
        name = "".join(text.split())
        lowered = name.lower()
        if lowered in ("l", LAIR):
            return LAIR
        candidate = lowered if lowered[:1].isdigit() else name.upper()
        if candidate[:1].isdigit() and candidate[:-1].isdigit():
            candidate = f"{int(candidate[:-1])}{candidate[-1]}"
        if candidate in self.neighbours:
            return candidate
        letters = "/".join(c.letter for c in self.castles.values())
        shown = clip(text) or text[:60]
        raise BadPoint(
            f"`{shown}` is not a point. Points are a spoke number 1-{self.spokes} "
            f"and a ring letter {self.rings[0]}-{self.rings[-1]} (`4c`, `{self.spokes}"
            f"{self.rings[-1]}` on the rim), `lair`, or a castle point such as "
            f"`G1`-`G3` ({letters})."
        )

    def castle_of_point(self, point: str) -> Castle | None:
        """The castle whose three points include ``point``, if any."""
        for castle in self.castles.values():
            if point in castle.points:
                return castle
        return None


def build_board(data: dict[str, Any]) -> Board:
    """A :class:`Board` from board data (the parsed JSON file).

    Raises :class:`~engines.data.BadDataFile` (a ``ValueError``) if a line names an
    unknown point; :func:`current_board` checks the data file completely first
    (:func:`check_board`), so a broken corrected data file fails loudly at load time
    instead of mid-game.
    """
    points = tuple(data["points"])
    order = {name: index for index, name in enumerate(points)}
    linked: dict[str, set[str]] = {name: set() for name in points}
    for first, second in data["lines"]:
        if first not in linked or second not in linked:
            raise BadDataFile(f"board.json: board line {first}-{second} names an unknown point")
        linked[first].add(second)
        linked[second].add(first)
    neighbours = {name: tuple(sorted(linked[name], key=order.__getitem__)) for name in points}
    castles = {
        key: Castle(
            key=key,
            name=data["castles"][key]["name"],
            letter=data["castles"][key]["letter"],
            spoke=data["castles"][key]["spoke"],
            points=tuple(data["castles"][key]["points"]),
        )
        for key in data["castle_order"]
    }
    return Board(
        points=points,
        index=order,
        neighbours=neighbours,
        castles=castles,
        spokes=data["spokes"],
        rings=tuple(data["rings"]),
        knights_per_castle=data["knights_per_castle"],
    )


def check_board(data: dict[str, Any]) -> None:
    """Every field the rules and the picture read, checked; BadDataFile names the field."""
    check = Fields("board.json")
    spokes = check.whole(check.get(data, "spokes"), "spokes", 3, 40)
    rings = check.items(check.get(data, "rings"), "rings", 1, 20)
    for index, ring in enumerate(rings):
        if not isinstance(ring, str) or len(ring) != 1 or not ring.islower():
            raise check.fail(f"rings[{index}]", "must be one lower-case letter")
    check.distinct(rings, "rings")
    check.whole(check.get(data, "knights_per_castle"), "knights_per_castle", 1, 10)
    points = check.record(check.get(data, "points"), "points")
    if LAIR not in points:
        raise check.fail(f"points.{LAIR}", "is missing")
    for name, value in points.items():
        where = f"points.{name}"
        if not check.items(value, where, 2, 2):
            raise check.fail(where, "must be two numbers")
        for index, number in enumerate(value):
            check.number(number, f"{where}[{index}]")
    for index, line in enumerate(check.items(check.get(data, "lines"), "lines")):
        check.items(line, f"lines[{index}]", 2, 2)
        for end, name in enumerate(line):
            if not isinstance(name, str) or name not in points:
                raise check.fail(
                    f"lines[{index}][{end}]", "names an unknown point (not a key of points)"
                )
    order = check.items(check.get(data, "castle_order"), "castle_order", 4, 4)
    if sorted(map(str, order)) != sorted(CASTLE_KEYS):
        raise check.fail("castle_order", f"must list each of {', '.join(CASTLE_KEYS)} once")
    castles = check.record(check.get(data, "castles"), "castles")
    letters = []
    for key in CASTLE_KEYS:
        where = f"castles.{key}"
        castle = check.record(check.get(castles, key, "castles"), where)
        check.text(check.get(castle, "name", where), f"{where}.name")
        letter = check.get(castle, "letter", where)
        if not isinstance(letter, str) or len(letter) != 1 or not letter.isupper():
            raise check.fail(f"{where}.letter", "must be one capital letter")
        letters.append(letter)
        check.whole(check.get(castle, "spoke", where), f"{where}.spoke", 1, spokes)
        own = check.items(check.get(castle, "points", where), f"{where}.points", 1, 10)
        for index, name in enumerate(own):
            if not isinstance(name, str) or name not in points or name == LAIR:
                raise check.fail(
                    f"{where}.points[{index}]", "names an unknown point (not a key of points)"
                )
        check.distinct(own, f"{where}.points")
    if len(set(letters)) != len(letters):
        raise check.fail("castles", "must give each castle its own letter")
    owned = [name for key in CASTLE_KEYS for name in castles[key]["points"]]
    if len(set(owned)) != len(owned):
        raise check.fail("castles", "must not share a point between two castles")


_built: list[tuple[dict[str, Any], Board]] = []


def board_data() -> dict[str, Any]:
    """The board data file, with any server corrections applied."""
    return load("stgeorge", "board")


def current_board() -> Board:
    """The board built from the current data file (rebuilt only when the data changes)."""
    data = board_data()
    # engines.data.load returns the same dict until overrides change; keeping a reference
    # to it makes the identity check safe. The entry is read once, so a thread building
    # another server's board meanwhile cannot hand this caller the wrong one.
    built = _built[0] if _built else None
    if built is None or built[0] is not data:
        check_board(data)
        built = (data, build_board(data))
        _built[:] = [built]
    return built[1]
