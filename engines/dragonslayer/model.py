"""Dragonslayer's data: the map of Urland, the tiles, the magicians and the King's men.

Three files under ``engines/dragonslayer/data/`` hold everything the rules read:

* ``urland.json``: places (towns, hamlets, castles, the Dragon's Lair, Morgenthorme), which
  of them are ports and on which sea zone, the roads, the sea zones and their neighbours, the
  magicians' abodes, the boxes for Ulrich and the Dragon Shield, the Dragon Strength Track and
  drawing coordinates for all of it (inches on a 22 by 17 sheet, y downwards).
* ``tiles.json``: the 75 tiles dealt to the towns and hamlets, Ulrich and the Dragon Shield,
  the Dragon and its Location tiles.
* ``parties.json``: the magicians, Galen's three tiles and the sets of King's men.

Each loader reads its file through :func:`engines.data.load` (so a server's corrected copy
wins) and checks it completely before anything is built: a bad file raises :class:`BadData`
naming the file and the field, and nothing else changes. The loaders never modify the dicts
that :func:`engines.data.load` shares.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engines import data

PACKAGE = "dragonslayer"

Point = tuple[float, float]

TOWN = "town"
HAMLET = "hamlet"
CASTLE = "castle"
LAIR = "lair"
MORGENTHORME = "morgenthorme"
PLACE_KINDS = (TOWN, HAMLET, CASTLE, LAIR, MORGENTHORME)

TOWN_NAMES = ("Swanscombe", "Broadford", "Roskill", "Culnakask")
"""'the four towns (Swanscombe, Broadford, Roskill, and Culnakask)'"""
HAMLETS = 21
"""'two in each of the 21 hamlets'"""
MAGICIAN_KEYS = ("aurric", "merridyds", "old_kyvin", "galen")
"""'Players always take their turns in this order: Aurric, Merridyds, Old Kyvin, and Galen.'"""
BOX_KEYS = ("ulrich", "dragon_shield")

WEAPON = "weapon"
SPELL = "spell"
MAGIC_ITEM = "magic_item"
COMPANION = "companion"
EVENT = "event"
POOL_KINDS = (WEAPON, SPELL, MAGIC_ITEM, COMPANION, EVENT)
TILE_KINDS = (*POOL_KINDS, "shield", "dragon", "location")

EVENT_KEYS = (
    "delayed",
    "item_stolen",
    "companion_killed",
    "companion_deserts",
    "captured",
    "betrayed",
    "gain_one_day_or_escape_from_castle",
)
"""The event tiles of the Special Tile Summary, which the rules act on by key."""
NAMED_POOL_KEYS = (
    *EVENT_KEYS,
    "valerian",
    "spell_to_enchant_weapon",
    "spell_of_killing",
    "charm_of_weaponry",
    "silver_ewer",
    "orb_of_vision",
    "far_mirror",
)
"""Pool tiles that some rule sentence names, so a corrected file must keep them."""
LOCATION_KEYS = ("high_altitude", "low_altitude", "open", "mouth", "passage", "lake", "away")
"""The seven Dragon Location tiles: the six rows of the Battle Display and 'Away'."""
GALEN_TILE_KEYS = ("ulrichs_ashes", "amulet_of_power", "hodge")
"""'Give the "Ulrich's Ashes," "Amulet of Power," and "Hodge" tiles to the Galen player.'"""

_KEY = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*$")


class BadData(data.BadDataFile):
    """A data file that cannot be used; ``str(error)`` names the file and the field."""


# ---------------------------------------------------------------------------------------
# The map


@dataclass(frozen=True)
class Place:
    """A place in Urland. ``port`` is the sea zone a port borders, ``None`` inland."""

    key: str
    name: str
    kind: str
    at: Point
    port: str | None = None

    @property
    def holds_tiles(self) -> bool:
        """Towns and hamlets (ports among them) get face-down tiles at set-up."""
        return self.kind in (TOWN, HAMLET)


