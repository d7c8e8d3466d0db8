"""Where everything goes on the Dragonslayer map: sizes, places, names, sea spots, track.

The map of Urland (sea zones, the island, roads, places, ports, the magicians' abodes, the
boxes of Ulrich and the Dragon Shield, the Dragon Strength Track) comes from the engine's
``urland.json`` through :func:`engines.dragonslayer.model.load_urland`, whose points are in
inches on a 22 by 17 sheet. This module turns them into pixels once per map (names are
placed by searching for free room) and answers where a place, sea spot or box is drawn.
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
from render.common import font
from render.dragonslayer.style import Box, Point

MAP_W, MAP_H = 924, 714  # the 22 x 17 inch sheet at 42 px per inch
HEADER = 80
LEGEND_H = 162  # three rows of symbols, a fourth for the tile counts
PANEL_H = 600  # the parties, in two columns under the map
TEXT = 26
"""The smallest type on the map picture: 11.3 px when a phone shows it 400 px wide (the
picture is portrait and as wide as the map, the parties below it, for that)."""
TOKEN_R = 20  # a magician's disc radius: room for its first initial in TEXT
TILE_HALF = 22  # half a King's man tile: room for an initial and a number in TEXT
FAN_STEP = 48  # centre to centre of pieces fanned out in a row
SYMBOL_HALF = {TOWN: 13, HAMLET: 7, CASTLE: 12, LAIR: 14, MORGENTHORME: 13}
BOX_HALF = (58, 31)
WIDTH = MAP_W
PANEL_TOP = HEADER + MAP_H + LEGEND_H
HEIGHT = PANEL_TOP + PANEL_H
PANEL_W = WIDTH  # the parties' panel spans the picture under the map


class Same:
    """Hashes and compares by identity, so the map object itself can key an lru_cache (the
    loaders hand back the same object until a corrected data file is loaded)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value


@dataclass(frozen=True)
class Label:
    """A place's name: drawn at ``xy`` with Pillow's text ``anchor``."""

    text: str
    xy: Point
    anchor: str
    size: int
    bold: bool


@dataclass(frozen=True, eq=False)
class Layout:
    """Pixel positions (at full size) of everything on the map."""

    urland: Urland
    names: dict[str, str]  # magician key -> name
    map_size: tuple[int, int]
    sea_polygons: dict[str, tuple[Point, ...]]
    coast: tuple[Point, ...]
    places: dict[str, Point]
    labels: dict[str, Label]
    anchors: dict[str, Point]  # port key -> its anchor mark, just offshore
    seas: dict[str, Point]  # sea key -> where magicians at sea stand
    sea_labels: dict[str, Point]
    abodes: dict[str, Point]
    boxes: dict[str, Point]
    track: tuple[Point, ...]
    badges: dict[str, Point]  # place key -> its face-down stack's centre when nobody is there


