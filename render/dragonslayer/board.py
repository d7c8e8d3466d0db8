"""The Dragonslayer map's art: the static map of Urland and the glyphs of its pieces.

The static map (seas, island, roads, place symbols and names, abodes, boxes, the Dragon
Strength Track, the legend, the empty panel under it) is drawn at twice the size and reduced
once, cached per map; pieces are drawn per view by :mod:`render.dragonslayer.map`.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image

from engines.dragonslayer.model import CASTLE, HAMLET, LAIR, MORGENTHORME, TOWN
from i18n import Locale, said, write
from render.common import INK, PAPER, fit, widest
from render.dragonslayer.layout import (
    ABODE_NAME_GAP,
    BOX_HALF,
    HEADER,
    HEIGHT,
    LEGEND_H,
    MAP_H,
    MAP_W,
    PANEL_TOP,
    TEXT,
    TILE_HALF,
    TOKEN_R,
    WIDTH,
    Layout,
    track_title_box,
)
from render.dragonslayer.style import (
    CROWN,
    DRAGON,
    HAMLET_FILL,
    LAIR_FILL,
    LAND,
    MAGICIAN_COLOURS,
    MORGEN_FILL,
    PANEL,
    PANEL_EDGE,
    ROAD,
    ROAD_EDGE,
    SEA,
    SEA_EDGE,
    SEA_INK,
    SEA_TINTS,
    SHORE,
    STONE,
    TILE_BACK,
    TOWN_FILL,
    WHITE,
    Colour,
    Pen,
    Point,
    letter_ink,
    magician_colour,
    name_ink,
    shade,
    text_width,
    tint,
)

SCALE = 2  # supersampling factor of the static map
STACK_TOP = tint(TILE_BACK, 0.3)


@lru_cache(maxsize=8)
def background(layout: Layout, locale: Locale = "en") -> Image.Image:
    """The map drawn at SCALE times the size and reduced once: smooth, and cheap to reuse;
    its legend and the track's title in ``locale`` (the places' names are names)."""
    big = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), PAPER)
    _draw_map(Pen(big, SCALE), layout, locale)
    return big.reduce(SCALE)


def _draw_map(pen: Pen, layout: Layout, locale: Locale) -> None:
    urland = layout.urland
    width, height = layout.map_size
    top = HEADER
    pen.rect((0, top, width, top + height), fill=SEA)
    for index, sea in enumerate(urland.seas.values()):
        zone_fill = SEA_TINTS[index % len(SEA_TINTS)]
        pen.polygon(layout.sea_polygons[sea.key], fill=zone_fill, outline=SEA_EDGE, width=2)
    for key, sea in urland.seas.items():
        x, y = layout.sea_labels[key]
        half = text_width(sea.name, TEXT, True) / 2 + 4
        x = min(max(x, half), width - half)
        pen.text((x, y), sea.name, TEXT, fill=SEA_INK, bold=True, halo=tint(SEA, 0.3), halo_width=2)
    pen.polygon(layout.coast, fill=shade(LAND, 0.06))
    pen.line((*layout.coast, layout.coast[0]), fill=SHORE, width=3, curve=True)
    inner = _shrink(layout.coast, 5)
    pen.polygon(inner, fill=LAND)
    for key, spot in layout.anchors.items():
        pen.line((layout.places[key], spot), fill=SEA_INK, width=2)
    for road in urland.roads:
        ends = (layout.places[road.a], layout.places[road.b])
        pen.line(ends, fill=ROAD_EDGE, width=7)
    for road in urland.roads:
        ends = (layout.places[road.a], layout.places[road.b])
        pen.line(ends, fill=ROAD, width=4)
    for spot in layout.anchors.values():
        _anchor(pen, spot, 9)
    for key, place in urland.places.items():
        _place_symbol(pen, place.kind, layout.places[key])
    for label in layout.labels.values():
        pen.text(
            label.xy,
            label.text,
            label.size,
            bold=label.bold,
            anchor=label.anchor,
            halo=LAND,
            halo_width=3,
        )
    for key, abode in urland.abodes.items():
        _abode(pen, layout, key, abode.name, abode.magician)
    for key, box in urland.boxes.items():
        _box_frame(pen, layout.boxes[key], box.name)
    _track(pen, layout, locale)
    pen.rect((0, top, width, top + height), outline=SHORE, width=2)
    _legend(pen, HEADER + MAP_H, locale)
    pen.rect((0, PANEL_TOP, WIDTH, HEIGHT), fill=PANEL)
    pen.line(((0, PANEL_TOP), (WIDTH, PANEL_TOP)), fill=PANEL_EDGE, width=2)
    pen.line(((0, HEADER - 1), (WIDTH, HEADER - 1)), fill=PANEL_EDGE, width=2)


def _shrink(points: tuple[Point, ...], by: float) -> tuple[Point, ...]:
    """The outline moved ``by`` pixels toward its centre (a darker shore band remains)."""
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    out = []
    for x, y in points:
        distance = math.hypot(x - cx, y - cy) or 1.0
        out.append((x - (x - cx) / distance * by, y - (y - cy) / distance * by))
    return tuple(out)


def _place_symbol(pen: Pen, kind: str, xy: Point) -> None:
    """Town: a house with a roof; hamlet: a small disc; castle: a crenellated tower; the
    Dragon's Lair: a dark red cave mouth; Morgenthorme: a violet spire with a star."""
    x, y = xy
    if kind == TOWN:
        pen.rect((x - 12, y - 4, x + 12, y + 13), fill=tint(TOWN_FILL, 0.55), outline=INK, width=2)
        pen.polygon(
            [(x - 15, y - 3), (x, y - 15), (x + 15, y - 3)], fill=TOWN_FILL, outline=INK, width=2
        )
        pen.rect((x - 3, y + 4, x + 3, y + 13), fill=INK)
    elif kind == HAMLET:
        pen.circle(xy, 7, fill=HAMLET_FILL, outline=INK, width=2)
    elif kind == CASTLE:
        body = (x - 10, y - 6, x + 10, y + 13)
        pen.rect(body, fill=STONE, outline=INK, width=2)
        for dx in (-10, -2, 6):
            pen.rect((x + dx, y - 13, x + dx + 4, y - 5), fill=STONE, outline=INK, width=2)
        pen.rect((x - 3, y + 4, x + 3, y + 13), fill=INK)
    elif kind == LAIR:
        arch = [(x - 16, y + 12)]
        arch += [
            (x + 16 * math.cos(math.radians(a)), y + 2 - 14 * math.sin(math.radians(a)))
            for a in range(180, -1, -15)
        ]
        arch.append((x + 16, y + 12))
        pen.polygon(arch, fill=LAIR_FILL, outline=INK, width=2)
        mouth = [(x - 8, y + 12)]
        mouth += [
            (x + 8 * math.cos(math.radians(a)), y + 5 - 7 * math.sin(math.radians(a)))
            for a in range(180, -1, -20)
        ]
        mouth.append((x + 8, y + 12))
        pen.polygon(mouth, fill=(24, 10, 10))
    elif kind == MORGENTHORME:
        pen.polygon(
            [(x - 10, y + 13), (x - 5, y - 5), (x, y - 17), (x + 5, y - 5), (x + 10, y + 13)],
            fill=MORGEN_FILL,
            outline=INK,
            width=2,
        )
        _star(pen, (x, y + 3), 6, (250, 236, 150))
    else:
        pen.circle(xy, 8, fill=WHITE, outline=INK, width=2)