@dataclass(frozen=True)
class Road:
    """A road joining two places (either way)."""

    a: str
    b: str


@dataclass(frozen=True)
class SeaZone:
    """A sea zone: a label point, the polygon drawn for it, and its neighbouring zones."""

    key: str
    name: str
    at: Point
    polygon: tuple[Point, ...]
    neighbours: tuple[str, ...]


@dataclass(frozen=True)
class Abode:
    """A magician's abode, off the island, bordering one sea zone."""

    key: str
    name: str
    magician: str
    at: Point
    sea: str


@dataclass(frozen=True)
class Box:
    """A printed box on the map (Ulrich's and the Dragon Shield's pictures)."""

    key: str
    name: str
    at: Point


@dataclass(frozen=True)
class Urland:
    """The whole map. Dicts keep the data file's order."""

    size: Point
    coast: tuple[Point, ...]
    places: dict[str, Place]
    roads: tuple[Road, ...]
    seas: dict[str, SeaZone]
    abodes: dict[str, Abode]
    boxes: dict[str, Box]
    dragon_start: int
    dragon_track: tuple[Point, ...]
    reconstructed: dict[str, str] = field(default_factory=dict)
    _links: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)

    def neighbours(self, place: str) -> tuple[str, ...]:
        """Places one road away from ``place``, in data file order."""
        return self._links[place]

    def of_kind(self, kind: str) -> tuple[Place, ...]:
        """Every place of ``kind`` in data file order."""
        return tuple(place for place in self.places.values() if place.kind == kind)

    def ports_on(self, sea: str) -> tuple[Place, ...]:
        """The ports bordering sea zone ``sea``."""
        return tuple(place for place in self.places.values() if place.port == sea)

    @property
    def lair(self) -> Place:
        return self.of_kind(LAIR)[0]

    @property
    def morgenthorme(self) -> Place:
        return self.of_kind(MORGENTHORME)[0]

    def distances(self, start: str, avoid: Iterable[str] = ()) -> dict[str, int]:
        """Road distance from ``start`` to every place reachable without entering ``avoid``."""
        blocked = set(avoid)
        found = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self._links[here]:
                if there not in found and there not in blocked:
                    found[there] = found[here] + 1
                    queue.append(there)
        return found


# ---------------------------------------------------------------------------------------
# Tiles and parties


@dataclass(frozen=True)
class Tile:
    """One kind of tile and how many of it there are.

    ``strength`` is a companion's combat strength (``None`` for things and events; the
    values of weapons, spells and magic items are on the Battle Display). ``home`` is the
    town a companion lives in, ``keep`` marks an event the party may save, ``carries`` is how
    many spells and magic items a companion carries for its magician (Ulrich), ``box`` the
    map box a tile starts in.
    """

    key: str
    name: str
    kind: str
    count: int = 1
    strength: int | None = None
    home: str | None = None
    aliases: tuple[str, ...] = ()
    keep: bool = False
    carries: int = 0
    box: str | None = None


@dataclass(frozen=True)
class TileSet:
    """tiles.json: the pool dealt to towns and hamlets, and the other tiles of the map."""

    tiles: tuple[Tile, ...]
    per_town: int
    per_hamlet: int
    set_aside: int
    map_tiles: tuple[Tile, ...]
    dragon_tiles: tuple[Tile, ...]
    counters: int
    reconstructed: dict[str, str] = field(default_factory=dict)

    @property
    def pool_size(self) -> int:
        """How many tiles are turned face-down and mixed at set-up."""
        return sum(tile.count for tile in self.tiles)

    def tile(self, key: str) -> Tile:
        """The tile ``key`` wherever it is listed; ``KeyError`` if none."""
        for tile in (*self.tiles, *self.map_tiles, *self.dragon_tiles):
            if tile.key == key:
                return tile
        raise KeyError(key)

    def deck(self) -> tuple[str, ...]:
        """The pool as one key per physical tile, in data file order (shuffle a copy)."""
        return tuple(tile.key for tile in self.tiles for _ in range(tile.count))


