"""The Dragonslayer map picture: a small valid PNG that shows what the public view says."""

from __future__ import annotations

import copy
import io
import math

from PIL import Image, ImageChops

from engines.dragonslayer.model import CASTLE, HAMLET, TOWN, load_parties, load_urland
from games import render as render_slug
from render.common import font
from render.dragonslayer import (
    HEADER,
    HEIGHT,
    MAP_H,
    MAP_W,
    PANEL_W,
    WIDTH,
    abode_xy,
    box_xy,
    face_down_xy,
    magician_colour,
    picture,
    place_xy,
    render,
    sea_xy,
    track_xy,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# --- views built by hand, following the engine's public view --------------------------------


def _party(seat: int, key: str) -> dict:
    magician = load_parties().magicians[key]
    party = {
        "seat": seat,
        "magician": key,
        "name": magician.name,
        "combat": magician.combat,
        "magic": magician.magic,
        "pentacles": magician.pentacles,
        "companions": [],
        "weapons": [],
        "spells": [],
        "magic_items": [],
        "kept": [],
        "people": 1,
        "party_combat": magician.combat,
        "carry": {"weapons": [0, 2], "magic": [0, magician.pentacles]},
    }
    if key == "galen":
        party["companions"] = [{"key": "hodge", "name": "Hodge", "strength": 1, "home": None}]
        party["magic_items"] = [
            {"key": "ulrichs_ashes", "name": "Ulrich's Ashes"},
            {"key": "amulet_of_power", "name": "Amulet of Power"},
        ]
        party["people"] = 2
        party["party_combat"] = 2
        party["carry"]["magic"] = [2, 1]
    return party


def start_view(players: int = 4) -> dict:
    """A start-of-game public view: every town 4 face-down tiles and every hamlet 2,
    magicians in their abodes, each player's two King's men in castles. Two players are
    Aurric and Galen ('Galen is always played'), three add Merridyds."""
    urland = load_urland()
    parties = load_parties()
    keys = {2: ["aurric", "galen"], 3: ["aurric", "merridyds", "galen"]}.get(
        players, list(parties.turn_order)
    )
    castles = [place.key for place in urland.of_kind(CASTLE)]
    face_down = {place.key: 4 for place in urland.of_kind(TOWN)}
    face_down.update({place.key: 2 for place in urland.of_kind(HAMLET)})
    magicians, men, party_list = [], [], []
    for seat, key in enumerate(keys):
        magician = parties.magicians[key]
        magicians.append(
            {
                "seat": seat,
                "key": key,
                "name": magician.name,
                "where": {"kind": "abode", "key": key, "road": None},
                "status": "",
                "out": False,
            }
        )
        kings = parties.kings_men_of(key)
        for number, man in enumerate(kings.men, start=1):
            men.append(
                {
                    "key": man.key,
                    "seat": seat,
                    "magician": key,
                    "leader": kings.leader,
                    "number": number,
                    "at": castles[(2 * seat + number - 1) % len(castles)],
                    "strength": None,
                    "idle": False,
                }
            )
        party_list.append(_party(seat, key))
    return {
        "game": "dragonslayer",
        "summary": f"Turn 1: {magicians[0]['name']} to move, 6 days left.",
        "turn": 1,
        "phase": "magician",
        "current": 0,
        "days_left": 6,
        "dragon": {"strength": 5},
        "boxes": {"ulrich": True, "dragon_shield": True},
        "face_down": face_down,
        "magicians": magicians,
        "kings_men": men,
        "parties": party_list,
        "last": None,
        "removed": 0,
        "set_aside": 17,
    }


def moved(view: dict, seat: int, where: dict) -> dict:
    """``view`` with magician ``seat`` somewhere else."""
    changed = copy.deepcopy(view)
    changed["magicians"][seat]["where"] = {"road": None, **where}
    return changed


def busy_view() -> dict:
    """Mid-game: magicians on a road, at sea, in a town; a revealed, idle King's man; long
    party lists; Ulrich taken; the Dragon weakened."""
    view = start_view(4)
    view = moved(view, 0, {"kind": "place", "key": "broadford"})
    view = moved(view, 1, {"kind": "road", "key": "lathom", "road": ["lathom", "highwatch"]})
    view = moved(view, 2, {"kind": "sea", "key": "east_sea"})
    view = moved(view, 3, {"kind": "place", "key": "broadford"})
    view["turn"] = 7
    view["current"] = 1
    view["days_left"] = 3
    view["dragon"]["strength"] = 3
    view["boxes"]["ulrich"] = False
    view["face_down"]["broadford"] = 1
    del view["face_down"]["lathom"]
    view["kings_men"][0]["at"] = "holloway"
    view["kings_men"][0]["strength"] = 4
    view["kings_men"][2]["idle"] = True
    view["magicians"][2]["status"] = "delayed"
    view["last"] = {
        "text": "Merridyds moved Brackenmoor - Lathom, on toward Highwatch.",
        "path": ["brackenmoor", "lathom"],
    }
    galen = view["parties"][3]
    galen["companions"] += [
        {"key": key, "name": name, "strength": strength, "home": home}
        for key, name, strength, home in (
            ("ulrich", "Ulrich", 1, None),
            ("valerian", "Valerian", 2, "roskill"),
            ("wulfstan", "Wulfstan", 3, "broadford"),
            ("cedric_the_bold", "Cedric the Bold", 3, "broadford"),
            ("osric_the_archer", "Osric the Archer", 2, "swanscombe"),
            ("bess_of_the_ford", "Bess of the Ford", 1, "culnakask"),
        )
    ]
    galen["weapons"] = [
        {"key": key, "name": name}
        for key, name in (
            ("hart_bow", "Hart Bow"),
            ("axe_of_ardanna", "Axe of Ardanna"),
            ("sword_of_the_well", "Sword of the Well"),
            ("west_sea_trident", "West Sea Trident"),
            ("eldrinns_halberd", "Eldrinn's Halberd"),
        )
    ]
    galen["spells"] = [{"key": "spell_of_killing", "name": "Spell of Killing"}]
    galen["kept"] = [
        {"key": "gain_one_day_or_escape_from_castle", "name": "Gain One Day or Escape from Castle"}
    ]
    galen["people"] = 8
    galen["party_combat"] = 14
    galen["carry"] = {"weapons": [5, 8], "magic": [3, 4]}
    view["parties"][0]["weapons"] = [{"key": "black_bow", "name": "Black Bow"}]
    return view


def picture_of(view: dict) -> Image.Image:
    return Image.open(io.BytesIO(render(view))).convert("RGB")


def region(image: Image.Image, centre: tuple[float, float], half: int) -> Image.Image:
    x, y = round(centre[0]), round(centre[1])
    return image.crop((x - half, y - half, x + half, y + half))


def pixels(image: Image.Image) -> list:
    """Every pixel of ``image``, row by row."""
    grid = image.load()
    return [grid[x, y] for y in range(image.height) for x in range(image.width)]


def differs(a: Image.Image, b: Image.Image, centre: tuple[float, float], half: int = 14) -> bool:
    """Whether a noticeable number of pixels near ``centre`` changed."""
    diff = ImageChops.difference(region(a, centre, half), region(b, centre, half)).convert("L")
    changed = sum(1 for value in pixels(diff) if value > 40)
    return changed > half  # more than a stray anti-aliased edge


def near(colour: tuple[int, ...], target: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target, strict=True))