def _star(pen: Pen, centre: Point, size: float, fill: Colour) -> None:
    x, y = centre
    points = []
    for i in range(10):
        r = size if i % 2 == 0 else size * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    pen.polygon(points, fill=fill)


def _anchor(pen: Pen, xy: Point, size: float) -> None:
    """A ship's anchor on a pale disc: ring, shank, stock and curved arms."""
    x, y = xy
    pen.circle(xy, size + 3, fill=tint(SEA, 0.6), outline=SEA_INK, width=1.5)
    pen.circle((x, y - size * 0.68), size * 0.2, outline=SEA_INK, width=1.6)
    pen.line(((x, y - size * 0.48), (x, y + size * 0.75)), fill=SEA_INK, width=2)
    pen.line(((x - size * 0.4, y - size * 0.25), (x + size * 0.4, y - size * 0.25)), SEA_INK, 2)
    arc = [
        (
            x + size * 0.65 * math.cos(math.radians(a)),
            y + size * 0.15 + size * 0.6 * math.sin(math.radians(a)),
        )
        for a in range(10, 171, 20)
    ]
    pen.line(arc, fill=SEA_INK, width=2, curve=True)


def _abode(pen: Pen, layout: Layout, key: str, name: str, magician: str) -> None:
    """A magician's tower in its colour with the abode's name, above or below it."""
    x, y = layout.abodes[key]
    colour = magician_colour(magician)
    pen.rect(
        (x - 20, y - 16, x + 20, y + 16), fill=tint(colour, 0.7), outline=colour, width=3, radius=6
    )
    pen.polygon(
        [(x - 9, y + 12), (x - 9, y - 3), (x, y - 12), (x + 9, y - 3), (x + 9, y + 12)],
        fill=tint(colour, 0.35),
        outline=shade(colour, 0.3),
        width=1.5,
    )
    width, height = layout.map_size
    words = name.rsplit(" ", 1)
    lines = [name] if text_width(name, TEXT, True) + 8 < 2 * min(x, width - x) else words
    below = y < HEADER + height / 2
    half = max(text_width(line, TEXT, True) for line in lines) / 2 + 4
    cx = min(max(x, half), width - half)
    for index, line in enumerate(lines):
        if below:
            ly = y + ABODE_NAME_GAP + index * (TEXT + 2)
            anchor = "mt"
        else:
            ly = y - ABODE_NAME_GAP - (len(lines) - 1 - index) * (TEXT + 2)
            anchor = "mb"
        pen.text(
            (cx, ly),
            line,
            TEXT,
            fill=name_ink(colour),
            bold=True,
            anchor=anchor,
            halo=tint(SEA, 0.5),
            halo_width=2,
        )