@dataclass(frozen=True)
class Magician:
    """A magician: combat and magic strength, pentacles (carrying limit), abode key."""

    key: str
    name: str
    combat: int
    magic: int
    pentacles: int
    abode: str


@dataclass(frozen=True)
class KingsMan:
    """One King's men tile: ``key`` is its set's key and its number (``tyrian_1``)."""

    key: str
    leader: str
    magician: str
    strength: int


@dataclass(frozen=True)
class KingsMenSet:
    """A set of two King's men tiles with its leader's name, dealt to one magician."""

    key: str
    leader: str
    magician: str
    men: tuple[KingsMan, ...]


@dataclass(frozen=True)
class Parties:
    """parties.json: the magicians in turn order, Galen's tiles, the King's men sets."""

    turn_order: tuple[str, ...]
    always_played: str
    magicians: dict[str, Magician]
    galen_tiles: tuple[Tile, ...]
    kings_men: tuple[KingsMenSet, ...]
    reconstructed: dict[str, str] = field(default_factory=dict)

    def kings_men_of(self, magician: str) -> KingsMenSet:
        """The set dealt to ``magician``'s player."""
        for men in self.kings_men:
            if men.magician == magician:
                return men
        raise KeyError(magician)

    @property
    def counters(self) -> int:
        """Counters this file describes: magicians, Galen's tiles, King's men tiles."""
        return (
            len(self.magicians)
            + sum(tile.count for tile in self.galen_tiles)
            + sum(len(men.men) for men in self.kings_men)
        )


# ---------------------------------------------------------------------------------------
# Checking


class Check(data.Fields):
    """Reads raw JSON values for one Dragonslayer file (the shared readers of
    :class:`engines.data.Fields`, plus keys, flags, map points and notes), raising
    :class:`BadData` that names the field."""

    def fail(self, path: str, problem: str) -> BadData:
        return BadData(f"{self.file}: {path} {problem}")

    def key(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or not _KEY.match(value):
            raise self.fail(path, "must be a key of lower-case letters, digits and _")
        return value

    def flag(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(path, "must be true or false")
        return value

    def point(self, value: Any, path: str, size: Point) -> Point:
        ok = (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        )
        if not ok or not (0 <= value[0] <= size[0] and 0 <= value[1] <= size[1]):
            raise self.fail(path, f"must be two numbers inside the {size[0]:g}x{size[1]:g} map")
        return (float(value[0]), float(value[1]))

    def unique(self, keys: list[str], path: str) -> None:
        seen: set[str] = set()
        for index, key in enumerate(keys):
            if key in seen:
                raise self.fail(f"{path}[{index}].key", f"repeats {key!r}")
            seen.add(key)

    def notes(self, raw: dict[str, Any]) -> dict[str, str]:
        notes = self.record(raw.get("reconstructed", {}), "reconstructed")
        for name, why in notes.items():
            self.text(why, f"reconstructed.{name}")
        return dict(notes)


def _size(check: Check, raw: dict[str, Any]) -> Point:
    value = check.get(raw, "size", "")
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in value)
    )
    if not ok:
        raise check.fail("size", "must be two positive numbers (width, height)")
    return (float(value[0]), float(value[1]))


def _points(check: Check, value: Any, path: str, size: Point, least: int) -> tuple[Point, ...]:
    return tuple(
        check.point(item, f"{path}[{index}]", size)
        for index, item in enumerate(check.items(value, path, least))
    )


