"""Dragonslayer's fight tables: every value the rule text shows is pinned here, typed by hand
from the Battle Display, the Strength Modifiers Display and the Dragon Battle Matrix; the
data file's ``legible`` list names exactly those values; the reconstructed Matrix cells keep
a stronger party from ever doing worse; a corrected ``battle.json`` replaces values, and a
broken one is refused naming the field and changes nothing."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engines import data
from engines.dragonslayer.battle import MATRIX_SIZE, ROWS, load_battle
from engines.dragonslayer.help import tables
from engines.dragonslayer.model import WEAPON, BadData, load_tiles
from tests.engines.dragonslayer_helpers import GAME, give, placed, put_magician, turn

HIGH, LOW, OPEN, MOUTH = "high_altitude", "low_altitude", "open", "mouth"


@pytest.fixture(autouse=True)
def _bundled_data():
    data.use_overrides(None)
    yield
    data.use_overrides(None)


# ---------------------------------------------------------------------------------------
# The rule text, transcribed by hand

COMBAT_WEAPONS_1 = {
    # Place: Hart Bow, Axe of Ardanna, Hammer of Morgan, Sword of the Well,
    #        Sicarius Draconum, The Dragon Shield, West Sea Trident
    HIGH: [3, 0, 0, 0, 0, 0, 0],
    LOW: [2, 0, 0, 0, 2, 1, 1],
    OPEN: [3, 1, 1, 3, 3, 3],
}
WEAPONS_1 = (
    "hart_bow",
    "axe_of_ardanna",
    "hammer_of_morgan",
    "sword_of_the_well",
    "sicarius_draconum",
    "dragon_shield",
    "west_sea_trident",
)
COMBAT_WEAPONS_2 = {
    # Place: The Diamond Mace, Crystal Bow, Eldrinn's Halberd, Bow Whitestag,
    #        Spear Sessaman, Club Imperator, Sling of David, Black Bow
    HIGH: [0, 2, 0, 1, 0, 0, 2, 1],
    LOW: [0, 2, 0, 1, 1, 0, 2, 1],
    OPEN: [1, 2, 2],
}
WEAPONS_2 = (
    "the_diamond_mace",
    "crystal_bow",
    "eldrinns_halberd",
    "bow_whitestag",
    "spear_sessaman",
    "club_imperator",
    "sling_of_david",
    "black_bow",
)
COMBAT_MAGIC = {
    # Place: Amulet of Power, Charm of Weaponry, Anti-Fire Spell, Spell of Agility,
    #        Spell to Enchant Weapon, Spell of Killing
    HIGH: [3, 1, 0, 0, 2, 3],
    LOW: [3, 1, 0, 1, 2, 3],
    OPEN: [3, 1, 2, 1, 2, 3],
    MOUTH: [3, 1],
}
MAGIC_IN_COMBAT = (
    "amulet_of_power",
    "charm_of_weaponry",
    "anti_fire_spell",
    "spell_of_agility",
    "spell_to_enchant_weapon",
    "spell_of_killing",
)
MAGIC = {
    # Place: The Dragon Shield, Amulet of Power, Anti-Fire Spell, Spell of Agility,
    #        Spell of Hellfire, Spell of Lightning, Spell of Whirlwinds, Spell of Animation,
    #        Spell of Storms
    HIGH: [0, 3, 0, 0, 0, 2, 2, 0, 1],
    LOW: [1, 3, 1, 0, 1, 1, 2, 0, 1],
}
MAGIC_THINGS = (
    "dragon_shield",
    "amulet_of_power",
    "anti_fire_spell",
    "spell_of_agility",
    "spell_of_hellfire",
    "spell_of_lightning",
    "spell_of_whirlwinds",
    "spell_of_animation",
    "spell_of_storms",
)
MODIFIERS = {
    "high_altitude": +1,  # 'Flying at High Altitude: Add 1 to both your strengths.'
    "low_altitude": 0,  # 'Flying at Low Altitude: There is no modification.'
    "open": -1,  # 'In the Open: Subtract 1 from both your strengths.'
    "mouth": 0,  # 'At the Mouth of its Lair: There is no modification.'
    "passage": -2,  # 'In the Passage of its Lair: Subtract 2 from both your strengths.'
    "lake": -2,  # 'In the Lake of Fire: Subtract 2 from both your strengths.'
}
MATRIX = [
    # Magic \ Combat: the same, 1 more, 2 more, 3 more, 4 more, at least 5 more
    ["10/0", "9/0", "8/0", "6/0", "4/0", "2/0"],  # the same
    ["9/0", "7/0", "5/0", "4/0", "3/0", "2/1"],  # 1 more
    ["8/0", "6/0", "5/0", "3/0", "2/1", "2/2"],  # 2 more
    ["6/0", "5/0"],  # 3 more (the rest is cut off)
]


def cells(table: dict[str, list[int]], keys: tuple[str, ...]) -> dict[tuple[str, str], int]:
    """``(thing, row) -> value`` for a transcribed table (a short row lost its right end)."""
    return {
        (keys[i], row): value for row, values in table.items() for i, value in enumerate(values)
    }


COMBAT_SHOWN = {
    **cells(COMBAT_WEAPONS_1, WEAPONS_1),
    **cells(COMBAT_WEAPONS_2, WEAPONS_2),
    **cells(COMBAT_MAGIC, MAGIC_IN_COMBAT),
}
MAGIC_SHOWN = cells(MAGIC, MAGIC_THINGS)
MATRIX_SHOWN = {
    (r, c): tuple(int(n) for n in cell.split("/"))
    for r, row in enumerate(MATRIX)
    for c, cell in enumerate(row)
}


# ---------------------------------------------------------------------------------------
# Pinned values


@pytest.mark.parametrize(("thing", "row"), sorted(COMBAT_SHOWN))
def test_battle_display_combat_value(thing, row):
    """'The number in each box is the value added to your party's strength for that item in
    that place.' (Weapons, and Magic Items and Spells, added to combat strength.)"""
    assert load_battle().combat[thing][row] == COMBAT_SHOWN[(thing, row)]