def has_colour(image: Image.Image, centre: tuple[float, float], colour, half: int = 12) -> bool:
    crop = region(image, centre, half)
    return any(near(pixel, colour, 30) for pixel in pixels(crop))


# --- tests --------------------------------------------------------------------------------


def assert_small_png(data: bytes, size: tuple[int, int]) -> tuple[int, int]:
    """A PNG of at most 300 KB, at most ``size``; returns its size."""
    assert data[:8] == PNG_SIGNATURE
    assert len(data) <= 300_000
    image = Image.open(io.BytesIO(data))
    assert image.width == size[0] and image.height <= size[1]
    return image.size


def test_png_is_valid_small_and_portrait_as_wide_as_the_map():
    sizes = [assert_small_png(render(v), (WIDTH, HEIGHT)) for v in (start_view(2), busy_view())]
    # Portrait for a phone: the parties under the map, the panel as tall as they need.
    assert WIDTH == MAP_W
    assert all(height > width for width, height in sizes)
    assert sizes[0][1] < sizes[1][1] == HEIGHT


def test_registered_under_the_game_slug_and_deterministic():
    view = busy_view()
    assert render_slug("dragonslayer", view) == render(view)
    assert render(copy.deepcopy(view)) == render(view)


def test_render_leaves_the_view_unchanged():
    view = busy_view()
    before = copy.deepcopy(view)
    render(view)
    assert view == before