def _places(check: Check, raw: dict[str, Any], size: Point) -> dict[str, Place]:
    places: dict[str, Place] = {}
    entries = check.items(check.get(raw, "places", ""), "places", 1)
    for index, entry in enumerate(entries):
        path = f"places[{index}]"
        entry = check.record(entry, path)
        key = check.key(check.get(entry, "key", path), f"{path}.key")
        if key in places:
            raise check.fail(f"{path}.key", f"repeats {key!r}")
        kind = check.get(entry, "kind", path)
        if kind not in PLACE_KINDS:
            raise check.fail(f"{path}.kind", f"must be one of {', '.join(PLACE_KINDS)}")
        port = entry.get("port")
        if port is not None:
            check.key(port, f"{path}.port")
            if kind not in (TOWN, HAMLET):
                raise check.fail(f"{path}.port", "is only for towns and hamlets (ports hold tiles)")
        places[key] = Place(
            key=key,
            name=check.text(check.get(entry, "name", path), f"{path}.name"),
            kind=kind,
            at=check.point(check.get(entry, "at", path), f"{path}.at", size),
            port=port,
        )
    towns = sorted(place.name for place in places.values() if place.kind == TOWN)
    if towns != sorted(TOWN_NAMES):
        raise check.fail("places", f"must have the four towns {', '.join(TOWN_NAMES)}")
    hamlets = sum(place.kind == HAMLET for place in places.values())
    if hamlets != HAMLETS:
        raise check.fail("places", f"must have {HAMLETS} hamlets, not {hamlets}")
    for kind, need in ((LAIR, "exactly one"), (MORGENTHORME, "exactly one")):
        if sum(place.kind == kind for place in places.values()) != 1:
            raise check.fail("places", f"must have {need} place of kind {kind}")
    if not any(place.kind == CASTLE for place in places.values()):
        raise check.fail("places", "must have at least one castle")
    return places


def _seas(check: Check, raw: dict[str, Any], size: Point) -> dict[str, SeaZone]:
    entries = check.items(check.get(raw, "seas", ""), "seas", 1)
    keys = []
    for index, entry in enumerate(entries):
        entry = check.record(entry, f"seas[{index}]")
        keys.append(check.key(check.get(entry, "key", f"seas[{index}]"), f"seas[{index}].key"))
    check.unique(keys, "seas")
    seas: dict[str, SeaZone] = {}
    for index, entry in enumerate(entries):
        path = f"seas[{index}]"
        neighbours = check.items(check.get(entry, "neighbours", path), f"{path}.neighbours")
        for number, other in enumerate(neighbours):
            if not isinstance(other, str) or other not in keys or other == keys[index]:
                raise check.fail(
                    f"{path}.neighbours[{number}]", f"{other!r} is not another sea zone"
                )
        seas[keys[index]] = SeaZone(
            key=keys[index],
            name=check.text(check.get(entry, "name", path), f"{path}.name"),
            at=check.point(check.get(entry, "at", path), f"{path}.at", size),
            polygon=_points(check, check.get(entry, "polygon", path), f"{path}.polygon", size, 3),
            neighbours=tuple(neighbours),
        )
    for index, sea in enumerate(seas.values()):
        for number, other in enumerate(sea.neighbours):
            if sea.key not in seas[other].neighbours:
                raise check.fail(
                    f"seas[{index}].neighbours[{number}]",
                    f"{other!r} does not list {sea.key!r} back",
                )
    return seas


def _roads(check: Check, raw: dict[str, Any], places: dict[str, Place]) -> tuple[Road, ...]:
    roads: list[Road] = []
    seen: set[frozenset[str]] = set()
    for index, entry in enumerate(check.items(check.get(raw, "roads", ""), "roads", 1)):
        path = f"roads[{index}]"
        if not isinstance(entry, list) or len(entry) != 2:
            raise check.fail(path, "must be two place keys")
        for end in entry:
            if not isinstance(end, str) or end not in places:
                raise check.fail(path, f"names {end!r}, which is not a place")
        if entry[0] == entry[1]:
            raise check.fail(path, "must join two different places")
        pair = frozenset(entry)
        if pair in seen:
            raise check.fail(path, "repeats a road")
        seen.add(pair)
        roads.append(Road(entry[0], entry[1]))
    return tuple(roads)


