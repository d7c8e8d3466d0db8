"""Destination marks: the short labels a picture made for one choice puts on every place a
piece may go, so a player picks a move by the label they see (``A``, ``B``…) instead of
reading coordinates off the board.

A view asks for them with ``view["marks"]``: a list of ``{"at": place, "label": "A",
"notable": bool}``, ``place`` in the game's own notation (a St. George point such as
``"3c"``, a Lions and Dragons cell such as ``"e4"``, a Dragonslayer place key...). Each
game's renderer finds where the place is and calls :func:`draw_mark` last, over pieces,
arrows and every other label, so nothing covers a mark. Such views are private to the
seat choosing (the marks come from its legal moves); a public post never carries them.

A mark is sized for a phone: when the picture is shown :data:`PHONE` px wide, its letters
are at least :data:`MARK_CAP` px tall. Notable marks (a capture, a win) are drawn in
:data:`NOTABLE_FILL`, the rest in :data:`MARK_FILL`, both with white letters inside a white
and dark rim, which stand out on light and dark boards alike. A renderer adds
:data:`MARK_KEYS` to its palette's keys and :data:`MARK_RAMPS` to its ramps.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from render.common import BLUE, INK, VERMILLION, WHITE, Colour, draw_text, font

PHONE = 400
"""How wide a phone shows a picture in a chat, in CSS pixels."""
MARK_CAP = 11.0
"""The least height of a mark's letters, in px, when the picture is shown :data:`PHONE`
px wide."""
CAP_SHARE = 0.73
"""DejaVu Sans Bold capitals and digits are this share of the font size."""

MARK_FILL: Colour = BLUE
NOTABLE_FILL: Colour = VERMILLION
MARK_KEYS: tuple[Colour, ...] = (MARK_FILL, NOTABLE_FILL, WHITE, INK)
MARK_RAMPS: tuple[tuple[Colour, Colour], ...] = (
    (WHITE, MARK_FILL), (WHITE, NOTABLE_FILL), (WHITE, INK), (INK, MARK_FILL),
    (INK, NOTABLE_FILL),
)  # fmt: skip

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Mark:
    """One labelled place: ``label`` drawn at the place ``at``."""

    at: str
    label: str
    notable: bool = False

    @staticmethod
    def all_in(view: Mapping[str, Any]) -> list[Mark]:
        """The marks ``view`` asks for (none for a public view)."""
        return [
            Mark(str(m["at"]), str(m["label"]), bool(m.get("notable", False)))
            for m in view.get("marks") or ()
        ]


def mark_font_size(width: int) -> int:
    """The font size of a mark's letters on a canvas ``width`` px wide: capitals at least
    :data:`MARK_CAP` px tall when the canvas is shown :data:`PHONE` px wide."""
    return math.ceil(MARK_CAP / CAP_SHARE * width / PHONE)


def mark_radius(width: int, label: str = "AA") -> float:
    """The radius of a mark's disc on a canvas ``width`` px wide (room for two letters)."""
    size = mark_font_size(width)
    return max(0.62 * size * max(len(label), 1), 0.8 * size)


def draw_mark(draw: ImageDraw.ImageDraw, xy: tuple[float, float], mark: Mark) -> Box:
    """Draw ``mark`` centred on ``xy``: a filled disc with a white and a dark rim and the
    label in white bold letters. Returns the box the mark covers."""
    width = draw.im.size[0]
    size = mark_font_size(width)
    radius = mark_radius(width, mark.label)
    x, y = xy
    rim = max(2.0, size * 0.12)
    fill = NOTABLE_FILL if mark.notable else MARK_FILL
    outer = (x - radius - rim, y - radius - rim, x + radius + rim, y + radius + rim)
    draw.ellipse(outer, fill=INK)
    draw.ellipse((x - radius - rim / 2, y - radius - rim / 2, x + radius + rim / 2,
                  y + radius + rim / 2), fill=WHITE)  # fmt: skip
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill)
    draw_text(draw, (x, y), mark.label, font(size, True), WHITE, anchor="mm")
    return outer


# --- placing marks where they cover nothing else ---------------------------------------------


def mark_reach(width: int, label: str) -> float:
    """How far from its centre a mark's disc reaches, rims included (half the side of the
    box :func:`draw_mark` returns)."""
    rim = max(2.0, mark_font_size(width) * 0.12)
    return mark_radius(width, label) + rim


@dataclass(frozen=True)
class Placed:
    """Where a mark goes: its disc's ``centre`` and the point of its place, ``target``; a
    disc set off its place has a leader line to ``target`` that stops ``hold`` px short of
    it (clear of the piece standing there)."""

    mark: Mark
    centre: tuple[float, float]
    target: tuple[float, float]
    reach: float
    hold: float = 0.0

    @property
    def box(self) -> Box:
        x, y = self.centre
        r = self.reach
        return (x - r, y - r, x + r, y + r)

    @property
    def on_place(self) -> bool:
        return math.dist(self.centre, self.target) < 0.5


