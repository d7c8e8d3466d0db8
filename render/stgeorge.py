"""St. George and the Dragon board picture: the public view in, PNG bytes out.

The wheel (spokes, rings, the green Lair, the four castles) comes from the engine's board
data file, whose points carry polar drawing coordinates; pieces, the last move's path, the
die and the per-castle counts come from the public view. The static wheel is drawn at twice
the size and scaled down once (smooth lines), with the legend strip's ground and the die's
face added; each turn's names, pieces, counts and words are drawn on a copy. The wheel's
names go where no piece or last move lies (:func:`labels`, :func:`covers`), every word is
at least :data:`TEXT` px (11 px when a phone shows the board 400 px wide), and a view made
for one choice gets its destination marks drawn last, over everything (:func:`mark_boxes`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

from PIL import Image, ImageDraw

from engines.data import load
from i18n import Locale, Said, said, write
from render.common import (
    BLUE,
    INK,
    PAPER,
    SKY_BLUE,
    VERMILLION,
    WHITE,
    YELLOW,
    Palette,
    draw_text,
    fit,
    fitting_size,
    font,
    ink_on,
    png_bytes,
    text_box,
    text_length,
    widest,
    wrap,
)
from render.marks import (
    MARK_KEYS,
    MARK_RAMPS,
    Box,
    Mark,
    Placed,
    disc_boxes,
    draw_marks,
    overlap,
    place_marks,
    segment_boxes,
)

SIZE = 1024
LEGEND = 180  # three lines of 29 px words and a row of seats under the wheel
SCALE = 2  # supersampling factor

CASTLE_COLOURS = {
    "george": VERMILLION,
    "patrick": SKY_BLUE,
    "andrew": BLUE,
    "david": YELLOW,
}
"""Each castle's colour (Okabe–Ito: apart in every common colour blindness); its Knights
also carry its letter."""
DRAGON_COLOUR = (62, 22, 84)
SIDE_COLOURS = {**{f"St. {key.capitalize()}": c for key, c in CASTLE_COLOURS.items()},
                "The Dragon": DRAGON_COLOUR}  # fmt: skip
"""Every side's colour by name (the tests check they stay apart for colour-blind players)."""
DRAGON_EDGE = (214, 186, 235)
LAIR_GREEN = (112, 170, 84)
LINE = (120, 104, 88)
LABEL = (150, 134, 118)
GREY = (196, 190, 182)
HIGHLIGHT = (255, 214, 0)
WOOD = (236, 224, 200)
LAIR_INK = (236, 246, 226)
NUMBER_INK = (112, 96, 80)
LEGEND_BACK = (232, 222, 204)
EYES = (255, 200, 40)

# Radius in pixels (at SIZE) of ring unit r: the Lair is a disc, ring a sits well clear of
# it so the crowded inner ring keeps room between pieces, then one step per ring.
LAIR_PX = 62
RING_A_PX = 124
RING_STEP_PX = 44
KNIGHT_PX = 21  # its letter is TEXT px: 11.3 px when a phone shows the board 400 px wide
DRAGON_PX = 27
# Where each castle's counts badge goes: the corner clockwise after the castle.
BADGE_CORNER = {"george": "ne", "patrick": "se", "andrew": "sw", "david": "nw"}


def render(view: dict[str, Any], locale: Locale = "en") -> bytes:
    """PNG of the board for a public view of St. George and the Dragon, its words in
    ``locale``."""
    return encode(picture(view, locale))


def picture(view: dict[str, Any], locale: Locale = "en") -> Image.Image:
    """The RGB picture :func:`render` encodes."""
    board = load("stgeorge", "board")
    in_play = tuple(view.get("castles_in_play", ()))
    image = _background_small(SIZE, in_play, _board_key(board)).copy()
    draw = ImageDraw.Draw(image)
    geo = _Geometry(board, SIZE)
    _draw_labels(draw, view, locale)
    _draw_path(draw, geo, view.get("last"))
    _draw_pieces(draw, geo, view.get("pieces", []))
    _draw_castle_counts(draw, geo, board, view, locale)
    _draw_legend(draw, board, view, SIZE, locale)
    draw_marks(draw, _placed_marks(view, locale))
    return image


def encode(image: Image.Image) -> bytes:
    """A picture of this game as PNG bytes, in the game's fixed palette."""
    return png_bytes(image, palette())


def palette() -> Palette:
    """The game's palette: its colours exact, their edges' blends, the wheel's colours."""
    board = load("stgeorge", "board")
    return _palette(_board_key(board), tuple(board["castles"]))


