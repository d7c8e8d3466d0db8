"""Places named on the Dragonslayer map, what covers the map, and destination marks.

A picture made for one choice carries ``view["marks"]`` (:mod:`render.marks`): a label on
every place a magician may go. Each mark is drawn last, over every piece and name, on its
place, or moved just clear of the pieces, the last move's path and the marks before it,
with a leader line back to its place. The Battle Display has no places: there marks are
ignored, and :func:`locate` refuses a view of a fight.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

from PIL import ImageDraw

from render.dragonslayer.layout import (
    HEADER,
    MAP_H,
    MAP_W,
    TOKEN_R,
    Layout,
    current_layout,
)
from render.dragonslayer.map import (
    ABANDONED_BOX,
    abandoned_bottom,
    knockouts,
    path_points,
    spot_boxes,
    spots,
)
from render.dragonslayer.style import Box, Point
from render.marks import Mark, draw_spread, mark_reach, spread_discs


def locate(view: dict[str, Any], name: str) -> Point:
    """The pixel centre, on the map picture of ``view``, of the place ``name`` as the
    engine names a position: ``"place:<key>"`` (a town, hamlet, castle, the Lair,
    Morgenthorme), ``"sea:<key>"`` (where magicians at sea stand), ``"abode:<key>"`` (a
    magician's key), ``"road:<a>:<b>"`` (a third of the way from ``a``, where a magician
    on that road stands), ``"box:<key>"`` (``ulrich`` or ``dragon_shield``), or a bare key
    of a place, sea, abode or box. Raises ``ValueError`` for any other name, and for a view
    of a fight (the Battle Display has no places)."""
    if isinstance(view.get("battle"), dict):
        raise ValueError("the Battle Display has no places to locate")
    return _locate(current_layout(), str(name))


def _locate(layout: Layout, name: str) -> Point:
    kind, _, key = name.partition(":")
    tables = {
        "place": layout.places,
        "sea": layout.seas,
        "abode": layout.abodes,
        "box": layout.boxes,
    }
    if kind in tables and key in tables[kind]:
        return tables[kind][key]
    if kind == "road":
        start, _, end = key.partition(":")
        if start in layout.places and end in layout.places and start != end:
            (x1, y1), (x2, y2) = layout.places[start], layout.places[end]
            return (x1 + (x2 - x1) / 3, y1 + (y2 - y1) / 3)
    for table in tables.values():
        if name in table:
            return table[name]
    raise ValueError(f"Dragonslayer's map has no place {name!r}")


def map_names() -> set[str]:
    """Every name printed by a place, sea zone or abode on the map (an abode's name also as
    the two lines it may be broken into)."""
    urland = current_layout().urland
    names = {place.name for place in urland.places.values()}
    names |= {sea.name for sea in urland.seas.values()}
    for abode in urland.abodes.values():
        names |= {abode.name, *abode.name.rsplit(" ", 1)}
    return names


def covers(view: dict[str, Any]) -> list[Box]:
    """The boxes of what the map picture of ``view`` draws over the map: magicians (with
    the current one's ring), King's men and their strengths, face-down stacks, the
    Dragon's marker, the last move's path (boxes along it) and the Abandoned Weapons
    Display (the path left out where a word is printed, as it is drawn). A mark never
    meets one of them. A view of a fight has none."""
    if isinstance(view.get("battle"), dict):
        return []
    layout = current_layout()
    boxes: list[Box] = []
    holes = knockouts(layout)
    for spot in spots(layout, view):
        boxes += spot_boxes(spot)
        if spot.leader is not None:
            for box in _line_boxes([spot.centre, spot.leader], 5):
                boxes += _outside(box, holes)
    strength = (view.get("dragon") or {}).get("strength")
    if isinstance(strength, int) and layout.track:
        boxes.append(_square(layout.track[max(0, min(strength, len(layout.track) - 1))], 25))
    for box in _path_boxes(path_points(layout, view.get("last"))):
        boxes += _outside(box, holes)
    bottom = abandoned_bottom(view.get("abandoned"))
    if bottom is not None:
        boxes.append((*ABANDONED_BOX[:3], bottom))
    return boxes


def _square(centre: Point, half: float) -> Box:
    x, y = centre
    return (x - half, y - half, x + half, y + half)


def _outside(box: Box, holes: list[Box]) -> list[Box]:
    """The parts of ``box`` outside every hole (at most four pieces per hole)."""
    parts = [box]
    for hole in holes:
        kept: list[Box] = []
        for left, top, right, bottom in parts:
            h_left, h_top, h_right, h_bottom = hole
            if not (left < h_right and h_left < right and top < h_bottom and h_top < bottom):
                kept.append((left, top, right, bottom))
                continue
            if left < h_left:
                kept.append((left, top, h_left, bottom))
            if h_right < right:
                kept.append((h_right, top, right, bottom))
            middle = (max(left, h_left), min(right, h_right))
            if top < h_top:
                kept.append((middle[0], top, middle[1], h_top))
            if h_bottom < bottom:
                kept.append((middle[0], h_bottom, middle[1], bottom))
        parts = kept
    return parts


def _line_boxes(points: list[Point], half: float) -> list[Box]:
    """Small boxes along a line ``2 * half`` wide through ``points``."""
    boxes: list[Box] = []
    for (x1, y1), (x2, y2) in pairwise(points):
        count = max(1, math.ceil(math.dist((x1, y1), (x2, y2)) / 8))
        boxes += [
            _square((x1 + (x2 - x1) * i / count, y1 + (y2 - y1) * i / count), half)
            for i in range(count + 1)
        ]
    return boxes


def _path_boxes(points: list[Point]) -> list[Box]:
    """Small boxes along the last move's path (its line 11 px wide, its end's ring)."""
    boxes = _line_boxes(points, 6)
    if points:
        boxes.append(_square(points[-1], TOKEN_R + 14))
    return boxes


def mark_boxes(view: dict[str, Any]) -> dict[str, Box]:
    """Each mark of ``view["marks"]`` by its label, and the box its disc covers as drawn on
    the map (what :func:`render.marks.draw_mark` returns); none for a view of a fight.
    Raises ``ValueError`` for a mark at a place :func:`locate` does not know."""
    if isinstance(view.get("battle"), dict):
        return {}
    return {
        mark.label: _square(centre, mark_reach(MAP_W, mark.label))
        for mark, _, centre in _placed_marks(view)
    }


def _placed_marks(view: dict[str, Any]) -> list[tuple[Mark, Point, Point]]:
    """Each mark, its place and the centre it is drawn on: on the place, or moved just
    clear of the marks before it and of what covers the map."""
    layout = current_layout()
    marks = Mark.all_in(view)
    wanted = [(*_locate(layout, mark.at), mark_reach(MAP_W, mark.label)) for mark in marks]
    bounds = (0, HEADER, MAP_W, HEADER + MAP_H)
    centres = spread_discs(wanted, covers(view), bounds)
    return [(m, (w[0], w[1]), c) for m, w, c in zip(marks, wanted, centres, strict=True)]


def draw_marks(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Every mark of the view, last, with a leader back to its place when it had to move."""
    draw_spread(draw, _placed_marks(view), covers(view))