@lru_cache(maxsize=4)
def build_layout(urland_ref: Same, parties_ref: Same) -> Layout:
    """Where everything goes on the map, worked out once per map (about a second: the
    names and the sea spots are placed by searching for free room, and a sea's name moves
    aside where a magician at sea would otherwise stand over it)."""
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
    track = tuple(_to_px(p) for p in urland.dragon_track)
    sea_labels = _clear_of_track(urland, sea_labels, track, width)
    boxes = _apart(
        _clear_of_seas(
            {key: _to_px(box.at) for key, box in urland.boxes.items()},
            [_sea_label_box(urland.seas[k].name, xy, width) for k, xy in sea_labels.items()],
        )
    )
    sea_polygons = {key: tuple(_to_px(p) for p in sea.polygon) for key, sea in urland.seas.items()}
    anchors: dict[str, Point] = {}
    # The names printed at fixed spots: no place's name may cover one.
    sea_boxes = {k: _sea_label_box(urland.seas[k].name, xy, width) for k, xy in sea_labels.items()}
    printed = list(sea_boxes.values())
    printed += [
        abode_name_box(abode.name, abodes[key], (width, height))
        for key, abode in urland.abodes.items()
    ]
    printed += [track_title_box(track)] if track else []
    printed += [(x - BOX_HALF[0], y - BOX_HALF[1], x + BOX_HALF[0], y + BOX_HALF[1])
                for x, y in boxes.values()]  # fmt: skip
    avoid = list(printed)
    avoid += [(x - 50, y - 44, x + 50, y + 44) for x, y in (*abodes.values(), *boxes.values())]
    avoid += [(x - 26, y - 26, x + 26, y + 26) for x, y in track]
    labels = _place_labels(urland, places, coast, avoid, printed, (width, height))
    # Magicians at sea stand clear of every name, places' too (a current one's ring), but
    # their own sea's, which moves aside for them if it must.
    label_boxes = [label_box(label) for label in labels.values()]
    words = [*label_boxes]
    words += [box for box in printed if box not in sea_boxes.values()]
    fixed = [box for box in avoid if box not in sea_boxes.values()]
    spots_of: dict[str, list[tuple[float, Point]]] = {}
    for key, place in urland.places.items():
        if place.port is None:
            continue
        polygon = list(sea_polygons[place.port])
        others = [box for sea, box in sea_boxes.items() if sea != place.port]
        anchor, candidates = _port_spots(
            places[key], coast, polygon, fixed, (width, height), words + others
        )
        anchors[key] = anchor
        spots_of.setdefault(place.port, candidates or [(0.0, anchor)])
    seas, sea_labels = _sea_spots(
        urland, spots_of, sea_labels, (sea_polygons, coast), words + fixed, (width, height)
    )
    for key in urland.seas:
        seas.setdefault(key, sea_labels[key])
    printed = [_sea_label_box(urland.seas[k].name, xy, width) for k, xy in sea_labels.items()]
    printed += [box for box in words if box not in label_boxes]
    badges = _badges(urland, places, labels, printed, (width, height))
    return Layout(
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
        badges=badges,
    )


def label_box(label: Label) -> Box:
    """Where a place's name is printed."""
    left, top, right, bottom = font(label.size, label.bold).getbbox(label.text, anchor=label.anchor)
    x, y = label.xy
    return (x + left, y + top, x + right, y + bottom)


def _badges(
    urland: Urland,
    places: dict[str, Point],
    labels: dict[str, Label],
    printed: list[Box],
    size: tuple[int, int],
) -> dict[str, Point]:
    """Where each place's face-down stack sits when nothing stands on it: right of its
    symbol, or the first spot around it clear of every name, place and other stack."""
    names: list[Box] = [*printed, *(label_box(label) for label in labels.values())]
    taken: list[Box] = []  # places' symbols and the stacks placed so far
    for key, (x, y) in places.items():
        reach = max(SYMBOL_HALF.get(urland.places[key].kind, 10), TOKEN_R)
        taken.append((x - reach, y - reach, x + reach, y + reach))
    badges: dict[str, Point] = {}
    for key, (x, y) in places.items():
        if not urland.places[key].holds_tiles:
            continue
        reach = max(SYMBOL_HALF.get(urland.places[key].kind, 10), TOKEN_R)
        left, _, right, _ = badge_box((x, y), reach)
        d = (left + right) / 2 - x
        offsets: list[tuple[float, float]] = [
            (d, 0),
            (-d, 0),
            (d - 6, 30),
            (d - 6, -30),
            (6 - d, 30),
            (6 - d, -30),
        ]
        offsets += [(0, d), (0, -d), (d + 12, 0), (-d - 12, 0), (d, 40), (d, -40)]
        offsets += [(-d, 40), (-d, -40), (0, d + 14), (0, -d - 14)]
        best: tuple[float, Point] | None = None
        for rank, (dx, dy) in enumerate(offsets):
            cx, cy = x + dx, y + dy
            box = (cx - 19, cy - 19, cx + 19, cy + 19)
            cost = rank + 10 * sum(_overlap(box, other) for other in names)
            cost += 5 * sum(_overlap(box, other) for other in taken)
            # Nearer its own place than any other, so it is read as that place's.
            near = math.hypot(dx, dy)
            others = (xy for other, xy in places.items() if other != key)
            if any(math.hypot(cx - px, cy - py) < near + 8 for px, py in others):
                cost += 100_000
            if box[0] < 2 or box[2] > size[0] - 2 or box[1] < HEADER + 2:
                cost += 1_000_000
            if box[3] > HEADER + size[1] - 2:
                cost += 1_000_000
            if best is None or cost < best[0]:
                best = (cost, (cx, cy))
        assert best is not None
        badges[key] = best[1]
        bx, by = best[1]
        taken.append((bx - 19, by - 19, bx + 19, by + 19))
    return badges


