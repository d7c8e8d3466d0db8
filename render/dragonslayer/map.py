"""The map of Urland with the pieces of a public view of Dragonslayer.

The static map (:mod:`render.dragonslayer.board`, laid out by
:mod:`render.dragonslayer.layout`) with the view's pieces on it: magicians as discs in their
colour with their initials, King's men as square tiles with a crown and their number (and
strength once revealed), stacks of face-down tiles with their count, the Dragon's marker on
the track, the last move's path, the weapons abandoned in the Lair; the header and the side
panel come from :mod:`render.dragonslayer.panel`. No piece lies over a word printed on the
map: pieces without room on their spot stand aside, a line from the spot reaching them, and
the last move's path and those lines pass under the words.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from i18n import Locale, said, write
from render.common import INK, fit
from render.dragonslayer.battle import location_names, short_place
from render.dragonslayer.board import (
    background,
    box_name,
    kings_man,
    stack,
    strength_badge,
    token,
)
from render.dragonslayer.layout import (
    BOX_HALF,
    FAN_STEP,
    HEADER,
    MAP_H,
    MAP_W,
    TEXT,
    TILE_HALF,
    TOKEN_R,
    Layout,
    current_layout,
    land,
    place_reach,
    printed_words,
    segment_distance,
)
from render.dragonslayer.layout import inside as within
from render.dragonslayer.panel import draw_header, draw_panel, panel_columns, picture_height
from render.dragonslayer.style import (
    BOX_GOLD,
    DRAGON,
    EYES,
    FALLBACK_COLOUR,
    HIGHLIGHT,
    MUTED,
    NOTE_PAPER,
    WHITE,
    Box,
    Colour,
    Pen,
    Point,
    initials,
    magician_colour,
    text_width,
    wrap,
)
from render.marks import overlap


def map_picture(view: dict[str, Any], locale: Locale = "en") -> Image.Image:
    """The map of Urland with the view's pieces, header, panel and abandoned weapons, the
    words in ``locale``."""
    layout = current_layout()
    columns = panel_columns(view, locale)
    image = background(layout, locale).crop((0, 0, MAP_W, picture_height(columns)))
    pen = Pen(image, 1)
    _draw_boxes(pen, layout, view.get("boxes") or {})
    _draw_dragon(pen, layout, (view.get("dragon") or {}).get("strength"))
    _draw_path(pen, layout, view.get("last"))
    _draw_spots(pen, layout, view)
    draw_header(pen, view, locale)
    draw_panel(pen, view, columns, locale)
    _draw_tile_counts(pen, view, locale)
    _draw_abandoned(pen, view.get("abandoned"), locale)
    return image


@dataclass(frozen=True)
class _Piece:
    kind: str  # "magician" or "kings_man"
    colour: Colour
    label: str = ""
    number: int = 0
    strength: int | None = None
    idle: bool = False
    current: bool = False


def _owner_letter(layout: Layout, man: dict[str, Any], magicians: list[dict[str, Any]]) -> str:
    """The first letter of the name of the magician a King's man serves (so its owner shows
    without colour), or "" when the view does not say."""
    key = man.get("magician")
    if not key:
        key = next((m.get("key") for m in magicians if m.get("seat") == man.get("seat")), None)
    name = next((m.get("name") for m in magicians if m.get("key") == key and m.get("name")), None)
    name = name or layout.names.get(key or "", "")
    return name[:1].upper()


def _magician_spot(layout: Layout, where: dict[str, Any]) -> tuple[str, Point] | None:
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


@dataclass
class Spot:
    """Pieces standing together: their spot's ``centre``, each piece's ``cells`` centre,
    where the place's face-down stack is drawn with its count (``None``: no stack), and
    where a line from the spot reaches them when they had to stand off it (``None``: they
    stand on it or beside it)."""

    centre: Point
    pieces: tuple[_Piece, ...]
    cells: list[Point]
    stack: tuple[Point, int] | None
    leader: Point | None = None


def spots(layout: Layout, view: dict[str, Any]) -> list[Spot]:
    """Everything standing on the map: King's men, magicians, face-down stacks, fanned out
    in a row per spot (two rows when crowded) with the stack right of the row; where that
    would lie over any word printed on the map (a place's, sea's or abode's name, the
    track, the boxes), the nearest layout clear of every word, a line from the spot
    reaching the pieces when they stand off it (:func:`_arranged`)."""
    found: dict[str, tuple[Point, list[_Piece]]] = {}
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
            label=_owner_letter(layout, man, magicians),
            number=int(man.get("number") or 0),
            strength=man.get("strength"),
            idle=bool(man.get("idle")),
            current=view.get("phase") == "kings_men" and man.get("seat") == current,
        )
        found.setdefault(f"place:{at}", (layout.places[at], []))[1].append(piece)
    phase = view.get("phase")
    for magician in magicians:
        if magician.get("out"):
            continue
        where = _magician_spot(layout, magician.get("where") or {})
        if where is None:
            continue
        name = magician.get("name") or layout.names.get(magician.get("key", ""), "?")
        piece = _Piece(
            "magician",
            magician_colour(magician.get("key", "")),
            label=initials(name)[:1],  # the first initial: the four differ
            current=phase in ("magician", "answer") and magician.get("seat") == current,
        )
        found.setdefault(where[0], (where[1], []))[1].append(piece)
    face_down = view.get("face_down") or {}
    for key, count in face_down.items():
        if key in layout.places and count:
            found.setdefault(f"place:{key}", (layout.places[key], []))
    groups = []
    for spot_key, (centre, pieces) in found.items():
        key = spot_key.split(":", 1)[1] if spot_key.startswith("place:") else ""
        count = int(face_down.get(key) or 0) if key else 0
        groups.append(_Group(spot_key, centre, tuple(pieces), count, layout.badges.get(key)))
    keep_off = [*printed_words(layout)]
    bottom = abandoned_bottom(view.get("abandoned"))
    if bottom is not None:
        keep_off.append((*ABANDONED_BOX[:3], bottom))
    return list(_arranged(layout, tuple(groups), tuple(keep_off)))


def _square(centre: Point, half: float) -> Box:
    x, y = centre
    return (x - half, y - half, x + half, y + half)


STACK_HALF = 17
"""Half the square a face-down stack covers."""


def piece_boxes(piece: _Piece, cell: Point) -> list[Box]:
    """What a piece standing at ``cell`` covers: its disc or tile, the current one's ring,
    a revealed King's man's strength on its corner."""
    if piece.kind == "magician":
        return [_square(cell, TOKEN_R + (10 if piece.current else 2))]
    boxes = [_square(cell, TILE_HALF + (6 if piece.current else 1))]
    if piece.strength is not None:
        boxes.append(_square((cell[0] + TILE_HALF, cell[1] - TILE_HALF), 15))
    return boxes


def spot_boxes(spot: Spot) -> list[Box]:
    """What the pieces and the face-down stack of ``spot`` cover."""
    boxes = [box for p, c in zip(spot.pieces, spot.cells, strict=True) for box in piece_boxes(p, c)]
    if spot.stack is not None:
        boxes.append(_square(spot.stack[0], STACK_HALF))
    return boxes


@dataclass(frozen=True)
class _Group:
    """The pieces at one spot before they are laid out, with the count of the place's
    face-down tiles and where its stack sits when nobody stands there."""

    key: str
    centre: Point
    pieces: tuple[_Piece, ...]
    count: int
    badge: Point | None


STACK_STEP = TOKEN_R + 20
"""From the last piece of a row to the face-down stack beside it."""
CORNER = 38
"""Across and down from a piece to a face-down stack at its corner, just clear of it."""
REACH = 96
"""How far a spot's pieces may be moved off it to leave every name clear; a crowd of more
than two, :data:`REACH_MORE` farther for each piece more (at most :data:`REACH_MOST`)."""
REACH_MORE = 32
REACH_MOST = 224


def _reach(group: _Group) -> int:
    cells = len(group.pieces) + bool(group.count)
    return min(REACH_MOST, REACH + REACH_MORE * max(0, cells - 2))


def _shapes(count: int, stack: bool) -> list[tuple[float, list[Point], Point | None]]:
    """The ways ``count`` pieces (and a face-down stack) may be laid out round (0, 0), each
    with how unusual it is: a row (two rows over four), then rows of other widths (at most
    four deep); the stack right of the first row, else left of it, under or over the
    pieces, or at a corner."""
    widths = [count if count <= 4 else math.ceil(count / 2)] if count else [0]
    widths += [w for w in range(1, count + 1) if w != widths[0] and w * 4 >= count]
    shapes: list[tuple[float, list[Point], Point | None]] = []
    for rank, width in enumerate(widths):
        if not count:
            cells: list[Point] = []
        else:
            rows = math.ceil(count / width)
            cells = []
            for i in range(count):
                row, column = divmod(i, width)
                in_row = min(width, count - row * width)
                cells.append(
                    ((column - (in_row - 1) / 2) * FAN_STEP, (row - (rows - 1) / 2) * FAN_STEP)
                )
        if not stack:
            shapes.append((12 * rank, cells, None))
            continue
        if not cells:
            shapes.append((0, cells, (0.0, 0.0)))
            continue
        left = min(x for x, _ in cells)
        right = max(x for x, _ in cells)
        top = min(y for _, y in cells)
        low = max(y for _, y in cells)
        first = [x for x, y in cells if y == top]
        last = [x for x, y in cells if y == low]
        slots = [
            (max(first) + STACK_STEP, top),
            (min(first) - STACK_STEP, top),
            (max(last) + STACK_STEP, low),
            (min(last) - STACK_STEP, low),
            (right, low + STACK_STEP),
            (left, low + STACK_STEP),
            (right, top - STACK_STEP),
            (left, top - STACK_STEP),
            (max(first) + CORNER, top - CORNER),
            (max(last) + CORNER, low + CORNER),
            (min(first) - CORNER, top - CORNER),
            (min(last) - CORNER, low + CORNER),
        ]
        shapes += [(12 * rank + 2 * index, cells, slot) for index, slot in enumerate(slots)]
    return shapes


FRAME = (2, HEADER + 2, MAP_W - 2, HEADER + MAP_H - 2)
"""Where pieces may lie: the map, inside its border."""


@dataclass
class _Room:
    """What lies round one spot: the words no piece may cover, the pieces laid out before
    (and where those still to come would usually stand), other places' symbols, and the
    other places a piece should stand farther from than from its own."""

    centre: Point
    own: bool
    road: tuple[Point, Point] | None
    land: Image.Image | None
    zone: tuple[Point, ...]
    words: list[Box]
    pieces: list[Box]
    usual: list[Box]
    symbols: list[Box]
    places: list[Point]

    def cost(self, spot: Spot, limit: float) -> float:
        """How bad a layout is (0 when clear), or at least ``limit`` once that is passed."""
        total = 0.0
        for box in spot_boxes(spot):
            if box[0] < FRAME[0] or box[1] < FRAME[1] or box[2] > FRAME[2] or box[3] > FRAME[3]:
                return limit + 1_000_000
            if any(overlap(box, word) for word in self.words):
                return limit + 1_000_000
            total += 10_000 * sum(overlap(box, other) for other in self.pieces)
            total += 60 * sum(overlap(box, other) for other in self.usual)
            total += 2000 * sum(overlap(box, symbol) for symbol in self.symbols)
            if total >= limit:
                return total
        if self.land is not None:
            # At sea, wholly off the island.
            for x, y in spot.cells:
                inside = 0 <= x < self.land.width and 0 <= y < self.land.height
                if inside and self.land.getpixel((int(x), int(y))):
                    return limit + 1_000_000
                if self.zone and not within((x, y), self.zone):
                    return limit + 1_000_000  # and in its own sea zone
        if self.own or self.road:
            # Each piece nearer its own place (or road) than any place: read as its.
            cx, cy = self.centre
            stack = [spot.stack[0]] if spot.stack else []
            for x, y in (*spot.cells, *stack):
                if self.road:
                    mine = segment_distance((x, y), *self.road) ** 2
                else:
                    mine = (x - cx) ** 2 + (y - cy) ** 2
                if any((x - px) ** 2 + (y - py) ** 2 < mine for px, py in self.places):
                    total += 300
        return total


def _road(layout: Layout, group: _Group) -> tuple[Point, Point] | None:
    """The ends of the road a group stands on, or ``None`` off a road."""
    kind, _, ends = group.key.partition(":")
    start, _, end = ends.partition(":")
    if kind != "road" or start not in layout.places or end not in layout.places:
        return None
    return layout.places[start], layout.places[end]


def _usual(group: _Group) -> Spot:
    """A group as it usually stands: a row on its spot (two rows over four pieces) with
    the stack right of it, or the stack alone beside its place."""
    cells = _fan(group.centre, len(group.pieces))
    stack: Point | None = None
    if group.count and group.pieces:
        stack = (max(x for x, _ in cells) + STACK_STEP, cells[0][1])
    elif group.count:
        stack = group.badge or (group.centre[0] + STACK_STEP, group.centre[1])
    return Spot(group.centre, group.pieces, cells, (stack, group.count) if stack else None)


@lru_cache(maxsize=8)
def _arranged(
    layout: Layout, groups: tuple[_Group, ...], keep_off: tuple[Box, ...]
) -> tuple[Spot, ...]:
    """Each group as it usually stands (:func:`_usual`); where that would lie over a name,
    over the map's edge or over pieces laid out before, the nearest layout that is clear
    (the most crowded spots first)."""
    symbols = {key: _square(xy, place_reach(layout, key) - 4) for key, xy in layout.places.items()}
    usual = [_usual(group) for group in groups]
    taken: list[Box] = []
    laid: dict[int, Spot] = {}
    # The most pieces first; a lone stack, the easiest to move, after every piece.
    order = sorted(
        range(len(groups)), key=lambda i: -(2 * len(groups[i].pieces) + bool(groups[i].count))
    )
    for step, index in enumerate(order):
        group = groups[index]
        cx, cy = group.centre
        own = group.key.split(":", 1)[1] if group.key.startswith("place:") else None
        span = _reach(group) + FAN_STEP * 4
        near = (cx - span, cy - span, cx + span, cy + span)
        later = [box for i in order[step + 1 :] for box in spot_boxes(usual[i])]
        road = _road(layout, group)
        room = _Room(
            group.centre,
            own is not None,
            road,
            land(layout) if group.key.startswith("sea:") else None,
            layout.sea_polygons.get(group.key.partition(":")[2], ()),
            [box for box in keep_off if overlap(box, near)],
            [box for box in taken if overlap(box, near)],
            [box for box in later if overlap(box, near)],
            [box for key, box in symbols.items() if key != own and overlap(box, near)],
            [xy for key, xy in layout.places.items() if key != own and overlap((*xy, *xy), near)],
        )
        best_spot = usual[index]
        best = room.cost(best_spot, 1_000_000_000)
        if best >= 150:
            best, best_spot = _search(layout, group, room, best, best_spot, road)
        # Off its spot, past touching it: a line from the spot reaches the nearest piece.
        ends = [*best_spot.cells, *([best_spot.stack[0]] if best_spot.stack else [])]
        nearest = min(ends, key=lambda end: math.dist(end, group.centre))
        touch = (place_reach(layout, own) if own else 0) + TOKEN_R + 8
        touch += 0 if group.pieces else 24  # a stack alone sits a little off, as usual
        if math.dist(nearest, group.centre) > touch:
            best_spot.leader = nearest
        laid[index] = best_spot
        taken += spot_boxes(best_spot)
    return tuple(laid[index] for index in range(len(groups)))


def _search(
    layout: Layout,
    group: _Group,
    room: _Room,
    best: float,
    best_spot: Spot,
    road: tuple[Point, Point] | None,
) -> tuple[float, Spot]:
    """The cheapest layout of ``group`` within its reach (:func:`_reach`): the fewest
    pieces over another's, the nearest its spot (on a road, the nearest along it), the
    most usual shape."""
    cx, cy = group.centre
    own = group.key.split(":", 1)[1] if group.key.startswith("place:") else None
    beside = (place_reach(layout, own) if own else TOKEN_R) + STACK_HALF + 4
    ux, uy, length = 0.0, 0.0, 0.0
    if road is not None:
        (x1, y1), (x2, y2) = road
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
    candidates = []
    reach = _reach(group)
    steps = range(-reach, reach + 1, 8 if reach <= 160 else 12)
    for rank, shape, slot in _shapes(len(group.pieces), bool(group.count)):
        for dx in steps:
            for dy in steps:
                far = math.hypot(dx, dy)
                if road is not None:
                    # Along its road first, short of either end's symbol.
                    along = dx * ux + dy * uy
                    low, high = 25 - length / 3, 2 * length / 3 - 25
                    off = max(0.0, low - along, along - high)
                    far = abs(along) / 2 + 2 * abs(dy * ux - dx * uy) + 4 * off
                # A lone stack sits beside its place's symbol, not on it.
                base = 2 * abs(far - beside) if not shape else 2 * far + rank
                if base < best:
                    candidates.append((base, rank, dx, dy, shape, slot))
    candidates.sort(key=lambda c: c[:4])
    for base, _, dx, dy, shape, slot in candidates:
        if base >= best:
            break
        stack = (cx + slot[0] + dx, cy + slot[1] + dy) if slot is not None else None
        trial = Spot(
            group.centre,
            group.pieces,
            [(cx + x + dx, cy + y + dy) for x, y in shape],
            (stack, group.count) if stack is not None else None,
        )
        total = base + room.cost(trial, best - base)
        if total < best:
            best, best_spot = total, trial
    return best, best_spot


def _draw_spots(pen: Pen, layout: Layout, view: dict[str, Any]) -> None:
    """The pieces of :func:`spots`: rings round the current ones, then the pieces, their
    strengths and the face-down stacks; first the lines to pieces standing off their spot
    (passing under every printed word)."""
    for spot in spots(layout, view):
        if spot.leader is not None:
            _under_words(pen, layout, [spot.centre, spot.leader], _draw_leader)
    for spot in spots(layout, view):
        for piece, cell in zip(spot.pieces, spot.cells, strict=True):
            if piece.current and piece.kind == "magician":
                pen.circle(cell, TOKEN_R + 7, outline=HIGHLIGHT, width=5)
                pen.circle(cell, TOKEN_R + 10, outline=INK, width=1.5)
            elif piece.current:
                edge = TILE_HALF + 6
                box = (cell[0] - edge, cell[1] - edge, cell[0] + edge, cell[1] + edge)
                pen.rect(box, outline=HIGHLIGHT, width=5, radius=4)
            if piece.kind == "magician":
                token(pen, cell, piece.colour, piece.label)
            else:
                kings_man(pen, cell, piece.colour, piece.number, piece.idle, piece.label)
        for piece, cell in zip(spot.pieces, spot.cells, strict=True):
            if piece.kind == "kings_man" and piece.strength is not None:
                strength_badge(pen, (cell[0] + TILE_HALF, cell[1] - TILE_HALF), piece.strength)
        if spot.stack is not None:
            stack(pen, *spot.stack)


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


def _path_point(layout: Layout, key: str) -> Point | None:
    if key in layout.places:
        return layout.places[key]
    if key in layout.seas:
        return layout.seas[key]
    if key in layout.abodes:
        return layout.abodes[key]
    return None


def path_points(layout: Layout, last: dict[str, Any] | None) -> list[Point]:
    """The points of the last move's route on the map (none without a last move)."""
    if not last:
        return []
    return [p for p in (_path_point(layout, key) for key in last.get("path") or []) if p]


