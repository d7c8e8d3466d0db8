"""The map of Urland with the pieces of a public view of Dragonslayer.

The static map (:mod:`render.dragonslayer.board`, laid out by
:mod:`render.dragonslayer.layout`) with the view's pieces on it: magicians as discs in their
colour with their initials, King's men as square tiles with a crown and their number (and
strength once revealed), stacks of face-down tiles with their count, the Dragon's marker on
the track, the last move's path, the weapons abandoned in the Lair; the header and the side
panel come from :mod:`render.dragonslayer.panel`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render.common import INK
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
)
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
    Colour,
    Pen,
    Point,
    fit,
    initials,
    magician_colour,
    text_width,
    wrap,
)


def map_picture(view: dict[str, Any]) -> Image.Image:
    """The map of Urland with the view's pieces, header, panel and abandoned weapons."""
    layout = current_layout()
    columns = panel_columns(view)
    image = background(layout).crop((0, 0, MAP_W, picture_height(columns)))
    pen = Pen(image, 1)
    _draw_boxes(pen, layout, view.get("boxes") or {})
    _draw_dragon(pen, layout, (view.get("dragon") or {}).get("strength"))
    _draw_path(pen, layout, view.get("last"))
    _draw_spots(pen, layout, view)
    draw_header(pen, view)
    draw_panel(pen, view, columns)
    _draw_tile_counts(pen, view)
    _draw_abandoned(pen, view.get("abandoned"))
    return image


@dataclass
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
    and where the place's face-down stack is drawn with its count (``None``: no stack)."""

    centre: Point
    pieces: list[_Piece]
    cells: list[Point]
    stack: tuple[Point, int] | None


def spots(layout: Layout, view: dict[str, Any]) -> list[Spot]:
    """Everything standing on the map: King's men, magicians, face-down stacks, fanned out
    in a row per spot (two rows when crowded); the stack sits right of the row."""
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
    result = []
    for spot_key, (centre, pieces) in found.items():
        cells = _fan(centre, len(pieces))
        stack_at: tuple[Point, int] | None = None
        if spot_key.startswith("place:"):
            key = spot_key.split(":", 1)[1]
            count = int(face_down.get(key) or 0)
            if count:
                # Right of the row of pieces, or where face_down_xy says on an empty place.
                if pieces:
                    right = max(cell[0] for cell in cells)
                    stack_at = ((right + TOKEN_R + 20, cells[0][1]), count)
                else:
                    stack_at = (layout.badges[key], count)
        result.append(Spot(centre, pieces, cells, stack_at))
    return result


def _draw_spots(pen: Pen, layout: Layout, view: dict[str, Any]) -> None:
    """The pieces of :func:`spots`: rings round the current ones, then the pieces, their
    strengths and the face-down stacks."""
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


def _draw_path(pen: Pen, layout: Layout, last: dict[str, Any] | None) -> None:
    """The last move's route as a thick yellow line with a ring at its end."""
    points = path_points(layout, last)
    if not points:
        return
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


def _draw_tile_counts(pen: Pen, view: dict[str, Any]) -> None:
    """Under the legend: tiles removed from play and tiles set aside unseen."""
    bits = []
    if isinstance(view.get("removed"), int):
        bits.append(f"Tiles removed {view['removed']}")
    if isinstance(view.get("set_aside"), int):
        bits.append(f"set aside {view['set_aside']}")
    if bits:
        y = HEADER + MAP_H + 21 + 3 * 40
        pen.text((16, y), " \u00b7 ".join(bits), TEXT, fill=MUTED, anchor="lm")


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


def _draw_abandoned(pen: Pen, abandoned: Any) -> None:
    """The Abandoned Weapons Display: a small box, only while weapons lie in the Lair."""
    bottom = abandoned_bottom(abandoned)
    if bottom is None:
        return
    left, top, right, _ = ABANDONED_BOX
    lines = _abandoned_lines(abandoned, right - left - 16)
    pen.rect((left, top, right, bottom), fill=NOTE_PAPER, outline=DRAGON, width=2, radius=6)
    pen.text((left + 8, top + 18), "Abandoned weapons", TEXT, DRAGON, True, anchor="lm")
    for index, line in enumerate(lines):
        pen.text((left + 8, top + 48 + 30 * index), line, TEXT, anchor="lm")
