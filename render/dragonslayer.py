"""Dragonslayer map picture: the public view in, PNG bytes out.

The map of Urland (sea zones, the island, roads, places, ports, the magicians' abodes, the
boxes of Ulrich and the Dragon Shield, the Dragon Strength Track) comes from the engine's
``urland.json`` through :func:`engines.dragonslayer.model.load_urland`, whose points are in
inches on a 22 by 17 sheet. The view adds the pieces: magicians as discs in their colour with
their initials, King's men as square tiles with a crown and their number (and strength once
revealed), stacks of face-down tiles with their count, the Dragon's marker on the track, the
last move's path; and a side panel with every party.

The static map is drawn at twice the size and reduced once (smooth lines), cached per map;
each view's pieces and panel are drawn at full size on a copy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

from PIL import Image, ImageDraw

from engines.dragonslayer.model import (
    CASTLE,
    HAMLET,
    LAIR,
    MORGENTHORME,
    TOWN,
    Urland,
    load_parties,
    load_urland,
)
from render.common import INK, PAPER, font, png_bytes

Point = tuple[float, float]
Box = tuple[float, float, float, float]
Colour = tuple[int, int, int]

SCALE = 2  # supersampling factor of the static map
MAP_W, MAP_H = 924, 714  # the 22 x 17 inch sheet at 42 px per inch
HEADER = 62
LEGEND_H = 70
PANEL_W = 356

SEA = (166, 202, 226)
SEA_TINTS = ((176, 210, 232), (158, 194, 220), (186, 216, 236))
SEA_EDGE = (214, 232, 244)
SEA_INK = (36, 78, 118)
LAND = (226, 224, 180)
SHORE = (112, 104, 70)
ROAD = (186, 146, 96)
ROAD_EDGE = (150, 112, 70)
TOWN_FILL = (204, 112, 64)
HAMLET_FILL = (250, 246, 232)
STONE = (150, 150, 160)
LAIR_FILL = (128, 22, 28)
MORGEN_FILL = (96, 70, 150)
TILE_BACK = (116, 82, 48)
DRAGON = (140, 20, 26)
HIGHLIGHT = (255, 214, 0)
PANEL = (236, 228, 208)
PANEL_EDGE = (196, 184, 158)
CURRENT_BAND = (255, 240, 170)
MUTED = (112, 100, 84)
ALERT = (176, 30, 30)
WHITE = (255, 255, 255)

MAGICIAN_COLOURS: dict[str, Colour] = {
    "aurric": (222, 118, 18),
    "merridyds": (38, 98, 212),
    "old_kyvin": (132, 58, 182),
    "galen": (28, 140, 70),
}
FALLBACK_COLOUR = (110, 110, 110)

PHASES = {
    "place": "{name} places King's men",
    "magician": "{owner} move",
    "kings_men": "{owner} King's men move",
    "answer": "{name} to answer",
}

TOKEN_R = 14  # a magician's disc radius
TILE_HALF = 14  # half a King's man tile
FAN_STEP = 29  # centre to centre of pieces fanned out in a row
SYMBOL_HALF = {TOWN: 13, HAMLET: 7, CASTLE: 12, LAIR: 14, MORGENTHORME: 13}


def render(view: dict[str, Any]) -> bytes:
    """PNG of the map of Urland, the pieces and the parties for a public view of Dragonslayer."""
    return png_bytes(picture(view))


def picture(view: dict[str, Any]) -> Image.Image:
    """The picture :func:`render` encodes (RGB, :data:`WIDTH` x :data:`HEIGHT`)."""
    layout = _layout(_Same(load_urland()), _Same(load_parties()))
    image = _small_background(layout).copy()
    pen = _Pen(image, 1)
    _draw_boxes(pen, layout, view.get("boxes") or {})
    _draw_dragon(pen, layout, (view.get("dragon") or {}).get("strength"))
    _draw_path(pen, layout, view.get("last"))
    _draw_spots(pen, layout, view)
    _draw_header(pen, view)
    _draw_panel(pen, view)
    _draw_tile_counts(pen, view)
    return image


# --- geometry ----------------------------------------------------------------------------


class _Same:
    """Hashes and compares by identity, so the map object itself can key an lru_cache (the
    loaders hand back the same object until a corrected data file is loaded)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


@dataclass(frozen=True)
class _Label:
    """A place's name: drawn at ``xy`` with Pillow's text ``anchor``."""

    text: str
    xy: Point
    anchor: str
    size: int
    bold: bool


@dataclass(frozen=True, eq=False)
class _Layout:
    """Pixel positions (at full size) of everything on the map."""

    urland: Urland
    names: dict[str, str]  # magician key -> name
    map_size: tuple[int, int]
    sea_polygons: dict[str, tuple[Point, ...]]
    coast: tuple[Point, ...]
    places: dict[str, Point]
    labels: dict[str, _Label]
    anchors: dict[str, Point]  # port key -> its anchor mark, just offshore
    seas: dict[str, Point]  # sea key -> where magicians at sea stand
    sea_labels: dict[str, Point]
    abodes: dict[str, Point]
    boxes: dict[str, Point]
    track: tuple[Point, ...]