def _links(places: dict[str, Place], roads: tuple[Road, ...]) -> dict[str, tuple[str, ...]]:
    linked: dict[str, set[str]] = {key: set() for key in places}
    for road in roads:
        linked[road.a].add(road.b)
        linked[road.b].add(road.a)
    order = list(places)
    return {key: tuple(sorted(linked[key], key=order.index)) for key in places}


def build_urland(raw: dict[str, Any]) -> Urland:
    """An :class:`Urland` from the parsed urland.json; raises :class:`BadData`."""
    check = Check("urland.json")
    raw = check.record(raw, "urland.json")
    notes = check.notes(raw)
    size = _size(check, raw)
    coast = _points(check, check.get(raw, "coast", ""), "coast", size, 3)
    places = _places(check, raw, size)
    seas = _seas(check, raw, size)
    for index, place in enumerate(places.values()):
        if place.port is not None and place.port not in seas:
            raise check.fail(f"places[{index}].port", f"{place.port!r} is not a sea zone")
    for index, sea in enumerate(seas.values()):
        if not any(place.port == sea.key for place in places.values()):
            raise check.fail(f"seas[{index}]", f"{sea.key!r} borders no port")
    abodes: dict[str, Abode] = {}
    for index, entry in enumerate(check.items(check.get(raw, "abodes", ""), "abodes", 1)):
        path = f"abodes[{index}]"
        entry = check.record(entry, path)
        key = check.key(check.get(entry, "key", path), f"{path}.key")
        if key in abodes or key in places:
            raise check.fail(f"{path}.key", f"repeats {key!r}")
        sea_key = check.key(check.get(entry, "sea", path), f"{path}.sea")
        if sea_key not in seas:
            raise check.fail(f"{path}.sea", f"{sea_key!r} is not a sea zone")
        abodes[key] = Abode(
            key=key,
            name=check.text(check.get(entry, "name", path), f"{path}.name"),
            magician=check.key(check.get(entry, "magician", path), f"{path}.magician"),
            at=check.point(check.get(entry, "at", path), f"{path}.at", size),
            sea=sea_key,
        )
    owners = sorted(abode.magician for abode in abodes.values())
    if owners != sorted(MAGICIAN_KEYS):
        raise check.fail("abodes", f"must be one for each of {', '.join(MAGICIAN_KEYS)}")
    roads = _roads(check, raw, places)
    links = _links(places, roads)
    start = next(iter(places))
    reached = {start}
    queue = deque([start])
    while queue:
        for there in links[queue.popleft()]:
            if there not in reached:
                reached.add(there)
                queue.append(there)
    for key in places:
        if key not in reached:
            raise check.fail("roads", f"leave {key!r} unreachable from {start!r}")
    boxes: dict[str, Box] = {}
    for index, entry in enumerate(check.items(check.get(raw, "boxes", ""), "boxes")):
        path = f"boxes[{index}]"
        entry = check.record(entry, path)
        key = check.key(check.get(entry, "key", path), f"{path}.key")
        boxes[key] = Box(
            key=key,
            name=check.text(check.get(entry, "name", path), f"{path}.name"),
            at=check.point(check.get(entry, "at", path), f"{path}.at", size),
        )
    for key in BOX_KEYS:
        if key not in boxes:
            raise check.fail("boxes", f"must have a box {key!r}")
    track = check.record(check.get(raw, "dragon_track", ""), "dragon_track")
    dragon_start = check.whole(
        check.get(track, "start", "dragon_track"), "dragon_track.start", 1, 20
    )
    track_raw = check.get(track, "boxes", "dragon_track")
    track_boxes = _points(check, track_raw, "dragon_track.boxes", size, 1)
    if len(track_boxes) != dragon_start + 1:
        raise check.fail(
            "dragon_track.boxes", f"must be {dragon_start + 1} boxes (0-{dragon_start})"
        )
    return Urland(
        size=size,
        coast=coast,
        places=places,
        roads=roads,
        seas=seas,
        abodes=abodes,
        boxes=boxes,
        dragon_start=dragon_start,
        dragon_track=track_boxes,
        reconstructed=notes,
        _links=links,
    )