def test_a_magician_at_a_place_shows_in_its_colour():
    view = start_view(4)
    empty = picture(view)
    there = picture(moved(view, 1, {"kind": "place", "key": "mossgate"}))
    spot = place_xy("mossgate")
    assert differs(empty, there, spot)
    assert has_colour(there, spot, magician_colour("merridyds"))
    assert not has_colour(empty, spot, magician_colour("merridyds"))


def test_a_magician_leaving_its_abode_leaves_the_abode_empty():
    view = start_view(4)
    home = picture(view)
    away = picture(moved(view, 3, {"kind": "sea", "key": "sunset_sea"}))
    galen = magician_colour("galen")
    assert differs(home, away, abode_xy("galen"), 10)
    assert has_colour(away, sea_xy("sunset_sea"), galen)
    assert not has_colour(home, sea_xy("sunset_sea"), galen)


def test_a_magician_on_a_road_stands_a_third_of_the_way_from_the_first_end():
    view = start_view(4)
    # A road with room a third of the way along it (elsewhere a name may be there, and
    # the magician stands aside, a line from that spot reaching it).
    road = moved(view, 0, {"kind": "road", "key": "rowanlea", "road": ["rowanlea", "roskill"]})
    (x1, y1), (x2, y2) = place_xy("rowanlea"), place_xy("roskill")
    third = (x1 + (x2 - x1) / 3, y1 + (y2 - y1) / 3)
    two_thirds = (x1 + 2 * (x2 - x1) / 3, y1 + 2 * (y2 - y1) / 3)
    image = picture(road)
    aurric = magician_colour("aurric")
    assert has_colour(image, third, aurric, half=8)
    assert not has_colour(image, two_thirds, aurric, half=8)


def test_magicians_sharing_a_place_are_fanned_out():
    view = start_view(4)
    # A place with room for a row of two and its stack (elsewhere they stand aside).
    one = moved(view, 0, {"kind": "place", "key": "dunmere"})
    both = moved(one, 3, {"kind": "place", "key": "dunmere"})
    image = picture(both)
    x, y = place_xy("dunmere")
    left = pixels(region(image, (x - 20, y), 10))
    right = pixels(region(image, (x + 20, y), 10))
    aurric, galen = magician_colour("aurric"), magician_colour("galen")
    assert any(near(p, aurric, 30) for p in left) and not any(near(p, galen, 30) for p in left)
    assert any(near(p, galen, 30) for p in right) and not any(near(p, aurric, 30) for p in right)


def test_an_out_magician_is_not_on_the_map():
    view = moved(start_view(4), 2, {"kind": "place", "key": "quarrendon"})
    gone = copy.deepcopy(view)
    gone["magicians"][2]["out"] = True
    kyvin = magician_colour("old_kyvin")
    assert has_colour(picture(view), place_xy("quarrendon"), kyvin)
    assert not has_colour(picture(gone), place_xy("quarrendon"), kyvin)