def knockouts(layout: Layout) -> list[Box]:
    """Where the last move's route is left out, so that every word printed on the map reads
    over it: each word's box with its halo."""
    return [(a - 3, b - 3, c + 3, d + 3) for a, b, c, d in printed_words(layout)]


def _draw_path(pen: Pen, layout: Layout, last: dict[str, Any] | None) -> None:
    """The last move's route as a thick yellow line with a ring at its end, passing under
    every printed word (left out where one is)."""
    points = path_points(layout, last)
    if points:
        _under_words(pen, layout, points, _draw_route)


def _under_words(
    pen: Pen, layout: Layout, points: list[Point], draw: Callable[[Pen, list[Point]], None]
) -> None:
    """What ``draw`` draws along ``points`` (within a piece's reach of them), left out
    where a word is printed on the map (:func:`knockouts`): the word reads over it."""
    reach = TOKEN_R + 20
    xs, ys = [x for x, _ in points], [y for _, y in points]
    route = (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)
    holes = [box for box in knockouts(layout) if overlap(box, route)]
    regions = [(math.floor(a), math.floor(b), math.ceil(c), math.ceil(d)) for a, b, c, d in holes]
    under = [pen.image.crop(region) for region in regions]
    draw(pen, points)
    for region, kept in zip(regions, under, strict=True):
        pen.image.paste(kept, region[:2])


