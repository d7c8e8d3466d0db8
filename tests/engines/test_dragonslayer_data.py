"""Dragonslayer's data: every value the rule text gives is pinned (the sentence quoted), the
reconstruction is consistent (counts add up, roads connect, abodes border the sea), and the
loaders refuse a corrected file that is broken, naming the file and the field."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engines import data
from engines.dragonslayer import model
from engines.dragonslayer.model import (
    CASTLE,
    HAMLET,
    LAIR,
    MORGENTHORME,
    TOWN,
    BadData,
    counter_total,
    load_parties,
    load_tiles,
    load_urland,
)


@pytest.fixture(autouse=True)
def _bundled_data():
    data.use_overrides(None)
    yield
    data.use_overrides(None)


def urland() -> model.Urland:
    return load_urland()


def tiles() -> model.TileSet:
    return load_tiles()


def parties() -> model.Parties:
    return load_parties()


def by_name(tile_set: model.TileSet) -> dict[str, model.Tile]:
    return {
        tile.name: tile for tile in (*tile_set.tiles, *tile_set.map_tiles, *tile_set.dragon_tiles)
    }


def inside(point: tuple[float, float], polygon: tuple[tuple[float, float], ...]) -> bool:
    """Ray casting: whether ``point`` lies inside ``polygon``."""
    x, y = point
    result = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


# ---------------------------------------------------------------------------------------
# The map: what the text gives


def test_four_named_towns():
    """'place four of these tiles in each of the four towns (Swanscombe, Broadford, Roskill,
    and Culnakask)'"""
    towns = [place.name for place in urland().of_kind(TOWN)]
    assert sorted(towns) == sorted(["Swanscombe", "Broadford", "Roskill", "Culnakask"])


def test_twenty_one_hamlets():
    """'and two in each of the 21 hamlets.'"""
    hamlets = urland().of_kind(HAMLET)
    assert len(hamlets) == 21
    assert len({place.name for place in hamlets}) == 21


def test_every_place_the_text_names_is_on_the_map():
    """The text names the towns, 'The Dragon's Lair' ('the box on the map marked "The
    Dragon's Lair."') and Morgenthorme ('put your magician in Morgenthorme immediately')."""
    names = {place.name for place in urland().places.values()}
    for name in ("Swanscombe", "Broadford", "Roskill", "Culnakask", "The Dragon's Lair"):
        assert name in names
    assert "Morgenthorme" in names
    assert urland().lair.name == "The Dragon's Lair"
    assert urland().morgenthorme.name == "Morgenthorme"
    assert len(urland().of_kind(LAIR)) == len(urland().of_kind(MORGENTHORME)) == 1


def test_castles_for_the_kings_men():
    """'Place each of your King's men tiles face-down in a castle on the map.'"""
    castles = urland().of_kind(CASTLE)
    assert castles
    assert all(not castle.holds_tiles for castle in castles)


def test_every_magician_has_an_abode_bordering_a_sea_zone():
    """'Each of you selects one magician tile and places it on the map in the space marked as
    your magician's abode.' 'Spend your first day to move your magician to the sea zone that
    borders your abode.'"""
    board = urland()
    owners = sorted(abode.magician for abode in board.abodes.values())
    assert owners == sorted(["aurric", "merridyds", "old_kyvin", "galen"])
    for abode in board.abodes.values():
        assert abode.sea in board.seas
        # Drawn in the sea zone it borders, off the island: 'you will have to go to sea to
        # reach Urland'.
        assert inside(abode.at, board.seas[abode.sea].polygon)
        assert not inside(abode.at, board.coast)
        assert abode.key not in board.places


def test_every_sea_zone_has_its_port():
    """'you can land in Urland in the port that borders the sea zone you are already in.'
    Reading: each sea zone borders exactly one port, and a port is a town or hamlet (it holds
    tiles: 'you can take one of the tiles from the port in which you landed')."""
    board = urland()
    for sea in board.seas.values():
        ports = board.ports_on(sea.key)
        assert len(ports) == 1, sea.key
        assert ports[0].holds_tiles
        assert inside(ports[0].at, sea.polygon)
    assert {place.name for place in board.places.values() if place.port} >= {"Swanscombe"}