def overlap(a: Box, b: Box, gap: float = 0.0) -> bool:
    """Whether boxes ``a`` and ``b`` come closer than ``gap`` px (touching is apart)."""
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def disc_boxes(x: float, y: float, r: float) -> list[Box]:
    """Three boxes whose union holds the disc of radius ``r`` centred on ``(x, y)`` (tighter
    than its one bounding box, so labels and marks may come near a round piece)."""
    return [
        (x - r * a, y - r * b, x + r * a, y + r * b)
        for a, b in ((1.0, 0.5), (0.866, 0.8), (0.6, 1.0))
    ]


def segment_boxes(a: tuple[float, float], b: tuple[float, float], half: float) -> list[Box]:
    """Small boxes whose union holds the line from ``a`` to ``b`` drawn ``2 * half`` px
    wide."""
    steps = max(1, math.ceil(math.dist(a, b) / max(half, 1.0)))
    boxes = []
    for i in range(steps + 1):
        x = a[0] + (b[0] - a[0]) * i / steps
        y = a[1] + (b[1] - a[1]) * i / steps
        boxes.append((x - half * 1.5, y - half * 1.5, x + half * 1.5, y + half * 1.5))
    return boxes


MARK_GAP = 3.0
"""The least room between two marks' discs, in px."""


def place_marks(
    marks: list[Mark],
    places: Mapping[str, tuple[float, float]],
    width: int,
    covers: Sequence[Box],
    bounds: Box,
    *,
    holds: Mapping[str, float] | None = None,
    avoid: Sequence[tuple[Box, str | None]] = (),
    toward: tuple[float, float] | None = None,
) -> list[Placed]:
    """Where each of ``marks`` goes, deterministically: on its place (``places`` gives each
    place's point) when the disc there covers nothing, else at the nearest spot that does,
    with a leader line back to the place.

    Promised for every result: discs lie inside ``bounds`` and never overlap one another.
    As far as room allows, a disc also keeps off the boxes of ``covers`` (pieces, arrows),
    off every other mark's place, off the leader lines of the others, and off ``avoid``
    (labels; a box whose owner is the mark's own place does not count). Marks that fit on
    their places are placed first; a mark moved off its place looks first away from
    ``toward`` (the board's middle, where it is crowded). ``holds`` gives, per place, how
    far short of its point a leader stops. Raises ``ValueError`` for a mark whose place is
    not in ``places``."""
    holds = holds or {}
    for mark in marks:
        if mark.at not in places:
            raise ValueError(f"no place {mark.at!r} on this board for mark {mark.label!r}")
    targets = [places[m.at] for m in marks]
    placed: dict[int, Placed] = {}
    for index, mark in enumerate(marks):
        reach = mark_reach(width, mark.label)
        spot = Placed(mark, targets[index], targets[index], reach)
        if _cost(spot, index, placed, targets, covers, bounds, avoid) == 0:
            placed[index] = spot
    for index, mark in enumerate(marks):
        if index not in placed:
            placed[index] = _search(
                mark, index, placed, targets, covers, bounds, avoid, holds.get(mark.at, 0.0),
                toward, width,
            )  # fmt: skip
    return [placed[i] for i in range(len(marks))]


def _cost(
    spot: Placed,
    index: int,
    placed: Mapping[int, Placed],
    targets: list[tuple[float, float]],
    covers: Sequence[Box],
    bounds: Box,
    avoid: Sequence[tuple[Box, str | None]],
) -> float:
    """How bad a spot is: infinite if off ``bounds`` or over another disc, 4 over a piece,
    an arrow or another mark's place, 2 where leaders cross a disc, 1 over a label (off its
    own place)."""
    box = spot.box
    if box[0] < bounds[0] or box[1] < bounds[1] or box[2] > bounds[2] or box[3] > bounds[3]:
        return math.inf
    if any(overlap(box, other.box, MARK_GAP) for other in placed.values()):
        return math.inf
    cost = 0.0
    own = targets[index]
    near = spot.reach + 4
    crowded = any(math.dist(spot.centre, t) < near for t in targets if t != own)
    if crowded or any(overlap(box, cover) for cover in covers):
        cost += 4
    moved = not spot.on_place or any(not p.on_place for p in placed.values())
    if moved and _leaders_cross(spot, placed):
        cost += 2
    # On its own place a mark may cover labels: that is where the player looks.
    if not spot.on_place and any(owner != spot.mark.at and overlap(box, b) for b, owner in avoid):
        cost += 1
    return cost