LEADER_WIDTH = 3


def _draw_leader(pen: Pen, points: list[Point]) -> None:
    """A dark line from a spot to its pieces standing off it, a dot on the spot."""
    pen.line(points, fill=INK, width=LEADER_WIDTH)
    pen.circle(points[0], 5, fill=INK)


def _draw_route(pen: Pen, points: list[Point]) -> None:
    if len(points) > 1:
        pen.line(points, fill=INK, width=11, curve=True)
        pen.line(points, fill=HIGHLIGHT, width=7, curve=True)
    for point in points[:-1]:
        pen.circle(point, 6, fill=HIGHLIGHT, outline=INK, width=1.5)
    pen.circle(points[-1], TOKEN_R + 9, outline=INK, width=9)
    pen.circle(points[-1], TOKEN_R + 9, outline=HIGHLIGHT, width=6)


def _draw_boxes(pen: Pen, layout: Layout, boxes: dict[str, Any]) -> None:
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
                fill=BOX_GOLD,
                outline=INK,
                width=2,
                radius=4,
            )
            box_name(pen, (x, y), name, INK)
        else:
            pen.line(((x - hx + 6, y + hy - 6), (x + hx - 6, y - hy + 6)), fill=MUTED, width=2)


def _draw_dragon(pen: Pen, layout: Layout, strength: Any) -> None:
    """Vermithrax's marker: a dark red spiky disc with yellow eyes on its track box."""
    if not isinstance(strength, int) or not layout.track:
        return
    x, y = layout.track[max(0, min(strength, len(layout.track) - 1))]
    spikes = []
    for i in range(16):
        r = 24 if i % 2 == 0 else 16
        angle = i * math.pi / 8
        spikes.append((x + r * math.sin(angle), y - r * math.cos(angle)))
    pen.polygon(spikes, fill=DRAGON, outline=INK, width=1.5)
    pen.circle((x, y), 14, fill=DRAGON)
    for dx in (-6, 6):
        pen.circle((x + dx, y - 9), 3, fill=EYES)
    pen.text((x, y + 3), str(strength), TEXT, fill=WHITE, bold=True, halo=INK, halo_width=1.5)