def test_sea_zones_neighbour_each_other():
    """'Moves from one sea zone into a neighboring sea zone.' Neighbours are mutual and the
    zones make one ring around the island, so every sea zone can be reached by sea."""
    board = urland()
    for sea in board.seas.values():
        assert sea.neighbours
        for other in sea.neighbours:
            assert sea.key in board.seas[other].neighbours
    start = next(iter(board.seas))
    reached = {start}
    frontier = [start]
    while frontier:
        for other in board.seas[frontier.pop()].neighbours:
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    assert reached == set(board.seas)


def test_road_network_is_connected():
    """'Moves along a road into any place in Urland.' Every place can be reached by road."""
    board = urland()
    for place in board.places:
        assert set(board.distances(place)) == set(board.places)


def test_kings_men_reach_everywhere_without_the_lair():
    """'King's men can never go to sea, go to the Dragon's Lair, or take tiles.' The roads
    still join every other place without passing through the Lair."""
    board = urland()
    lair = board.lair.key
    for place in board.places:
        if place != lair:
            assert set(board.distances(place, avoid=[lair])) == set(board.places) - {lair}


def test_morgenthorme_is_one_road_from_the_lair():
    """Reading: the magician is put in Morgenthorme after the Lair and leaves it next turn, so
    it is a place of its own, next to the Lair, holding no tiles."""
    board = urland()
    assert board.morgenthorme.key in board.neighbours(board.lair.key)
    assert not board.morgenthorme.holds_tiles
    assert not board.lair.holds_tiles


def test_boxes_for_ulrich_and_the_dragon_shield():
    """'put the tiles marked "Ulrich" and "Dragon Shield" on their pictures on the map.'"""
    board = urland()
    assert set(board.boxes) >= {"ulrich", "dragon_shield"}
    placed = {tile.key: tile.box for tile in tiles().map_tiles}
    assert placed == {"ulrich": "ulrich", "dragon_shield": "dragon_shield"}


def test_dragon_starts_at_five():
    """'Put Vermithrax Pejorative in the "5" box on the map' and 'If the Dragon reaches a
    strength of zero, it is dead'."""
    board = urland()
    assert board.dragon_start == 5
    assert len(board.dragon_track) == 6  # boxes 0-5


def test_drawing_is_on_a_17_by_22_sheet():
    """The published map is 17" x 22"; every place, sea zone, abode and box has drawing
    coordinates on it, Urland's places on the island and the sea zones' labels at sea."""
    board = urland()
    assert board.size == (22.0, 17.0)
    for place in board.places.values():
        assert inside(place.at, board.coast), place.key
    for sea in board.seas.values():
        assert inside(sea.at, sea.polygon)
        assert not inside(sea.at, board.coast)
    points = [place.at for place in board.places.values()]
    for index, first in enumerate(points):
        for second in points[index + 1 :]:
            assert math.dist(first, second) >= 1.0


def test_the_map_notes_every_reconstruction():
    """Every reconstructed value names a field of the file and gives a reason."""
    for name in ("urland", "tiles", "parties"):
        raw = data.load("dragonslayer", name)
        assert raw["reconstructed"]
        for key, why in raw["reconstructed"].items():
            assert key.split(".")[0] in raw or key == "castles", (name, key)
            assert len(why) > 20


# ---------------------------------------------------------------------------------------
# The tiles


def test_seventy_five_tiles_for_towns_and_hamlets():
    """'The remaining 75 tiles ... place four of these tiles in each of the four towns ... and
    two in each of the 21 hamlets. Put the 17 leftover tiles aside'."""
    tile_set = tiles()
    board = urland()
    assert tile_set.per_town == 4
    assert tile_set.per_hamlet == 2
    assert tile_set.set_aside == 17
    placed = tile_set.per_town * len(board.of_kind(TOWN)) + tile_set.per_hamlet * len(
        board.of_kind(HAMLET)
    )
    assert placed == 58
    assert tile_set.pool_size == 75 == placed + tile_set.set_aside
    assert len(tile_set.deck()) == 75


def test_pool_is_events_companions_magic_items_weapons_and_spells():
    """'The remaining 75 tiles — representing events, companions, magic items, weapons, and
    spells'."""
    kinds = {tile.kind for tile in tiles().tiles}
    assert kinds == {"event", "companion", "magic_item", "weapon", "spell"}