def _leaders_cross(spot: Placed, placed: Mapping[int, Placed]) -> bool:
    """Whether ``spot``'s leader passes under a placed disc, or a placed leader under it."""
    for other in placed.values():
        if not spot.on_place and _passes(spot.centre, spot.target, other.centre, other.reach):
            return True
        if not other.on_place and _passes(other.centre, other.target, spot.centre, spot.reach):
            return True
    return False


def _passes(
    a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], r: float
) -> bool:
    """Whether the segment from ``a`` to ``b`` comes within ``r`` of ``c``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = (
        0.0
        if length == 0
        else max(0.0, min(1.0, ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / length))
    )
    return math.dist((a[0] + t * dx, a[1] + t * dy), c) < r


def _search(
    mark: Mark,
    index: int,
    placed: Mapping[int, Placed],
    targets: list[tuple[float, float]],
    covers: Sequence[Box],
    bounds: Box,
    avoid: Sequence[tuple[Box, str | None]],
    hold: float,
    toward: tuple[float, float] | None,
    width: int,
) -> Placed:
    """The best spot round ``mark``'s place, searched ring by ring outward from it: the
    one of least cost, each step of :data:`LEADER_COST` px of leader costing one more."""
    target = targets[index]
    reach = mark_reach(width, mark.label)
    away = 0.0
    if toward is not None and math.dist(toward, target) > 1:
        away = math.atan2(target[1] - toward[1], target[0] - toward[0])
    best: tuple[float, Placed] | None = None
    step = reach / 2
    far = math.hypot(bounds[2] - bounds[0], bounds[3] - bounds[1])
    distance = 0.0
    while distance < far and (best is None or distance / (LEADER_COST * reach) < best[0]):
        count = max(12, math.ceil(2 * math.pi * distance / step))
        turns = sorted(range(count), key=lambda k: (min(k, count - k), k))
        for k in turns:
            angle = away + 2 * math.pi * k / count
            centre = (
                target[0] + distance * math.cos(angle),
                target[1] + distance * math.sin(angle),
            )
            spot = Placed(mark, centre, target, reach, hold)
            cost = _cost(spot, index, placed, targets, covers, bounds, avoid)
            cost += distance / (LEADER_COST * reach)
            if best is None or cost < best[0]:
                best = (cost, spot)
        distance = distance + step if distance else reach + step
    if best is None or best[0] == math.inf:
        raise ValueError(f"no room on this board for mark {mark.label!r}")
    return best[1]


LEADER_COST = 2.0
"""A leader this many discs' reaches long costs as much as covering a label (cost 1)."""


def draw_marks(draw: ImageDraw.ImageDraw, placed: list[Placed]) -> dict[str, Box]:
    """Draw ``placed`` marks: first every leader line (dark, in a white casing, ending in a
    dot by its place), then every disc over them. Returns each mark's box by its label."""
    width = draw.im.size[0]
    line = max(2, round(mark_font_size(width) * 0.1))
    for spot in placed:
        if not spot.on_place:
            _leader(draw, spot, line)
    return {spot.mark.label: draw_mark(draw, spot.centre, spot.mark) for spot in placed}


def _leader(draw: ImageDraw.ImageDraw, spot: Placed, line: int) -> None:
    (x1, y1), (x2, y2) = spot.centre, spot.target
    length = math.dist(spot.centre, spot.target) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    end = (x2 - ux * spot.hold, y2 - uy * spot.hold)
    dot = line * 1.6
    for colour, extra in ((WHITE, 2), (INK, 0)):
        draw.line([spot.centre, end], fill=colour, width=line + 2 * extra)
        r = dot + extra
        draw.ellipse((end[0] - r, end[1] - r, end[0] + r, end[1] + r), fill=colour)


# --- discs spread round their places (Dragon's Cave, Dragonslayer) ----------------------------


def spread_discs(
    wanted: Sequence[tuple[float, float, float]],
    avoid: Sequence[Box],
    bounds: Box,
    gap: float = 3.0,
    first: float = -math.pi / 2,
) -> list[tuple[float, float]]:
    """Centres for discs ``(x, y, radius)`` wanted at ``(x, y)``, placed in order, so that
    no two overlap (they stay ``gap`` apart) and each lies inside ``bounds``.

    A disc goes where it is wanted if that spot is free; otherwise to the nearest free spot
    on rings around it (half a radius apart, each ring walked from the direction ``first``,
    an angle in radians clockwise from the right, straight up by default, then either way
    in turn). Free means clear of the discs placed before it and of every box of
    ``avoid``; when no spot within :data:`MARK_REACH` radii is clear of ``avoid`` too, the
    nearest clear of the other discs. The same input always gives the same centres."""
    placed: list[tuple[float, float, float]] = []
    points = {(x, y) for x, y, _ in wanted}
    for x, y, radius in wanted:
        # Another place a disc wants is kept clear like a small box.
        others = [(px - 8, py - 8, px + 8, py + 8) for px, py in points if (px, py) != (x, y)]
        spot = _free_spot((x, y), radius, placed, [*avoid, *others], bounds, gap, first)
        placed.append((spot[0], spot[1], radius))
    return [(x, y) for x, y, _ in placed]