def _tile(check: Check, entry: Any, path: str, kinds: tuple[str, ...], towns: set[str]) -> Tile:
    entry = check.record(entry, path)
    kind = check.get(entry, "kind", path)
    if kind not in kinds:
        raise check.fail(f"{path}.kind", f"must be one of {', '.join(kinds)}")
    strength = None
    home = None
    if kind == COMPANION:
        strength = check.whole(check.get(entry, "strength", path), f"{path}.strength", 0, 9)
        home = entry.get("home")
        if home is not None and (not isinstance(home, str) or home not in towns):
            raise check.fail(f"{path}.home", f"{home!r} is not a town of urland.json")
    else:
        for name in ("strength", "home", "carries"):
            if name in entry:
                raise check.fail(f"{path}.{name}", "is only for companions")
    aliases = check.items(entry.get("aliases", []), f"{path}.aliases")
    for number, alias in enumerate(aliases):
        check.text(alias, f"{path}.aliases[{number}]")
    keep = check.flag(entry.get("keep", False), f"{path}.keep")
    if keep and kind != EVENT:
        raise check.fail(f"{path}.keep", "is only for events")
    box = entry.get("box")
    if box is not None:
        check.key(box, f"{path}.box")
    return Tile(
        key=check.key(check.get(entry, "key", path), f"{path}.key"),
        name=check.text(check.get(entry, "name", path), f"{path}.name"),
        kind=kind,
        count=check.whole(check.get(entry, "count", path), f"{path}.count", 1, 99),
        strength=strength,
        home=home,
        aliases=tuple(aliases),
        keep=keep,
        carries=check.whole(entry.get("carries", 0), f"{path}.carries", 0, 9),
        box=box,
    )


T = TypeVar("T")


def _tiles(
    check: Check,
    raw: dict[str, Any],
    name: str,
    kinds: tuple[str, ...],
    towns: set[str],
    need: tuple[str, ...],
) -> tuple[Tile, ...]:
    entries = check.items(check.get(raw, name, ""), name, 1)
    tiles = tuple(_tile(check, e, f"{name}[{i}]", kinds, towns) for i, e in enumerate(entries))
    check.unique([tile.key for tile in tiles], name)
    keys = {tile.key for tile in tiles}
    for key in need:
        if key not in keys:
            raise check.fail(name, f"has no {key!r} tile (the rules need it)")
    return tiles