@pytest.mark.parametrize(("thing", "row"), sorted(MAGIC_SHOWN))
def test_battle_display_magic_value(thing, row):
    """'Dragon Shield, Magic Items and Spells (added to your party's magic strength)'."""
    assert load_battle().magic[thing][row] == MAGIC_SHOWN[(thing, row)]


@pytest.mark.parametrize("row", ROWS)
def test_strength_modifier(row):
    """'Effect on your combat and magic strengths when the Dragon is...'"""
    assert load_battle().locations[row].modifier == MODIFIERS[row]


@pytest.mark.parametrize(("magic", "combat"), sorted(MATRIX_SHOWN))
def test_matrix_cell(magic, combat):
    """'Each entry reads "number lost / strength levels the Dragon loses."' Magic strength
    down the side, combat strength across the top."""
    battle = load_battle()
    assert battle.matrix[magic][combat] == MATRIX_SHOWN[(magic, combat)]
    assert battle.cell(magic, combat) == MATRIX_SHOWN[(magic, combat)]


def test_the_display_has_the_six_rows_in_order():
    """'Each row is a place where the battle can happen (High Altitude, Low Altitude, Open,
    Mouth, Passage, Lake).'"""
    battle = load_battle()
    assert list(battle.locations) == list(MODIFIERS)
    assert [loc.name for loc in battle.locations.values()] == [
        "High Altitude",
        "Low Altitude",
        "the Open",
        "the Mouth of its Lair",
        "the Passage of its Lair",
        "the Lake of Fire",
    ]