def warm() -> None:
    """Draw the wheel's backgrounds (every castle in play, and none) and make the palette of
    their colours now, for the board data loaded, rather than on the first board."""
    palette()


@lru_cache(maxsize=2)
def _palette(board_key: str, castles: tuple[str, ...]) -> Palette:
    colours = list(CASTLE_COLOURS.values())
    inks = (INK, GREY, LINE, LABEL, *colours)
    keys = (
        *colours,
        *(_tint(c, 0.78) for c in colours),
        DRAGON_COLOUR,
        DRAGON_EDGE,
        LAIR_GREEN,
        LINE,
        LABEL,
        GREY,
        _tint(GREY, 0.78),
        HIGHLIGHT,
        WOOD,
        INK,
        PAPER,
        WHITE,
        LAIR_INK,
        NUMBER_INK,
        LEGEND_BACK,
        EYES,
    )
    ramps = (
        *((WHITE, c) for c in colours),
        (INK, CASTLE_COLOURS["david"]),
        *((ink, back) for ink in inks for back in (PAPER, LEGEND_BACK)),
        (LABEL, WHITE),
        (INK, HIGHLIGHT),
        (INK, WHITE),
        (INK, DRAGON_EDGE),
    )
    backgrounds = [_background_small(SIZE, in_play, board_key) for in_play in (castles, ())]
    return Palette((*keys, *MARK_KEYS), (*ramps, *MARK_RAMPS), backgrounds)


def point_xy(name: str) -> tuple[float, float]:
    """Where the centre of board point ``name`` lies in the rendered image, in pixels."""
    return _Geometry(load("stgeorge", "board"), SIZE).point(name)


# --- geometry --------------------------------------------------------------------------


class _Geometry:
    """Pixel positions of the board's points for a drawing ``size`` pixels wide."""

    def __init__(self, board: dict[str, Any], size: int) -> None:
        self.k = size / SIZE
        self.centre = (size / 2, size / 2)
        self.spokes: int = board["spokes"]
        self.polar = {name: tuple(value) for name, value in board["points"].items()}

    def radius(self, r: float) -> float:
        """Pixels from the centre of ring-unit radius ``r``."""
        if r <= 0:
            return 0.0
        return (RING_A_PX + (r - 1) * RING_STEP_PX) * self.k

    def angle(self, position: float) -> float:
        """Radians clockwise from the top of spoke position ``position``."""
        return (position - 1) / self.spokes * 2 * math.pi

    def at(self, position: float, r: float) -> tuple[float, float]:
        distance = self.radius(r)
        theta = self.angle(position)
        return (
            self.centre[0] + distance * math.sin(theta),
            self.centre[1] - distance * math.cos(theta),
        )

    def point(self, name: str) -> tuple[float, float]:
        position, r = self.polar[name]
        return self.at(position, r)

    def px(self, value: float) -> float:
        return value * self.k


_KEYS: dict[int, tuple[dict[str, Any], str]] = {}


def _board_key(board: dict[str, Any]) -> str:
    """A key that changes when the board data does (a server may load a corrected board);
    worked out once per board object the loader hands back."""
    known = _KEYS.get(id(board))
    if known is None or known[0] is not board:
        known = (board, repr(sorted(board["points"].items())) + repr(board["lines"]))
        _KEYS.clear()
        _KEYS[id(board)] = known
    return known[1]


def _segment(
    draw: ImageDraw.ImageDraw,
    geo: _Geometry,
    first: str,
    second: str,
    fill: tuple[int, ...],
    width: int,
) -> None:
    """One board line: an arc when both ends lie on the same circle, else a straight line."""
    (p1, r1), (p2, r2) = geo.polar[first], geo.polar[second]
    if r1 == r2 and r1 > 0:
        a, b = math.degrees(geo.angle(p1)) - 90, math.degrees(geo.angle(p2)) - 90
        if (b - a) % 360 > 180:
            a, b = b, a
        radius = geo.radius(r1)
        cx, cy = geo.centre
        box = (cx - radius, cy - radius, cx + radius, cy + radius)
        draw.arc(box, a, b if b > a else b + 360, fill=fill, width=width)
    else:
        draw.line([geo.point(first), geo.point(second)], fill=fill, width=width)


# --- background -----------------------------------------------------------------------