MARKER_HALF = 25
"""Half the square the Dragon's marker covers on its box of the track (its spikes)."""


def _clear_of_track(
    urland: Urland, sea_labels: dict[str, Point], track: tuple[Point, ...], width: float
) -> dict[str, Point]:
    """The seas' names moved right just clear of the Dragon's marker on any box of the
    track: a sea is a destination, and the marker never lies over its name."""
    moved: dict[str, Point] = {}
    for key, (x, y) in sea_labels.items():
        for tx, ty in track:
            marker = (tx - MARKER_HALF, ty - MARKER_HALF, tx + MARKER_HALF, ty + MARKER_HALF)
            box = _sea_label_box(urland.seas[key].name, (x, y), width)
            if _overlap(box, marker):
                x += marker[2] + 2 - box[0]
        moved[key] = (x, y)
    return moved


def _ring(spot: Point) -> Box:
    """What a current magician at sea covers, its ring included."""
    reach = TOKEN_R + 10
    return (spot[0] - reach, spot[1] - reach, spot[0] + reach, spot[1] + reach)


def _sea_spots(
    urland: Urland,
    spots_of: dict[str, list[tuple[float, Point]]],
    sea_labels: dict[str, Point],
    shapes: tuple[dict[str, tuple[Point, ...]], tuple[Point, ...]],
    words: list[Box],
    size: tuple[int, int],
) -> tuple[dict[str, Point], dict[str, Point]]:
    """Where magicians stand in each sea zone, and where its name is printed: the best spot
    clear of every name, its sea's too (by a current magician there); else the sea's
    name moves to the nearest spot at sea in its zone, clear of every name, abode and
    box, that leaves such a spot."""
    polygons, coast = shapes
    land = _land(coast, size)
    seas: dict[str, Point] = {}
    stuck: list[str] = []
    for key, candidates in spots_of.items():
        label = _sea_label_box(urland.seas[key].name, sea_labels[key], size[0])
        clear = [
            (c, spot) for c, spot in candidates if c < 1000 and not _overlap(_ring(spot), label)
        ]
        if clear:
            seas[key] = min(clear)[1]
        else:
            stuck.append(key)
    labels = dict(sea_labels)
    for key in stuck:
        name, (x, y) = urland.seas[key].name, sea_labels[key]
        others = [
            _sea_label_box(urland.seas[k].name, xy, size[0]) for k, xy in labels.items() if k != key
        ]
        others += [_ring(spot) for spot in seas.values()]
        fine = [(c, spot) for c, spot in spots_of[key] if c < 1000]
        seas[key] = min(spots_of[key])[1]
        options = sorted(
            (dx * dx + dy * dy, dx, dy) for dx in range(-200, 201, 4) for dy in range(-150, 151, 2)
        )
        for _, dx, dy in options:
            spot = (x + dx, y + dy)
            box = _sea_label_box(name, spot, size[0])
            if box[1] < HEADER + 2 or box[3] > HEADER + size[1] - 2:
                continue
            if any(_overlap(box, other) for other in (*words, *others)):
                continue
            if not inside(spot, polygons[key]):
                continue
            ends = ((box[0] + 10, spot[1]), (box[2] - 10, spot[1]), spot)
            if any(land.getpixel((round(ex), round(ey))) for ex, ey in ends):
                continue
            room = [(c, at) for c, at in fine if not _overlap(_ring(at), box)]
            if room:
                seas[key], labels[key] = min(room)[1], spot
                break
    return seas, labels