def test_every_thing_pictured_is_on_the_display_and_only_those():
    """The Display's columns are every weapon, spell and magic item it pictures; nothing
    else (the Silver Ewer, Ulrich's Ashes) adds strength."""
    battle = load_battle()
    assert set(battle.combat) == set(WEAPONS_1) | set(WEAPONS_2) | set(MAGIC_IN_COMBAT)
    assert set(battle.magic) == set(MAGIC_THINGS)
    weapons = {t.key for t in load_tiles().tiles if t.kind == WEAPON}
    assert weapons == (set(WEAPONS_1) | set(WEAPONS_2)) - {"dragon_shield"}


def test_things_pictured_twice():
    """'(Some things — like the Amulet of Power — are pictured twice; you will have to pick
    one of these spaces.)' The Shield, the Amulet, the Anti-Fire Spell and the Spell of
    Agility appear both in a combat table and in the magic table."""
    twice = set(load_battle().twice())
    assert twice == (set(WEAPONS_1) | set(MAGIC_IN_COMBAT)) & set(MAGIC_THINGS)
    assert twice == {"dragon_shield", "amulet_of_power", "anti_fire_spell", "spell_of_agility"}


def test_named_tiles_of_the_special_tile_summary():
    """'Enchant Weaponry Spell, Spell of Killing, Charm of Weaponry' count one per weapon;
    'Silver Ewer, Orb of Vision, Far Mirror' let the first draw be discarded; a raid is
    fought 'as though he had ... drawn a "Dragon at High Altitude" tile'."""
    battle = load_battle()
    assert set(battle.weapon_bound) == {
        "spell_to_enchant_weapon",
        "spell_of_killing",
        "charm_of_weaponry",
    }
    assert "Enchant Weaponry Spell" in load_tiles().tile("spell_to_enchant_weapon").aliases
    assert set(battle.second_draw) == {"silver_ewer", "orb_of_vision", "far_mirror"}
    assert battle.raid_location == "high_altitude"
    assert battle.away == "away"


def test_location_tiles_are_named_as_the_rule_text_names_them():
    """'If you draw "The Dragon is Away,"' ... 'drawn a "Dragon at High Altitude" tile' ...
    'If he draws "The Dragon is in the Lake of Fire,"'."""
    tiles = load_tiles()
    assert tiles.tile("away").name == "The Dragon is Away"
    assert tiles.tile("high_altitude").name == "Dragon at High Altitude"
    assert tiles.tile("lake").name == "The Dragon is in the Lake of Fire"
    assert sum(t.kind == "location" for t in tiles.dragon_tiles) == 7


# ---------------------------------------------------------------------------------------
# What is legible, and what is reconstructed


def legible(table: str) -> set[tuple[str, str]]:
    listed = load_battle().legible[table]
    return {(key, row) for key, rows in listed.items() for row in rows}


def test_legible_lists_exactly_the_values_the_rule_text_shows():
    battle = load_battle()
    assert legible("combat") == set(COMBAT_SHOWN)
    assert legible("magic") == set(MAGIC_SHOWN)
    assert {tuple(rc) for rc in battle.legible["matrix"]} == set(MATRIX_SHOWN)
    for key, row in COMBAT_SHOWN:
        assert battle.is_legible("combat", key, row)
    assert not battle.is_legible("combat", "hart_bow", "lake")
    assert not battle.is_legible("magic", "spell_of_storms", "open")


def test_every_other_value_is_reconstructed_with_a_reason():
    """Values the rule text does not give are listed in 'reconstructed' with a reason, the
    rules help lists those reasons, and its tables mark each reconstructed value with *."""
    battle = load_battle()
    assert {"combat", "magic", "matrix"} <= set(battle.reconstructed)
    assert all(why.strip() for why in battle.reconstructed.values())
    assert data.load("dragonslayer", "battle")["source"]
    help_text = GAME.rules_help()
    for note in data.reconstructed_notes(data.load("dragonslayer", "battle")):
        assert note in help_text
    blocks = tables().split("```")
    combat, magic, matrix = (blocks[i].strip().splitlines()[1:] for i in (1, 3, 5))
    for lines, table, values in ((combat, "combat", battle.combat), (magic, "magic", battle.magic)):
        assert len(lines) == len(values)
        for line, key in zip(lines, values, strict=True):
            shown = {row for k, row in legible(table) if k == key}
            assert line.count("*") == len(ROWS) - len(shown), line
    for r, line in enumerate(matrix):
        shown = [c for rr, c in MATRIX_SHOWN if rr == r]
        assert line.count("*") == MATRIX_SIZE - len(shown), line