@lru_cache(maxsize=8)
def _background_small(size: int, in_play: tuple[str, ...], board_key: str) -> Image.Image:
    """The supersampled wheel scaled down once, with the legend strip's ground and the
    die's face drawn on at full size; pieces are then drawn at full size on a copy."""
    image = _background(size, in_play, board_key).reduce(SCALE)
    _draw_legend_ground(ImageDraw.Draw(image), size)
    return image


def _background(size: int, in_play: tuple[str, ...], board_key: str) -> Image.Image:
    """The wheel without pieces, at SCALE times ``size`` (castles not in play greyed)."""
    board = load("stgeorge", "board")
    big = size * SCALE
    geo = _Geometry(board, big)
    image = Image.new("RGB", (big, big + LEGEND * SCALE), PAPER)
    draw = ImageDraw.Draw(image)
    cx, cy = geo.centre
    rim = geo.radius(len(board["rings"]))
    wheel = rim + geo.px(26)
    draw.ellipse(
        (cx - wheel, cy - wheel, cx + wheel, cy + wheel),
        fill=WOOD,
        outline=LINE,
        width=int(geo.px(2)),
    )

    castle_of = {
        point: key for key, castle in board["castles"].items() for point in castle["points"]
    }
    width = int(geo.px(3))
    for first, second in board["lines"]:
        castle = castle_of.get(first) or castle_of.get(second)
        colour = LINE
        if castle is not None:
            colour = CASTLE_COLOURS[castle] if castle in in_play else GREY
        _segment(draw, geo, first, second, colour, width)

    lair = geo.px(LAIR_PX)
    draw.ellipse(
        (cx - lair, cy - lair, cx + lair, cy + lair),
        fill=LAIR_GREEN,
        outline=INK,
        width=int(geo.px(2)),
    )

    dot = geo.px(4)
    for name, (_position, r) in geo.polar.items():
        if r <= 0 or name in castle_of:
            continue
        x, y = geo.point(name)
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=LINE)

    for key, castle in board["castles"].items():
        _draw_castle(draw, geo, key, castle, key in in_play)
    return image


TEXT = 29
"""The smallest type at SIZE: 11.3 px when a phone shows the board 400 px wide."""
OUTER_PX = 400  # spoke numbers round the rim: clear of anything on the outer ring
CASTLE_SPOKE_PX = 489  # a castle's spoke number, beyond its middle tower's name
INNER_PX = (LAIR_PX + RING_A_PX) / 2  # spoke numbers by the Lair
LAIR_WORD_DY = 43  # the Lair's name, below (or above) the Dragon standing on it
RING_LETTER_GAPS = (2.5, 6.5, 9.5, 13.5)
"""Where each ring's letter is printed, midway between two spokes, when nothing is there."""


@dataclass(frozen=True)
class _Label:
    """A word printed on the wheel: its text centred on ``xy``, on a patch of ``back``."""

    text: str
    xy: tuple[float, float]
    fill: tuple[int, int, int] = NUMBER_INK
    back: tuple[int, int, int] | None = WOOD

    @property
    def box(self) -> Box:
        left, top, right, bottom = text_box(self.text, TEXT, True, "mm")
        x, y = self.xy
        return (x + left, y + top, x + right, y + bottom)


def labels(view: dict[str, Any], locale: Locale = "en") -> list[tuple[str, Box]]:
    """Every name the wheel prints for ``view`` (spoke numbers, ring letters, castle points
    and the Lair, its name in ``locale``) with the box it covers. None lies under a piece
    or the last move (see :func:`covers`): a spoke number by the Lair is left out where one
    would cover it (the spoke's number round the rim stays), and a ring's letter moves to
    the next free gap."""
    return [(label.text, label.box) for label in _labels(view, locale)]


LAIR_ROOM = 2 * LAIR_PX - 24
"""How wide the Lair's name may be to be printed on the green alone; a longer one gets a
patch of green of its own, so the wheel's lines never cross it."""