def _draw_tile_counts(pen: Pen, view: dict[str, Any], locale: Locale) -> None:
    """Under the legend: tiles removed from play and tiles set aside unseen."""
    bits = []
    if isinstance(view.get("removed"), int):
        bits.append(write(said("Tiles removed {count}", count=view["removed"]), locale))
    if isinstance(view.get("set_aside"), int):
        bits.append(write(said("set aside {count}", count=view["set_aside"]), locale))
    if bits:
        y = HEADER + MAP_H + 21 + 3 * 40
        line = fit(" \u00b7 ".join(bits), TEXT, MAP_W - 32)
        pen.text((16, y), line, TEXT, fill=MUTED, anchor="lm")


ABANDONED_BOX = (6, HEADER + 6, 380, HEADER + 126)
"""Where the Abandoned Weapons Display is drawn: the open sea in the map's top-left corner."""


def _abandoned_lines(abandoned: dict[str, Any], width: float) -> list[str]:
    """At most three lines: per Lair location with weapons, in Display order, its weapons
    (``Open: Hart Bow, Black Bow``, a long list taking a spare line or cut short); with
    more than three locations, counts only (``Open 2 · Lake 1``)."""
    names = location_names()
    order = [key for key in names if key in abandoned] + sorted(set(abandoned) - set(names))
    entries = []
    for key in order:
        weapons = abandoned.get(key)
        if not isinstance(weapons, list) or not weapons:
            continue
        place = short_place(names.get(key, key.replace("_", " ")))
        weapon_names = [str(w.get("name", "?")) if isinstance(w, dict) else str(w) for w in weapons]
        entries.append((place, weapon_names))
    if len(entries) > 3:
        return _packed([f"{place} {len(weapons)}" for place, weapons in entries], width)[:3]
    spare = 3 - len(entries)  # lines left for entries too long for one
    lines: list[str] = []
    for place, weapons in entries:
        parts = wrap(f"{place}: " + ", ".join(weapons), TEXT, width - 14)
        take = min(len(parts), 1 + spare)
        spare -= take - 1
        kept = [*parts[: take - 1], fit(" ".join(parts[take - 1 :]), TEXT, width - 14)]
        lines += [kept[0], *("   " + part for part in kept[1:])]
    return lines