WEAPONS = [
    "Hart Bow",
    "Axe of Ardanna",
    "Hammer of Morgan",
    "Sword of the Well",
    "Sicarius Draconum",
    "West Sea Trident",
    "The Diamond Mace",
    "Crystal Bow",
    "Eldrinn's Halberd",
    "Bow Whitestag",
    "Spear Sessaman",
    "Club Imperator",
    "Sling of David",
    "Black Bow",
]
SPELLS = [
    "Anti-Fire Spell",
    "Spell of Agility",
    "Spell to Enchant Weapon",
    "Spell of Killing",
    "Spell of Hellfire",
    "Spell of Lightning",
    "Spell of Whirlwinds",
    "Spell of Animation",
    "Spell of Storms",
]
MAGIC_ITEMS = ["Charm of Weaponry", "Silver Ewer", "Orb of Vision", "Far Mirror"]


def test_every_weapon_of_the_battle_display():
    """The Battle Display's weapon columns: 'Hart Bow Axe of Ardanna Hammer of Morgan Sword of
    the Well Sicarius Draconum The Dragon Shield West Sea Trident' and 'The Diamond Mace
    Crystal Bow Eldrinn's Halberd Bow Whitestag Spear Sessaman Club Imperator Sling of David
    Black Bow'. The Dragon Shield 'never counts as a weapon'."""
    named = by_name(tiles())
    for weapon in WEAPONS:
        assert named[weapon].kind == "weapon"
    assert named["The Dragon Shield"].kind == "shield"
    assert sorted(t.name for t in tiles().tiles if t.kind == "weapon") == sorted(WEAPONS)


def test_every_spell_and_magic_item_named():
    """The Battle Display's spells and magic items and the Special Tile Summary's 'Enchant
    Weaponry Spell, Spell of Killing, Charm of Weaponry' and 'Silver Ewer, Orb of Vision, Far
    Mirror'."""
    tile_set = tiles()
    named = by_name(tile_set)
    for spell in SPELLS:
        assert named[spell].kind == "spell"
    for item in MAGIC_ITEMS:
        assert named[item].kind == "magic_item"
    assert "Enchant Weaponry Spell" in named["Spell to Enchant Weapon"].aliases
    things = [t for t in tile_set.tiles if t.kind in ("spell", "magic_item")]
    assert sorted(t.name for t in things) == sorted(SPELLS + MAGIC_ITEMS)


def test_every_event_tile():
    """The Special Tile Summary: Delayed, Item Stolen, Companion Killed, Companion Deserts,
    Captured, Betrayed, Gain One Day or Escape from Castle; 'When you take one of these'."""
    named = by_name(tiles())
    events = [
        "Delayed",
        "Item Stolen",
        "Companion Killed",
        "Companion Deserts",
        "Captured",
        "Betrayed",
        "Gain One Day or Escape from Castle",
    ]
    for event in events:
        assert named[event].kind == "event"
        assert named[event].count >= 2
    assert sorted(t.name for t in tiles().tiles if t.kind == "event") == sorted(events)


def test_only_gain_one_day_is_kept():
    """'You can save this tile to use later, and you can use as many of these as you have in
    one turn.' Other instructions: 'you must follow those instructions immediately and then
    remove the tile from the game.'"""
    kept = [tile.name for tile in tiles().tiles if tile.keep]
    assert kept == ["Gain One Day or Escape from Castle"]


def test_companions_live_in_towns():
    """'a companion in that magician's party who lives in that town (as marked on the
    companion's tile)'; 'If you have Valerian as a companion'."""
    tile_set = tiles()
    towns = {place.key for place in urland().of_kind(TOWN)}
    companions = [tile for tile in tile_set.tiles if tile.kind == "companion"]
    assert "Valerian" in {tile.name for tile in companions}
    for tile in companions:
        assert tile.home in towns
        assert tile.strength is not None and tile.strength >= 1
    # Every town is someone's home, so the town rule can matter everywhere.
    assert {tile.home for tile in companions} == towns


def test_ulrich_carries_three_for_galen():
    """'Note that Ulrich can carry up to three magic items and/or spells for Galen.'"""
    ulrich = tiles().tile("ulrich")
    assert ulrich.kind == "companion"
    assert ulrich.carries == 3