def _labels(view: dict[str, Any], locale: Locale = "en") -> list[_Label]:
    board = load("stgeorge", "board")
    geo = _Geometry(board, SIZE)
    taken = list(covers(view))
    placed: list[_Label] = []

    def free(label: _Label) -> bool:
        box = label.box
        return not any(overlap(box, c) for c in taken) and not any(
            overlap(box, other.box, 2) for other in placed
        )

    def put(label: _Label) -> bool:
        if free(label):
            placed.append(label)
        return free(label) or label in placed

    castle_spokes = {castle["spoke"]: castle for castle in board["castles"].values()}
    for castle in board["castles"].values():
        for name in castle["points"]:
            position, r = geo.polar[name]
            put(_Label(name, geo.at(position, r + 1.05), back=None))
    for spoke in range(1, board["spokes"] + 1):
        distance = CASTLE_SPOKE_PX if spoke in castle_spokes else OUTER_PX
        put(_Label(str(spoke), _polar(geo, spoke, distance), back=None))
    lair = geo.point("lair")
    word = write(said("Lair"), locale)
    patch = None if text_length(word, TEXT, True) <= LAIR_ROOM else LAIR_GREEN
    for dy in (LAIR_WORD_DY, -LAIR_WORD_DY):
        if put(_Label(word, (lair[0], lair[1] + dy), LAIR_INK, back=patch)):
            break
    for spoke in range(1, board["spokes"] + 1):
        put(_Label(str(spoke), _polar(geo, spoke, INNER_PX)))
    for index, letter in enumerate(board["rings"]):
        used: set[float] = set()
        for gap in RING_LETTER_GAPS:
            for shift in (0, 1, -1, 2, -2):
                spot = (gap + shift - 1) % board["spokes"] + 1
                if spot not in used and put(_Label(letter, geo.at(spot, index + 1))):
                    used.add(spot)
                    break
    return placed


def _polar(geo: _Geometry, spoke: float, distance: float) -> tuple[float, float]:
    """The point ``distance`` px from the centre along spoke position ``spoke``."""
    theta = geo.angle(spoke)
    cx, cy = geo.centre
    return cx + geo.px(distance) * math.sin(theta), cy - geo.px(distance) * math.cos(theta)


def _draw_labels(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: Locale) -> None:
    """The wheel's names, each on its patch so board lines do not cross it."""
    face = font(TEXT, True)
    pad = TEXT * 0.18
    for label in _labels(view, locale):
        if label.back is not None:
            left, top, right, bottom = label.box
            draw.rectangle((left - pad, top - pad, right + pad, bottom + pad), fill=label.back)
        draw_text(draw, label.xy, label.text, face, label.fill, "mm")


def _draw_castle(
    draw: ImageDraw.ImageDraw, geo: _Geometry, key: str, castle: dict[str, Any], in_play: bool
) -> None:
    """The three castle points as towers: squares in the castle colour (grey if unused)."""
    colour = CASTLE_COLOURS[key] if in_play else GREY
    half = geo.px(KNIGHT_PX + 4)
    for name in castle["points"]:
        x, y = geo.point(name)
        draw.rounded_rectangle(
            (x - half, y - half, x + half, y + half),
            radius=geo.px(4),
            fill=_tint(colour, 0.78),
            outline=colour,
            width=int(geo.px(3)),
        )


def _tint(colour: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    """``colour`` mixed with white: 0 unchanged, 1 white."""
    red, green, blue = (round(c + (255 - c) * amount) for c in colour)
    return red, green, blue


# --- per view --------------------------------------------------------------------------


PATH_WIDTH = 12  # the last move's line, at SIZE
RING_PX = KNIGHT_PX + 6  # the rings round the last move's ends, at SIZE
RING_WIDTH = 6


def _route(geo: _Geometry, last: dict[str, Any] | None) -> list[str]:
    """The points of the last move's path this board knows (none if fewer than two)."""
    if not last or not last.get("path"):
        return []
    path = [p for p in last["path"] if p in geo.polar]
    return path if len(path) >= 2 else []


def _arrowhead(geo: _Geometry, path: list[str]) -> list[tuple[float, float]]:
    """The corners of the arrowhead that ends the last move's path, just short of its last
    point's piece."""
    (x1, y1), (x2, y2) = geo.point(path[-2]), geo.point(path[-1])
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    back = geo.px(KNIGHT_PX + 2)
    tip = (x2 - ux * back, y2 - uy * back)
    size = geo.px(24)
    base = (tip[0] - ux * size, tip[1] - uy * size)
    wing = geo.px(15)
    return [
        tip,
        (base[0] - uy * wing, base[1] + ux * wing),
        (base[0] + uy * wing, base[1] - ux * wing),
    ]


def _draw_path(draw: ImageDraw.ImageDraw, geo: _Geometry, last: dict[str, Any] | None) -> None:
    """The last move's route as a thick yellow line: a ring where it started, an arrowhead
    where it ended."""
    path = _route(geo, last)
    if not path:
        return
    width = int(geo.px(PATH_WIDTH))
    for first, second in pairwise(path):
        _segment(draw, geo, first, second, HIGHLIGHT, width)
    for name in path:
        x, y = geo.point(name)
        r = geo.px(6)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=HIGHLIGHT)
    x, y = geo.point(path[0])
    r = geo.px(RING_PX)
    ring = int(geo.px(RING_WIDTH))
    draw.ellipse((x - r, y - r, x + r, y + r), fill=PAPER, outline=HIGHLIGHT, width=ring)
    draw.polygon(_arrowhead(geo, path), fill=HIGHLIGHT, outline=INK, width=int(geo.px(2)))
    x2, y2 = geo.point(path[-1])
    draw.ellipse((x2 - r, y2 - r, x2 + r, y2 + r), outline=HIGHLIGHT, width=ring)