@lru_cache(maxsize=4)
def _layout(urland_ref: _Same, parties_ref: _Same) -> _Layout:
    """Where everything goes on the map, worked out once per map (a few tenths of a second:
    the names and the sea spots are placed by searching for free room)."""
    urland: Urland = urland_ref.value
    names = {key: magician.name for key, magician in parties_ref.value.magicians.items()}
    # A corrected map of another size is scaled to fit the same frame.
    ppi = min(MAP_W / urland.size[0], MAP_H / urland.size[1])
    width, height = round(urland.size[0] * ppi), round(urland.size[1] * ppi)

    def _to_px(point: Point) -> Point:
        return (point[0] * ppi, HEADER + point[1] * ppi)

    coast = tuple(_to_px(p) for p in _smooth(_wobble(urland.coast)))
    places = {key: _to_px(place.at) for key, place in urland.places.items()}
    sea_labels = {key: _to_px(sea.at) for key, sea in urland.seas.items()}
    abodes = {key: _to_px(abode.at) for key, abode in urland.abodes.items()}
    boxes = {key: _to_px(box.at) for key, box in urland.boxes.items()}
    track = tuple(_to_px(p) for p in urland.dragon_track)
    sea_polygons = {key: tuple(_to_px(p) for p in sea.polygon) for key, sea in urland.seas.items()}
    anchors: dict[str, Point] = {}
    seas: dict[str, Point] = {}
    avoid = [_sea_label_box(urland.seas[k].name, xy) for k, xy in sea_labels.items()]
    avoid += [(x - 40, y - 40, x + 40, y + 40) for x, y in (*abodes.values(), *boxes.values())]
    avoid += [(x - 26, y - 26, x + 26, y + 26) for x, y in track]
    for key, place in urland.places.items():
        if place.port is None:
            continue
        polygon = list(sea_polygons[place.port])
        anchor, spot = _port_spots(places[key], coast, polygon, avoid, (width, height))
        anchors[key] = anchor
        seas.setdefault(place.port, spot)
    for key in urland.seas:
        seas.setdefault(key, sea_labels[key])
    labels = _place_labels(urland, places, coast, avoid, (width, height))
    return _Layout(
        urland=urland,
        names=names,
        map_size=(width, height),
        sea_polygons=sea_polygons,
        coast=coast,
        places=places,
        labels=labels,
        anchors=anchors,
        seas=seas,
        sea_labels=sea_labels,
        abodes=abodes,
        boxes=boxes,
        track=track,
    )


def _wobble(points: tuple[Point, ...], step: float = 0.45) -> tuple[Point, ...]:
    """The coast's outline with more points, each nudged in or out a little by a fixed
    wave of the distance along the shore: a natural-looking coast, the same every time."""
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    out: list[Point] = []
    along = 0.0
    for (x1, y1), (x2, y2) in pairwise((*points, points[0])):
        length = math.hypot(x2 - x1, y2 - y1)
        count = max(1, round(length / step))
        for i in range(count):
            x, y = x1 + (x2 - x1) * i / count, y1 + (y2 - y1) * i / count
            d = along + length * i / count
            push = (
                0.12 * math.sin(d * 1.7)
                + 0.08 * math.sin(d * 4.1 + 1)
                + 0.05 * math.sin(d * 8.3 + 2)
            )
            r = math.hypot(x - cx, y - cy) or 1.0
            out.append((x + (x - cx) / r * push, y + (y - cy) / r * push))
        along += length
    return tuple(out)


def _smooth(points: tuple[Point, ...], rounds: int = 3) -> tuple[Point, ...]:
    """Chaikin corner cutting of a closed outline: the coast's corners become curves."""
    for _ in range(rounds):
        cut: list[Point] = []
        for (x1, y1), (x2, y2) in pairwise((*points, points[0])):
            cut.append((0.75 * x1 + 0.25 * x2, 0.75 * y1 + 0.25 * y2))
            cut.append((0.25 * x1 + 0.75 * x2, 0.25 * y1 + 0.75 * y2))
        points = tuple(cut)
    return points