def test_the_dragon_and_seven_location_tiles():
    """'Place the tile marked "The Dragon Vermithrax Pejorative" in the box on the map marked
    "The Dragon's Lair." Place the other seven tiles that have the Dragon pictured on them
    (called Dragon Location tiles)'; the text quotes "The Dragon is Away", "Dragon at High
    Altitude" and "The Dragon is in the Lake of Fire"."""
    tile_set = tiles()
    named = by_name(tile_set)
    assert named["The Dragon Vermithrax Pejorative"].kind == "dragon"
    locations = [tile for tile in tile_set.dragon_tiles if tile.kind == "location"]
    assert sum(tile.count for tile in locations) == 7
    for name in (
        "The Dragon is Away",
        "Dragon at High Altitude",
        "The Dragon is in the Lake of Fire",
    ):
        assert named[name].kind == "location"
    assert {tile.key for tile in locations} == set(model.LOCATION_KEYS)


def test_one_hundred_counters():
    """The published game has 100 counters: 75 for towns and hamlets, 4 magicians, Galen's 3,
    8 King's men (two for each of four players), Ulrich, the Dragon Shield, the Dragon and its
    7 Location tiles."""
    tile_set, party = tiles(), parties()
    assert len(party.magicians) == 4
    assert sum(tile.count for tile in party.galen_tiles) == 3
    assert sum(len(men.men) for men in party.kings_men) == 8
    assert len(tile_set.map_tiles) == 2
    assert len(tile_set.dragon_tiles) == 8
    assert 75 + 4 + 3 + 8 + 2 + 8 == 100
    assert counter_total(tile_set, party) == tile_set.counters == 100


def test_tile_keys_are_unique_across_files():
    tile_set, party = tiles(), parties()
    keys = [t.key for t in (*tile_set.tiles, *tile_set.map_tiles, *tile_set.dragon_tiles)]
    keys += [tile.key for tile in party.galen_tiles]
    keys += [man.key for men in party.kings_men for man in men.men]
    assert len(keys) == len(set(keys))


# ---------------------------------------------------------------------------------------
# Magicians and King's men


def test_turn_order():
    """'Players always take their turns in this order: Aurric, Merridyds, Old Kyvin, and
    Galen.'"""
    party = parties()
    assert party.turn_order == ("aurric", "merridyds", "old_kyvin", "galen")
    assert [m.name for m in party.magicians.values()] == [
        "Aurric",
        "Merridyds",
        "Old Kyvin",
        "Galen",
    ]


def test_galen_is_always_played():
    """'One player should always play Galen, whether there are four players or not.'"""
    assert parties().always_played == "galen"


def test_galen_has_one_pentacle():
    """'Galen can always carry Ulrich's Ashes (a magic item) plus one other spell or magic item,
    even though he has only one pentacle on his tile.'"""
    assert parties().magicians["galen"].pentacles == 1


def test_magicians_have_strengths_and_pentacles():
    """'add the magic strength of your magician'; 'Your magician can carry as many spells and
    magic items as he has pentacles (star symbols) on the bottom of his tile.'"""
    for magician in parties().magicians.values():
        assert magician.pentacles >= 1
        assert magician.magic >= 1
        assert magician.combat >= 0
        assert urland().abodes[magician.abode].magician == magician.key


def test_galens_three_tiles():
    """'Give the "Ulrich's Ashes," "Amulet of Power," and "Hodge" tiles to the Galen player.'
    'Galen can always carry Ulrich's Ashes (a magic item)'."""
    named = {tile.name: tile for tile in parties().galen_tiles}
    assert set(named) == {"Ulrich's Ashes", "Amulet of Power", "Hodge"}
    assert named["Ulrich's Ashes"].kind == "magic_item"
    assert named["Amulet of Power"].kind == "magic_item"
    assert named["Hodge"].kind == "companion"


def test_kings_men_sets_of_two_with_a_leader():
    """'give each player a set of two King's men tiles. Each set of two has a leader's name on
    it (for instance, Tyrian).'"""
    party = parties()
    assert "Tyrian" in {men.leader for men in party.kings_men}
    assert len({men.leader for men in party.kings_men}) == 4
    for magician in party.turn_order:
        men = party.kings_men_of(magician)
        assert len(men.men) == 2
        assert all(man.leader == men.leader for man in men.men)
        assert all(man.strength >= 1 for man in men.men)


# ---------------------------------------------------------------------------------------
# Corrected files