def _line_points(geo: _Geometry, first: str, second: str) -> list[tuple[float, float]]:
    """Points along the board line from ``first`` to ``second`` (an arc sampled every few
    pixels), as :func:`_segment` draws it."""
    (p1, r1), (p2, r2) = geo.polar[first], geo.polar[second]
    if r1 != r2 or r1 <= 0:
        return [geo.point(first), geo.point(second)]
    turn = (p2 - p1) % geo.spokes
    if turn > geo.spokes / 2:
        turn -= geo.spokes
    steps = max(2, math.ceil(abs(turn) * 2 * math.pi * geo.radius(r1) / geo.spokes / 6))
    return [geo.at(p1 + turn * i / steps, r1) for i in range(steps + 1)]


def covers(view: dict[str, Any]) -> list[Box]:
    """Boxes whose union holds everything drawn over the wheel for ``view``: every piece
    (Knights, the Dragon), and the last move's line, its rings and its arrowhead. No board
    label and no destination mark lies under any of them."""
    geo = _Geometry(load("stgeorge", "board"), SIZE)
    boxes: list[Box] = []
    for piece in view.get("pieces", []):
        if piece.get("point") in geo.polar:
            x, y = geo.point(piece["point"])
            reach = DRAGON_PX + 3 if piece.get("owner") == "dragon" else KNIGHT_PX + 1
            boxes += disc_boxes(x, y, geo.px(reach))
    path = _route(geo, view.get("last"))
    if path:
        for first, second in pairwise(path):
            for a, b in pairwise(_line_points(geo, first, second)):
                boxes += segment_boxes(a, b, geo.px(PATH_WIDTH / 2))
        for name in (path[0], path[-1]):
            boxes += disc_boxes(*geo.point(name), geo.px(RING_PX + 1))
        head = _arrowhead(geo, path)
        xs, ys = [q[0] for q in head], [q[1] for q in head]
        pad = geo.px(2)
        boxes.append((min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad))
    return boxes


def mark_boxes(view: dict[str, Any], locale: Locale = "en") -> dict[str, Box]:
    """The box of each destination mark of ``view`` as :func:`picture` draws it in
    ``locale``, by its label. Raises ``ValueError`` naming a mark's point that is not on
    the board."""
    return {spot.mark.label: spot.box for spot in _placed_marks(view, locale)}


def _placed_marks(view: dict[str, Any], locale: Locale = "en") -> list[Placed]:
    """Where the marks of ``view`` go: each on its point when the disc there covers no
    piece, arrow or other mark, else nearby (outward from the crowded middle first) with a
    leader line to the point, stopping at the edge of the piece standing there."""
    marks = Mark.all_in(view)
    if not marks:
        return []
    geo = _Geometry(load("stgeorge", "board"), SIZE)
    places = {name: geo.point(name) for name in geo.polar}
    holds = {
        p["point"]: geo.px(DRAGON_PX + 4 if p.get("owner") == "dragon" else KNIGHT_PX + 3)
        for p in view.get("pieces", [])
        if p.get("point") in geo.polar
    }
    bounds = (0.0, 0.0, float(SIZE), float(SIZE))
    # Where it can, a mark keeps off the wheel's names and the corners' counts.
    avoid: list[tuple[Box, str | None]] = [(box, None) for _, box in labels(view, locale)]
    avoid += [(box, None) for box in _badge_boxes()]
    return place_marks(
        marks, places, SIZE, covers(view), bounds, holds=holds, avoid=avoid, toward=geo.centre
    )


def _badge_boxes() -> list[Box]:
    """Roughly where each corner's counts badge lies."""
    wide, tall = 380.0, 130.0
    return [
        (0.0, 0.0, wide, tall),
        (SIZE - wide, 0.0, float(SIZE), tall),
        (0.0, SIZE - tall, wide, float(SIZE)),
        (SIZE - wide, SIZE - tall, float(SIZE), float(SIZE)),
    ]