def _land(coast: tuple[Point, ...], size: tuple[int, int]) -> Image.Image:
    """The island (an "L" image as tall as the map's bottom)."""
    mask = Image.new("L", (size[0], HEADER + size[1]), 0)
    ImageDraw.Draw(mask).polygon(coast, fill=255)
    return mask


def _clear_of_seas(boxes: dict[str, Point], seas: list[Box]) -> dict[str, Point]:
    """The printed boxes (Ulrich, the Dragon Shield) moved right just clear of a sea's
    name."""
    moved: dict[str, Point] = {}
    for key, (x, y) in boxes.items():
        for left, top, right, bottom in seas:
            across = x - BOX_HALF[0] < right and left < x + BOX_HALF[0]
            if across and y - BOX_HALF[1] < bottom and top < y + BOX_HALF[1]:
                x = right + BOX_HALF[0] + 6
        moved[key] = (x, y)
    return moved


def _apart(boxes: dict[str, Point]) -> dict[str, Point]:
    """The printed boxes (Ulrich, the Dragon Shield) moved right just enough that none
    overlaps the one before it in a row: their names are printed large."""
    placed: dict[str, Point] = {}
    for key, (x, y) in sorted(boxes.items(), key=lambda item: item[1]):
        for other_x, other_y in placed.values():
            if abs(other_y - y) < 2 * BOX_HALF[1] and x - other_x < 2 * BOX_HALF[0] + 8:
                x = other_x + 2 * BOX_HALF[0] + 8
        placed[key] = (x, y)
    return {key: placed[key] for key in boxes}


ABODE_NAME_GAP = 27
"""From an abode's centre to its name: clear of a magician at home (its disc and ring)."""


def abode_name_box(name: str, xy: Point, map_size: tuple[int, int]) -> Box:
    """Where an abode's name is printed: under its tower in the map's upper half, above it
    in the lower half, on one line or two."""
    x, y = xy
    one_line = font(TEXT, True).getlength(name) + 8 < 2 * min(x, map_size[0] - x)
    lines = [name] if one_line else name.rsplit(" ", 1)
    half = max(font(TEXT, True).getlength(line) for line in lines) / 2 + 4
    x = min(max(x, half), map_size[0] - half)
    tall = ABODE_NAME_GAP + len(lines) * (TEXT + 2) + 2
    if y < HEADER + map_size[1] / 2:
        return (x - half, y + ABODE_NAME_GAP - 4, x + half, y + tall)
    return (x - half, y - tall, x + half, y - ABODE_NAME_GAP + 4)


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


def inside(point: Point, polygon: tuple[Point, ...] | list[Point]) -> bool:
    """Even-odd test of ``point`` against a closed polygon."""
    x, y = point
    within = False
    for (x1, y1), (x2, y2) in pairwise((*polygon, polygon[0])):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            within = not within
    return within


def _overlap(a: Box, b: Box) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def _sea_label_box(name: str, xy: Point, map_width: float) -> Box:
    """Where a sea zone's name is printed: on its spot, kept inside the map's width."""
    half = font(TEXT, True).getlength(name) / 2 + 4
    x = min(max(xy[0], half), map_width - half)
    return (x - half, xy[1] - 17, x + half, xy[1] + 17)


def track_title_box(track: tuple[Point, ...]) -> Box:
    """Where the Dragon Strength Track's title is printed: above its first boxes."""
    x, y = track[0]
    width = font(TEXT, True).getlength("Dragon strength")
    return (x - 23, y - 27 - TEXT, x - 19 + width, y - 25)