def _packed(words: list[str], width: float) -> list[str]:
    """``words`` joined by dots into lines of ``width`` pixels, never breaking a word."""
    lines: list[str] = []
    for word in words:
        trial = f"{lines[-1]} \u00b7 {word}" if lines else word
        if lines and text_width(trial, TEXT) <= width:
            lines[-1] = trial
        else:
            lines.append(word)
    return lines


def abandoned_bottom(abandoned: Any) -> float | None:
    """How far down the Abandoned Weapons Display reaches, or ``None`` when it is not
    drawn (no weapons lie in the Lair)."""
    if not isinstance(abandoned, dict):
        return None
    left, top, right, _ = ABANDONED_BOX
    lines = _abandoned_lines(abandoned, right - left - 16)
    return top + 36 + 30 * len(lines) if lines else None


def _draw_abandoned(pen: Pen, abandoned: Any, locale: Locale) -> None:
    """The Abandoned Weapons Display: a small box, only while weapons lie in the Lair."""
    bottom = abandoned_bottom(abandoned)
    if bottom is None:
        return
    left, top, right, _ = ABANDONED_BOX
    lines = _abandoned_lines(abandoned, right - left - 16)
    pen.rect((left, top, right, bottom), fill=NOTE_PAPER, outline=DRAGON, width=2, radius=6)
    title = fit(write(said("Abandoned weapons"), locale), TEXT, right - left - 16, True)
    pen.text((left + 8, top + 18), title, TEXT, DRAGON, True, anchor="lm")
    for index, line in enumerate(lines):
        pen.text((left + 8, top + 48 + 30 * index), line, TEXT, anchor="lm")