def _draw_pieces(draw: ImageDraw.ImageDraw, geo: _Geometry, pieces: list[dict[str, Any]]) -> None:
    board = load("stgeorge", "board")
    for piece in pieces:
        if piece.get("point") not in geo.polar:
            continue
        xy = geo.point(piece["point"])
        owner = piece.get("owner")
        if owner == "dragon":
            _draw_dragon(draw, geo, xy)
        elif owner in CASTLE_COLOURS:
            _draw_knight(draw, geo, xy, owner, board["castles"][owner]["letter"])


def _draw_knight(
    draw: ImageDraw.ImageDraw,
    geo: _Geometry,
    xy: tuple[float, float],
    castle: str,
    letter: str,
    radius: float = KNIGHT_PX,
) -> None:
    """A disc in the castle's colour with the castle letter (readable without colour)."""
    x, y = xy
    r = geo.px(radius)
    draw.ellipse(
        (x - r, y - r, x + r, y + r),
        fill=CASTLE_COLOURS[castle],
        outline=INK,
        width=max(1, int(geo.px(2))),
    )
    ink = ink_on(CASTLE_COLOURS[castle])
    draw_text(draw, (x, y + geo.px(1)), letter, font(int(geo.px(TEXT)), True), ink, "mm")


def _draw_dragon(
    draw: ImageDraw.ImageDraw, geo: _Geometry, xy: tuple[float, float], radius: float = DRAGON_PX
) -> None:
    """A dark eight-pointed star with eyes on a pale disc: no Knight has spikes, so the
    Dragon stands out without relying on colour."""
    x, y = xy
    halo = geo.px(radius + 2)
    draw.ellipse(
        (x - halo, y - halo, x + halo, y + halo),
        fill=DRAGON_EDGE,
        outline=INK,
        width=max(1, int(geo.px(2))),
    )
    outer, inner = geo.px(radius - 1), geo.px(radius * 0.55)
    star = []
    for i in range(16):
        r = outer if i % 2 == 0 else inner
        theta = i * math.pi / 8
        star.append((x + r * math.sin(theta), y - r * math.cos(theta)))
    draw.polygon(star, fill=DRAGON_COLOUR)
    eye = geo.px(3.5)
    for dx in (-5, 5):
        ex = x + geo.px(dx)
        draw.ellipse((ex - eye, y - geo.px(3) - eye, ex + eye, y - geo.px(3) + eye), fill=EYES)


TITLE_END = 470
"""How far from its side of the picture a corner's title may reach: short of the spoke
number at the top (and bottom) of the wheel."""
LINE_END = 380
"""How far from its side a corner's counts may reach: short of the castle points' names
beside them (the corners' own room, :func:`_badge_boxes`)."""


def _draw_castle_counts(
    draw: ImageDraw.ImageDraw,
    geo: _Geometry,
    board: dict[str, Any],
    view: dict[str, Any],
    locale: Locale,
) -> None:
    """In the corner nearest each castle: its Knight and name, its counts, and a row of its
    Knights, those in the Lair plain and those taken crossed out (off the wheel, so no label
    there is covered). Each corner's words keep to their half of the picture."""
    in_play = view.get("castles_in_play", [])
    taken = view.get("taken", {})
    scored = view.get("scored", {})
    size = SIZE * geo.k
    to_move = view.get("to_move")
    seats = view.get("seats", [])
    moving = (
        set(seats[to_move].get("castles", []))
        if to_move is not None and to_move < len(seats)
        else set()
    )
    for key, castle in board["castles"].items():
        letter = castle["letter"]
        playing = key in in_play
        corner = BADGE_CORNER[key]
        x = geo.px(16) if "w" in corner else size - geo.px(16)
        y = geo.px(14) if "n" in corner else size - geo.px(112)
        anchor = "la" if "w" in corner else "ra"
        # The castle's own Knight glyph at the corner, then its name in dark ink (a name
        # printed in a light castle colour could not be read).
        disc = geo.px(KNIGHT_PX)
        sign = 1 if "w" in corner else -1
        if playing:
            _draw_knight(draw, geo, (x + sign * disc, y + geo.px(13)), key, letter)
        else:
            draw.ellipse((x + sign * disc - disc, y + geo.px(13) - disc, x + sign * disc + disc,
                          y + geo.px(13) + disc), fill=GREY)  # fmt: skip
        title = castle["name"]
        if not playing:
            title = write(said("{castle} (not used)", castle=title), locale)
        if key in moving:
            title = "▶ " + title if "w" in corner else title + " ◀"
        text_x = x + sign * (2 * disc + geo.px(8))
        type_size = int(geo.px(TEXT))
        title = fit(title, type_size, geo.px(TITLE_END - 16) - abs(text_x - x), True)
        draw_text(draw, (text_x, y), title, font(type_size, True), INK, anchor)
        if playing:
            counts_said = said(
                "in the Lair {scored} · taken {taken}",
                scored=int(scored.get(key, 0)),
                taken=int(taken.get(key, 0)),
            )
            line = fit(write(counts_said, locale), type_size, geo.px(LINE_END - 16))
            draw_text(draw, (x, y + geo.px(40)), line, font(type_size), INK, anchor)
            counts = (int(scored.get(key, 0)), int(taken.get(key, 0)))
            _draw_knight_row(draw, geo, (x, y + geo.px(90)), counts, key, letter, "w" in corner)


