"""The Dragonslayer Battle Display picture: a small valid PNG that shows the fight's view."""

from __future__ import annotations

import copy
import io
import random

from PIL import Image, ImageChops

from engines.dragonslayer import GAME, fight
from engines.dragonslayer.battle import load_battle
from engines.dragonslayer.model import load_urland
from games import render as render_slug
from render.dragonslayer import picture, render
from render.dragonslayer.battle import (
    HEIGHT,
    ROW_H,
    ROWS_TOP,
    WIDTH,
    battle_picture,
    headline,
    matrix_cell_box,
)
from tests.render.test_dragonslayer_render import assert_small_png, busy_view

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
HIGHLIGHT = (255, 214, 0)
TABLES = load_battle()
NAMES = {
    "hart_bow": "Hart Bow",
    "sword_of_the_well": "Sword of the Well",
    "black_bow": "Black Bow",
    "amulet_of_power": "Amulet of Power",
    "spell_of_killing": "Spell of Killing",
    "charm_of_weaponry": "Charm of Weaponry",
    "spell_of_lightning": "Spell of Lightning",
    "anti_fire_spell": "Anti-Fire Spell",
}


# --- views built by hand, following the engine's public view --------------------------------


def _thing(key: str, box: str, counted: bool = True) -> dict:
    values = (TABLES.combat if box == "combat" else TABLES.magic)[key]
    legible = TABLES.legible.get(box, {}).get(key, [])
    return {
        "key": key,
        "name": NAMES[key],
        "values": dict(values),
        "counted": counted,
        "legible": list(legible),
        "twice": key in TABLES.twice(),
    }


def battle_view(
    location: str = "open",
    combat: tuple[str, ...] = ("hart_bow", "sword_of_the_well"),
    magic: tuple[str, ...] = ("amulet_of_power", "spell_of_lightning"),
    dragon: int = 4,
    raid: bool = False,
) -> dict:
    """A resolved fight of Galen's party (Galen, Hodge, Valerian) against the Dragon, with
    the sums, the Matrix cell and the outcome worked out from the data tables."""
    view = busy_view()
    rows = [
        {"key": key, "name": where.name, "modifier": where.modifier}
        for key, where in TABLES.locations.items()
    ]
    combat_items = [_thing(key, "combat") for key in combat]
    magic_items = [_thing(key, "magic") for key in magic]
    people = [
        {"name": "Galen", "strength": 1},
        {"name": "Hodge", "strength": 1},
        {"name": "Valerian", "strength": 2},
    ]
    modifier = TABLES.locations[location].modifier
    things = sum(t["values"][location] for t in combat_items if t["counted"])
    fighting = {
        "people": 4,
        "things": things,
        "modifier": modifier,
        "total": 4 + things + modifier,
        "over": 4 + things + modifier - dragon,
    }
    spells = sum(t["values"][location] for t in magic_items)
    magic_sums = {
        "magician": 1,
        "things": spells,
        "modifier": modifier,
        "total": 1 + spells + modifier,
        "over": 1 + spells + modifier - dragon,
    }
    cell = None
    outcome = "Galen's party is wiped out: a strength below the Dragon's."
    if fighting["over"] >= 0 and magic_sums["over"] >= 0:
        m, c = min(magic_sums["over"], 5), min(fighting["over"], 5)
        lost, levels = TABLES.matrix[m][c]
        cell = {"magic": m, "combat": c, "lost": lost, "levels": levels}
        outcome = f"Galen must lose {lost} things; the Dragon loses {levels} strength levels."
    view["battle"] = {
        "seat": 3,
        "magician": "galen",
        "name": "Galen",
        "location": location,
        "location_name": TABLES.locations[location].name,
        "raid": raid,
        "raid_place": load_urland().places["swanscombe"].name if raid else None,
        "rows": rows,
        "combat_items": combat_items,
        "magic_items": magic_items,
        "people": people,
        "magician_magic": 1,
        "resolved": True,
        "combat": fighting,
        "magic": magic_sums,
        "dragon": dragon,
        "cell": cell,
        "matrix": [[list(pair) for pair in row] for row in TABLES.matrix],
        "matrix_legible": [list(pair) for pair in TABLES.legible["matrix"]],
        "outcome": outcome,
    }
    return view


def unresolved_view() -> dict:
    """The same fight before Galen has chosen a box for the Amulet of Power (pictured twice):
    the Amulet is in both boxes, there are no sums and no cell."""
    view = battle_view(combat=("hart_bow", "amulet_of_power"), magic=("spell_of_lightning",))
    battle = view["battle"]
    battle["magic_items"].append(_thing("amulet_of_power", "magic"))
    battle.update(resolved=False, combat=None, magic=None, cell=None, outcome="")
    return view


