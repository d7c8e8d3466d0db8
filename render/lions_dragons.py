"""Board picture for Lions and Dragons Chess, drawn from the public view only.

The board is a hexagon of flat-topped cells (a Glinski board): files a-l (no j) along the
bottom, ranks up the sides, White at the bottom. Each cell's name is printed in its upper
part and its piece stands in the lower part, so no piece hides a name. Non-hexes (Lions) are
dark red cells with a lion's mane and an "L"; goals are gold. Pieces are letters in a shape,
White light with a dark outline, Black dark; a Dragon-with-Ball has a gold ring and a large
Ball at its corner; Balls gold; Fireballs orange with an arrow along their flight. The last
action's cells are outlined in blue and everything it took gets an X on a white disc.
The picture is portrait (board above, legend below) and every word is at least 22 px on
its 800 px width: 11 px when a phone shows it 400 px wide. No piece, capture mark or
Fireball line lies over a cell's name (:func:`covers`). The cached background holds the
board and the legend's keys; each view draws pieces, marks, whose turn it is and the result,
and a view made for one choice its destination marks last, over everything
(:func:`mark_boxes`).
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import pairwise
from typing import Any

from PIL import Image, ImageDraw

from i18n import Locale, Said, said, write
from render.common import (
    BLUE,
    INK,
    PAPER,
    VERMILLION,
    WHITE,
    Colour,
    Palette,
    centered_text,
    draw_text,
    fit,
    fitting_size,
    font,
    png_bytes,
    text_box,
    text_length,
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

SIZE = 42  # hex circumradius in px
WIDTH, HEIGHT = 800, 1204
CENTRE = (400.0, 428.0)
NAME_DY = -21  # a cell's name sits this far above its centre...
PIECE_DY = 10  # ...and its piece this far below, clear of the name
PIECE_R = 0.42  # a piece's radius, in hex radii
TEXT = 22  # the smallest type: 11 px when the picture is shown 400 px wide
SQRT3 = math.sqrt(3)

CELL_TONES = ((236, 224, 198), (214, 196, 160), (190, 168, 128))
GRID = (120, 100, 76)
LION_FILL = (140, 28, 28)
MANE = (232, 170, 48)
GOAL_FILL = (255, 214, 92)
GOAL_EDGE = (176, 120, 0)
LAST_EDGE = BLUE
CAPTURE = VERMILLION
WHITE_FILL, WHITE_INK = (252, 250, 244), (30, 28, 26)
BLACK_FILL, BLACK_INK = (38, 36, 44), (250, 248, 240)
BALL_FILL = (246, 196, 40)
FIRE_FILL, FIRE_EDGE = (255, 140, 20), (190, 50, 0)
LION_EDGE, MANE_EDGE, MANE_CENTRE = (70, 10, 10), (120, 70, 0), (250, 222, 150)
BLACK_EDGE = (150, 150, 160)
MUTED = (120, 104, 84)
LEGEND_TOP = 884
KEYS_TOP = 1028
KEY_COLUMNS = (20, 280, 540)
KEY_ROW = 44
NAME_INK = (92, 76, 58)

LETTERS = {"wizard": "W", "proto": "P", "dragon": "D", "dragon_ball": "D", "roc": "R"}
DIRECTIONS = {"n": (0, -1), "ne": (1, -1), "se": (1, 0), "s": (0, 1), "sw": (-1, 1), "nw": (-1, 0)}
LEGEND = (
    ("wizard", said("Wizard")),
    ("proto", said("Proto-Dragon")),
    ("dragon", said("Dragon")),
    ("dragon_ball", said("Dragon-with-Ball")),
    ("roc", said("Roc")),
    ("ball", said("Ball")),
    ("fireball", said("Fireball")),
)
"""Each piece the legend shows, and its name."""


def centre_of(q: int, r: int) -> tuple[float, float]:
    """Pixel centre of axial cell ``(q, r)`` (flat-topped hexes, north up)."""
    return CENTRE[0] + SIZE * 1.5 * q, CENTRE[1] + SIZE * SQRT3 * (r + q / 2)


def hex_points(x: float, y: float, radius: float = SIZE) -> list[tuple[float, float]]:
    """Corners of a flat-topped hexagon centred on ``(x, y)``."""
    return [
        (x + radius * math.cos(math.radians(60 * i)), y + radius * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def _geometry(view: dict[str, Any]) -> dict[str, tuple[float, float]]:
    return {c["name"]: centre_of(c["q"], c["r"]) for c in view["cells"]}


@lru_cache(maxsize=16)
def _background(
    cells: tuple[tuple[str, int, int], ...],
    lions: tuple[str, ...],
    goals: tuple[str, ...],
    keys: tuple[tuple[str, str | None], ...],
    locale: Locale = "en",
) -> Image.Image:
    """The board without pieces: cells, names, edge labels, Lions and goals, and the
    legend's keys with the goals ``keys`` names, in ``locale`` (cached). The Lions, which
    stand where each game put them, go over the board without them, drawn once for every
    game."""
    image = _lionless(cells, goals, keys, locale).copy()
    draw = ImageDraw.Draw(image)
    for name, q, r in cells:
        if name in lions:
            _draw_lion(draw, *centre_of(q, r))
    return image


@lru_cache(maxsize=8)
def _lionless(
    cells: tuple[tuple[str, int, int], ...],
    goals: tuple[str, ...],
    keys: tuple[tuple[str, str | None], ...],
    locale: Locale = "en",
) -> Image.Image:
    """The board without pieces or Lions (cached)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    names = font(TEXT, True)
    for name, q, r in cells:
        x, y = centre_of(q, r)
        fill = GOAL_FILL if name in goals else CELL_TONES[(q - r) % 3]
        draw.polygon(hex_points(x, y), fill=fill, outline=GRID)
        if name in goals:
            draw.polygon(hex_points(x, y, SIZE - 5), outline=GOAL_EDGE, width=4)
        draw_text(draw, (x, y + NAME_DY), name, names, NAME_INK, "mm")
    _edge_labels(draw, cells)
    draw.line([(20, LEGEND_TOP - 8), (WIDTH - 20, LEGEND_TOP - 8)], fill=GRID, width=2)
    _legend_keys(draw, keys, locale)
    return image