def test_a_revealed_strength_changes_the_kings_man():
    view = start_view(2)
    man = view["kings_men"][0]
    hidden = picture(view)
    shown = copy.deepcopy(view)
    shown["kings_men"][0]["strength"] = 4
    # The strength badge sits on the tile's top-right corner; the men of a castle are fanned.
    assert differs(hidden, picture(shown), place_xy(man["at"]), 30)


def test_a_kings_man_shows_in_its_owners_colour_where_it_stands():
    view = start_view(2)
    moved_man = copy.deepcopy(view)
    moved_man["kings_men"][0]["at"] = "dunmere"
    aurric = magician_colour("aurric")
    assert has_colour(picture(moved_man), place_xy("dunmere"), aurric)
    assert not has_colour(picture(view), place_xy("dunmere"), aurric)


def test_the_dragon_marker_moves_along_the_track():
    view = start_view(4)
    five = picture(view)
    weaker = copy.deepcopy(view)
    weaker["dragon"]["strength"] = 2
    two = picture(weaker)
    assert differs(five, two, track_xy(5))
    assert differs(five, two, track_xy(2))
    assert not differs(five, two, track_xy(0))


def test_a_face_down_count_change_shows():
    view = start_view(4)
    fewer = copy.deepcopy(view)
    fewer["face_down"]["dunmere"] = 1
    none = copy.deepcopy(view)
    del none["face_down"]["dunmere"]
    full, one, empty = picture(view), picture(fewer), picture(none)
    spot = face_down_xy("dunmere")
    assert differs(full, one, spot, 8)
    assert differs(full, empty, spot, 8)
    assert not differs(full, one, face_down_xy("caerlow"), 8)


def test_taking_ulrich_or_the_shield_empties_its_box():
    view = start_view(4)
    taken = copy.deepcopy(view)
    taken["boxes"] = {"ulrich": False, "dragon_shield": True}
    before, after = picture(view), picture(taken)
    assert differs(before, after, box_xy("ulrich"), 20)
    assert not differs(before, after, box_xy("dragon_shield"), 20)


def test_the_current_magician_is_ringed_and_the_last_move_highlighted():
    # A place with room for a ringed magician and its stack on it.
    view = moved(start_view(4), 1, {"kind": "place", "key": "dunmere"})
    view["current"] = 1
    other = copy.deepcopy(view)
    other["current"] = 0
    x, y = place_xy("dunmere")
    ring = (x, y - 21)  # on the ring, above the disc
    assert has_colour(picture(view), ring, (255, 214, 0), half=3)
    assert not has_colour(picture(other), ring, (255, 214, 0), half=3)
    lit = copy.deepcopy(other)
    lit["last"] = {"text": "Merridyds moved.", "path": ["caerlow", "dunmere"]}
    (x1, y1), (x2, y2) = place_xy("caerlow"), place_xy("dunmere")
    middle = ((x1 + x2) / 2, (y1 + y2) / 2)
    assert has_colour(picture(lit), middle, (255, 214, 0), half=3)
    assert not has_colour(picture(other), middle, (255, 214, 0), half=3)


def test_header_and_panel_change_with_the_turn_and_the_parties():
    view = busy_view()
    later = copy.deepcopy(view)
    later["days_left"] = 2
    a, b = picture(view), picture(later)
    header = (0, 0, WIDTH, 40)
    assert ImageChops.difference(a.crop(header), b.crop(header)).getbbox() is not None
    richer = copy.deepcopy(view)
    richer["parties"][0]["spells"] = [{"key": "spell_of_storms", "name": "Spell of Storms"}]
    panel = (WIDTH - PANEL_W, HEADER, WIDTH, HEIGHT)
    assert ImageChops.difference(a.crop(panel), picture(richer).crop(panel)).getbbox()


def test_tolerates_two_and_four_players_over_and_crowds():
    two = start_view(2)
    over = busy_view()
    over["phase"] = "over"
    over["current"] = None
    over["summary"] = "Galen slew the Dragon and won."
    crowd = busy_view()
    for seat in range(4):
        crowd = moved(crowd, seat, {"kind": "place", "key": "greyhold"})
    for man in crowd["kings_men"]:
        man["at"] = "greyhold"
    for view in (two, over, crowd):
        assert render(view)[:8] == PNG_SIGNATURE