def _box_frame(pen: Pen, xy: Point, name: str) -> None:
    """The printed box of Ulrich or the Dragon Shield: a dashed frame with its name."""
    x, y = xy
    hx, hy = BOX_HALF
    pen.rect(
        (x - hx, y - hy, x + hx, y + hy), fill=tint(SEA, 0.45), outline=SEA_INK, width=2, radius=5
    )
    box_name(pen, xy, name, SEA_INK)


def box_name(pen: Pen, xy: Point, name: str, fill: Colour) -> None:
    short = name.removeprefix("The ")
    lines = [short] if text_width(short, TEXT, True) < 2 * BOX_HALF[0] - 4 else short.rsplit(" ", 1)
    for index, line in enumerate(lines):
        dy = (index - (len(lines) - 1) / 2) * (TEXT + 1)
        pen.text((xy[0], xy[1] + dy), line, TEXT, fill=fill, bold=True)


def _track(pen: Pen, layout: Layout, locale: Locale) -> None:
    """The Dragon Strength Track: numbered boxes, and its title above the first ones (cut
    short where it is longer than the room the map's layout keeps for it)."""
    for number, (x, y) in enumerate(layout.track):
        pen.rect(
            (x - 21, y - 19, x + 21, y + 19),
            fill=tint(DRAGON, 0.82),
            outline=DRAGON,
            width=2,
            radius=4,
        )
        pen.text((x, y), str(number), TEXT, fill=DRAGON, bold=True)
    if layout.track:
        x, y = layout.track[0]
        left, _, right, _ = track_title_box(layout.track)
        title = fit(write(said("Dragon strength"), locale), TEXT, right - left - 4, True)
        pen.text(
            (x - 21, y - 27),  # clear of the Dragon's spikes on the first boxes
            title,
            TEXT,
            fill=shade(DRAGON, 0.1),
            bold=True,
            anchor="lb",
            halo=tint(SEA, 0.4),
            halo_width=2,
        )


LEGEND_ROWS = (
    (("town", said("Town")), ("hamlet", said("Hamlet")), ("castle", said("Castle")),
     ("port", said("Port")), ("road", said("Road"))),
    (("lair", said("Dragon's Lair")), ("morgen", None), ("stack", said("Face-down tiles"))),
    (("magician", said("Magician (initial)")),
     ("kings_man", said("King's man: owner, no. (strength)"))),
)  # fmt: skip
"""The legend's rows: each symbol and what it stands for (Morgenthorme by its name, which
is a name in every language)."""


def _legend(pen: Pen, top: float, locale: Locale) -> None:
    """Three rows under the map: what each symbol and piece means, in ``locale`` (a fourth
    is left for the tile counts of each view). A row's words too long for the map's width
    share it, the longest cut short."""
    pen.rect((0, top, MAP_W, top + LEGEND_H), fill=PANEL)
    for row, entries in enumerate(LEGEND_ROWS):
        y = top + 21 + row * 40
        x = 16.0
        texts = [write(name, locale) if name else "Morgenthorme" for _, name in entries]
        room = MAP_W - 2 * 16 - len(entries) * (40 + 26) + 26
        cap = widest([text_width(text, TEXT) for text in texts], room)
        for (kind, _), text in zip(entries, texts, strict=True):
            text = fit(text, TEXT, cap)
            _legend_symbol(pen, kind, (x + 16, y))
            pen.text((x + 40, y), text, TEXT, anchor="lm")
            x += 40 + text_width(text, TEXT) + 26