def _draw_lion(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A non-hex: dark red cell, a golden mane and a bold "L" (clearly not a playable cell)."""
    draw.polygon(hex_points(x, y), fill=LION_FILL, outline=LION_EDGE, width=2)
    spikes = []
    for i in range(24):
        radius = SIZE * (0.62 if i % 2 == 0 else 0.44)
        angle = math.radians(i * 15)
        spikes.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    draw.polygon(spikes, fill=MANE, outline=MANE_EDGE)
    draw.ellipse(
        [x - SIZE * 0.34, y - SIZE * 0.34, x + SIZE * 0.34, y + SIZE * 0.34],
        fill=MANE_CENTRE,
        outline=MANE_EDGE,
    )
    centered_text(draw, (x, y + 1), "L", TEXT, fill=LION_FILL, bold=True)


def _edge_labels(draw: ImageDraw.ImageDraw, cells: tuple[tuple[str, int, int], ...]) -> None:
    """File letters under each file's first cell, rank numbers beside both ends of each rank."""
    by_name = {name: (q, r) for name, q, r in cells}
    files: dict[str, list[int]] = {}
    for name in by_name:
        files.setdefault(name[0], []).append(int(name[1:]))
    ranks: dict[int, list[str]] = {}
    for name in by_name:
        ranks.setdefault(int(name[1:]), []).append(name)
    for letter in files:
        x, y = centre_of(*by_name[f"{letter}1"])
        centered_text(draw, (x, y + SIZE * 0.87 + 16), letter, TEXT, fill=INK, bold=True)
    for rank, names in ranks.items():
        left = min(names, key=lambda n: by_name[n][0])
        right = max(names, key=lambda n: by_name[n][0])
        for name, sign in ((left, -1), (right, 1)):
            x, y = centre_of(*by_name[name])
            if rank <= 6:  # on the vertical side of the board: straight out
                spot = (x + sign * (SIZE + 16), y)
            else:  # on a slanted upper edge: out along the edge's normal
                spot = (x + sign * SIZE * 1.2, y - SIZE * 0.75)
            centered_text(draw, spot, str(rank), TEXT, fill=INK, bold=True)


def _piece(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    kind: str,
    side: str | None,
    direction: str | None = None,
    scale: float = 1.0,
) -> None:
    """One piece glyph centred on ``(x, y)``."""
    rad = SIZE * PIECE_R * scale
    if kind == "ball":
        _ball(draw, x, y, rad * 0.8)
        return
    if kind == "fireball":
        _fireball(draw, x, y, rad * 0.85, direction or "n")
        return
    fill, ink = (WHITE_FILL, WHITE_INK) if side == "white" else (BLACK_FILL, BLACK_INK)
    outline = WHITE_INK if side == "white" else BLACK_EDGE
    box = [x - rad, y - rad, x + rad, y + rad]
    if kind == "roc":
        draw.rounded_rectangle(box, radius=rad * 0.35, fill=fill, outline=outline, width=3)
    elif kind == "proto":
        draw.ellipse(
            [x - rad * 0.8, y - rad, x + rad * 0.8, y + rad], fill=fill, outline=outline, width=3
        )
    elif kind == "wizard":
        draw.ellipse(box, fill=fill, outline=outline, width=3)
        inner = rad - 6
        draw.ellipse([x - inner, y - inner, x + inner, y + inner], outline=outline, width=1)
    else:  # dragon, dragon_ball: a hexagon, pointy side up
        points = [
            (
                x + rad * math.cos(math.radians(60 * i + 30)),
                y + rad * math.sin(math.radians(60 * i + 30)),
            )
            for i in range(6)
        ]
        draw.polygon(points, fill=fill, outline=outline, width=3)
        if kind == "dragon_ball":  # a gold ring inside the edge: told apart by shape too
            ring = [(x + (px - x) * 0.78, y + (py - y) * 0.78) for px, py in points]
            draw.polygon(ring, outline=BALL_FILL, width=4)
    size = max(TEXT, round(TEXT * scale))
    centered_text(draw, (x, y + 1), LETTERS[kind], size, fill=ink, bold=True)
    if kind == "dragon_ball":
        _ball(draw, *_ball_spot(x, y, rad))


def _ball_spot(x: float, y: float, rad: float) -> tuple[float, float, float]:
    """Where a Dragon-with-Ball of radius ``rad`` at ``(x, y)`` shows its Ball: centre and
    radius."""
    return x + rad * 0.95, y - rad * 0.68, rad * 0.55


def _ball(draw: ImageDraw.ImageDraw, x: float, y: float, rad: float) -> None:
    draw.ellipse([x - rad, y - rad, x + rad, y + rad], fill=BALL_FILL, outline=INK, width=2)
    seam = rad * 0.45  # a patch, so the Ball reads as a ball rather than a coin
    patch = [
        (
            x + seam * math.cos(math.radians(72 * i - 90)),
            y + seam * math.sin(math.radians(72 * i - 90)),
        )
        for i in range(5)
    ]
    draw.polygon(patch, fill=INK)


def _fireball(draw: ImageDraw.ImageDraw, x: float, y: float, rad: float, direction: str) -> None:
    draw.ellipse([x - rad, y - rad, x + rad, y + rad], fill=FIRE_FILL, outline=FIRE_EDGE, width=3)
    tip, head = _fireball_arrow(x, y, rad, direction)
    ux, uy = _unit(direction)
    tail = (x - ux * rad * 0.7, y - uy * rad * 0.7)
    draw.line([tail, tip], fill=FIRE_EDGE, width=5)
    draw.polygon([tip, *head], fill=FIRE_EDGE)


def _unit(direction: str) -> tuple[float, float]:
    """The unit vector in the picture of a step ``direction``."""
    dq, dr = DIRECTIONS[direction]
    dx, dy = 1.5 * dq, SQRT3 * (dr + dq / 2)
    length = math.hypot(dx, dy)
    return dx / length, dy / length


def _fireball_arrow(
    x: float, y: float, rad: float, direction: str
) -> tuple[tuple[float, float], list[tuple[float, float]]]:
    """The tip of a Fireball's arrow and the two back corners of its head."""
    ux, uy = _unit(direction)
    tip = (x + ux * (rad + 6), y + uy * (rad + 6))  # short: clear of the cell's name
    px, py = -uy, ux
    head = [
        (tip[0] - ux * 12 + px * 8, tip[1] - uy * 12 + py * 8),
        (tip[0] - ux * 12 - px * 8, tip[1] - uy * 12 - py * 8),
    ]
    return tip, head


def _cross(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A capture mark at the left of a cell, below its name (the piece now there stays
    visible): an X on a white disc in a dark ring, a shape no piece has."""
    (cx, cy), arm = _cross_centre(x, y), 7
    draw.ellipse([cx - 12, cy - 12, cx + 12, cy + 12], fill=WHITE, outline=INK, width=2)
    draw.line([(cx - arm, cy - arm), (cx + arm, cy + arm)], fill=CAPTURE, width=5)
    draw.line([(cx - arm, cy + arm), (cx + arm, cy - arm)], fill=CAPTURE, width=5)


def _cross_centre(x: float, y: float) -> tuple[float, float]:
    """Where the capture mark of the cell centred on ``(x, y)`` stands."""
    return x - SIZE * 0.62, y + SIZE * 0.12


def _flight_list(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The last action's Fireball flights: its shot first, then those it set off."""
    last = view.get("last") or {}
    flights = list(last.get("fireballs") or [])
    if last.get("shot"):
        flights.insert(0, last["shot"])
    return flights


def _flights(
    view: dict[str, Any], where: dict[str, tuple[float, float]]
) -> list[list[tuple[float, float]]]:
    """The line each Fireball of the last action flew, through its cells' centres."""
    lines = []
    for flight in _flight_list(view):
        trail = [flight["start"], *flight["path"]]
        if flight.get("hit"):
            trail.append(flight["hit"])
        points = [where[c] for c in trail if c in where]
        if len(points) > 1:
            lines.append(points)
    return lines


def _crossed(view: dict[str, Any]) -> list[str]:
    """The cells where the last action took something: its captures and Fireball hits."""
    last = view.get("last")
    if not last:
        return []
    crossed = [p["cell"] for p in last.get("captured", [])]
    for flight in _flight_list(view):
        if flight["outcome"] in ("destroyed", "converted", "ball_left"):
            crossed.append(flight["hit"])
    return crossed


def _highlights(
    image: Image.Image,
    ground: Image.Image,
    view: dict[str, Any],
    where: dict[str, tuple[float, float]],
) -> list[str]:
    """Trace Fireball flights (broken where they cross a cell's name, which shows through
    from ``ground``, the board without them) and outline the last action's cells on
    ``image``; returns the cells to cross."""
    draw = ImageDraw.Draw(image)
    last = view.get("last")
    if not last:
        return []
    for points in _flights(view, where):
        draw.line(points, fill=FIRE_FILL, width=TRAIL_WIDTH)
    for hole in _name_holes(view, where):  # the names show through the flight lines
        image.paste(ground.crop(hole), hole[:2])
    # Thin enough to stay above the cell's name.
    for cell, width in ((last.get("from"), 3), (last.get("to"), 4)):
        if cell in where:
            draw.polygon(hex_points(*where[cell], SIZE - 2.5), outline=LAST_EDGE, width=width)
    return _crossed(view)


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int = TEXT,
    fill: Colour = INK,
    bold: bool = False,
    anchor: str = "la",
) -> None:
    draw_text(draw, xy, text, font(size, bold), fill, anchor)


TITLE = "Lions and Dragons Chess"
"""The game's name, at the head of the legend (a name, the same in every language)."""


def _status(view: dict[str, Any]) -> Said:
    """Who won (or a draw), or whose move it is."""
    result = view.get("result")
    if result:
        winner = result.get("winner")
        if not winner:
            return said("Draw")
        if winner in ("white", "black"):
            return said("White wins") if winner == "white" else said("Black wins")
        return said("{side} wins", side=str(winner).capitalize())
    side = view.get("to_move") or ""
    if side in ("white", "black"):
        return said("White to move") if side == "white" else said("Black to move")
    return said("{side} to move", side=str(side).capitalize())


def _reserve_words(side: str, count: object) -> Said:
    """A side's Proto-Dragons in hand: ``White 3``."""
    if side == "white":
        return said("White {count}", count=str(count))
    return said("Black {count}", count=str(count))


def _legend_head(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: Locale) -> None:
    """Whose move it is (or the result) and the turn, right of the title; the count of each
    side's Proto-Dragons in hand; the result's words."""
    result = view.get("result")
    number = view.get("turn", view.get("ply", 0) + 1)  # a view drawn before it carried "turn"
    turn = (
        write(_status(view), locale)
        + "  \u00b7  "
        + write(said("turn {turn}", turn=str(number)), locale)
    )
    room = WIDTH - 20 - (20 + text_length(TITLE, 24, True) + 24)
    size = fitting_size(turn, 24, TEXT, room, True)
    turn = fit(turn, size, room, True)
    _text(draw, (WIDTH - 20, LEGEND_TOP), turn, size, CAPTURE if result else INK, True, "ra")
    reserves = view.get("reserves", {})
    spots = _reserve_x(locale)
    ends = (spots[1] - 16 - PROTO_R, WIDTH - 20)
    for side, x, end in zip(("white", "black"), spots, ends, strict=True):
        words = write(_reserve_words(side, reserves.get(side, 0)), locale)
        _text(draw, (x + 20, LEGEND_TOP + 42), fit(words, TEXT, end - x - 20), TEXT)
    if result:
        lines = wrap(str(result.get("text", "")), TEXT, WIDTH - 40, most=2)
        for index, line in enumerate(lines):
            _text(draw, (20, LEGEND_TOP + 72 + 26 * index), line, TEXT, CAPTURE)


RESERVE_X = (300, 470)
"""Where the glyphs of the Proto-Dragons in hand stand (at the least: further right when
the words before them are longer); each side's count is right of its."""
PROTO_R = round(SIZE * PIECE_R * 0.7)
"""Half the width of a Proto-Dragon in hand's glyph."""


@lru_cache(maxsize=8)
def _reserve_x(locale: Locale) -> tuple[float, float]:
    """Where the glyphs of the Proto-Dragons in hand stand in ``locale``: right of the
    words that name them, each side's glyph right of the count before it."""
    label = text_length(write(said("Proto-Dragons in hand:"), locale), TEXT)
    white = max(RESERVE_X[0], 20 + label + 10 + PROTO_R)
    count = text_length(write(_reserve_words("white", 88), locale), TEXT)
    black = max(white + RESERVE_X[1] - RESERVE_X[0], white + 20 + count + 16 + PROTO_R)
    return white, black


def _goal_words(side: str, cell: str | None) -> Said:
    """A side's goal and its cell: ``White's goal f10``."""
    if side == "white":
        return said("White's goal {cell}", cell=str(cell))
    return said("Black's goal {cell}", cell=str(cell))


KEY_GAP = 10
"""Room kept between a key's words and the next column."""


def _key_words(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str) -> None:
    """A key's words, right of ``xy`` and centred on its height, cut short of the next
    column (a key's row has no room for a second line)."""
    x, y = xy
    right = next((c for c in KEY_COLUMNS if c > x), WIDTH - 20 + KEY_GAP)
    _text(draw, (x, y), fit(text, TEXT, right - KEY_GAP - x), TEXT, anchor="lm")


def _legend_keys(
    draw: ImageDraw.ImageDraw, goals: tuple[tuple[str, str | None], ...], locale: Locale
) -> None:
    """The legend's fixed part, its words in ``locale``: the title, the glyphs of the
    Proto-Dragons in hand, and in three columns each piece with its name, the goals, Lions,
    the last-move and capture marks."""
    _text(draw, (20, LEGEND_TOP), TITLE, 24, bold=True)
    _text(draw, (20, LEGEND_TOP + 42), write(said("Proto-Dragons in hand:"), locale), TEXT)
    for side, x in zip(("white", "black"), _reserve_x(locale), strict=True):
        _piece(draw, x, LEGEND_TOP + 54, "proto", side, scale=0.7)
    spots = iter([(x, KEYS_TOP + KEY_ROW * row) for row in range(4) for x in KEY_COLUMNS])
    for kind, name in LEGEND:
        x, y = next(spots)
        owner = None if kind in ("ball", "fireball") else "white"
        _piece(draw, x + 18, y + 2, kind, owner, "ne")
        _key_words(draw, (x + 44, y), write(name, locale))
    for side, cell in goals:
        x, y = next(spots)
        draw.polygon(hex_points(x + 18, y, 16), fill=GOAL_FILL, outline=GOAL_EDGE)
        _key_words(draw, (x + 44, y), write(_goal_words(side, cell), locale))
    x, y = next(spots)
    draw.polygon(hex_points(x + 18, y, 16), fill=LION_FILL)
    _key_words(draw, (x + 44, y), write(said("Lion: not a cell"), locale))
    x, y = next(spots)
    draw.polygon(hex_points(x + 18, y, 16), outline=LAST_EDGE, width=4)
    _key_words(draw, (x + 44, y), write(said("last move"), locale))
    x, y = next(spots)
    _cross(draw, x + 18 + SIZE * 0.62, y - SIZE * 0.12)
    _key_words(draw, (x + 44, y), write(said("captured / hit"), locale))


def render(view: dict[str, Any], locale: Locale = "en") -> bytes:
    """PNG of the public view of a Lions and Dragons game, its words in ``locale``."""
    return encode(picture(view, locale))


def picture(view: dict[str, Any], locale: Locale = "en") -> Image.Image:
    """The RGB picture :func:`render` encodes."""
    cells = tuple((c["name"], c["q"], c["r"]) for c in view["cells"])
    goals = tuple(sorted(view.get("goals", {}).values()))
    lions = tuple(view.get("lions", []))
    ground = _background(cells, lions, goals, _goal_keys(view), locale)
    image = ground.copy()
    draw = ImageDraw.Draw(image)
    where = _geometry(view)
    crossed = _highlights(image, ground, view, where)
    for p in view.get("pieces", []):
        if p["cell"] in where:
            x, y = where[p["cell"]]
            _piece(draw, x, y + PIECE_DY, p["kind"], p.get("side"), p.get("dir"))
    for cell in crossed:
        if cell in where:
            _cross(draw, *where[cell])
    _legend_head(draw, view, locale)
    draw_marks(draw, _placed_marks(view))
    return image


# --- what stands over the board, and the destination marks ----------------------------------

TRAIL_WIDTH = 5  # a Fireball's flight line
CROSS_R = 12  # the capture mark's disc


def covers(view: dict[str, Any]) -> list[Box]:
    """Boxes whose union holds everything drawn over the board's cells for ``view``: every
    piece (with a Dragon-with-Ball's Ball and a Fireball's arrow), every capture mark and
    every Fireball flight line. Cell names and destination marks are not covered by any."""
    where = _geometry(view)
    boxes: list[Box] = []
    for p in view.get("pieces", []):
        if p["cell"] in where:
            x, y = where[p["cell"]]
            boxes += _piece_boxes(x, y + PIECE_DY, p["kind"], p.get("dir"))
    holes = _name_holes(view, where)
    for box in _trail_boxes(view, where):
        boxes += _outside(box, holes)
    for cell in _crossed(view):
        if cell in where:
            cx, cy = _cross_centre(*where[cell])
            boxes.append((cx - CROSS_R, cy - CROSS_R, cx + CROSS_R, cy + CROSS_R))
    return boxes


def _trail_boxes(view: dict[str, Any], where: dict[str, tuple[float, float]]) -> list[Box]:
    """Small boxes whose union holds the last action's Fireball flight lines."""
    boxes: list[Box] = []
    for points in _flights(view, where):
        for a, b in pairwise(points):
            boxes += segment_boxes(a, b, TRAIL_WIDTH / 2)
    return boxes


NAME_MARGIN = 3  # room kept clear round a name a flight line crosses


def _name_holes(
    view: dict[str, Any], where: dict[str, tuple[float, float]]
) -> list[tuple[int, int, int, int]]:
    """The whole-pixel boxes round the cell names a Fireball flight line crosses, where
    the line is not drawn."""
    trail = _trail_boxes(view, where)
    if not trail:
        return []
    holes = []
    for name, (x, y) in where.items():
        left, top, right, bottom = _name_box(name, x, y)
        hole = (
            math.floor(left - NAME_MARGIN),
            math.floor(top - NAME_MARGIN),
            math.ceil(right + NAME_MARGIN),
            math.ceil(bottom + NAME_MARGIN),
        )
        if any(overlap(hole, box) for box in trail):
            holes.append(hole)
    return holes


def _outside(box: Box, holes: list[tuple[int, int, int, int]]) -> list[Box]:
    """The parts of ``box`` outside every one of ``holes``, as boxes."""
    parts = [box]
    for hole in holes:
        kept: list[Box] = []
        for part in parts:
            kept += _cut(part, hole) if overlap(part, hole) else [part]
        parts = kept
    return parts


def _cut(box: Box, hole: tuple[int, int, int, int]) -> list[Box]:
    """The parts of ``box`` left of, right of, above and below ``hole``."""
    x0, y0, x1, y1 = box
    h0, v0, h1, v1 = hole
    parts = [
        (x0, y0, min(x1, h0), y1),
        (max(x0, h1), y0, x1, y1),
        (max(x0, h0), y0, min(x1, h1), min(y1, v0)),
        (max(x0, h0), max(y0, v1), min(x1, h1), y1),
    ]
    return [p for p in parts if p[2] > p[0] and p[3] > p[1]]


def _piece_boxes(x: float, y: float, kind: str, direction: str | None) -> list[Box]:
    """The boxes a piece glyph drawn at ``(x, y)`` covers."""
    rad = SIZE * PIECE_R
    if kind == "roc":
        return [(x - rad, y - rad, x + rad, y + rad)]
    boxes = disc_boxes(x, y, rad)
    if kind == "dragon_ball":
        bx, by, br = _ball_spot(x, y, rad)
        boxes.append((bx - br - 1, by - br - 1, bx + br + 1, by + br + 1))
    if kind == "fireball":
        tip, head = _fireball_arrow(x, y, rad * 0.85, direction or "n")
        xs, ys = [q[0] for q in (tip, *head)], [q[1] for q in (tip, *head)]
        boxes.append((min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1))
    return boxes


def mark_boxes(view: dict[str, Any]) -> dict[str, Box]:
    """The box of each destination mark of ``view`` as :func:`picture` draws it, by its
    label. Raises ``ValueError`` naming a mark's cell that is not on the board."""
    return {spot.mark.label: spot.box for spot in _placed_marks(view)}


def _placed_marks(view: dict[str, Any]) -> list[Placed]:
    """Where the marks of ``view`` go: each on its cell's centre when that covers no piece
    (the cell's own name may go under it), else beside the cell with a leader line to it
    (to the piece standing there, stopping at its edge)."""
    marks = Mark.all_in(view)
    if not marks:
        return []
    where = _geometry(view)
    held = {p["cell"] for p in view.get("pieces", [])}
    places = {name: (x, y + PIECE_DY) if name in held else (x, y) for name, (x, y) in where.items()}
    holds = dict.fromkeys(held, SIZE * PIECE_R + 3)
    bounds = (0.0, 0.0, float(WIDTH), LEGEND_TOP - 12.0)
    # A mark set off its cell keeps off the other cells' names where it can.
    names = [(_name_box(name, x, y), name) for name, (x, y) in where.items()]
    return place_marks(
        marks, places, WIDTH, covers(view), bounds, holds=holds, avoid=names, toward=CENTRE
    )


def _name_box(name: str, x: float, y: float) -> Box:
    """The box of the name of the cell centred on ``(x, y)``, as the board prints it."""
    left, top, right, bottom = text_box(name, TEXT, True, "mm")
    return (x + left, y + NAME_DY + top, x + right, y + NAME_DY + bottom)


def encode(image: Image.Image) -> bytes:
    """A picture of this game as PNG bytes, in the game's fixed palette."""
    return png_bytes(image, palette())


def _goal_keys(view: dict[str, Any]) -> tuple[tuple[str, str | None], ...]:
    goals = view.get("goals", {})
    return tuple((side, goals.get(side)) for side in ("white", "black"))


KEY_COLOURS = (
    *CELL_TONES,
    GRID,
    LION_FILL,
    LION_EDGE,
    MANE,
    MANE_EDGE,
    MANE_CENTRE,
    GOAL_FILL,
    GOAL_EDGE,
    LAST_EDGE,
    CAPTURE,
    WHITE_FILL,
    WHITE_INK,
    BLACK_FILL,
    BLACK_INK,
    BLACK_EDGE,
    BALL_FILL,
    FIRE_FILL,
    FIRE_EDGE,
    MUTED,
    INK,
    PAPER,
    WHITE,
    NAME_INK,
)

SIDE_COLOURS = {"White": WHITE_FILL, "Black": BLACK_FILL}
"""The sides' colours (their pieces also differ in outline and letter colour)."""

MARK_COLOURS = {"Lion": LION_FILL, "captured / hit": CAPTURE, "last move": LAST_EDGE}
"""The colours of the board's marks, which must not look alike to any player."""


def warm() -> None:
    """Make the palette and open the cells' font now rather than on the first board (the
    board without Lions is drawn by the warm-up's boards, and each game's Lions go over
    it)."""
    palette()
    font(TEXT, True)


@lru_cache(maxsize=1)
def palette() -> Palette:
    """The game's palette: every colour it draws exact, and the blends of its text's edges."""
    ramps = (
        *((NAME_INK, back) for back in (*CELL_TONES, GOAL_FILL)),
        (CAPTURE, WHITE),
        (INK, GOAL_FILL),
        (INK, PAPER),
        (CAPTURE, PAPER),
        (MUTED, PAPER),
        (WHITE_INK, WHITE_FILL),
        (BLACK_INK, BLACK_FILL),
        (LION_FILL, MANE_CENTRE),
        (INK, WHITE_FILL),
    )
    return Palette((*KEY_COLOURS, *MARK_KEYS), (*ramps, *MARK_RAMPS), steps=5)