def _port_spots(
    port: Point,
    coast: tuple[Point, ...],
    sea: list[Point],
    avoid: list[Box],
    size: tuple[int, int],
    words: list[Box],
) -> tuple[Point, list[tuple[float, Point]]]:
    """The anchor mark (just offshore, toward the port's sea zone) and the spots in the sea
    zone where magicians at sea may be drawn, by cost: near the anchor, wholly at sea, clear
    of boxes and the map's edge, and under 1000 when clear of every name in ``words`` (a
    current magician's ring included)."""
    centre = (sum(x for x, _ in coast) / len(coast), sum(y for _, y in coast) / len(coast))
    base = math.atan2(port[1] - centre[1], port[0] - centre[0])
    anchor: Point | None = None
    for turn in (0, 20, -20, 40, -40, 60, -60, 80, -80):
        angle = base + math.radians(turn)
        dx, dy = math.cos(angle), math.sin(angle)
        step = 0.0
        while step < 600 and inside((port[0] + dx * step, port[1] + dy * step), coast):
            step += 2
        point = (port[0] + dx * (step + 10), port[1] + dy * (step + 10))
        if anchor is None:
            anchor = point  # the fallback when no direction reaches the sea zone
        box = (point[0] - 13, point[1] - 13, point[0] + 13, point[1] + 13)
        if inside(point, sea) and not any(_overlap(box, other) for other in avoid):
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
            if not inside(spot, sea):
                continue
            box = (spot[0] - reach, spot[1] - reach, spot[0] + reach, spot[1] + reach)
            cost = distance / 6 + sum(_overlap(box, other) for other in avoid) / 8
            cost += 1000 * any(_overlap(_ring(spot), word) for word in words)
            if min(segment_distance(spot, a, b) for a, b in borders) < reach:
                cost += 40  # astride the line to the next sea zone
            candidates.append((cost, spot))
    return anchor, candidates


def segment_distance(point: Point, a: Point, b: Point) -> float:
    """Distance from ``point`` to the segment from ``a`` to ``b``."""
    (px, py), (ax, ay), (bx, by) = point, a, b
    length = (bx - ax) ** 2 + (by - ay) ** 2
    along = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length if length else 0.0
    t = max(0.0, min(1.0, along))
    return math.hypot(px - ax - t * (bx - ax), py - ay - t * (by - ay))


def _label_style(kind: str) -> tuple[int, bool]:
    if kind == TOWN:
        return TEXT + 1, True
    if kind in (LAIR, MORGENTHORME):
        return TEXT, True
    return TEXT, False


def _place_labels(
    urland: Urland,
    places: dict[str, Point],
    coast: tuple[Point, ...],
    avoid: list[Box],
    printed: list[Box],
    size: tuple[int, int],
) -> dict[str, Label]:
    """Each place's name beside it, where it covers the fewest other names, symbols, piece
    spots and roads, never another name or place if it can help it (greedy: towns first,
    then the Lair and Morgenthorme, then the data file's order)."""
    fixed: list[Box] = list(avoid)
    for key, (x, y) in places.items():
        reach = max(SYMBOL_HALF.get(urland.places[key].kind, 10), TOKEN_R) + 2
        fixed.append((x - reach, y - reach, x + reach, y + reach))
        if urland.places[key].holds_tiles:
            fixed.append(badge_box((x, y), reach - 2))
    # Where pieces fan out when two or three share a place: names should stay clear of it.
    fan = FAN_STEP * 1.5
    fans = {key: (x - fan, y - TOKEN_R, x + fan, y + TOKEN_R) for key, (x, y) in places.items()}
    # Where a magician on a road stands: a third of the way along it, from either end.
    reach = TOKEN_R + 2
    for road in urland.roads:
        for start, end in ((road.a, road.b), (road.b, road.a)):
            (x1, y1), (x2, y2) = places[start], places[end]
            sx, sy = x1 + (x2 - x1) / 3, y1 + (y2 - y1) / 3
            fans[f"road:{start}:{end}"] = (sx - reach, sy - reach, sx + reach, sy + reach)
    samples: list[Point] = []
    for road in urland.roads:
        (x1, y1), (x2, y2) = places[road.a], places[road.b]
        count = max(2, int(math.hypot(x2 - x1, y2 - y1) / 4))
        samples += [(x1 + (x2 - x1) * i / count, y1 + (y2 - y1) * i / count) for i in range(count)]
    samples += list(coast)
    # Towns first, then the Lair and Morgenthorme, then the rest in the data file's order.
    rank = {TOWN: 0, LAIR: 1, MORGENTHORME: 1}
    order = sorted(urland.places, key=lambda k: rank.get(urland.places[k].kind, 2))
    # A name that found no free room goes first on the next try (a few tries at most).
    for _ in range(6):
        labels, crowded = _place_in_order(
            urland, places, fixed, fans, samples, order, size, printed
        )
        if not crowded:
            break
        order = [*crowded, *(key for key in order if key not in crowded)]
    return labels


