"""The Dragon fight's tables: Battle Display, Strength Modifiers and the Battle Matrix.

``data/battle.json`` holds, per Dragon location (the six rows of the Battle Display), the
modifier of the Strength Modifiers Display; per thing, what it adds to combat strength
(the Display's top two rows: weapons, then magic items and spells) and to magic strength
(its bottom row); and the Matrix as "lost/levels" cells, rows by how much the party's magic
strength exceeds the Dragon's (0 to 'at least 5'), columns likewise by combat strength.
``legible`` lists the values the rule text shows; every other one is reconstructed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines import data
from engines.dragonslayer.model import (
    LOCATION_KEYS,
    PACKAGE,
    Check,
    TileSet,
    cached,
    load_parties,
    load_tiles,
    load_urland,
)

ROWS = LOCATION_KEYS[:-1]
"""The six places a battle can happen, in Display order ('away' is no battle)."""
MATRIX_SIZE = 6
"""'The same', '1 more' ... '4 more', 'At least 5 more'."""


@dataclass(frozen=True)
class Location:
    key: str
    name: str
    modifier: int


@dataclass(frozen=True)
class BattleTables:
    """battle.json, checked."""

    locations: dict[str, Location]
    away: str
    raid_location: str
    weapon_bound: tuple[str, ...]
    second_draw: tuple[str, ...]
    combat: dict[str, dict[str, int]]
    magic: dict[str, dict[str, int]]
    matrix: tuple[tuple[tuple[int, int], ...], ...]
    legible: dict[str, Any] = field(default_factory=dict)
    reconstructed: dict[str, str] = field(default_factory=dict)

    def twice(self) -> tuple[str, ...]:
        """Things pictured in both a combat box and a magic box: the player picks one."""
        return tuple(key for key in self.combat if key in self.magic)

    def cell(self, magic_over: int, combat_over: int) -> tuple[int, int]:
        """(things lost, Dragon strength lost) for strengths this far over the Dragon's."""
        top = MATRIX_SIZE - 1
        return self.matrix[min(magic_over, top)][min(combat_over, top)]

    def is_legible(self, table: str, key: str, row: str) -> bool:
        return row in self.legible.get(table, {}).get(key, [])


def _values(
    check: Check, raw: dict[str, Any], name: str, known: set[str]
) -> dict[str, dict[str, int]]:
    table = check.record(check.get(raw, name, ""), name)
    out: dict[str, dict[str, int]] = {}
    for key, rows in table.items():
        if key not in known:
            raise check.fail(f"{name}.{key}", "is not a weapon, spell or magic item")
        rows = check.record(rows, f"{name}.{key}")
        out[key] = {
            row: check.whole(check.get(rows, row, f"{name}.{key}"), f"{name}.{key}.{row}", 0, 9)
            for row in ROWS
        }
    return out


def _matrix(check: Check, raw: dict[str, Any]) -> tuple[tuple[tuple[int, int], ...], ...]:
    rows = check.items(check.get(raw, "matrix", ""), "matrix", MATRIX_SIZE)
    if len(rows) != MATRIX_SIZE:
        raise check.fail("matrix", f"must have {MATRIX_SIZE} rows")
    matrix = []
    for r, row in enumerate(rows):
        cells = check.items(row, f"matrix[{r}]", MATRIX_SIZE)
        if len(cells) != MATRIX_SIZE:
            raise check.fail(f"matrix[{r}]", f"must have {MATRIX_SIZE} cells")
        parsed = []
        for c, cell in enumerate(cells):
            lost, _, levels = str(cell).partition("/")
            if not (lost.isdecimal() and levels.isdecimal()):
                raise check.fail(f"matrix[{r}][{c}]", "must read 'lost/levels', like '6/0'")
            parsed.append((int(lost), int(levels)))
        matrix.append(tuple(parsed))
    return tuple(matrix)


def build_battle(raw: dict[str, Any], tiles: TileSet) -> BattleTables:
    """:class:`BattleTables` from the parsed battle.json; raises :class:`BadData`."""
    check = Check("battle.json")
    raw = check.record(raw, "battle.json")
    notes = check.notes(raw)
    locations = {}
    for index, entry in enumerate(check.items(check.get(raw, "locations", ""), "locations")):
        path = f"locations[{index}]"
        entry = check.record(entry, path)
        key = check.get(entry, "key", path)
        if key not in ROWS:
            raise check.fail(f"{path}.key", f"must be one of {', '.join(ROWS)}")
        modifier = check.get(entry, "modifier", path)
        if isinstance(modifier, bool) or not isinstance(modifier, int) or abs(modifier) > 9:
            raise check.fail(f"{path}.modifier", "must be a whole number -9 to 9")
        name = check.text(check.get(entry, "name", path), f"{path}.name")
        locations[key] = Location(key, name, modifier)
    if sorted(locations) != sorted(ROWS):
        raise check.fail("locations", f"must be the six rows {', '.join(ROWS)}")
    things = {t.key for t in (*tiles.tiles, *tiles.map_tiles, *load_parties().galen_tiles)}
    lists = {}
    for name in ("weapon_bound", "second_draw"):
        keys = check.items(check.get(raw, name, ""), name)
        for index, key in enumerate(keys):
            if key not in things:
                raise check.fail(f"{name}[{index}]", f"{key!r} is not a tile")
        lists[name] = tuple(keys)
    raid = check.get(raw, "raid_location", "")
    if raid not in ROWS:
        raise check.fail("raid_location", f"must be one of {', '.join(ROWS)}")
    return BattleTables(
        locations={key: locations[key] for key in ROWS},
        away=check.get(raw, "away", ""),
        raid_location=raid,
        combat=_values(check, raw, "combat", things),
        magic=_values(check, raw, "magic", things),
        matrix=_matrix(check, raw),
        legible=check.record(raw.get("legible", {}), "legible"),
        reconstructed=notes,
        **lists,
    )


def load_battle() -> BattleTables:
    """The fight's tables from ``data/battle.json`` (corrections applied), checked."""
    raw = data.load(PACKAGE, "battle")
    tiles_raw = data.load(PACKAGE, "tiles")
    return cached("battle", (raw, tiles_raw), lambda: build_battle(raw, load_tiles()))


def load_all() -> BattleTables:
    """Every data file of the game, loaded and checked (the map, the tiles, the parties and
    the fight's tables); :class:`BadData` names the file and the field."""
    load_urland()
    load_tiles()
    load_parties()
    return load_battle()
