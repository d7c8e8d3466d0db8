"""Destination marks on Dragon's Cave and Dragonslayer pictures: every mark drawn where it
is asked for, none over another, none under a piece, its letters readable on a phone and
its colours exact after encoding; a view without marks draws as before."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from PIL import ImageChops

import render.dragons_cave
import render.dragonslayer
from engines.dragonslayer.model import load_urland
from render.common import collect_text
from render.marks import CAP_SHARE, MARK_CAP, MARK_FILL, MARK_KEYS, NOTABLE_FILL, PHONE
from tests.render.test_palettes import boards, changed_colours, decoded

MODULES = {"dragons-cave": render.dragons_cave, "dragonslayer": render.dragonslayer}


def labels(count: int) -> list[str]:
    """A, B, ... Z, then AA, AB...: as many labels as a menu could name."""
    single = [chr(ord("A") + i) for i in range(26)]
    return (single + [f"A{letter}" for letter in single])[:count]


def cave_places(view: dict) -> list[str]:
    """Every place of a Dragon's Cave view, as the view names a Dwarf's square."""
    lair = [f"lair:{kind}" for kind in view["lair"]]
    return ["start", *(str(i) for i in range(len(view["path"]))), *lair]


def slayer_places() -> list[str]:
    """Every place a Dragonslayer magician can be, as the engine names positions."""
    urland = load_urland()
    return (
        [f"place:{key}" for key in urland.places]
        + [f"sea:{key}" for key in urland.seas]
        + [f"abode:{key}" for key in urland.abodes]
    )


def crowded_cave(view: dict) -> list[str]:
    """Several marks on one square and on neighbouring squares, and the lair's row."""
    return ["3", "3", "3", "4", "4", "5", "start", "start", "0", *cave_places(view)[-5:]]


def crowded_slayer() -> list[str]:
    """The island's middle, where places lie closer than a mark is wide, and two marks on
    one place and one road."""
    return [
        "place:lathom", "place:highwatch", "road:lathom:highwatch", "place:brackenmoor",
        "place:mossgate", "place:underhill", "place:thornwick", "place:dragons_lair",
        "place:morgenthorme", "place:broadford", "place:holloway", "place:kelderby",
        "place:mossgate", "sea:west_sea", "abode:aurric",
    ]  # fmt: skip


def with_marks(view: dict, places: list[str]) -> dict:
    """``view`` asking for a mark on each of ``places`` (every third one notable)."""
    marks = [
        {"at": at, "label": label, "notable": index % 3 == 1}
        for index, (at, label) in enumerate(zip(places, labels(len(places)), strict=True))
    ]
    return {**view, "marks": marks}


def map_views(slug: str) -> list[dict]:
    """Views drawn as a board with places (a Dragonslayer fight has none)."""
    return [v for v in boards(slug) if not isinstance(v.get("battle"), dict)]