def build_tiles(raw: dict[str, Any], urland: Urland) -> TileSet:
    """A :class:`TileSet` from the parsed tiles.json, checked against the map."""
    check = Check("tiles.json")
    raw = check.record(raw, "tiles.json")
    notes = check.notes(raw)
    towns = {place.key for place in urland.of_kind(TOWN)}
    per_town = check.whole(check.get(raw, "per_town", ""), "per_town", 0, 99)
    per_hamlet = check.whole(check.get(raw, "per_hamlet", ""), "per_hamlet", 0, 99)
    set_aside = check.whole(check.get(raw, "set_aside", ""), "set_aside", 0, 999)
    tiles = _tiles(check, raw, "tiles", POOL_KINDS, towns, NAMED_POOL_KEYS)
    dealt = per_town * len(towns) + per_hamlet * len(urland.of_kind(HAMLET))
    total = sum(tile.count for tile in tiles)
    if total != dealt + set_aside:
        raise check.fail(
            "tiles",
            f"counts add up to {total}, but the towns and hamlets take {dealt} "
            f"and {set_aside} are set aside ({dealt + set_aside})",
        )
    map_tiles = _tiles(check, raw, "map_tiles", (COMPANION, "shield"), towns, BOX_KEYS)
    for index, tile in enumerate(map_tiles):
        if tile.box not in urland.boxes:
            raise check.fail(f"map_tiles[{index}].box", f"{tile.box!r} is not a box of urland.json")
    dragon_tiles = _tiles(
        check, raw, "dragon_tiles", ("dragon", "location"), towns, ("vermithrax", *LOCATION_KEYS)
    )
    all_keys = [tile.key for tile in (*tiles, *map_tiles, *dragon_tiles)]
    if len(set(all_keys)) != len(all_keys):
        raise check.fail("tiles", "share a key with map_tiles or dragon_tiles")
    return TileSet(
        tiles=tiles,
        per_town=per_town,
        per_hamlet=per_hamlet,
        set_aside=set_aside,
        map_tiles=map_tiles,
        dragon_tiles=dragon_tiles,
        counters=check.whole(check.get(raw, "counters", ""), "counters", 1, 999),
        reconstructed=notes,
    )


def build_parties(raw: dict[str, Any], urland: Urland, tiles: TileSet) -> Parties:
    """:class:`Parties` from the parsed parties.json, checked against the map and tiles."""
    check = Check("parties.json")
    raw = check.record(raw, "parties.json")
    notes = check.notes(raw)
    magicians: dict[str, Magician] = {}
    for index, entry in enumerate(check.items(check.get(raw, "magicians", ""), "magicians", 1)):
        path = f"magicians[{index}]"
        entry = check.record(entry, path)
        key = check.key(check.get(entry, "key", path), f"{path}.key")
        if key not in MAGICIAN_KEYS or key in magicians:
            raise check.fail(f"{path}.key", f"must be one of {', '.join(MAGICIAN_KEYS)}, once")
        abode = check.key(check.get(entry, "abode", path), f"{path}.abode")
        if abode not in urland.abodes or urland.abodes[abode].magician != key:
            raise check.fail(f"{path}.abode", f"{abode!r} is not {key}'s abode in urland.json")
        magicians[key] = Magician(
            key=key,
            name=check.text(check.get(entry, "name", path), f"{path}.name"),
            combat=check.whole(check.get(entry, "combat", path), f"{path}.combat", 0, 9),
            magic=check.whole(check.get(entry, "magic", path), f"{path}.magic", 0, 9),
            pentacles=check.whole(check.get(entry, "pentacles", path), f"{path}.pentacles", 1, 9),
            abode=abode,
        )
    if sorted(magicians) != sorted(MAGICIAN_KEYS):
        raise check.fail("magicians", f"must be {', '.join(MAGICIAN_KEYS)}")
    order = check.items(check.get(raw, "turn_order", ""), "turn_order")
    for index, key in enumerate(order):
        check.key(key, f"turn_order[{index}]")
    if sorted(order) != sorted(MAGICIAN_KEYS):
        raise check.fail("turn_order", "must list each magician once")
    always = check.key(check.get(raw, "always_played", ""), "always_played")
    if always not in magicians:
        raise check.fail("always_played", f"{always!r} is not a magician")
    towns = {place.key for place in urland.of_kind(TOWN)}
    galen_tiles = _tiles(check, raw, "galen_tiles", (COMPANION, MAGIC_ITEM), towns, GALEN_TILE_KEYS)
    sets: list[KingsMenSet] = []
    for index, entry in enumerate(check.items(check.get(raw, "kings_men", ""), "kings_men", 1)):
        path = f"kings_men[{index}]"
        entry = check.record(entry, path)
        key = check.key(check.get(entry, "key", path), f"{path}.key")
        leader = check.text(check.get(entry, "leader", path), f"{path}.leader")
        magician = check.key(check.get(entry, "magician", path), f"{path}.magician")
        if magician not in magicians:
            raise check.fail(f"{path}.magician", f"{magician!r} is not a magician")
        strengths = check.get(entry, "strengths", path)
        if not isinstance(strengths, list) or len(strengths) != 2:
            raise check.fail(f"{path}.strengths", "must be two numbers (a set of two tiles)")
        men = tuple(
            KingsMan(
                key=f"{key}_{number + 1}",
                leader=leader,
                magician=magician,
                strength=check.whole(value, f"{path}.strengths[{number}]", 0, 9),
            )
            for number, value in enumerate(strengths)
        )
        sets.append(KingsMenSet(key=key, leader=leader, magician=magician, men=men))
    check.unique([men.key for men in sets], "kings_men")
    if sorted(men.magician for men in sets) != sorted(MAGICIAN_KEYS):
        raise check.fail("kings_men", "must be one set for each magician")
    taken = {tile.key for tile in (*tiles.tiles, *tiles.map_tiles, *tiles.dragon_tiles)}
    for index, tile in enumerate(galen_tiles):
        if tile.key in taken:
            raise check.fail(f"galen_tiles[{index}].key", f"{tile.key!r} is also in tiles.json")
    parties = Parties(
        turn_order=tuple(order),
        always_played=always,
        magicians={key: magicians[key] for key in order},
        galen_tiles=galen_tiles,
        kings_men=tuple(sets),
        reconstructed=notes,
    )
    total = counter_total(tiles, parties)
    if total != tiles.counters:
        raise BadData(
            f"tiles.json: counters is {tiles.counters}, but tiles.json and parties.json "
            f"describe {total}"
        )
    return parties