@pytest.mark.parametrize("row", range(MATRIX_SIZE))
def test_a_stronger_combat_strength_never_does_worse(row):
    """Along each Matrix row (more combat strength, same magic) losses never rise and the
    Dragon's losses never fall, the reconstructed cells included."""
    matrix = load_battle().matrix
    for col in range(MATRIX_SIZE - 1):
        (lost, levels), (lost2, levels2) = matrix[row][col], matrix[row][col + 1]
        assert lost2 <= lost and levels2 >= levels, (row, col)


@pytest.mark.parametrize("col", range(MATRIX_SIZE))
def test_a_stronger_magic_strength_never_does_worse(col):
    """Down each Matrix column (more magic strength, same combat) likewise."""
    matrix = load_battle().matrix
    for row in range(MATRIX_SIZE - 1):
        (lost, levels), (lost2, levels2) = matrix[row][col], matrix[row + 1][col]
        assert lost2 <= lost and levels2 >= levels, (row, col)


def test_the_matrix_reads_at_least_5_more_for_anything_beyond():
    """'At least 5 more': any larger difference reads the last column (and row)."""
    battle = load_battle()
    for far in (5, 6, 9, 40):
        assert battle.cell(0, far) == (2, 0)
        assert battle.cell(far, 0) == battle.matrix[5][0]
        assert battle.cell(far, far) == battle.matrix[5][5]


# ---------------------------------------------------------------------------------------
# Corrected files


def correct(tmp_path: Path, change: Callable[[dict[str, Any]], None], whole: bool = True) -> None:
    """A corrected battle.json in an override folder (the whole file changed, or only the
    changed top-level keys), used from now on."""
    bundled = data.load("dragonslayer", "battle")
    raw = copy.deepcopy(bundled)
    change(raw)
    if not whole:
        raw = {key: value for key, value in raw.items() if value != bundled.get(key)}
    folder = tmp_path / "dragonslayer"
    folder.mkdir(exist_ok=True)
    (folder / "battle.json").write_text(json.dumps(raw), encoding="utf-8")
    data.use_overrides(tmp_path, check=False)  # the loaders check it (tested here)


def _set_cell(raw: dict[str, Any]) -> None:
    raw["matrix"][4][3] = "1/2"


def _set_trident(raw: dict[str, Any]) -> None:
    raw["combat"]["west_sea_trident"]["open"] = 3


@pytest.mark.parametrize("whole", [True, False])
def test_a_corrected_file_replaces_values(tmp_path, whole):
    """A server can load the values of a printed sheet: they replace the reconstruction."""
    assert load_battle().matrix[4][3] == (2, 1)
    correct(tmp_path, lambda raw: (_set_cell(raw), _set_trident(raw)), whole)
    battle = load_battle()
    assert battle.matrix[4][3] == (1, 2)
    assert battle.combat["west_sea_trident"]["open"] == 3
    assert battle.matrix[0][0] == (10, 0)
    data.use_overrides(None)
    assert load_battle().matrix[4][3] == (2, 1)
    assert load_battle().combat["west_sea_trident"]["open"] == 2


class Draws(random.Random):
    """Draws the Location tiles named, in order."""

    def __init__(self, *wanted: str) -> None:
        super().__init__(0)
        self.wanted = list(wanted)

    def choice(self, seq):
        return self.wanted.pop(0)