MARK_REACH = 6
"""How far (in radii) a disc may go to stay clear of what it should not cover."""


def _free_spot(
    wanted: tuple[float, float],
    radius: float,
    placed: Sequence[tuple[float, float, float]],
    avoid: Sequence[Box],
    bounds: Box,
    gap: float,
    first: float,
) -> tuple[float, float]:
    """The first spot of :func:`_rings` clear of ``placed`` and ``avoid`` within reach,
    else the first clear of ``placed``."""
    apart: tuple[float, float] | None = None
    x, y = wanted
    for spot in _rings(wanted, radius, bounds, first):
        if not all(_apart(spot, radius, p, gap) for p in placed):
            continue
        if math.dist(spot, (x, y)) <= MARK_REACH * radius and not any(
            _disc_meets(spot, radius + gap, box) for box in avoid
        ):
            return spot
        if apart is None:
            apart = spot
            if math.dist(spot, (x, y)) > MARK_REACH * radius:
                return spot
    return apart or (x, y)


def _rings(
    centre: tuple[float, float], radius: float, bounds: Box, first: float
) -> Iterator[tuple[float, float]]:
    """``centre`` and the points on rings around it, nearest first, where a disc of
    ``radius`` lies inside ``bounds``."""
    x, y = centre
    left, top, right, bottom = bounds
    reach = max(right - left, bottom - top)
    step = max(radius / 2, 1.0)
    for ring in range(int(reach / step) + 1):
        count = 1 if ring == 0 else 8 * ring
        for turn in range(count):
            # 0, +1, -1, +2, -2...: from ``first``, either way in turn.
            angle = first + math.pi * 2 * ((turn + 1) // 2) * (-1) ** turn / count
            px, py = x + ring * step * math.cos(angle), y + ring * step * math.sin(angle)
            if left + radius <= px <= right - radius and top + radius <= py <= bottom - radius:
                yield px, py


def _apart(spot: tuple[float, float], radius: float, other: tuple[float, float, float],
           gap: float) -> bool:  # fmt: skip
    return math.dist(spot, other[:2]) >= radius + other[2] + gap


def _disc_meets(centre: tuple[float, float], radius: float, box: Box) -> bool:
    """Whether the disc of ``radius`` on ``centre`` meets ``box``."""
    x, y = centre
    nearest_x = min(max(x, box[0]), box[2])
    nearest_y = min(max(y, box[1]), box[3])
    return math.hypot(x - nearest_x, y - nearest_y) < radius


def leader_start(
    place: tuple[float, float], centre: tuple[float, float], avoid: Sequence[Box]
) -> tuple[float, float]:
    """Where the leader line from a mark's disc on ``centre`` back to its ``place`` ends:
    at the place, or where the line first meets a box of ``avoid`` that holds the place
    (so the leader touches a piece standing there without crossing it)."""
    holding = [box for box in avoid if _holds(box, place)]
    if not holding:
        return place
    length = math.dist(place, centre)
    steps = max(1, math.ceil(length / 2))
    for step in range(steps + 1):
        t = step / steps
        point = (place[0] + (centre[0] - place[0]) * t, place[1] + (centre[1] - place[1]) * t)
        if not any(_holds(box, point) for box in holding):
            return point
    return centre


def _holds(box: Box, point: tuple[float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def draw_spread(
    draw: ImageDraw.ImageDraw,
    spread: Sequence[tuple[Mark, tuple[float, float], tuple[float, float]]],
    under: Sequence[Box],
) -> None:
    """Draw marks placed by :func:`spread_discs`, each ``(mark, place, centre)``: first a
    leader from its place to every mark that had to move (ending at a piece standing on
    the place, else in a dot on it), then the marks themselves, so no leader crosses a
    mark. ``under``: what is drawn over the board (pieces, tokens)."""
    width = draw.im.size[0]
    for mark, wanted, centre in spread:
        if math.dist(wanted, centre) > mark_reach(width, mark.label):
            start = leader_start(wanted, centre, under)
            draw.line([start, centre], fill=INK, width=7)
            draw.line([start, centre], fill=WHITE, width=3)
            if start != wanted:
                continue  # the place is under a piece: the leader ends at the piece
            x, y = wanted
            draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=WHITE, outline=INK, width=3)
    for mark, _, centre in spread:
        draw_mark(draw, centre, mark)