def _inside(point: Point, polygon: tuple[Point, ...] | list[Point]) -> bool:
    """Even-odd test of ``point`` against a closed polygon."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in pairwise((*polygon, polygon[0])):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _overlap(a: Box, b: Box) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def _sea_label_box(name: str, xy: Point) -> Box:
    half = font(17, True).getlength(name) / 2 + 4
    return (xy[0] - half, xy[1] - 12, xy[0] + half, xy[1] + 12)


def _port_spots(
    port: Point,
    coast: tuple[Point, ...],
    sea: list[Point],
    avoid: list[Box],
    size: tuple[int, int],
) -> tuple[Point, Point]:
    """The anchor mark (just offshore, toward the port's sea zone) and the spot in the sea
    zone where magicians at sea are drawn: near the anchor, wholly at sea, clear of names,
    boxes and the map's edge."""
    centre = (sum(x for x, _ in coast) / len(coast), sum(y for _, y in coast) / len(coast))
    base = math.atan2(port[1] - centre[1], port[0] - centre[0])
    anchor: Point | None = None
    for turn in (0, 20, -20, 40, -40, 60, -60, 80, -80):
        angle = base + math.radians(turn)
        dx, dy = math.cos(angle), math.sin(angle)
        step = 0.0
        while step < 600 and _inside((port[0] + dx * step, port[1] + dy * step), coast):
            step += 2
        point = (port[0] + dx * (step + 10), port[1] + dy * (step + 10))
        if anchor is None:
            anchor = point  # the fallback when no direction reaches the sea zone
        box = (point[0] - 13, point[1] - 13, point[0] + 13, point[1] + 13)
        if _inside(point, sea) and not any(_overlap(box, other) for other in avoid):
            anchor = point
            break
    assert anchor is not None
    reach = TOKEN_R + 8
    # Land grown by ``reach``: a spot off this mask has its whole token at sea.
    land = Image.new("L", (size[0], HEADER + size[1]), 0)
    shore = ImageDraw.Draw(land)
    shore.polygon(coast, fill=255)
    shore.line((*coast, coast[0]), fill=255, width=2 * reach)
    borders = [
        (a, b)
        for a, b in pairwise((*sea, sea[0]))
        if not (a[0] == b[0] and a[0] in (0, size[0]))
        and not (a[1] == b[1] and a[1] in (HEADER, HEADER + size[1]))
    ]
    candidates: list[tuple[float, Point]] = []
    for gx in range(-180, 181, 6):
        for gy in range(-180, 181, 6):
            spot = (anchor[0] + gx, anchor[1] + gy)
            if not (reach < spot[0] < size[0] - reach):
                continue
            if not (HEADER + reach < spot[1] < HEADER + size[1] - reach):
                continue
            distance = math.hypot(gx, gy)
            if not 2 * reach <= distance <= 180 or land.getpixel((round(spot[0]), round(spot[1]))):
                continue
            if not _inside(spot, sea):
                continue
            box = (spot[0] - reach, spot[1] - reach, spot[0] + reach, spot[1] + reach)
            cost = distance / 6 + sum(_overlap(box, other) for other in avoid) / 8
            if min(_segment_distance(spot, a, b) for a, b in borders) < reach:
                cost += 40  # astride the line to the next sea zone
            candidates.append((cost, spot))
    return anchor, min(candidates)[1] if candidates else anchor


def _segment_distance(point: Point, a: Point, b: Point) -> float:
    """Distance from ``point`` to the segment from ``a`` to ``b``."""
    (px, py), (ax, ay), (bx, by) = point, a, b
    length = (bx - ax) ** 2 + (by - ay) ** 2
    along = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length if length else 0.0
    t = max(0.0, min(1.0, along))
    return math.hypot(px - ax - t * (bx - ax), py - ay - t * (by - ay))


def _label_style(kind: str) -> tuple[int, bool]:
    if kind == TOWN:
        return 17, True
    if kind in (LAIR, MORGENTHORME):
        return 15, True
    return 15, False


def _place_labels(
    urland: Urland,
    places: dict[str, Point],
    coast: tuple[Point, ...],
    avoid: list[Box],
    size: tuple[int, int],
) -> dict[str, _Label]:
    """Each place's name beside it, where it covers the fewest other names, symbols, piece
    spots and roads (greedy, towns first, then the data file's order)."""
    hard: list[Box] = list(avoid)
    for key, (x, y) in places.items():
        reach = max(SYMBOL_HALF.get(urland.places[key].kind, 10), TOKEN_R) + 2
        hard.append((x - reach, y - reach, x + reach, y + reach))
        if urland.places[key].holds_tiles:
            hard.append(_badge_box((x, y), reach - 2))
    # Where pieces fan out when two or three share a place: names should stay clear of it.
    fans = {key: (x - 45, y - 15, x + 45, y + 15) for key, (x, y) in places.items()}
    samples: list[Point] = []
    for road in urland.roads:
        (x1, y1), (x2, y2) = places[road.a], places[road.b]
        count = max(2, int(math.hypot(x2 - x1, y2 - y1) / 4))
        samples += [(x1 + (x2 - x1) * i / count, y1 + (y2 - y1) * i / count) for i in range(count)]
    samples += list(coast)
    order = sorted(urland.places, key=lambda k: urland.places[k].kind != TOWN)
    labels: dict[str, _Label] = {}
    for key in order:
        place = urland.places[key]
        x, y = places[key]
        size_px, bold = _label_style(place.kind)
        face = font(size_px, bold)
        # Above or below first: pieces fan out sideways, so a name beside its place would
        # be covered as soon as two pieces stand there.
        side = 20 if not place.holds_tiles else 46
        candidates = (
            ("mt", (0, 18), 0),
            ("mb", (0, -18), 0.5),
            ("lt", (10, 17), 1),
            ("rt", (-10, 17), 1),
            ("lb", (10, -17), 1.5),
            ("rb", (-10, -17), 1.5),
            ("lm", (side, 0), 8),
            ("rm", (-20, 0), 8),
        )
        others = [box for other, box in fans.items() if other != key]
        nearby = [(sx, sy) for sx, sy in samples if abs(sx - x) < 160 and abs(sy - y) < 60]
        best: tuple[float, _Label, Box] | None = None
        for anchor, (dx, dy), rank in candidates:
            xy = (x + dx, y + dy)
            left, top, right, bottom = face.getbbox(place.name, anchor=anchor)
            box = (xy[0] + left - 2, xy[1] + top - 2, xy[0] + right + 2, xy[1] + bottom + 2)
            area = (box[2] - box[0]) * (box[3] - box[1])
            cost = rank
            cost += 400 * sum(_overlap(box, other) for other in hard) / area
            cost += 40 * sum(_overlap(box, other) for other in others) / area
            cost += sum(1 for sx, sy in nearby if box[0] < sx < box[2] and box[1] < sy < box[3])
            if box[0] < 2 or box[2] > size[0] - 2 or box[1] < HEADER + 2:
                cost += 10_000
            if box[3] > HEADER + size[1] - 2:
                cost += 10_000
            if best is None or cost < best[0]:
                best = (cost, _Label(place.name, xy, anchor, size_px, bold), box)
        assert best is not None
        labels[key] = best[1]
        hard.append(best[2])
    return labels


def _badge_box(centre: Point, reach: float) -> Box:
    """Where a place's face-down stack sits when nothing stands on it (right of its symbol)."""
    x, y = centre
    return (x + reach + 2, y - 13, x + reach + 30, y + 13)


def place_xy(key: str) -> Point:
    """Pixel centre of place ``key`` in the picture."""
    return _current_layout().places[key]


def sea_xy(key: str) -> Point:
    """Where magicians in sea zone ``key`` are drawn."""
    return _current_layout().seas[key]


def abode_xy(key: str) -> Point:
    """Pixel centre of abode ``key`` (the magician's key)."""
    return _current_layout().abodes[key]


def track_xy(strength: int) -> Point:
    """Pixel centre of box ``strength`` of the Dragon Strength Track."""
    return _current_layout().track[strength]


def box_xy(key: str) -> Point:
    """Pixel centre of map box ``key`` (``"ulrich"`` or ``"dragon_shield"``)."""
    return _current_layout().boxes[key]


def face_down_xy(key: str) -> Point:
    """Pixel centre of the face-down stack of place ``key`` when no piece stands there."""
    layout = _current_layout()
    box = _badge_box(layout.places[key], _reach(layout, key))
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _current_layout() -> _Layout:
    return _layout(_Same(load_urland()), _Same(load_parties()))


def _reach(layout: _Layout, key: str) -> float:
    return max(SYMBOL_HALF.get(layout.urland.places[key].kind, 10), TOKEN_R)


# --- drawing at a scale ----------------------------------------------------------------------


class _Pen:
    """Draws in full-size pixel coordinates on an image ``k`` times as large."""

    def __init__(self, image: Image.Image, k: int) -> None:
        self.draw = ImageDraw.Draw(image)
        self.k = k

    def _w(self, width: float) -> int:
        return max(1, round(width * self.k))

    def _pts(self, points: Any) -> list[Point]:
        return [(x * self.k, y * self.k) for x, y in points]

    def line(self, points: Any, fill: Colour, width: float, curve: bool = False) -> None:
        self.draw.line(
            self._pts(points), fill=fill, width=self._w(width), joint="curve" if curve else None
        )

    def polygon(
        self, points: Any, fill: Colour | None = None, outline: Colour | None = None, width=1.0
    ) -> None:
        self.draw.polygon(self._pts(points), fill=fill, outline=outline, width=self._w(width))

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        x, y = centre
        box = (x - radius, y - radius, x + radius, y + radius)
        self.draw.ellipse(
            [v * self.k for v in box], fill=fill, outline=outline, width=self._w(width)
        )

    def rect(
        self,
        box: Box,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        self.draw.rounded_rectangle(
            [v * self.k for v in box],
            radius=radius * self.k,
            fill=fill,
            outline=outline,
            width=self._w(width),
        )

    def text(
        self,
        xy: Point,
        text: str,
        size: int,
        fill: Colour = INK,
        bold: bool = False,
        anchor: str = "mm",
        halo: Colour | None = None,
        halo_width: float = 3,
    ) -> None:
        self.draw.text(
            (xy[0] * self.k, xy[1] * self.k),
            text,
            font=font(size * self.k, bold),
            fill=fill,
            anchor=anchor,
            stroke_width=self._w(halo_width) if halo else 0,
            stroke_fill=halo,
        )


def _width(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def _tint(colour: Colour, amount: float) -> Colour:
    """``colour`` mixed with white: 0 unchanged, 1 white."""
    return tuple(round(c + (255 - c) * amount) for c in colour)  # type: ignore[return-value]


def _shade(colour: Colour, amount: float) -> Colour:
    """``colour`` mixed with black: 0 unchanged, 1 black."""
    return tuple(round(c * (1 - amount)) for c in colour)  # type: ignore[return-value]


def magician_colour(key: str) -> Colour:
    """The colour a magician's pieces, abode and panel are drawn in."""
    return MAGICIAN_COLOURS.get(key, FALLBACK_COLOUR)


def _initials(name: str) -> str:
    return "".join(word[:1] for word in name.split())[:2].upper() or "?"


# --- the static map ------------------------------------------------------------------------


WIDTH = MAP_W + PANEL_W
HEIGHT = HEADER + MAP_H + LEGEND_H


@lru_cache(maxsize=4)
def _small_background(layout: _Layout) -> Image.Image:
    """The map drawn at SCALE times the size and reduced once: smooth, and cheap to reuse."""
    big = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), PAPER)
    _draw_map(_Pen(big, SCALE), layout)
    return big.reduce(SCALE)


def _draw_map(pen: _Pen, layout: _Layout) -> None:
    urland = layout.urland
    width, height = layout.map_size
    top = HEADER
    pen.rect((0, top, width, top + height), fill=SEA)
    for index, sea in enumerate(urland.seas.values()):
        tint = SEA_TINTS[index % len(SEA_TINTS)]
        pen.polygon(layout.sea_polygons[sea.key], fill=tint, outline=SEA_EDGE, width=2)
    for key, sea in urland.seas.items():
        x, y = layout.sea_labels[key]
        half = _width(sea.name, 17, True) / 2 + 4
        x = min(max(x, half), width - half)
        pen.text((x, y), sea.name, 17, fill=SEA_INK, bold=True, halo=_tint(SEA, 0.3), halo_width=2)
    pen.polygon(layout.coast, fill=_shade(LAND, 0.06))
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
    _track(pen, layout)
    pen.rect((0, top, width, top + height), outline=SHORE, width=2)
    _legend(pen, HEADER + MAP_H)
    pen.rect((width, 0, WIDTH, HEIGHT), fill=PANEL)
    pen.line(((width, 0), (width, HEIGHT)), fill=PANEL_EDGE, width=2)
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


def _place_symbol(pen: _Pen, kind: str, xy: Point) -> None:
    """Town: a house with a roof; hamlet: a small disc; castle: a crenellated tower; the
    Dragon's Lair: a dark red cave mouth; Morgenthorme: a violet spire with a star."""
    x, y = xy
    if kind == TOWN:
        pen.rect((x - 12, y - 4, x + 12, y + 13), fill=_tint(TOWN_FILL, 0.55), outline=INK, width=2)
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


def _star(pen: _Pen, centre: Point, size: float, fill: Colour) -> None:
    x, y = centre
    points = []
    for i in range(10):
        r = size if i % 2 == 0 else size * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    pen.polygon(points, fill=fill)


def _anchor(pen: _Pen, xy: Point, size: float) -> None:
    """A ship's anchor on a pale disc: ring, shank, stock and curved arms."""
    x, y = xy
    pen.circle(xy, size + 3, fill=_tint(SEA, 0.6), outline=SEA_INK, width=1.5)
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


def _abode(pen: _Pen, layout: _Layout, key: str, name: str, magician: str) -> None:
    """A magician's tower in its colour with the abode's name, above or below it."""
    x, y = layout.abodes[key]
    colour = magician_colour(magician)
    pen.rect(
        (x - 20, y - 16, x + 20, y + 16), fill=_tint(colour, 0.7), outline=colour, width=3, radius=6
    )
    pen.polygon(
        [(x - 9, y + 12), (x - 9, y - 3), (x, y - 12), (x + 9, y - 3), (x + 9, y + 12)],
        fill=_tint(colour, 0.35),
        outline=_shade(colour, 0.3),
        width=1.5,
    )
    width, height = layout.map_size
    words = name.rsplit(" ", 1)
    lines = [name] if _width(name, 15, True) + 8 < 2 * min(x, width - x) else words
    below = y < HEADER + height / 2
    half = max(_width(line, 15, True) for line in lines) / 2 + 4
    cx = min(max(x, half), width - half)
    for index, line in enumerate(lines):
        if below:
            ly = y + 20 + index * 17
            anchor = "mt"
        else:
            ly = y - 20 - (len(lines) - 1 - index) * 17
            anchor = "mb"
        pen.text(
            (cx, ly),
            line,
            15,
            fill=_shade(colour, 0.35),
            bold=True,
            anchor=anchor,
            halo=_tint(SEA, 0.5),
            halo_width=2,
        )


BOX_HALF = (31, 21)


def _box_frame(pen: _Pen, xy: Point, name: str) -> None:
    """The printed box of Ulrich or the Dragon Shield: a dashed frame with its name."""
    x, y = xy
    hx, hy = BOX_HALF
    pen.rect(
        (x - hx, y - hy, x + hx, y + hy), fill=_tint(SEA, 0.45), outline=SEA_INK, width=2, radius=5
    )
    _box_name(pen, xy, name, SEA_INK)


def _box_name(pen: _Pen, xy: Point, name: str, fill: Colour) -> None:
    short = name.removeprefix("The ")
    lines = [short] if _width(short, 15, True) < 2 * BOX_HALF[0] - 4 else short.rsplit(" ", 1)
    for index, line in enumerate(lines):
        dy = (index - (len(lines) - 1) / 2) * 16
        pen.text((xy[0], xy[1] + dy), line, 15 if len(lines) == 1 else 14, fill=fill, bold=True)


def _track(pen: _Pen, layout: _Layout) -> None:
    """The Dragon Strength Track: numbered boxes, and its title above the first ones."""
    for number, (x, y) in enumerate(layout.track):
        pen.rect(
            (x - 20, y - 18, x + 20, y + 18),
            fill=_tint(DRAGON, 0.82),
            outline=DRAGON,
            width=2,
            radius=4,
        )
        pen.text((x, y), str(number), 18, fill=DRAGON, bold=True)
    if layout.track:
        x, y = layout.track[0]
        pen.text(
            (x - 20, y - 22),
            "Dragon strength",
            15,
            fill=_shade(DRAGON, 0.1),
            bold=True,
            anchor="lb",
            halo=_tint(SEA, 0.4),
            halo_width=2,
        )


def _legend(pen: _Pen, top: float) -> None:
    """Two rows under the map: what each symbol and piece means."""
    pen.rect((0, top, MAP_W, top + LEGEND_H), fill=PANEL)
    rows = (
        (
            ("town", "Town"),
            ("hamlet", "Hamlet"),
            ("castle", "Castle"),
            ("lair", "Dragon's Lair"),
            ("morgen", "Morgenthorme"),
            ("port", "Port"),
        ),
        (
            ("magician", "Magician"),
            ("kings_man", "King's man (no., strength if known)"),
            ("stack", "Face-down tiles"),
            ("road", "Road"),
        ),
    )
    for row, entries in enumerate(rows):
        y = top + 18 + row * 34
        x = 16.0
        for kind, text in entries:
            _legend_symbol(pen, kind, (x + 14, y))
            pen.text((x + 34, y), text, 15, anchor="lm")
            x += 34 + _width(text, 15) + 22


def _legend_symbol(pen: _Pen, kind: str, xy: Point) -> None:
    x, y = xy
    if kind in ("town", "hamlet", "castle", "lair"):
        _place_symbol(pen, kind, (x, y - 1))
    elif kind == "morgen":
        _place_symbol(pen, MORGENTHORME, (x, y))
    elif kind == "port":
        _anchor(pen, xy, 9)
    elif kind == "magician":
        _token(pen, xy, MAGICIAN_COLOURS["galen"], "G", radius=12)
    elif kind == "kings_man":
        _kings_man(pen, xy, MAGICIAN_COLOURS["merridyds"], 1, False, half=12)
    elif kind == "stack":
        _stack(pen, xy, 4)
    else:
        pen.line(((x - 14, y), (x + 14, y)), fill=ROAD_EDGE, width=7)
        pen.line(((x - 14, y), (x + 14, y)), fill=ROAD, width=4)


# --- pieces ------------------------------------------------------------------------------


def _token(pen: _Pen, xy: Point, colour: Colour, label: str, radius: float = TOKEN_R) -> None:
    """A magician: a disc in its colour, white ring, its initials."""
    pen.circle(xy, radius + 2, fill=INK)
    pen.circle(xy, radius, fill=colour, outline=WHITE, width=2)
    size = 16 if len(label) == 1 else 12
    pen.text((xy[0], xy[1] + 1), label, size, fill=WHITE, bold=True)


def _kings_man(
    pen: _Pen,
    xy: Point,
    colour: Colour,
    number: int,
    idle: bool,
    half: float = TILE_HALF,
) -> None:
    """A King's man: a square tile in its magician's colour, a crown and its number; pale
    when it is idle."""
    x, y = xy
    fill = _tint(colour, 0.55) if idle else colour
    pen.rect((x - half, y - half, x + half, y + half), fill=fill, outline=INK, width=2, radius=3)
    k = half / TILE_HALF
    crown = [
        (x - 8 * k, y - 2 * k),
        (x - 8 * k, y - 10 * k),
        (x - 4 * k, y - 6 * k),
        (x, y - 11 * k),
        (x + 4 * k, y - 6 * k),
        (x + 8 * k, y - 10 * k),
        (x + 8 * k, y - 2 * k),
    ]
    pen.polygon(crown, fill=(255, 226, 90), outline=INK, width=1)
    pen.text(
        (x, y + 6 * k), str(number), round(14 * k), fill=WHITE, bold=True, halo=INK, halo_width=1.5
    )


def _strength_badge(pen: _Pen, xy: Point, strength: Any) -> None:
    """A revealed King's man's strength: white on a black disc at its tile's corner."""
    pen.circle(xy, 10, fill=INK, outline=WHITE, width=1.5)
    pen.text((xy[0], xy[1] + 1), str(strength), 14, fill=WHITE, bold=True)


def _stack(pen: _Pen, xy: Point, count: int) -> None:
    """Face-down tiles: two offset tile backs with the count on top."""
    x, y = xy
    pen.rect(
        (x - 8, y - 12, x + 12, y + 8), fill=_tint(TILE_BACK, 0.3), outline=INK, width=1.5, radius=3
    )
    pen.rect((x - 12, y - 8, x + 8, y + 12), fill=TILE_BACK, outline=INK, width=1.5, radius=3)
    pen.text((x - 2, y + 2), str(count), 15, fill=WHITE, bold=True)


@dataclass
class _Piece:
    kind: str  # "magician" or "kings_man"
    colour: Colour
    label: str = ""
    number: int = 0
    strength: int | None = None
    idle: bool = False
    current: bool = False


def _magician_spot(layout: _Layout, where: dict[str, Any]) -> tuple[str, Point] | None:
    """Where a magician stands: (a key grouping pieces that share the spot, its centre)."""
    kind, key = where.get("kind"), where.get("key")
    if kind == "place" and key in layout.places:
        return f"place:{key}", layout.places[key]
    if kind == "abode" and key in layout.abodes:
        return f"abode:{key}", layout.abodes[key]
    if kind == "sea" and key in layout.seas:
        return f"sea:{key}", layout.seas[key]
    if kind == "road":
        ends = where.get("road") or []
        if len(ends) == 2 and all(end in layout.places for end in ends):
            (x1, y1), (x2, y2) = layout.places[ends[0]], layout.places[ends[1]]
            return f"road:{ends[0]}:{ends[1]}", (x1 + (x2 - x1) / 3, y1 + (y2 - y1) / 3)
    if key in layout.places:
        return f"place:{key}", layout.places[key]
    return None


def _draw_spots(pen: _Pen, layout: _Layout, view: dict[str, Any]) -> None:
    """Everything standing on the map: King's men, magicians, face-down stacks, fanned out
    in a row per spot (two rows when crowded); the stack sits right of the row."""
    spots: dict[str, tuple[Point, list[_Piece]]] = {}
    current = view.get("current")
    magicians = view.get("magicians") or []
    colour_of_seat = {m.get("seat"): magician_colour(m.get("key", "")) for m in magicians}
    for man in view.get("kings_men") or []:
        at = man.get("at")
        if at not in layout.places:
            continue
        colour = (
            magician_colour(man.get("magician", ""))
            if man.get("magician")
            else (colour_of_seat.get(man.get("seat"), FALLBACK_COLOUR))
        )
        piece = _Piece(
            "kings_man",
            colour,
            number=int(man.get("number") or 0),
            strength=man.get("strength"),
            idle=bool(man.get("idle")),
            current=view.get("phase") == "kings_men" and man.get("seat") == current,
        )
        spots.setdefault(f"place:{at}", (layout.places[at], []))[1].append(piece)
    phase = view.get("phase")
    for magician in magicians:
        if magician.get("out"):
            continue
        found = _magician_spot(layout, magician.get("where") or {})
        if found is None:
            continue
        name = magician.get("name") or layout.names.get(magician.get("key", ""), "?")
        piece = _Piece(
            "magician",
            magician_colour(magician.get("key", "")),
            label=_initials(name),
            current=phase in ("magician", "answer") and magician.get("seat") == current,
        )
        spots.setdefault(found[0], (found[1], []))[1].append(piece)
    face_down = view.get("face_down") or {}
    for key, count in face_down.items():
        if key in layout.places and count:
            spots.setdefault(f"place:{key}", (layout.places[key], []))
    for spot_key, (centre, pieces) in spots.items():
        cells = _fan(centre, len(pieces))
        for piece, cell in zip(pieces, cells, strict=True):
            if piece.current and piece.kind == "magician":
                pen.circle(cell, TOKEN_R + 7, outline=HIGHLIGHT, width=5)
                pen.circle(cell, TOKEN_R + 10, outline=INK, width=1.5)
            elif piece.current:
                edge = TILE_HALF + 6
                box = (cell[0] - edge, cell[1] - edge, cell[0] + edge, cell[1] + edge)
                pen.rect(box, outline=HIGHLIGHT, width=5, radius=4)
            if piece.kind == "magician":
                _token(pen, cell, piece.colour, piece.label)
            else:
                _kings_man(pen, cell, piece.colour, piece.number, piece.idle)
        for piece, cell in zip(pieces, cells, strict=True):
            if piece.kind == "kings_man" and piece.strength is not None:
                _strength_badge(pen, (cell[0] + TILE_HALF, cell[1] - TILE_HALF), piece.strength)
        if spot_key.startswith("place:"):
            key = spot_key.split(":", 1)[1]
            count = int(face_down.get(key) or 0)
            if count:
                # Right of the row of pieces, or where face_down_xy says on an empty place.
                right = max((cell[0] for cell in cells), default=centre[0])
                reach = TOKEN_R if pieces else _reach(layout, key)
                row = cells[0][1] if pieces else centre[1]
                _stack(pen, (right + reach + 16, row), count)


def _fan(centre: Point, count: int) -> list[Point]:
    """Centres of ``count`` pieces in a row on ``centre``; over four, two rows."""
    x, y = centre
    if count <= 4:
        return [(x + (i - (count - 1) / 2) * FAN_STEP, y) for i in range(count)]
    per_row = math.ceil(count / 2)
    cells = []
    for i in range(count):
        row, column = divmod(i, per_row)
        in_row = per_row if row == 0 else count - per_row
        cells.append((x + (column - (in_row - 1) / 2) * FAN_STEP, y + (row - 0.5) * FAN_STEP))
    return cells


def _path_point(layout: _Layout, key: str) -> Point | None:
    if key in layout.places:
        return layout.places[key]
    if key in layout.seas:
        return layout.seas[key]
    if key in layout.abodes:
        return layout.abodes[key]
    return None


def _draw_path(pen: _Pen, layout: _Layout, last: dict[str, Any] | None) -> None:
    """The last move's route as a thick yellow line with a ring at its end."""
    if not last:
        return
    points = [p for p in (_path_point(layout, key) for key in last.get("path") or []) if p]
    if not points:
        return
    if len(points) > 1:
        pen.line(points, fill=INK, width=11, curve=True)
        pen.line(points, fill=HIGHLIGHT, width=7, curve=True)
    for point in points[:-1]:
        pen.circle(point, 6, fill=HIGHLIGHT, outline=INK, width=1.5)
    pen.circle(points[-1], TOKEN_R + 9, outline=INK, width=9)
    pen.circle(points[-1], TOKEN_R + 9, outline=HIGHLIGHT, width=6)


def _draw_boxes(pen: _Pen, layout: _Layout, boxes: dict[str, Any]) -> None:
    """A tile still in its box is drawn as a gold tile over the printed box."""
    for key, present in boxes.items():
        if key not in layout.boxes:
            continue
        x, y = layout.boxes[key]
        hx, hy = BOX_HALF
        name = layout.urland.boxes[key].name
        if present:
            pen.rect(
                (x - hx + 3, y - hy + 3, x + hx - 3, y + hy - 3),
                fill=(240, 200, 90),
                outline=INK,
                width=2,
                radius=4,
            )
            _box_name(pen, (x, y), name, INK)
        else:
            pen.line(((x - hx + 6, y + hy - 6), (x + hx - 6, y - hy + 6)), fill=MUTED, width=2)


def _draw_dragon(pen: _Pen, layout: _Layout, strength: Any) -> None:
    """Vermithrax's marker: a dark red spiky disc with yellow eyes on its track box."""
    if not isinstance(strength, int) or not layout.track:
        return
    x, y = layout.track[max(0, min(strength, len(layout.track) - 1))]
    spikes = []
    for i in range(16):
        r = 21 if i % 2 == 0 else 14
        angle = i * math.pi / 8
        spikes.append((x + r * math.sin(angle), y - r * math.cos(angle)))
    pen.polygon(spikes, fill=DRAGON, outline=INK, width=1.5)
    pen.circle((x, y), 12, fill=DRAGON)
    for dx in (-5, 5):
        pen.circle((x + dx, y - 3), 3, fill=(255, 200, 40))
    pen.text((x, y + 6), str(strength), 13, fill=WHITE, bold=True)


def _draw_tile_counts(pen: _Pen, view: dict[str, Any]) -> None:
    """Right of the legend: tiles removed from play and tiles set aside unseen."""
    bits = []
    if isinstance(view.get("removed"), int):
        bits.append(f"Removed {view['removed']}")
    if isinstance(view.get("set_aside"), int):
        bits.append(f"set aside {view['set_aside']}")
    if bits:
        y = HEADER + MAP_H + 18 + 34
        pen.text((MAP_W - 12, y), " \u00b7 ".join(bits), 15, fill=MUTED, anchor="rm")


# --- header and panel ------------------------------------------------------------------------


def _fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if _width(text, size, bold) <= width:
        return text
    while text and _width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _draw_header(pen: _Pen, view: dict[str, Any]) -> None:
    """Turn, whose turn, phase, days left; under it the last move (or the summary)."""
    seats = {m.get("seat"): m for m in view.get("magicians") or []}
    phase = view.get("phase", "")
    parts = ["Dragonslayer", f"Turn {view.get('turn', '?')}"]
    if phase == "over":
        parts.append("Game over")
    else:
        who = seats.get(view.get("current"))
        if who is not None:
            name = who.get("name", "?")
            owner = name + ("'" if name.endswith("s") else "'s")
            parts.append(PHASES.get(phase, "{name}: " + phase).format(name=name, owner=owner))
        days = view.get("days_left")
        if isinstance(days, int):
            parts.append(f"{days} day{'s' if days != 1 else ''} left")
    title = "  \u2022  ".join(parts)
    pen.text((16, 20), _fit(title, 21, WIDTH - 32, True), 21, bold=True, anchor="lm")
    last = view.get("last") or {}
    line = view.get("summary", "")
    if last.get("text") and phase != "over":
        line = f"Last: {last['text']}"
    pen.text((16, 46), _fit(line, 16, WIDTH - 32), 16, fill=(70, 62, 52), anchor="lm")
    if phase != "over":
        who = seats.get(view.get("current"))
        if who is not None:
            x = 16 + _width(_fit(title, 21, WIDTH - 32, True), 21, True) + 22
            if x < WIDTH - 30:
                pen.circle(
                    (x, 20), 9, fill=magician_colour(who.get("key", "")), outline=INK, width=1.5
                )


@dataclass
class _Line:
    text: str
    size: int = 15
    bold: bool = False
    fill: Colour = INK


def _party_lines(
    party: dict[str, Any], magician: dict[str, Any], view: dict[str, Any], width: float
) -> list[_Line]:
    """The detail lines of one party's block, wrapped to ``width`` pixels."""
    raw: list[_Line] = []
    stats = (
        f"Combat {party.get('combat', '?')} \u00b7 Magic {party.get('magic', '?')} \u00b7 "
        f"Pentacles {party.get('pentacles', '?')}"
    )
    raw.append(_Line(stats))
    people, combat = party.get("people"), party.get("party_combat")
    if isinstance(people, int):
        text = f"Party of {people}" + (f", combat {combat}" if combat is not None else "")
        raw.append(_Line(text))
    carry = party.get("carry") or {}
    bits = []
    over = False
    for key, title in (("weapons", "weapons"), ("magic", "magic")):
        pair = carry.get(key)
        if isinstance(pair, list | tuple) and len(pair) == 2:
            bits.append(f"{title} {pair[0]}/{pair[1]}")
            over = over or pair[0] > pair[1]
    if bits:
        text = "Carrying " + ", ".join(bits) + (" (over)" if over else "")
        raw.append(_Line(text, fill=ALERT if over else INK))
    companions = [
        f"{c.get('name', '?')} ({c['strength']})"
        if c.get("strength") is not None
        else c.get("name", "?")
        for c in party.get("companions") or []
    ]
    if companions:
        raw.append(_Line("Companions: " + ", ".join(companions)))
    for key, title in (
        ("weapons", "Weapons"),
        ("spells", "Spells"),
        ("magic_items", "Magic items"),
        ("kept", "Kept"),
    ):
        names = [item.get("name", "?") for item in party.get(key) or []]
        if names:
            raw.append(_Line(f"{title}: " + ", ".join(names)))
    men = [man for man in view.get("kings_men") or [] if man.get("seat") == party.get("seat")]
    if men:
        places = load_urland().places
        words = []
        for man in men:
            where = places[man["at"]].name if man.get("at") in places else "not placed"
            text = f"#{man.get('number', '?')} {where}"
            if man.get("strength") is not None:
                text += f" (str {man['strength']})"
            if man.get("idle"):
                text += " idle"
            words.append(text)
        leader = men[0].get("leader", "")
        raw.append(_Line(f"King's men{' of ' + leader if leader else ''}: " + ", ".join(words)))
    status = magician.get("status") or ""
    if magician.get("out") and "out of the game" not in status:
        status = "out of the game" + (f"; {status}" if status else "")
    if status:
        raw.append(_Line(status[:1].upper() + status[1:], bold=True, fill=ALERT))
    lines: list[_Line] = []
    for line in raw:
        for index, text in enumerate(_wrap(line.text, line.size, width, line.bold)):
            lines.append(_Line(("   " if index else "") + text, line.size, line.bold, line.fill))
    return lines


def _wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """Lines of ``text`` no wider than ``width`` pixels, broken between words."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if _width(trial, size, bold) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return [_fit(line, size, width, bold) for line in lines]


def _where_text(magician: dict[str, Any]) -> str:
    urland = load_urland()
    where = magician.get("where") or {}
    kind, key = where.get("kind"), where.get("key")
    if kind == "abode":
        return "at home"
    if kind == "sea" and key in urland.seas:
        return f"at sea: {urland.seas[key].name}"
    if kind == "road":
        ends = [urland.places[e].name for e in where.get("road") or [] if e in urland.places]
        return "road " + "\u2013".join(ends)
    if key in urland.places:
        return f"in {urland.places[key].name}"
    return ""


LINE_H = 18
HEAD_H = 26
BLOCK_GAP = 8


def _draw_panel(pen: _Pen, view: dict[str, Any]) -> None:
    """One block per party down the right side; overflowing blocks lose their last lines."""
    left = MAP_W + 12
    width = WIDTH - left - 12
    top = HEADER + 8
    bottom = HEIGHT - 8
    magicians = {m.get("seat"): m for m in view.get("magicians") or []}
    parties = view.get("parties") or []
    blocks = []
    for party in parties:
        magician = magicians.get(party.get("seat"), {})
        blocks.append((party, magician, _party_lines(party, magician, view, width - 8)))
    room = bottom - top - len(blocks) * (HEAD_H + BLOCK_GAP)
    counts = [len(lines) for _, _, lines in blocks]
    while counts and sum(counts) * LINE_H > room and max(counts) > 1:
        counts[counts.index(max(counts))] -= 1
    y = top
    current = view.get("current")
    over = view.get("phase") == "over"
    for (party, magician, lines), count in zip(blocks, counts, strict=True):
        shown = lines[:count]
        if count < len(lines) and shown:
            last = shown[-1]
            text = _fit(last.text, last.size, width - 70, last.bold).removesuffix("…")
            shown[-1] = _Line(text.rstrip(" ,") + " … (more)", last.size, last.bold, MUTED)
        height = HEAD_H + count * LINE_H + 4
        key = party.get("magician") or magician.get("key", "")
        colour = magician_colour(key)
        if party.get("seat") == current and not over:
            pen.rect((left - 6, y - 2, WIDTH - 6, y + height), fill=CURRENT_BAND, radius=6)
            pen.rect((left - 6, y - 2, left - 1, y + height), fill=HIGHLIGHT)
        name = party.get("name") or magician.get("name") or "?"
        _token(pen, (left + 12, y + 12), colour, _initials(name), radius=11)
        faded = bool(magician.get("out"))
        pen.text(
            (left + 30, y + 13),
            name,
            18,
            fill=MUTED if faded else _shade(colour, 0.3),
            bold=True,
            anchor="lm",
        )
        where = _where_text(magician) if not faded else "out"
        name_w = _width(name, 18, True)
        pen.text(
            (WIDTH - 14, y + 13), _fit(where, 15, width - name_w - 44), 15, fill=MUTED, anchor="rm"
        )
        ly = y + HEAD_H
        for line in shown:
            pen.text(
                (left + 4, ly + LINE_H / 2),
                line.text,
                line.size,
                fill=MUTED if faded and line.fill == INK else line.fill,
                bold=line.bold,
                anchor="lm",
            )
            ly += LINE_H
        y += height + BLOCK_GAP
        pen.line(
            ((left, y - BLOCK_GAP / 2 - 1), (WIDTH - 12, y - BLOCK_GAP / 2 - 1)),
            fill=PANEL_EDGE,
            width=1,
        )