def write(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    """A copy of bundled ``name``.json, changed, as a correction for the next loads."""
    raw = copy.deepcopy(data.load("dragonslayer", name))
    change(raw)
    folder = tmp_path / "dragonslayer"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(raw), encoding="utf-8")
    data.use_overrides(tmp_path, check=False)  # the loaders check it (tested here)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change setting ``tiles.27.strength``-style ``path`` to ``value``."""

    def change(raw: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = raw
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


def _drop_tile(key: str) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        raw["tiles"] = [tile for tile in raw["tiles"] if tile["key"] != key]

    return change


def _isolate(place: str) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        raw["roads"] = [road for road in raw["roads"] if place not in road]

    return change


def _drop_hamlet(raw: dict[str, Any]) -> None:
    gone = next(p["key"] for p in raw["places"] if p["kind"] == "hamlet" and "port" not in p)
    raw["places"] = [p for p in raw["places"] if p["key"] != gone]
    raw["roads"] = [road for road in raw["roads"] if gone not in road]


COMPANION_AT = 27  # tiles[27] is the first companion (after 14 weapons, 9 spells, 4 items)

BROKEN = [
    ("tiles", _set(f"tiles.{COMPANION_AT}.strength", "2"),
     f"tiles.json: tiles[{COMPANION_AT}].strength must be a whole number 0-9"),
    ("tiles", _set(f"tiles.{COMPANION_AT}.strength", 10),
     f"tiles.json: tiles[{COMPANION_AT}].strength must be a whole number 0-9"),
    ("tiles", _set("tiles.12.strength", 2),
     "tiles.json: tiles[12].strength is only for companions"),
    ("tiles", _set(f"tiles.{COMPANION_AT}.home", "london"),
     f"tiles.json: tiles[{COMPANION_AT}].home 'london' is not a town"),
    ("tiles", _set("tiles.3.kind", "relic"), "tiles.json: tiles[3].kind must be one of"),
    ("tiles", _set("tiles.0.count", 2), "tiles.json: tiles counts add up to 76"),
    ("tiles", _set("set_aside", 16), "tiles.json: tiles counts add up to 75"),
    ("tiles", _set("tiles.1.key", "hart_bow"), "tiles.json: tiles[1].key repeats 'hart_bow'"),
    ("tiles", _drop_tile("valerian"), "tiles.json: tiles has no 'valerian' tile"),
    ("tiles", _set("tiles.0.name", ""), "tiles.json: tiles[0].name must be a non-empty text"),
    ("tiles", _set("map_tiles.0.box", "attic"), "tiles.json: map_tiles[0].box 'attic'"),
    ("tiles", _set("counters", 99), "tiles.json: counters is 99"),
    ("urland", _set("places.0.at", [30, 2]),
     "urland.json: places[0].at must be two numbers inside the 22x17 map"),
    ("urland", _set("places.0.name", "Swanton"), "urland.json: places must have the four towns"),
    ("urland", _drop_hamlet, "urland.json: places must have 21 hamlets, not 20"),
    ("urland", _set("places.25.port", "north_sea"),
     "urland.json: places[25].port is only for towns and hamlets"),
    ("urland", _set("places.0.port", "black_sea"),
     "urland.json: places[0].port 'black_sea' is not a sea zone"),
    ("urland", _set("roads.0", ["swanscombe", "atlantis"]),
     "urland.json: roads[0] names 'atlantis', which is not a place"),
    ("urland", _set("roads.1", ["swanscombe", "ashby_fell"]),
     "urland.json: roads[1] repeats a road"),
    ("urland", _isolate("pennick"), "urland.json: roads leave 'pennick' unreachable"),
    ("urland", _set("abodes.0.sea", "lake"), "urland.json: abodes[0].sea 'lake' is not a sea zone"),
    ("urland", _set("seas.0.neighbours", ["west_sea", "grey_sea", "east_sea"]),
     "urland.json: seas[0].neighbours[2] 'east_sea' does not list 'north_sea' back"),
    ("urland", _set("dragon_track.start", 6), "urland.json: dragon_track.boxes must be 7 boxes"),
    ("urland", _set("boxes", []), "urland.json: boxes must have a box 'ulrich'"),
    ("urland", _set("size", [22]), "urland.json: size must be two positive numbers"),
    ("parties", _set("magicians.3.pentacles", 0),
     "parties.json: magicians[3].pentacles must be a whole number 1-9"),
    ("parties", _set("magicians.0.combat", 1.5),
     "parties.json: magicians[0].combat must be a whole number 0-9"),
    ("parties", _set("magicians.0.abode", "galen"),
     "parties.json: magicians[0].abode 'galen' is not aurric's abode"),
    ("parties", _set("kings_men.0.strengths", [3]),
     "parties.json: kings_men[0].strengths must be two numbers"),
    ("parties", _set("kings_men.2.strengths", [3, -1]),
     "parties.json: kings_men[2].strengths[1] must be a whole number 0-9"),
    ("parties", _set("kings_men.1.magician", "aurric"),
     "parties.json: kings_men must be one set for each magician"),
    ("parties", _set("turn_order", ["aurric", "galen"]),
     "parties.json: turn_order must list each magician once"),
    ("parties", _set("galen_tiles.2.count", 2), "tiles.json: counters is 100, but"),
    ("parties", _set("magicians.1", "Merridyds"), "parties.json: magicians[1] must be an object"),
    ("parties", _set("turn_order", [1, 2, 3, 4]), "parties.json: turn_order[0] must be a key"),
    ("urland", _set("roads.0", [["x"], "y"]), "urland.json: roads[0] names ['x']"),
]  # fmt: skip


def _load_all() -> None:
    load_urland()
    load_tiles()
    load_parties()


@pytest.mark.parametrize(("name", "change", "message"), BROKEN)
def test_a_broken_correction_is_refused_naming_the_field(tmp_path, name, change, message):
    write(tmp_path, name, change)
    with pytest.raises(BadData) as caught:
        _load_all()
    assert str(caught.value).startswith(message), str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_missing_field_is_named(tmp_path):
    def change(raw: dict[str, Any]) -> None:
        del raw["magicians"][2]["magic"]

    write(tmp_path, "parties", change)
    with pytest.raises(BadData, match=r"^parties\.json: magicians\[2\]\.magic is missing$"):
        load_parties()


def test_a_refused_correction_changes_nothing(tmp_path):
    """The shared bundled data is not modified by a failed load, and dropping the broken
    correction gives back exactly the bundled values."""
    before = copy.deepcopy(data.load("dragonslayer", "tiles"))
    good = tiles()
    write(tmp_path, "tiles", _set(f"tiles.{COMPANION_AT}.strength", 12))
    with pytest.raises(BadData):
        load_tiles()
    data.use_overrides(None)
    assert data.load("dragonslayer", "tiles") == before
    assert tiles() == good


def test_a_good_correction_is_used(tmp_path):
    """A server can load corrected values, for example typed from a printed sheet."""
    write(tmp_path, "parties", _set("kings_men.0.strengths", [3, 5]))
    assert [man.strength for man in parties().kings_men_of("aurric").men] == [3, 5]
    data.use_overrides(None)
    assert [man.strength for man in parties().kings_men_of("aurric").men] == [2, 4]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every value's path inside a JSON document (the "reconstructed" notes left out)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("reconstructed", "source"):
                found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


GARBAGE = [None, "x", -1, 2.5, [], {}, [["x"]], True]


BUILD: dict[str, Callable[[dict[str, Any]], object]] = {
    "urland": model.build_urland,
    "tiles": lambda raw: model.build_tiles(raw, load_urland()),
    "parties": lambda raw: model.build_parties(raw, load_urland(), load_tiles()),
}


@pytest.mark.parametrize("name", ["urland", "tiles", "parties"])
def test_any_garbage_value_is_refused_as_bad_data(name):
    """Whatever one value of a corrected file is replaced by, building from it either works
    or raises BadData naming the file: never another exception from deep inside."""
    bundled = data.load("dragonslayer", name)
    refused = 0
    for path in _paths(bundled):
        for garbage in GARBAGE:
            raw = copy.deepcopy(bundled)
            target = raw
            for part in path[:-1]:
                target = target[part]
            target[path[-1]] = garbage
            try:
                BUILD[name](raw)
            except BadData as error:
                assert str(error).startswith(f"{name}.json: ") or "counters" in str(error)
                refused += 1
    assert refused > len(_paths(bundled))


def test_loaders_rebuild_only_when_the_data_changes():
    assert load_urland() is load_urland()
    assert load_tiles() is load_tiles()
    assert load_parties() is load_parties()