def _draw_knight_row(
    draw: ImageDraw.ImageDraw,
    geo: _Geometry,
    xy: tuple[float, float],
    counts: tuple[int, int],
    castle: str,
    letter: str,
    left: bool,
) -> None:
    """From the corner inward: one Knight per Knight of this castle in the Lair, then one
    crossed-out Knight per Knight the Dragon took."""
    x, y = xy
    scored, taken = counts
    step = geo.px(2 * KNIGHT_PX + 4)
    for i in range(scored + taken):
        cx = x + geo.px(KNIGHT_PX) + i * step if left else x - geo.px(KNIGHT_PX) - i * step
        _draw_knight(draw, geo, (cx, y), castle, letter)
        if i < scored:
            continue
        r = geo.px(KNIGHT_PX - 2)
        draw.line((cx - r, y - r, cx + r, y + r), fill=INK, width=int(geo.px(2.5)))
        draw.line((cx - r, y + r, cx + r, y - r), fill=INK, width=int(geo.px(2.5)))


def _draw_legend(
    draw: ImageDraw.ImageDraw,
    board: dict[str, Any],
    view: dict[str, Any],
    size: int,
    locale: Locale = "en",
) -> None:
    """The strip under the board: the die, whose turn it is and what just happened beside
    it (two lines at most, cut short past them), and the seats in a row under them all."""
    k = size / SIZE
    top = size
    _draw_die(draw, (24 * k, top + 22 * k), 96 * k, view.get("roll"))
    x = 144 * k
    room = size - x - 16 * k
    status = _status(view, locale)
    status_size = fitting_size(status, int(30 * k), int(TEXT * k), room, True)
    status = fit(status, status_size, room, True)
    draw_text(draw, (x, top + 12 * k), status, font(status_size, True), INK)
    lines = wrap(_news(view, locale), int(TEXT * k), room, most=2)
    for i, line in enumerate(lines):
        draw_text(draw, (x, top + (52 + 34 * i) * k), line, font(int(TEXT * k)), INK)
    _draw_seat_chips(draw, board, view, (16 * k, top + 152 * k), k)


def _draw_legend_ground(draw: ImageDraw.ImageDraw, size: int) -> None:
    """What the legend strip shows whatever the view: its ground, its rule, the die's face."""
    k = size / SIZE
    top = size
    draw.rectangle((0, top, size, top + LEGEND * k), fill=LEGEND_BACK)
    draw.line((0, top, size, top), fill=LINE, width=int(2 * k))
    _die_face(draw, (24 * k, top + 22 * k), 96 * k)


def _news(view: dict[str, Any], locale: Locale = "en") -> str:
    """What just happened, in words (in ``locale``): the result (the engine's words), a
    passed turn, or the last move."""
    seats = view.get("seats", [])

    def name(index: Any) -> str:
        ok = isinstance(index, int) and 0 <= index < len(seats)
        return str(seats[index].get("name", "")) if ok else ""

    if view.get("phase") == "over":
        return str(view.get("result") or "")
    told = []
    if view.get("passed") and view.get("roll") is not None:
        told.append(
            said(
                "{player} rolled {roll}: no legal move, the turn passed.",
                player=name(view.get("roll_seat")),
                roll=str(view.get("roll")),
            )
        )
    last = view.get("last")
    if last:
        told.append(_last_move(last, name(last.get("seat"))))
    elif not told:
        told.append(said("The Knights start in their castles and the Dragon on the Lair."))
    return " ".join(write(sentence, locale) for sentence in told)