def test_a_corrected_matrix_decides_the_next_fight(tmp_path):
    """The engine reads the corrected table: a fight whose strengths land on the corrected
    cell gets its result."""

    def fight_once() -> tuple[dict, str]:
        # Aurric and Wulfstan at Low Altitude against a Dragon of 1.
        state = turn(put_magician(placed(2), 0, "glenarrow"), 0)
        give(state, 0, companions=("wulfstan",))
        state["dragon"] = 1
        state, _ = GAME.apply(state, 0, "go dragons_lair", Draws())
        state, _ = GAME.apply(state, 0, "draw", Draws("low_altitude"))
        [choice] = GAME.legal_actions(state, 0)
        _, events = GAME.apply(state, 0, "fight", Draws())
        return next(e.data for e in events if "lost" in e.data), choice.label

    bundled, label = fight_once()
    combat, magic = (int(n) for n in re.search(r"combat (\d+), magic (\d+)", label).groups())
    cell = (min(magic - 1, 5), min(combat - 1, 5))
    assert (bundled["lost"], bundled["levels"]) == load_battle().matrix[cell[0]][cell[1]]
    correct(tmp_path, lambda raw: raw["matrix"][cell[0]].__setitem__(cell[1], "0/5"))
    outcome, _ = fight_once()
    assert (outcome["lost"], outcome["levels"]) == (0, 5)
    data.use_overrides(None)
    assert fight_once() == (bundled, label)


def _cell(text: str) -> Callable[[dict[str, Any]], None]:
    return lambda raw: raw["matrix"][3].__setitem__(2, text)


def _short_row(raw: dict[str, Any]) -> None:
    raw["matrix"][3] = raw["matrix"][3][:5]


def _value(value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda raw: raw["combat"]["hart_bow"].__setitem__("mouth", value)


def _unknown_thing(raw: dict[str, Any]) -> None:
    raw["magic"]["excalibur"] = raw["magic"]["amulet_of_power"]


def _modifier(raw: dict[str, Any]) -> None:
    raw["locations"][2]["modifier"] = "-1"


def _raid(raw: dict[str, Any]) -> None:
    raw["raid_location"] = "the moon"


def _bound(raw: dict[str, Any]) -> None:
    raw["weapon_bound"] = ["spell_of_killing", "holy_water"]


def _missing_row(raw: dict[str, Any]) -> None:
    del raw["magic"]["spell_of_storms"]["lake"]


BROKEN = [
    (_cell("3-1"), "battle.json: matrix[3][2] must read 'lost/levels'"),
    (_cell("x/1"), "battle.json: matrix[3][2] must read 'lost/levels'"),
    (_short_row, "battle.json: matrix[3] must list at least 6"),
    (lambda raw: raw["matrix"][3].append("0/3"), "battle.json: matrix[3] must have 6 cells"),
    (lambda raw: raw["matrix"].pop(), "battle.json: matrix must list at least 6"),
    (_value(10), "battle.json: combat.hart_bow.mouth must be a whole number 0-9"),
    (_value("2"), "battle.json: combat.hart_bow.mouth must be a whole number 0-9"),
    (_value(-1), "battle.json: combat.hart_bow.mouth must be a whole number 0-9"),
    (_unknown_thing, "battle.json: magic.excalibur is not a weapon, spell or magic item"),
    (_missing_row, "battle.json: magic.spell_of_storms.lake is missing"),
    (_modifier, "battle.json: locations[2].modifier must be a whole number -9 to 9"),
    (_raid, "battle.json: raid_location must be one of"),
    (_bound, "battle.json: weapon_bound[1] 'holy_water' is not a tile"),
    (lambda raw: raw.__setitem__("combat", []), "battle.json: combat must be an object"),
]


@pytest.mark.parametrize(("change", "message"), BROKEN)
def test_a_broken_correction_is_refused_naming_the_field(tmp_path, change, message):
    bundled = copy.deepcopy(data.load("dragonslayer", "battle"))
    good = load_battle()
    correct(tmp_path, change)
    with pytest.raises(BadData) as caught:
        load_battle()
    assert str(caught.value).startswith(message), str(caught.value)
    # Nothing changed: the bundled data is intact and comes back as it was.
    data.use_overrides(None)
    assert data.load("dragonslayer", "battle") == bundled
    assert load_battle() == good