def picture_of(view: dict) -> Image.Image:
    return Image.open(io.BytesIO(render(view))).convert("RGB")


def count_near(image: Image.Image, box, colour, tolerance: int = 30) -> int:
    """How many pixels inside ``box`` are close to ``colour``."""
    crop = image.crop(tuple(round(v) for v in box))
    grid = crop.load()
    return sum(
        1
        for y in range(crop.height)
        for x in range(crop.width)
        if all(abs(a - b) <= tolerance for a, b in zip(grid[x, y], colour, strict=True))
    )


def row_band(index: int) -> tuple:
    """A strip of Display row ``index`` left of the names' text, where only the band shows."""
    top = ROWS_TOP + index * ROW_H
    return (4, top + 4, 10, top + ROW_H - 4)


def changed(a: Image.Image, b: Image.Image, box) -> bool:
    """Whether a noticeable number of pixels in ``box`` changed (the PNG's palette may shift
    colours a little everywhere when anything changes)."""
    box = tuple(round(v) for v in box)
    diff = ImageChops.difference(a.crop(box), b.crop(box)).convert("L")
    return sum(diff.histogram()[41:]) > 10


ROW_OF = {key: index for index, key in enumerate(TABLES.locations)}


# --- tests ------------------------------------------------------------------------------


def test_png_is_valid_small_and_landscape():
    for view in (battle_view(), unresolved_view(), battle_view("high_altitude", raid=True)):
        assert assert_small_png(render(view), (WIDTH, HEIGHT)) == (WIDTH, HEIGHT)


def test_a_battle_view_gives_the_battle_display_instead_of_the_map():
    view = battle_view()
    assert render_slug("dragonslayer", view) == render(view)
    assert picture(view).tobytes() == battle_picture(view).tobytes()
    no_fight = copy.deepcopy(view)
    no_fight["battle"] = None
    assert render(no_fight) != render(view)
    assert render(no_fight) == render(busy_view() | {"battle": None})


def test_render_leaves_the_view_unchanged_and_is_deterministic():
    view = battle_view()
    before = copy.deepcopy(view)
    first = render(view)
    assert view == before
    assert render(copy.deepcopy(view)) == first


def test_the_highlighted_row_moves_with_the_location():
    open_fight, lake_fight = picture_of(battle_view("open")), picture_of(battle_view("lake"))
    open_row, lake_row = row_band(ROW_OF["open"]), row_band(ROW_OF["lake"])
    assert count_near(open_fight, open_row, HIGHLIGHT) > 10
    assert count_near(open_fight, lake_row, HIGHLIGHT) == 0
    assert count_near(lake_fight, lake_row, HIGHLIGHT) > 10
    assert count_near(lake_fight, open_row, HIGHLIGHT) == 0


def test_the_matrix_cell_highlight_moves_with_the_cell():
    view = battle_view()
    other = copy.deepcopy(view)
    other["battle"]["cell"] = {"magic": 0, "combat": 0, "lost": 10, "levels": 0}
    first, second = picture_of(view), picture_of(other)
    cell = view["battle"]["cell"]
    used = matrix_cell_box(cell["magic"], cell["combat"])
    corner = matrix_cell_box(0, 0)
    assert (cell["magic"], cell["combat"]) != (0, 0)
    assert count_near(first, used, HIGHLIGHT) > 200
    assert count_near(first, corner, HIGHLIGHT) == 0
    assert count_near(second, corner, HIGHLIGHT) > 200
    assert count_near(second, used, HIGHLIGHT) == 0


def test_no_cell_is_highlighted_when_a_strength_falls_short():
    short = battle_view(dragon=9)
    assert short["battle"]["cell"] is None
    image = picture_of(short)
    for magic in range(6):
        for combat in range(6):
            assert count_near(image, matrix_cell_box(magic, combat), HIGHLIGHT) == 0


def test_unresolved_differs_from_resolved_and_shows_no_cell():
    resolved, waiting = picture_of(battle_view()), picture_of(unresolved_view())
    assert changed(resolved, waiting, (0, 0, WIDTH, HEIGHT))
    for magic in range(6):
        for combat in range(6):
            assert count_near(waiting, matrix_cell_box(magic, combat), HIGHLIGHT) == 0
    # The sums' place under the table reads differently.
    assert changed(resolved, waiting, (0, ROWS_TOP + 6 * ROW_H + 40, 620, HEIGHT - 90))


