"""Dragon's Cave and Dragonslayer pictures read on a phone: shown 400 px wide, every word a
player needs to choose (place names, square numbers, coins, counts, the track, the legend)
is at least :data:`FLOOR` px, and no piece or token lies over one; in English and in the
pseudo-locale, whose longer words must fit as well."""

from __future__ import annotations

import math

import pytest

import render.dragons_cave
import render.dragonslayer
from i18n import said, write
from render.common import Drawn
from tests.render.test_dragons_cave_render import random_views
from tests.render.test_dragonslayer_render import moved, start_view
from tests.render.test_legible_on_a_phone import LOCALES, PHONE, drawn_text, overlapping
from tests.render.test_palettes import boards

FLOOR = 11.0
"""The least font size at :data:`PHONE` px wide: capitals 8 px tall, read at a glance."""


def sampled(views: list[dict]) -> list[dict]:
    """Early, middle and late positions and the last ones (the game's end, the hand-made
    views)."""
    return views[:: max(1, len(views) // 8)] + views[-4:]


def small(found: list[Drawn]) -> set[tuple[str, float]]:
    """The words under the floor on a phone, with their size there."""
    sizes = {(d.text, round(d.at_width(PHONE)[0], 2)) for d in found}
    return {(text, size) for text, size in sizes if size < FLOOR}


def inside(box, outer) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def meets(a, b) -> bool:
    """Whether two boxes overlap by more than a pixel's sliver."""
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def printed(word: str, texts: set[str]) -> bool:
    """Whether ``word`` is among ``texts``, whole or cut short with an ellipsis where its
    room ends (a long language's word)."""
    return word in texts or any(
        text.endswith("\u2026") and len(text) > 2 and word.startswith(text[:-1].rstrip())
        for text in texts
    )


def covered(found: list[Drawn], covers: list, width: int) -> list[str]:
    """The words a piece lies over: every word but a piece's own letters (inside it)."""
    words = [(d.text, d.at_width(width)[1]) for d in found]
    return [
        text
        for text, box in words
        if not any(inside(box, c) for c in covers) and any(meets(box, c) for c in covers)
    ]


# --- Dragon's Cave ---------------------------------------------------------------------------


def cave_views() -> list[dict]:
    """Four-player games from the shared boards, and two-player games (two Dwarves each,
    labelled with a letter and a number)."""
    return sampled(boards("dragons-cave")) + random_views(2, 5)[::3] + random_views(3, 7)[::4]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("index", range(len(cave_views())))
def test_every_word_of_dragons_cave_reads_at_eleven_px(index, locale):
    view = cave_views()[index]
    found, width = drawn_text(render.dragons_cave, view, locale)
    texts = {d.text for d in found}
    numbers = {str(i + 1) for i in range(len(view["path"]))}
    # The squares' numbers, the legend and the Treasure are all printed (Start's name
    # cut short beside the Dwarves standing there, where it is long).
    assert numbers | {"Ruby", write(said("Treasure"), locale)} <= texts
    assert printed(write(said("START"), locale), texts)
    assert not small(found)
    assert not overlapping(found, width)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("index", range(len(cave_views())))
def test_no_dwarf_or_dragon_covers_a_word_of_dragons_cave(index, locale):
    view = cave_views()[index]
    found, width = drawn_text(render.dragons_cave, view, locale)
    assert not covered(found, render.dragons_cave.covers(view, locale), width)


# --- Dragonslayer ----------------------------------------------------------------------------


def crowded_maps() -> list[dict]:
    """Hand-made crowds: three magicians (one current, ringed) and two King's men (one
    revealed) on a place hemmed in by names, with its face-down stack and the last move's
    path ending there; the four magicians at sea, one in each of four zones (the current
    one in the narrow North Sea); the four on one road."""
    views = []
    for place in ("oakhurst", "glenarrow", "mossgate"):
        view = start_view(4)
        for seat in range(3):
            view = moved(view, seat, {"kind": "place", "key": place})
        view["current"] = 1
        view["face_down"][place] = 3
        for man in view["kings_men"][:2]:
            man["at"] = place
        view["kings_men"][0]["strength"] = 5
        view["last"] = {"text": "Merridyds moved.", "path": ["stonyford", place]}
        views.append(view)
    view = start_view(4)
    for seat, sea in enumerate(["south_sea", "north_sea", "east_sea", "west_sea"]):
        view = moved(view, seat, {"kind": "sea", "key": sea})
    view["current"] = 1
    views.append(view)
    view = start_view(4)
    for seat in range(4):
        view = moved(view, seat, {"kind": "road", "key": "lathom", "road": ["lathom", "highwatch"]})
    view["current"] = 0
    views.append(view)
    return views


def slayer_maps() -> list[dict]:
    """Map views through two games, the crowded hand-made one and the crowds of
    :func:`crowded_maps` (a fight's view is the Battle Display, checked by the shared test
    at its own floor)."""
    views = sampled(boards("dragonslayer")) + crowded_maps()
    return [v for v in views if not isinstance(v.get("battle"), dict)]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("index", range(len(slayer_maps())))
def test_every_word_of_the_dragonslayer_map_reads_at_eleven_px(index, locale):
    view = slayer_maps()[index]
    found, _ = drawn_text(render.dragonslayer, view, locale)
    texts = {d.text for d in found}
    # Every place's name, the legend and the track are printed (the legend's words cut
    # short where a long language's row is wider than the map).
    assert {"Mossgate", "The Dragon's Lair", "0", "5"} <= texts
    assert printed(write(said("Town"), locale), texts)
    assert printed(write(said("Face-down tiles"), locale), texts)
    assert not small(found)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("index", range(len(slayer_maps())))
def test_no_piece_or_arrow_covers_a_word_of_the_dragonslayer_map(index, locale):
    view = slayer_maps()[index]
    found, width = drawn_text(render.dragonslayer, view, locale)
    # Pieces, face-down stacks, the lines to pieces standing off their place, the last
    # move's path and the Abandoned Weapons Display.
    over = render.dragonslayer.covers(view)
    # Every word: the places', seas' and abodes' names (a menu names a destination by
    # them), the header, the legend, the tile counts, the parties, the boxes and the track,
    # but the Dragon's own box, under its marker.
    strength = str((view.get("dragon") or {}).get("strength"))
    words = [d for d in found if d.text != strength]
    names = render.dragonslayer.map_names()
    assert len(words) > 40 and len({d.text for d in words} & names) > 30
    assert not covered(words, over, width)


def printed_names(layout) -> list:
    """The boxes of the map's printed names: places', seas', abodes' and the track's."""
    from render.dragonslayer.layout import abode_name_box, label_box, track_title_box

    urland, (width, _) = layout.urland, layout.map_size
    boxes = [label_box(label) for label in layout.labels.values()]
    sea = render.dragonslayer.layout._sea_label_box
    boxes += [sea(urland.seas[key].name, xy, width) for key, xy in layout.sea_labels.items()]
    boxes += [
        abode_name_box(a.name, layout.abodes[k], layout.map_size) for k, a in urland.abodes.items()
    ]
    boxes += [track_title_box(layout.track)] if layout.track else []
    return boxes


def test_a_face_down_stack_on_an_empty_place_is_its_own_and_mostly_clear_of_names():
    from render.dragonslayer.layout import badge_box, current_layout, face_down_xy, place_reach

    layout = current_layout()
    names = printed_names(layout)
    keys = [k for k, place in layout.urland.places.items() if place.holds_tiles]
    moved = default = 0
    for key in keys:
        x, y = face_down_xy(key)
        px, py = layout.places[key]
        # Nearer its own place than any other: read as that place's tiles.
        mine = ((x - px) ** 2 + (y - py) ** 2) ** 0.5
        others = [xy for other, xy in layout.places.items() if other != key]
        assert all(((x - ox) ** 2 + (y - oy) ** 2) ** 0.5 > mine for ox, oy in others)
        moved += any(meets((x - 17, y - 17, x + 17, y + 17), box) for box in names)
        default += any(meets(badge_box((px, py), place_reach(layout, key)), b) for b in names)
    # Beside its place where a name is not: at most half as many stacks over a name as
    # when every stack sat right of its place.
    assert default and moved * 2 <= default


def test_pieces_standing_off_their_spot_are_joined_to_it_by_a_line():
    from render.dragonslayer.layout import current_layout
    from render.dragonslayer.map import spots

    layout = current_layout()
    lines = 0
    for view in crowded_maps() + slayer_maps()[::3]:
        for spot in spots(layout, view):
            ends = [*spot.cells, *([spot.stack[0]] if spot.stack else [])]
            near = min(math.dist(end, spot.centre) for end in ends)
            if spot.leader is None:
                assert near <= 70  # on its spot or beside it
            else:
                # The line reaches the piece nearest the spot, the rest standing round it.
                assert spot.leader in ends and math.dist(spot.leader, spot.centre) == near
                lines += 1
    assert lines