def counter_total(tiles: TileSet, parties: Parties) -> int:
    """Every counter of the game: the pool, the map's and the Dragon's tiles, the parties'."""
    return (
        tiles.pool_size
        + sum(tile.count for tile in (*tiles.map_tiles, *tiles.dragon_tiles))
        + parties.counters
    )


# ---------------------------------------------------------------------------------------
# Loading (rebuilt only when engines.data hands back a different dict)

_built: dict[tuple[str, tuple[int, ...]], tuple[Any, tuple[dict[str, Any], ...]]] = {}
KEPT = 16
"""How many builds are kept (the deployment's data and a few servers' corrections)."""


def cached(name: str, raws: tuple[dict[str, Any], ...], build: Callable[[], T]) -> T:
    # engines.data.load returns the same dict until overrides change; the dicts are kept
    # alive in the cache entry, so comparing ids is safe. Several are kept, so games of
    # servers with and without corrections do not rebuild (and redraw) in turn.
    key = (name, tuple(id(raw) for raw in raws))
    entry = _built.get(key)
    if entry is None:
        if len(_built) >= KEPT:
            _built.clear()  # one step, safe while other threads read
        entry = (build(), raws)
        _built[key] = entry
    return entry[0]


def load_urland() -> Urland:
    """The map of Urland from ``data/urland.json`` (corrections applied), checked."""
    raw = data.load(PACKAGE, "urland")
    return cached("urland", (raw,), lambda: build_urland(raw))


def load_tiles() -> TileSet:
    """The tiles from ``data/tiles.json`` (corrections applied), checked against the map."""
    raw = data.load(PACKAGE, "tiles")
    urland_raw = data.load(PACKAGE, "urland")
    return cached("tiles", (raw, urland_raw), lambda: build_tiles(raw, load_urland()))


def load_parties() -> Parties:
    """Magicians, Galen's tiles and King's men from ``data/parties.json``, checked."""
    raw = data.load(PACKAGE, "parties")
    others = (data.load(PACKAGE, "urland"), data.load(PACKAGE, "tiles"))
    return cached(
        "parties", (raw, *others), lambda: build_parties(raw, load_urland(), load_tiles())
    )