def _last_move(last: dict[str, Any], player: str) -> Said:
    """The last move in one sentence: who rolled what, from where to where, and what it
    took or reached."""
    move = {
        "player": player,
        "roll": str(last.get("roll")),
        "start": str(last.get("from")),
        "end": str(last.get("to")),
    }
    captured, scored = last.get("captured"), last.get("scored")
    if captured and scored:
        return said(
            "Last move: {player} rolled {roll}, {start} → {end}, taking a Knight of {castle}, "
            "reaching the Lair.",
            castle=_castle_name(captured),
            **move,
        )
    if captured:
        return said(
            "Last move: {player} rolled {roll}, {start} → {end}, taking a Knight of {castle}.",
            castle=_castle_name(captured),
            **move,
        )
    if scored:
        return said(
            "Last move: {player} rolled {roll}, {start} → {end}, reaching the Lair.", **move
        )
    return said("Last move: {player} rolled {roll}, {start} → {end}.", **move)


def _castle_name(key: str) -> str:
    castle = load("stgeorge", "board")["castles"].get(key)
    return castle["name"] if castle else key


def _status(view: dict[str, Any], locale: Locale = "en") -> str:
    """Whose turn it is and what they do now (in ``locale``), or that the game is over."""
    seats = view.get("seats", [])
    if view.get("phase") == "over":
        return write(said("Game over"), locale)
    to_move = view.get("to_move")
    if to_move is None or to_move >= len(seats):
        return ""
    name = str(seats[to_move].get("name", ""))
    turn = str(view.get("turn"))
    if view.get("phase") == "roll":
        return write(said("Turn {turn} · {player} to roll", turn=turn, player=name), locale)
    doing = said(
        "Turn {turn} · {player} to move {roll}", turn=turn, player=name, roll=str(view.get("roll"))
    )
    return write(doing, locale)


def _draw_seat_chips(
    draw: ImageDraw.ImageDraw,
    board: dict[str, Any],
    view: dict[str, Any],
    xy: tuple[float, float],
    k: float,
) -> None:
    """The seats in turn order, each with its pieces (a castle's Knight with its letter, so
    the owner shows without colour) and its name, cut short to share the line; the one to
    act underlined."""
    x, y = xy
    to_move = view.get("to_move")
    face = font(int(TEXT * k))
    box = int(TEXT * k)
    geo = _Geometry(board, round(SIZE * k))
    seats = view.get("seats", [])
    chips = sum(
        (2 * KNIGHT_PX + 3) * k * len(s["castles"]) if s.get("castles") else 23 * k for s in seats
    )
    room = SIZE * k - 16 * k - x - chips - len(seats) * 16 * k
    cap = widest([text_length(s.get("name", ""), box) for s in seats], room)
    for index, seat in enumerate(seats):
        castles = seat.get("castles", [])
        for castle in castles:
            r = KNIGHT_PX * k
            if castle in CASTLE_COLOURS:
                letter = board["castles"][castle]["letter"]
                _draw_knight(draw, geo, (x + r, y), castle, letter)
            x += 2 * r + 3 * k
        if not castles:
            r = 10 * k
            draw.regular_polygon((x + r, y, r), 4, rotation=45, fill=DRAGON_COLOUR)
            x += 2 * r + 3 * k
        name = fit(seat.get("name", ""), box, cap)
        draw_text(draw, (x + 2 * k, y), name, face, INK, "lm")
        right = x + 2 * k + text_box(name, box, False, "lm")[2]
        if index == to_move:
            draw.line((x, y + 16 * k, right, y + 16 * k), fill=INK, width=int(3 * k))
        x = right + 14 * k


def _draw_die(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], side: float, value: int | None
) -> None:
    """The spots of ``value`` on the die's face (a "?" before the first roll)."""
    x, y = xy
    if value is None:
        draw_text(draw, (x + side / 2, y + side / 2), "?", font(int(side * 0.5), True), LABEL, "mm")
        return
    spots = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }.get(int(value), [])
    pip = side * 0.09
    for col, row in spots:
        px = x + side * (0.24 + 0.26 * col)
        py = y + side * (0.24 + 0.26 * row)
        draw.ellipse((px - pip, py - pip, px + pip, py + pip), fill=INK)


def _die_face(draw: ImageDraw.ImageDraw, xy: tuple[float, float], side: float) -> None:
    """The blank die."""
    x, y = xy
    draw.rounded_rectangle(
        (x, y, x + side, y + side),
        radius=side * 0.16,
        fill=WHITE,
        outline=INK,
        width=max(2, int(side * 0.04)),
    )