def test_every_place_is_on_the_island_and_every_sea_spot_at_sea():
    from render.dragonslayer.layout import current_layout, inside

    layout = current_layout()
    for key, xy in layout.places.items():
        assert inside(xy, layout.coast), key
    for key, xy in layout.seas.items():
        assert not inside(xy, layout.coast), key
        assert inside(xy, layout.sea_polygons[key]), key
        assert 0 < xy[0] < MAP_W and HEADER < xy[1] < HEADER + MAP_H


def test_place_names_stay_on_the_map_clear_of_each_other_and_of_other_places():
    from render.dragonslayer.layout import current_layout

    layout = current_layout()
    boxes = {}
    for key, label in layout.labels.items():
        left, top, right, bottom = font(label.size, label.bold).getbbox(
            label.text, anchor=label.anchor
        )
        x, y = label.xy
        boxes[key] = (x + left, y + top, x + right, y + bottom)
        assert 0 <= x + left <= x + right <= MAP_W, key
        assert HEADER <= y + top <= y + bottom <= HEADER + MAP_H, key
        assert math.dist(label.xy, layout.places[key]) < 72, key  # beside its own place
    keys = list(boxes)
    for index, first in enumerate(keys):
        a = boxes[first]
        for second in keys[index + 1 :]:
            b = boxes[second]
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (first, second)
        for other, (x, y) in layout.places.items():
            if other != first:
                assert not (a[0] < x < a[2] and a[1] < y < a[3]), (first, other)


def test_abandoned_weapons_show_in_their_box_only_while_there_are_some():
    from render.dragonslayer.map import ABANDONED_BOX

    view = start_view(4)
    none = picture(view)
    empty = copy.deepcopy(view)
    empty["abandoned"] = {}
    lost = copy.deepcopy(view)
    lost["abandoned"] = {"open": [{"key": "hart_bow", "name": "Hart Bow"}]}
    more = copy.deepcopy(lost)
    more["abandoned"]["lake"] = [{"key": "black_bow", "name": "Black Bow"}]
    box = tuple(round(v) for v in ABANDONED_BOX)
    assert ImageChops.difference(none, picture(empty)).getbbox() is None
    one, two = picture(lost), picture(more)
    changed = ImageChops.difference(none, one).getbbox()
    assert changed is not None
    # Everything that changed lies inside the box (a box framed in the Dragon's red); the
    # bounding box's right and bottom edges are exclusive.
    assert box[0] <= changed[0] and changed[2] <= box[2] + 1 and box[1] <= changed[1]
    assert changed[3] < HEADER + 120
    assert has_colour(one, (box[0] + 2, box[1] + 20), (140, 20, 26), half=2)
    assert ImageChops.difference(one.crop(box), two.crop(box)).getbbox() is not None


def test_a_view_with_a_fight_is_not_drawn_as_the_map():
    view = busy_view()
    fight = copy.deepcopy(view)
    fight["battle"] = {"name": "Galen", "resolved": False}
    assert render(fight) != render(view)
    assert render(view | {"battle": None}) == render(view)


def test_every_kings_man_and_magician_carries_its_owners_initial():
    from render.common import collect_text
    from tests.render.test_legible_on_a_phone import fresh_caches

    view = start_view(4)
    fresh_caches()
    with collect_text() as found:
        picture(view)
    printed = [d.text for d in found]
    names = {m["key"]: m["name"] for m in view["magicians"]}
    for man in view["kings_men"]:
        # Not colour alone: "M1" is Merridyds' King's man number 1.
        assert f"{names[man['magician']][0]}{man['number']}" in printed
    for name in names.values():
        assert "".join(word[0] for word in name.split())[:2].upper() in printed
    # The four owners' initials differ, so no two owners' pieces read alike.
    assert len({name[0] for name in names.values()}) == len(names)