def marked_views(slug: str) -> list[dict]:
    """Views from early to late with marks on every place, and on crowded clusters."""
    views = map_views(slug)
    picked = views[:: max(1, len(views) // 6)] + views[-2:]
    found = []
    for view in picked:
        if slug == "dragons-cave":
            found += [with_marks(view, cave_places(view)), with_marks(view, crowded_cave(view))]
        else:
            # Every place, a dozen to a picture (a magician has fewer ways to go at once).
            places = slayer_places()
            found += [with_marks(view, places[i : i + 12]) for i in range(0, len(places), 12)]
            found.append(with_marks(view, crowded_slayer()))
    return found


def centre(box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def disc_meets(box, other) -> bool:
    """Whether the disc inscribed in the square ``box`` meets the rectangle ``other``."""
    (x, y), radius = centre(box), (box[2] - box[0]) / 2
    nearest = (min(max(x, other[0]), other[2]), min(max(y, other[1]), other[3]))
    return math.dist((x, y), nearest) < radius


@pytest.mark.parametrize("slug", list(MODULES))
def test_every_mark_is_drawn_near_its_place_and_none_covers_another(slug):
    module = MODULES[slug]
    for view in marked_views(slug):
        boxes = module.mark_boxes(view)
        assert set(boxes) == {mark["label"] for mark in view["marks"]}
        image = module.picture(view)
        for mark in view["marks"]:
            box = boxes[mark["label"]]
            radius = (box[2] - box[0]) / 2
            # On its place, or moved a few discs' widths at most (a leader points back); on
            # Dragon's Cave's Start (362 px wide), right of its name.
            slack = 181 if mark["at"] == "start" else 0
            assert math.dist(centre(box), module.locate(view, mark["at"])) <= 6 * radius + slack
            # The disc is drawn there, in its colour.
            x, y = centre(box)
            fill = NOTABLE_FILL if mark["notable"] else MARK_FILL
            ring = [(x + 0.8 * radius * math.cos(a), y + 0.8 * radius * math.sin(a)) for a in
                    (0.3, 1.9, 3.5, 5.1)]  # fmt: skip
            assert any(image.getpixel((round(px), round(py))) == fill for px, py in ring)
        for (one, a), (other, b) in combinations(boxes.items(), 2):
            gap = math.dist(centre(a), centre(b)) - (a[2] - a[0]) / 2 - (b[2] - b[0]) / 2
            assert gap >= 0, (one, other)


@pytest.mark.parametrize("slug", list(MODULES))
def test_no_piece_token_or_arrow_lies_under_a_mark(slug):
    module = MODULES[slug]
    for view in marked_views(slug):
        covers = module.covers(view)
        assert covers  # Dwarves at Start, magicians at home...: always some piece
        boxes = module.mark_boxes(view)
        under = [(label, c) for label, box in boxes.items() for c in covers if disc_meets(box, c)]
        assert not under


def test_covers_hold_every_dwarf_and_the_dragon():
    for view in map_views("dragons-cave"):
        covers = render.dragons_cave.covers(view)
        assert len(covers) == len(view["dwarves"]) + (view.get("dragon_square") in view["lair"])


def test_covers_hold_every_piece_on_the_map():
    for view in map_views("dragonslayer"):
        covers = render.dragonslayer.covers(view)
        on_map = [m for m in view.get("magicians") or [] if not m.get("out")]
        placed = [k for k in view.get("kings_men") or [] if k.get("at")]
        assert len(covers) >= len(on_map) + len(placed)


@pytest.mark.parametrize("slug", list(MODULES))
def test_mark_letters_are_eleven_px_tall_on_a_phone(slug):
    module = MODULES[slug]
    for view in marked_views(slug)[:6]:
        boxes = module.mark_boxes(view)
        with collect_text() as found:
            module.picture(view)
        for label, box in boxes.items():
            # The mark's letters: its label printed inside its disc (a Dwarf's "B" is not).
            drawn = [
                d for d in found
                if d.text == label and d.canvas_width == module.WIDTH
                and box[0] < centre(d.box)[0] < box[2] and box[1] < centre(d.box)[1] < box[3]
            ]  # fmt: skip
            assert len(drawn) == 1, label
            size, ink = drawn[0].at_width(PHONE)
            assert size * CAP_SHARE >= MARK_CAP
            assert ink[3] - ink[1] >= MARK_CAP - 0.5  # the letters' own height


@pytest.mark.parametrize("slug", list(MODULES))
def test_mark_colours_survive_the_encoding(slug):
    module = MODULES[slug]
    assert set(MARK_KEYS) <= set(module.palette().keys)
    for view in marked_views(slug)[::3]:
        drawn = module.picture(view)
        shown = decoded(module.encode(drawn))
        assert not changed_colours(drawn, shown) & set(MARK_KEYS)


@pytest.mark.parametrize(
    ("slug", "name"),
    [
        ("dragons-cave", "nowhere"),
        ("dragons-cave", "20"),
        ("dragons-cave", "-1"),
        ("dragons-cave", "lair:gold"),
        ("dragonslayer", "nowhere"),
        ("dragonslayer", "place:north_sea"),
        ("dragonslayer", "road:lathom:nowhere"),
        ("dragonslayer", "sea:"),
    ],
)
def test_an_unknown_place_is_refused(slug, name):
    module = MODULES[slug]
    view = map_views(slug)[0]
    with pytest.raises(ValueError):
        module.locate(view, name)
    with pytest.raises(ValueError):
        module.picture(with_marks(view, [name]))
    with pytest.raises(ValueError):
        module.mark_boxes(with_marks(view, [name]))


@pytest.mark.parametrize("slug", list(MODULES))
def test_every_place_is_located_on_the_board(slug):
    module = MODULES[slug]
    view = map_views(slug)[0]
    places = cave_places(view) if slug == "dragons-cave" else slayer_places()
    spots = [module.locate(view, name) for name in places]
    assert len(set(spots)) == len(places)
    assert all(0 < x < module.WIDTH and 0 < y < module.picture(view).height for x, y in spots)


def test_dragons_cave_squares_are_located_in_their_order():
    view = map_views("dragons-cave")[0]
    first, second = (render.dragons_cave.locate(view, n) for n in ("0", "1"))
    assert first[1] == second[1] and first[0] < second[0]  # section 1 runs left to right
    assert render.dragons_cave.locate(view, "lair:ruby")[1] < first[1]  # the lair on top


def test_dragonslayer_names_with_and_without_their_kind_are_one_place():
    view = map_views("dragonslayer")[0]
    locate = render.dragonslayer.locate
    assert locate(view, "place:mossgate") == locate(view, "mossgate")
    assert locate(view, "sea:west_sea") == locate(view, "west_sea")
    assert locate(view, "abode:galen") == render.dragonslayer.abode_xy("galen")
    road = locate(view, "road:lathom:highwatch")
    (x1, y1), (x2, y2) = locate(view, "lathom"), locate(view, "highwatch")
    assert math.dist(road, (x1 + (x2 - x1) / 3, y1 + (y2 - y1) / 3)) < 1e-9


def test_the_battle_display_ignores_marks_and_has_no_places():
    fight = next(v for v in boards("dragonslayer") if isinstance(v.get("battle"), dict))
    marked = with_marks(fight, ["place:mossgate"])
    plain = render.dragonslayer.picture(fight)
    assert ImageChops.difference(plain, render.dragonslayer.picture(marked)).getbbox() is None
    assert render.dragonslayer.mark_boxes(marked) == {}
    assert render.dragonslayer.covers(fight) == []
    with pytest.raises(ValueError):
        render.dragonslayer.locate(fight, "place:mossgate")


@pytest.mark.parametrize("slug", list(MODULES))
def test_a_view_without_marks_draws_as_before(slug):
    module = MODULES[slug]
    for view in boards(slug)[::5]:
        plain = module.picture(view)
        for empty in ({**view, "marks": []}, {**view, "marks": None}):
            assert ImageChops.difference(plain, module.picture(empty)).getbbox() is None
        assert module.render(view) == module.render({**view, "marks": []})


@pytest.mark.parametrize("slug", list(MODULES))
def test_marks_are_drawn_over_everything_and_change_nothing_else(slug):
    module = MODULES[slug]
    view = map_views(slug)[-1]
    marked = with_marks(view, crowded_cave(view) if slug == "dragons-cave" else crowded_slayer())
    plain, drawn = module.picture(view), module.picture(marked)
    changed = ImageChops.difference(plain, drawn).getbbox()
    assert changed is not None
    boxes = list(module.mark_boxes(marked).values())
    # Outside the marks' discs and leaders, nothing moved: the marks are drawn last.
    spots = [module.locate(marked, mark["at"]) for mark in marked["marks"]]
    left = min([b[0] for b in boxes] + [x for x, _ in spots]) - 8
    top = min([b[1] for b in boxes] + [y for _, y in spots]) - 8
    right = max([b[2] for b in boxes] + [x for x, _ in spots]) + 8
    bottom = max([b[3] for b in boxes] + [y for _, y in spots]) + 8
    assert left <= changed[0] and top <= changed[1]
    assert changed[2] <= right + 1 and changed[3] <= bottom + 1