def _legend_symbol(pen: Pen, kind: str, xy: Point) -> None:
    x, y = xy
    if kind in ("town", "hamlet", "castle", "lair"):
        _place_symbol(pen, kind, (x, y - 1))
    elif kind == "morgen":
        _place_symbol(pen, MORGENTHORME, (x, y))
    elif kind == "port":
        _anchor(pen, xy, 9)
    elif kind == "magician":
        token(pen, xy, MAGICIAN_COLOURS["galen"], "G", radius=17)
    elif kind == "kings_man":
        kings_man(pen, xy, MAGICIAN_COLOURS["merridyds"], 1, False, "M", half=20)
    elif kind == "stack":
        stack(pen, xy, 4)
    else:
        pen.line(((x - 14, y), (x + 14, y)), fill=ROAD_EDGE, width=7)
        pen.line(((x - 14, y), (x + 14, y)), fill=ROAD, width=4)


# --- pieces ------------------------------------------------------------------------------


def token(pen: Pen, xy: Point, colour: Colour, label: str, radius: float = TOKEN_R) -> None:
    """A magician: a disc in its colour, white ring, its initials."""
    pen.stamp(_disc, xy, math.ceil(radius) + 4, colour, radius)
    size = TEXT if text_width(label, TEXT, True) <= 2 * radius - 2 else TEXT - 6
    pen.text((xy[0], xy[1] + 1), label, size, fill=letter_ink(colour), bold=True)


def _disc(pen: Pen, xy: Point, colour: Colour, radius: float) -> None:
    pen.circle(xy, radius + 2, fill=INK)
    pen.circle(xy, radius, fill=colour, outline=WHITE, width=2)


def kings_man(
    pen: Pen,
    xy: Point,
    colour: Colour,
    number: int,
    idle: bool,
    owner: str = "",
    half: float = TILE_HALF,
) -> None:
    """A King's man: a square tile in its magician's colour, a crown, and its ``owner``'s
    initial with its number (the owner shows without colour); pale when it is idle."""
    x, y = xy
    fill = tint(colour, 0.55) if idle else colour
    # Drawn, not stamped: the crown's outline does not shift by whole pixels exactly.
    _crowned_tile(pen, xy, fill, half)
    k = half / TILE_HALF
    pen.text(
        (x, y + 7 * k), f"{owner}{number}", TEXT, fill=WHITE, bold=True, halo=INK, halo_width=2
    )


def _crowned_tile(pen: Pen, xy: Point, fill: Colour, half: float) -> None:
    x, y = xy
    pen.rect((x - half, y - half, x + half, y + half), fill=fill, outline=INK, width=2, radius=3)
    k = half / TILE_HALF
    crown = [
        (x - 8 * k, y - 6 * k),
        (x - 8 * k, y - 15 * k),
        (x - 4 * k, y - 10 * k),
        (x, y - 16 * k),
        (x + 4 * k, y - 10 * k),
        (x + 8 * k, y - 15 * k),
        (x + 8 * k, y - 6 * k),
    ]
    pen.polygon(crown, fill=CROWN, outline=INK, width=1)


def strength_badge(pen: Pen, xy: Point, strength: Any) -> None:
    """A revealed King's man's strength: white on a black disc at its tile's corner."""
    pen.circle(xy, 15, fill=INK, outline=WHITE, width=1.5)
    pen.text((xy[0], xy[1] + 1), str(strength), TEXT, fill=WHITE, bold=True)


def stack(pen: Pen, xy: Point, count: int) -> None:
    """Face-down tiles: two offset tile backs with the count on top."""
    x, y = xy
    pen.stamp(_tile_backs, xy, 18)
    pen.text((x - 2, y + 2), str(count), TEXT, fill=WHITE, bold=True)


def _tile_backs(pen: Pen, xy: Point) -> None:
    x, y = xy
    pen.rect((x - 11, y - 16, x + 16, y + 11), fill=STACK_TOP, outline=INK, width=1.5, radius=3)
    pen.rect((x - 16, y - 11, x + 11, y + 16), fill=TILE_BACK, outline=INK, width=1.5, radius=3)