def _place_in_order(
    urland: Urland,
    places: dict[str, Point],
    fixed: list[Box],
    fans: dict[str, Box],
    samples: list[Point],
    order: list[str],
    size: tuple[int, int],
    printed: list[Box],
) -> tuple[dict[str, Label], list[str]]:
    """Names placed greedily in ``order``, and those that had to overlap another name or
    place."""
    hard = list(fixed)
    crowded: list[str] = []
    labels: dict[str, Label] = {}
    placed: list[Box] = list(printed)  # names already there: never overlap one
    for key in order:
        place = urland.places[key]
        x, y = places[key]
        size_px, bold = _label_style(place.kind)
        face = font(size_px, bold)
        # Above or below first: pieces fan out sideways, so a name beside its place would
        # be covered as soon as two pieces stand there.
        side = 22 if not place.holds_tiles else 58
        candidates = (
            ("mt", (0, 21), 0),
            ("mb", (0, -21), 0.5),
            ("lt", (10, 20), 1),
            ("rt", (-10, 20), 1),
            ("lb", (10, -20), 1.5),
            ("rb", (-10, -20), 1.5),
            ("lm", (side, 0), 8),
            ("rm", (-22, 0), 8),
            ("lt", (14, 28), 3),
            ("rt", (-14, 28), 3),
            ("lb", (14, -28), 3.5),
            ("rb", (-14, -28), 3.5),
            ("mt", (0, 34), 5),
            ("mb", (0, -34), 5),
            ("lm", (side, 22), 9),
            ("lm", (side, -22), 9),
            ("rm", (-22, 22), 9),
            ("rm", (-22, -22), 9),
            ("mt", (0, 46), 12),
            ("mb", (0, -46), 12),
            ("lt", (20, 40), 13),
            ("rt", (-20, 40), 13),
            ("lb", (20, -40), 13),
            ("rb", (-20, -40), 13),
            ("lm", (side, 36), 14),
            ("lm", (side, -36), 14),
            ("rm", (-22, 36), 14),
            ("rm", (-22, -36), 14),
            ("mt", (0, 56), 16),
            ("mb", (0, -56), 16),
        )
        others = [box for other, box in fans.items() if other != key]
        # The row of up to four pieces on the place itself and the stack right of it.
        own = (x - 2 * FAN_STEP, y - TOKEN_R - 1, x + 2 * FAN_STEP + 2 * TOKEN_R, y + TOKEN_R + 1)
        nearby = [(sx, sy) for sx, sy in samples if abs(sx - x) < 160 and abs(sy - y) < 60]
        best: tuple[float, Label, Box] | None = None
        for anchor, (dx, dy), rank in candidates:
            xy = (x + dx, y + dy)
            left, top, right, bottom = face.getbbox(place.name, anchor=anchor)
            box = (xy[0] + left - 2, xy[1] + top - 2, xy[0] + right + 2, xy[1] + bottom + 2)
            area = (box[2] - box[0]) * (box[3] - box[1])
            cost = rank
            cost += 400 * sum(_overlap(box, other) for other in hard) / area
            cost += 1000 * any(_overlap(box, other) > 0 for other in placed)
            cost += 1000 * (_overlap(box, own) > 0)
            cost += 1000 * any(
                box[0] < px < box[2] and box[1] < py < box[3]
                for other, (px, py) in places.items()
                if other != key
            )
            cost += 60 * sum(_overlap(box, other) for other in others) / area
            cost += sum(1 for sx, sy in nearby if box[0] < sx < box[2] and box[1] < sy < box[3])
            if box[0] < 2 or box[2] > size[0] - 2 or box[1] < HEADER + 2:
                cost += 10_000
            if box[3] > HEADER + size[1] - 2:
                cost += 10_000
            if best is None or cost < best[0]:
                best = (cost, Label(place.name, xy, anchor, size_px, bold), box)
        assert best is not None
        labels[key] = best[1]
        hard.append(best[2])
        placed.append(best[2])
        if best[0] >= 1000:
            crowded.append(key)
    return labels, crowded