def test_a_thing_not_counted_is_drawn_differently():
    view = battle_view(combat=("hart_bow", "spell_of_killing", "charm_of_weaponry"))
    struck = copy.deepcopy(view)
    struck["battle"]["combat_items"][2]["counted"] = False
    a, b = picture_of(view), picture_of(struck)
    assert changed(a, b, (0, ROWS_TOP - 60, WIDTH, ROWS_TOP + 6 * ROW_H))
    # The red strike through the value in the fight's row is there only when not counted.
    row = ROWS_TOP + ROW_OF["open"] * ROW_H
    red = (176, 30, 30)
    table = (170, row, WIDTH - 140, row + ROW_H)
    assert count_near(b, table, red, 20) > count_near(a, table, red, 20) + 10


def test_more_things_make_more_columns_and_crowds_still_render():
    few, more = battle_view(combat=("hart_bow",)), battle_view()
    assert changed(picture_of(few), picture_of(more), (170, ROWS_TOP - 60, WIDTH, ROWS_TOP))
    crowd = battle_view(combat=tuple(key for key in NAMES if key in TABLES.combat) * 3)
    assert render(crowd)[:8] == PNG_SIGNATURE


def test_a_raid_says_so_in_the_header():
    lair, raid = battle_view("high_altitude"), battle_view("high_altitude", raid=True)
    assert changed(picture_of(lair), picture_of(raid), (0, 0, WIDTH, 40))


def raid_view(place: str) -> dict:
    """The engine's public view as the Dragon raids ``place`` and attacks Galen there."""
    roles = [role.key for role in GAME.roles(2, {})]
    state = GAME.setup(roles, {}, random.Random(3))
    galen = roles.index("galen")
    fight.begin(state, galen, load_battle().raid_location, [], raid=place)
    return GAME.view(state, None)


def test_a_raids_headline_names_the_place_as_the_engine_data_names_it():
    urland, row = load_urland(), load_battle().locations[load_battle().raid_location].name
    for place in ("glenarrow", "swanscombe"):
        view = raid_view(place)
        battle = view["battle"]
        assert battle["raid"] and battle["raid_place"] == urland.places[place].name
        assert battle["location_name"] == row
        words = headline(view)
        assert f"The Dragon raids {urland.places[place].name}: Galen fights at {row}" in words
    # The header drawn is the view's: another raided place, another header.
    one, other = picture_of(raid_view("glenarrow")), picture_of(raid_view("swanscombe"))
    assert changed(one, other, (0, 0, WIDTH, 40))
    assert not changed(one, other, (0, 60, WIDTH, HEIGHT))


def test_a_headline_without_the_place_does_not_make_one_up():
    view = battle_view("high_altitude", raid=True)
    view["battle"]["raid_place"] = None
    assert "The Dragon raids ?: Galen fights at High Altitude" in headline(view)
    assert "a place" not in headline(view)


def test_tolerates_missing_or_empty_parts():
    view = battle_view()
    sparse = copy.deepcopy(view)
    sparse["battle"] = {"name": "Galen", "resolved": False}
    empty = copy.deepcopy(view)
    empty["battle"].update(combat_items=[], magic_items=[], people=[])
    for each in (sparse, empty):
        assert render(each)[:8] == PNG_SIGNATURE


def test_reconstructed_values_are_drawn_apart_from_legible_ones():
    view = battle_view()
    all_legible = copy.deepcopy(view)
    battle = all_legible["battle"]
    battle["matrix_legible"] = [[r, c] for r in range(6) for c in range(6)]
    for thing in battle["combat_items"] + battle["magic_items"]:
        thing["legible"] = list(TABLES.locations)
    a, b = picture_of(view), picture_of(all_legible)
    assert [5, 5] not in view["battle"]["matrix_legible"]
    assert [0, 0] in view["battle"]["matrix_legible"]
    assert changed(a, b, matrix_cell_box(5, 5))
    assert not changed(a, b, matrix_cell_box(0, 0))
    # The Hart Bow's Lake value is reconstructed, its High Altitude value legible.
    hart_bow = view["battle"]["combat_items"][0]
    assert "lake" not in hart_bow["legible"] and "high_altitude" in hart_bow["legible"]
    left, right = 170, 300  # the first column's cells
    for key, differs in (("lake", True), ("high_altitude", False)):
        top = ROWS_TOP + ROW_OF[key] * ROW_H
        assert changed(a, b, (left, top, right, top + ROW_H)) is differs


def test_a_thing_still_to_be_placed_is_never_shown_as_not_counted():
    view = unresolved_view()
    judged = copy.deepcopy(view)
    amulet = judged["battle"]["combat_items"][1]
    assert amulet["key"] == "amulet_of_power" and amulet["twice"]
    amulet["counted"] = False  # as if the engine had tried it in the magic box
    assert not changed(picture_of(view), picture_of(judged), (0, 0, WIDTH, HEIGHT))