def badge_box(centre: Point, reach: float) -> Box:
    """Where a place's face-down stack sits when nothing stands on it (right of its symbol)."""
    x, y = centre
    return (x + reach + 2, y - 17, x + reach + 38, y + 17)


def place_xy(key: str) -> Point:
    """Pixel centre of place ``key`` in the picture."""
    return current_layout().places[key]


def sea_xy(key: str) -> Point:
    """Where magicians in sea zone ``key`` are drawn."""
    return current_layout().seas[key]


def abode_xy(key: str) -> Point:
    """Pixel centre of abode ``key`` (the magician's key)."""
    return current_layout().abodes[key]


def track_xy(strength: int) -> Point:
    """Pixel centre of box ``strength`` of the Dragon Strength Track."""
    return current_layout().track[strength]


def box_xy(key: str) -> Point:
    """Pixel centre of map box ``key`` (``"ulrich"`` or ``"dragon_shield"``)."""
    return current_layout().boxes[key]


def face_down_xy(key: str) -> Point:
    """Pixel centre of the face-down stack of place ``key`` when no piece stands there."""
    return current_layout().badges[key]


def current_layout() -> Layout:
    return build_layout(Same(load_urland()), Same(load_parties()))


def place_reach(layout: Layout, key: str) -> float:
    return max(SYMBOL_HALF.get(layout.urland.places[key].kind, 10), TOKEN_R)


@lru_cache(maxsize=4)
def printed_words(layout: Layout) -> tuple[Box, ...]:
    """The boxes of every word printed on the map itself, which no piece may lie over: the
    places', seas' and abodes' names, the track's title and numbers, the printed boxes."""
    urland, (width, _) = layout.urland, layout.map_size
    boxes = [label_box(label) for label in layout.labels.values()]
    boxes += [_sea_label_box(urland.seas[k].name, xy, width) for k, xy in layout.sea_labels.items()]
    boxes += [
        abode_name_box(abode.name, layout.abodes[key], layout.map_size)
        for key, abode in urland.abodes.items()
    ]
    boxes += [track_title_box(layout.track)] if layout.track else []
    boxes += [(x - 21, y - 19, x + 21, y + 19) for x, y in layout.track]
    boxes += [(x - BOX_HALF[0], y - BOX_HALF[1], x + BOX_HALF[0], y + BOX_HALF[1])
              for x, y in layout.boxes.values()]  # fmt: skip
    return tuple(boxes)


@lru_cache(maxsize=4)
def land(layout: Layout) -> Image.Image:
    """The island and its shore (an "L" image as tall as the map's bottom): a piece whose
    centre is off it stands at sea, most of it off the island."""
    mask = Image.new("L", (MAP_W, HEADER + MAP_H), 0)
    shore = ImageDraw.Draw(mask)
    shore.polygon(layout.coast, fill=255)
    shore.line((*layout.coast, layout.coast[0]), fill=255, width=2 * TOKEN_R // 2)
    return mask
