"""Dragon's Cave board picture: the public view in, PNG bytes out.

The path winds up from Start through four sections of five squares to the Dragon's lair at
the top. Every kind of square has a colour *and* a symbol (so colour-blind players can
read it), its printed coins in a gold disc and its number. Below the board, one row per
player: face-up cards, Purse, a closed Chest (its contents appear only after the game), the
last round's outcome. The Treasure and how many answers are awaited are in the header.
The static board is drawn at twice the size and reduced once (smooth edges); each turn's
pieces and panels are drawn at full size on a copy.
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from typing import Any, overload

from PIL import Image, ImageDraw

from engines.dragons_cave.board import load_board
from i18n import Locale, Said, said, write
from render.common import (
    BLUE,
    INK,
    PAPER,
    VERMILLION,
    YELLOW,
    Palette,
    draw_text,
    fit,
    font,
    ink_on,
    png_bytes,
    text_length,
    widest,
)
from render.marks import MARK_KEYS, MARK_RAMPS, Mark, draw_spread, mark_reach, spread_discs

WIDTH = 1024
HEIGHT = 1104
SCALE = 2
TEXT = 29
"""The smallest type: 11.3 px when a phone shows the picture 400 px wide."""

MARGIN = 24
SQ_W = 180
SQ_H = 100
GAP_X = (WIDTH - 2 * MARGIN - 5 * SQ_W) // 4
ROW_GAP = 10
HEADER = 140
LAIR_Y = HEADER + 18
START_H = 56
PANEL_Y = LAIR_Y + 5 * (SQ_H + ROW_GAP) + START_H + 14
ROW_H = 56
TOKEN_R = 20  # a Dwarf's token on the board, without its dark ring

KIND_COLOURS = {
    "ruby": (196, 32, 56),
    "emerald": (26, 136, 76),
    "sapphire": (32, 88, 196),
    "amber": (236, 164, 18),
    "crystal": (136, 76, 192),
}
FALLBACK_COLOURS = [(120, 120, 120), (90, 60, 40), (40, 120, 140), (160, 90, 140), (70, 70, 70)]
PLAYER_COLOURS = {
    "red": VERMILLION,
    "blue": BLUE,
    "green": (0, 72, 0),
    "yellow": YELLOW,
}
"""Each player's colour: Okabe–Ito vermillion, blue and yellow, and a dark green (Okabe–Ito's
own green looks like its blue to tritanopes, lighter greens like the vermillion to
deuteranopes); every token also carries the player's letter."""
SIDE_COLOURS = {role.capitalize(): colour for role, colour in PLAYER_COLOURS.items()}
"""Every player's colour by name (the tests check they stay apart for colour-blind players)."""
CAVE = (58, 50, 56)
CAVE_EDGE = (96, 84, 90)
TRAIL = (176, 150, 112)
GOLD = (242, 196, 44)
GOLD_EDGE = (150, 108, 10)
DRAGON = (128, 16, 24)
WHITE = (255, 255, 255)
HIGHLIGHT = (255, 230, 60)
SOFT = (226, 216, 196)
CHEST = (130, 82, 40)
NOTE = (110, 98, 86)
UNKNOWN = (120, 120, 120)
NOBODY = (90, 90, 90)


def render(view: dict[str, Any], locale: Locale = "en") -> bytes:
    """PNG of the board for a public view of Dragon's Cave, its words in ``locale``."""
    return encode(picture(view, locale))


def picture(view: dict[str, Any], locale: Locale = "en") -> Image.Image:
    """The RGB picture :func:`render` encodes."""
    kinds = tuple((k["key"], k["name"], k["symbol"]) for k in view["kinds"])
    path = tuple((sq["kind"], sq["coins"]) for sq in view["path"])
    image = _small_background(kinds, path, tuple(view["lair"]), locale).copy()
    _scale.k = 1  # pieces and panels are drawn at full size on the reduced background
    draw = ImageDraw.Draw(image)
    _draw_long_words(draw, view, locale)
    _highlight_last_round(draw, view)
    _draw_dragon(draw, view, locale)
    _draw_dwarves(draw, view)
    _draw_header(draw, view, locale)
    _draw_panel(draw, view, locale)
    _draw_marks(draw, view, locale)
    return image


def encode(image: Image.Image) -> bytes:
    """A picture of this game as PNG bytes, in the game's fixed palette."""
    return png_bytes(image, palette())


def warm() -> None:
    """Draw the cave of the board data loaded (the background every game of that data is
    drawn on) and make the palette of its colours now, rather than on the first board."""
    palette()


@lru_cache(maxsize=1)
def palette() -> Palette:
    """The game's palette: its colours exact, their edges' blends, the cave's colours (the
    board of the data file stands for every game's)."""
    keys = (
        *KIND_COLOURS.values(),
        *FALLBACK_COLOURS,
        *PLAYER_COLOURS.values(),
        CAVE,
        CAVE_EDGE,
        TRAIL,
        GOLD,
        GOLD_EDGE,
        DRAGON,
        WHITE,
        HIGHLIGHT,
        SOFT,
        INK,
        PAPER,
        CHEST,
        NOTE,
        UNKNOWN,
        NOBODY,
        *MARK_KEYS,
    )
    players = (*PLAYER_COLOURS.values(), NOBODY)
    ramps = (
        (INK, PAPER),
        (INK, SOFT),
        (WHITE, DRAGON),
        (HIGHLIGHT, DRAGON),
        (INK, GOLD),
        (WHITE, CHEST),
        (INK, CHEST),
        *((WHITE, c) for c in players),
        *((INK, c) for c in players),
        *MARK_RAMPS,
    )
    board = load_board()
    kinds = tuple((k["key"], k["name"], k["symbol"]) for k in board["kinds"])
    path = tuple((square["kind"], square["coins"]) for square in board["path"])
    return Palette(keys, ramps, [_small_background(kinds, path, tuple(board["lair"]))])


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: Any,
    fill: tuple[int, int, int],
    anchor: str | None = None,
    stroke_width: float = 0,
    stroke_fill: tuple[int, int, int] | None = None,
) -> None:
    """``draw.text`` with these arguments, from cached glyph masks."""
    draw_text(draw, xy, text, font, fill, anchor, stroke_width, stroke_fill)


# --- geometry ----------------------------------------------------------------------------


def _box(index: int) -> tuple[int, int, int, int]:
    """Unscaled box of path square ``index``: section 1 is the lowest row, left to right;
    the rows alternate direction so the path winds upward like a trail."""
    section, place = divmod(index, 5)
    if section % 2:
        place = 4 - place
    row = 4 - section  # row 0 is the lair
    x = MARGIN + place * (SQ_W + GAP_X)
    y = LAIR_Y + row * (SQ_H + ROW_GAP)
    return (x, y, x + SQ_W, y + SQ_H)


def _lair_box(place: int) -> tuple[int, int, int, int]:
    x = MARGIN + place * (SQ_W + GAP_X)
    return (x, LAIR_Y, x + SQ_W, LAIR_Y + SQ_H)


def _start_box() -> tuple[int, int, int, int]:
    y = LAIR_Y + 5 * (SQ_H + ROW_GAP)
    return (MARGIN, y, MARGIN + 2 * SQ_W + GAP_X, y + START_H)


def _square_box(square: Any, lair: list[str]) -> tuple[int, int, int, int]:
    if square == "start":
        return _start_box()
    if isinstance(square, str) and square.startswith("lair:"):
        return _lair_box(lair.index(square.split(":", 1)[1]))
    return _box(int(square))


@overload
def _s(x: float, y: float, /) -> tuple[int, int]: ...
@overload
def _s(*values: float) -> tuple[int, ...]: ...
def _s(*values: float) -> tuple[int, ...]:
    """Lengths or points at the drawing scale of this thread, in whole pixels."""
    return tuple(round(v * _k()) for v in values)


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


# --- static background -------------------------------------------------------------------


# Drawing scale of this thread: SCALE while the supersampled background is drawn, 1 after.
_scale = threading.local()


def _k() -> int:
    return getattr(_scale, "k", SCALE)


@lru_cache(maxsize=8)
def _small_background(
    kinds: tuple[tuple[str, str, str], ...],
    path: tuple[tuple[str, int], ...],
    lair: tuple[str, ...],
    locale: Locale = "en",
) -> Image.Image:
    """The background drawn at SCALE times the size and reduced once: smooth, and cheap to reuse."""
    _scale.k = SCALE
    try:
        return _background(kinds, path, lair, locale).reduce(SCALE)
    finally:
        _scale.k = 1


LABEL_ROOM = 76
"""How wide a square's number (or the Lair's name) may be: short of the Dwarves that may
stand on its right."""
START_ROOM = 104
"""How wide Start's name may be: short of the Dwarves that may stand on it."""
NOTES_ROOM = WIDTH - 2 * MARGIN - 44 - 50 - 58
"""How wide the two notes under the legend of kinds may be together (a coin and a Chest
before them)."""


def _lair_word(locale: Locale) -> str:
    """The name printed on each Lair square."""
    return write(said("LAIR"), locale)


def _start_word(locale: Locale) -> str:
    """The name printed on Start."""
    return write(said("START"), locale)


def _draw_long_words(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: Locale) -> None:
    """The names of Start and the Lair squares too long for the room the background
    keeps them (:data:`START_ROOM`, :data:`LABEL_ROOM`): over a square no Dwarf stands
    on, as wide as the square; beside Dwarves, cut short of them."""
    reach = _token_radius(view) + 3
    lefts: dict[str, float] = {}
    for dwarf, (x, _) in _dwarf_spots(view):
        square = str(dwarf["square"])
        lefts[square] = min(lefts.get(square, x - reach), x - reach)
    words = []
    start = _start_word(locale)
    if text_length(start, TEXT, True) > START_ROOM:
        box = _start_box()
        end = lefts.get("start", box[2] - 16) - 2
        words.append(((box[0] + 16, box[1] + START_H / 2), start, end - box[0] - 16, "lm"))
    lair = _lair_word(locale)
    if text_length(lair, TEXT, True) > LABEL_ROOM:
        for place, kind in enumerate(view["lair"]):
            box = _lair_box(place)
            end = lefts.get(f"lair:{kind}", box[2] - 8) - 2
            words.append(((box[0] + 8, box[1] + 2), lair, end - box[0] - 8, "la"))
    for xy, word, room, anchor in words:
        fill, ring = (INK, None) if anchor == "lm" else (WHITE, INK)
        word = fit(word, TEXT, room, True)
        _text(draw, xy, word, font(TEXT, True), fill, anchor, 2 if ring else 0, ring)


def _background(
    kinds: tuple[tuple[str, str, str], ...],
    path: tuple[tuple[str, int], ...],
    lair: tuple[str, ...],
    locale: Locale = "en",
) -> Image.Image:
    """The cave, the winding trail, every square with its symbol, number and coins (the
    Lair's name, where it is short enough, on its squares), the legends; words in
    ``locale``."""
    image = Image.new("RGB", _s(WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    symbols = {key: symbol for key, _, symbol in kinds}
    colours = _kind_colours(kinds)
    # The cave mouth behind the lair.
    top = LAIR_Y - 12
    draw.rounded_rectangle(
        _s(MARGIN - 14, top, WIDTH - MARGIN + 14, LAIR_Y + SQ_H + 10),
        radius=30 * _k(),
        fill=CAVE,
        outline=CAVE_EDGE,
        width=3 * _k(),
    )
    # The trail through square centres, from Start to the lair.
    centres = [_centre(_start_box())]
    centres[0] = (_box(0)[0] + SQ_W / 2, centres[0][1])
    centres += [_centre(_box(i)) for i in range(len(path))]
    draw.line([_s(*c) for c in centres], fill=TRAIL, width=22 * _k(), joint="curve")
    last = centres[-1]
    draw.line([_s(*last), _s(last[0], LAIR_Y + SQ_H / 2)], fill=TRAIL, width=22 * _k())
    # Start.
    box = _start_box()
    draw.rounded_rectangle(_s(*box), radius=14 * _k(), fill=SOFT, outline=INK, width=2 * _k())
    start = _start_word(locale)
    # A longer word is printed with each view, as wide as the Dwarves there leave room for.
    start = start if text_length(start, TEXT, True) <= START_ROOM else ""
    _text(
        draw,
        _s(box[0] + 16, box[1] + START_H / 2),
        start,
        font=font(TEXT * _k(), True),
        fill=INK,
        anchor="lm",
    )
    outside = fit(write(said("outside the cave"), locale), TEXT, WIDTH - MARGIN - box[2] - 18)
    _text(
        draw,
        _s(box[2] + 18, box[1] + START_H / 2),
        outside,
        font=font(TEXT * _k()),
        fill=NOTE,
        anchor="lm",
    )
    for index, (kind, coins) in enumerate(path):
        _draw_square(
            draw, _box(index), colours[kind], symbols.get(kind, "star"), str(index + 1), coins
        )
    word = _lair_word(locale)
    # A longer name is printed with each view, as wide as the Dwarves there leave room for.
    word = word if text_length(word, TEXT, True) <= LABEL_ROOM else ""
    for place, kind in enumerate(lair):
        _draw_square(draw, _lair_box(place), colours[kind], symbols.get(kind, "star"), word, None)
    # Legend of kinds along the bottom, and what the coin and chest stand for.
    x: float = MARGIN
    y = HEIGHT - 60
    for key, name, symbol in kinds:
        _symbol(draw, symbol, (x + 13, y), 13, colours[key])
        _text(draw, _s(x + 32, y), name, font=font(TEXT * _k()), fill=INK, anchor="lm")
        x += 32 + text_length(name, TEXT) + 30
    y = HEIGHT - 22
    _coin(draw, (MARGIN + 18, y), 19, "1")
    notes = [
        write(said("coins on a square, in a Purse"), locale),
        write(said("Chest: coins locked away"), locale),
    ]
    cap = widest([text_length(note, TEXT) for note in notes], NOTES_ROOM)
    purse_note, chest_note = (fit(note, TEXT, cap) for note in notes)
    _text(draw, _s(MARGIN + 44, y), purse_note, font=font(TEXT * _k()), fill=INK, anchor="lm")
    x = MARGIN + 44 + text_length(purse_note, TEXT) + 50
    _chest(draw, (x + 24, y), "hidden")
    _text(draw, _s(x + 58, y), chest_note, font=font(TEXT * _k()), fill=INK, anchor="lm")
    return image


def _kind_colours(kinds: tuple[tuple[str, str, str], ...]) -> dict[str, tuple[int, int, int]]:
    return {
        key: KIND_COLOURS.get(key, FALLBACK_COLOURS[i % len(FALLBACK_COLOURS)])
        for i, (key, _, _) in enumerate(kinds)
    }


def _draw_square(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    colour: tuple[int, int, int],
    symbol: str,
    label: str,
    coins: int | None,
) -> None:
    """One square: colour, symbol on the left, its number (or LAIR), its coins."""
    x0, y0 = box[0], box[1]
    draw.rounded_rectangle(_s(*box), radius=14 * _k(), fill=colour, outline=INK, width=3 * _k())
    _text(
        draw,
        _s(x0 + 8, y0 + 2),
        label,
        font=font(TEXT * _k(), True),
        fill=WHITE,
        anchor="la",
        stroke_width=2 * _k(),
        stroke_fill=INK,
    )
    _symbol(draw, symbol, (x0 + 38, y0 + 66), 24, WHITE, outline=INK)
    if coins is not None:
        _coin(draw, (x0 + 70, y0 + 22), 18, str(coins))


def _coin(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, text: str) -> None:
    cx, cy = centre
    draw.ellipse(
        _s(cx - radius, cy - radius, cx + radius, cy + radius),
        fill=GOLD,
        outline=GOLD_EDGE,
        width=2 * _k(),
    )
    size = max(TEXT, round(radius * 1.2))  # the number is the point: never below TEXT
    _text(draw, _s(cx, cy), text, font=font(size * _k(), True), fill=INK, anchor="mm")


def _symbol(
    draw: ImageDraw.ImageDraw,
    symbol: str,
    centre: tuple[float, float],
    size: float,
    fill: tuple[int, int, int],
    outline: tuple[int, int, int] | None = None,
) -> None:
    """A kind's symbol: diamond, leaf, drop, sun or star (anything else: a star)."""
    cx, cy = centre
    width = 2 * _k() if outline else 0
    if symbol == "sun":
        for step in range(8):
            angle = step * math.pi / 4
            tip = (cx + size * math.cos(angle), cy + size * math.sin(angle))
            side = 0.22
            base1 = (
                cx + size * 0.55 * math.cos(angle - side),
                cy + size * 0.55 * math.sin(angle - side),
            )
            base2 = (
                cx + size * 0.55 * math.cos(angle + side),
                cy + size * 0.55 * math.sin(angle + side),
            )
            draw.polygon(
                [_s(*tip), _s(*base1), _s(*base2)], fill=fill, outline=outline, width=width
            )
        r = size * 0.55
        draw.ellipse(_s(cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
        return
    points = _outline(symbol, cx, cy, size)
    draw.polygon([_s(*p) for p in points], fill=fill, outline=outline, width=width)
    if symbol == "leaf" and outline:
        draw.line(
            [_s(cx - size * 0.6, cy + size * 0.6), _s(cx + size * 0.55, cy - size * 0.55)],
            fill=outline,
            width=2 * _k(),
        )


def _outline(symbol: str, cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """Polygon points of a symbol centred on (cx, cy), about ``2 * size`` across."""
    if symbol == "diamond":
        return [
            (cx, cy - size),
            (cx + size * 0.8, cy - size * 0.25),
            (cx, cy + size),
            (cx - size * 0.8, cy - size * 0.25),
        ]
    if symbol == "leaf":
        points = []
        for i in range(25):
            t = i / 24
            along = (t - 0.5) * 2 * size
            across = size * 0.5 * math.sin(math.pi * t)
            points.append((along, across))
        points += [(along, -across) for along, across in reversed(points)]
        cos, sin = math.cos(-math.pi / 4), math.sin(-math.pi / 4)
        return [(cx + a * cos - b * sin, cy + a * sin + b * cos) for a, b in points]
    if symbol == "drop":
        r = size * 0.62
        base = cy + size - r
        points = [(cx, cy - size)]
        for i in range(0, 37):
            angle = math.radians(-30 + i * 240 / 36)
            points.append((cx + r * math.cos(angle), base + r * math.sin(angle)))
        return points
    points = []
    for i in range(10):
        r = size if i % 2 == 0 else size * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + size * 0.1 + r * math.sin(angle)))
    return points


# --- pieces and the round --------------------------------------------------------------------


def _player_colour(role: str) -> tuple[int, int, int]:
    return PLAYER_COLOURS.get(role, NOBODY)


def _token(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    role: str,
    label: str,
    radius: float = TOKEN_R,
) -> None:
    """A Dwarf: a disc in its player's colour with a white ring and its letter."""
    cx, cy = centre
    colour = _player_colour(role)
    draw.ellipse(_s(cx - radius - 3, cy - radius - 3, cx + radius + 3, cy + radius + 3), fill=INK)
    draw.ellipse(
        _s(cx - radius, cy - radius, cx + radius, cy + radius),
        fill=colour,
        outline=WHITE,
        width=3 * _k(),
    )
    text = ink_on(colour)
    _text(draw, _s(cx, cy), label, font=font(_token_size(label, radius) * _k(), True), fill=text,
          anchor="mm")  # fmt: skip


def _token_size(label: str, radius: float) -> int:
    """The font size of a token's label: :data:`TEXT`, or as large as fits the disc (a
    two-player Dwarf's letter and number, ``"R1"``)."""
    size = TEXT
    while size > 12 and text_length(label, size, True) > 2 * radius - 2:
        size -= 1
    return size


def _dwarf_label(view: dict[str, Any], dwarf: dict[str, Any]) -> str:
    letter = dwarf["role"][:1].upper()
    return f"{letter}{dwarf['dwarf']}" if view.get("two_player") else letter


def _draw_dwarves(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Dwarves on their squares: up to four in a 2 x 2 block on the right of a square, in a
    row on Start."""
    for dwarf, spot in _dwarf_spots(view):
        _token(draw, spot, dwarf["role"], _dwarf_label(view, dwarf), _token_radius(view))


def _token_radius(view: dict[str, Any]) -> float:
    """A Dwarf's token radius: larger in a two-player game, for a letter and a number."""
    return TOKEN_R + 3 if view.get("two_player") else TOKEN_R


def _token_columns(x0: float, count: int, two_player: bool) -> list[float]:
    """The two columns of a square's Dwarves: further right when a row of them sits
    beside the square's coin (three or four), wider apart for two-player tokens."""
    if two_player:
        return [x0 + 110, x0 + 154]  # rings a little over each other, never over a word
    return [x0 + 104, x0 + 146] if count <= 2 else [x0 + 114, x0 + 156]


def _dwarf_spots(view: dict[str, Any]) -> list[tuple[dict[str, Any], tuple[float, float]]]:
    """Each Dwarf of the view and the centre of its token."""
    lair = view["lair"]
    groups: dict[str, list[dict[str, Any]]] = {}
    for dwarf in view["dwarves"]:
        groups.setdefault(str(dwarf["square"]), []).append(dwarf)
    found: list[tuple[dict[str, Any], tuple[float, float]]] = []
    for dwarves in groups.values():
        square = dwarves[0]["square"]
        x0, y0, _, y1 = _square_box(square, lair)
        if square == "start":
            step = 2 * _token_radius(view) + 8  # ring to ring, 2 px apart
            spots = [(x0 + 150 + step * i, (y0 + y1) / 2) for i in range(len(dwarves))]
        else:
            cols = _token_columns(x0, len(dwarves), bool(view.get("two_player")))
            rows = [y0 + 28, y0 + 72] if len(dwarves) > 2 else [(y0 + y1) / 2]
            spots = [(cols[i % 2], rows[min(i // 2, len(rows) - 1)]) for i in range(4)]
        found += zip(dwarves, spots, strict=False)
    return found


def _highlight_last_round(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Outline the squares the last revealed round's Dwarves landed on."""
    last = view.get("last_round") or {}
    for play in last.get("plays", []):
        if "to" not in play:
            continue
        box = _square_box(play["to"], view["lair"])
        colour = HIGHLIGHT if play["outcome"] == "moved" else WHITE
        draw.rounded_rectangle(
            _s(box[0] - 5, box[1] - 5, box[2] + 5, box[3] + 5),
            radius=18 * _k(),
            outline=colour,
            width=5 * _k(),
        )


def _draw_dragon(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: Locale) -> None:
    """The Dragon on the lair square it was revealed on: a dark red badge across the top."""
    kind = view.get("dragon_square")
    if not kind or kind not in view["lair"]:
        return
    left, top, right, bottom = _dragon_box(view, locale)
    draw.rounded_rectangle(
        _s(left, top, right, bottom),
        radius=10 * _k(),
        fill=DRAGON,
        outline=HIGHLIGHT,
        width=3 * _k(),
    )
    last = view.get("last_round") or {}
    middle = (left + right) / 2
    room = right - left - 16
    word = fit(write(said("DRAGON"), locale), TEXT, room, True)
    _text(draw, _s(middle, top + 18), word, font=font(TEXT * _k(), True), fill=WHITE, anchor="mm")
    if last.get("round"):
        _text(
            draw,
            _s(middle, top + 48),
            fit(_round_words(last, locale), TEXT, room),
            font=font(TEXT * _k()),
            fill=HIGHLIGHT,
            anchor="mm",
        )


def _round_words(last: dict[str, Any], locale: Locale) -> str:
    """The round the Dragon was revealed in, in words: ``round 4``."""
    return write(said("round {round}", round=str(last.get("round"))), locale)


def _dragon_box(view: dict[str, Any], locale: Locale = "en") -> tuple[int, int, int, int]:
    """Where the Dragon's badge is: above its lair square, clear of its name and of any
    Dwarf on it; wider than the square where its words in ``locale`` need it (within the
    cave)."""
    x0, y0, x1, _ = _lair_box(view["lair"].index(view["dragon_square"]))
    words = [write(said("DRAGON"), locale)]
    last = view.get("last_round") or {}
    if last.get("round"):
        words.append(_round_words(last, locale))
    need = max(text_length(words[0], TEXT, True), *(text_length(w, TEXT) for w in words[1:]))
    grow = max(0, math.ceil((need + 16 - (x1 - x0 + 8)) / 2))
    left, right = x0 - 4 - grow, x1 + 4 + grow
    shift = max(0, MARGIN - 14 - left) - max(0, right - (WIDTH - MARGIN + 14))
    return left + shift, y0 - 80, right + shift, y0 - 14


def _waiting_text(view: dict[str, Any], locale: Locale = "en") -> str:
    """What the round waits for (how many answers are in), or the result (the engine's
    words)."""
    waiting = view.get("waiting")
    if view.get("phase") == "over" or not waiting:
        result = view.get("result") or {}
        if "text" in result:
            return str(result["text"])
        return write(said("Game over"), locale)
    counts = {"done": str(waiting["done"]), "total": str(waiting["total"])}
    if waiting["kind"] == "choices":
        return write(said("Secret choices: {done} of {total} in", **counts), locale)
    if waiting["kind"] == "splits":
        return write(said("Caught players hiding coins: {done} of {total}", **counts), locale)
    return write(said("Dragon picking hands: {done} of {total}", **counts), locale)


TITLE = "Dragon's Cave"
"""The game's name, at the head of the picture (a name, the same in every language)."""
TREASURE_ROOM = 146
"""How wide the word over the Treasure's coin is without moving the coin left."""


def _draw_header(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: Locale) -> None:
    """The title and the round; who is the Dragon and what the round waits for; the
    Treasure's coin and its word, at the right."""
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
    treasure = fit(write(said("Treasure"), locale), TEXT, 2 * TREASURE_ROOM, True)
    words_x = WIDTH - MARGIN - max(TREASURE_ROOM, text_length(treasure, TEXT, True))
    coin_x = words_x - 32
    title = f"{TITLE}  \u2022  " + write(said("Round {round}", round=str(view["round"])), locale)
    title = fit(title, 32, coin_x - 24 - 12 - MARGIN, True)
    _text(draw, _s(MARGIN, 26), title, font=font(32 * _k(), True), fill=INK, anchor="lm")
    dragon = str(names.get(view["dragon_seat"], "?"))
    if view.get("phase") == "over":
        who = write(said("Game over"), locale)
    else:
        who = write(said("Dragon: {player}", player=dragon), locale)
    _text(
        draw,
        _s(MARGIN, 62),
        fit(f"{who}   \u2022   {_waiting_text(view, locale)}", TEXT, WIDTH - 2 * MARGIN),
        font=font(TEXT * _k()),
        fill=INK,
        anchor="lm",
    )
    _coin(draw, (coin_x, 28), 24, str(view["treasure"]))
    _text(
        draw,
        _s(words_x, 28),
        treasure,
        font=font(TEXT * _k(), True),
        fill=INK,
        anchor="lm",
    )


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: Locale) -> None:
    """One row per player: token, name, Dragon tag, face-up cards, Purse, Chest, outcome."""
    kinds = tuple((k["key"], k["name"], k["symbol"]) for k in view["kinds"])
    colours = _kind_colours(kinds)
    symbols = {key: symbol for key, _, symbol in kinds}
    over = view.get("phase") == "over"
    outcomes = _last_outcomes(view, locale)
    winners = set((view.get("result") or {}).get("winners", []))
    for seat in view["seats"]:
        index = seat["seat"]
        y = PANEL_Y + index * ROW_H
        if index % 2 == 0:
            draw.rectangle(_s(MARGIN - 16, y, WIDTH - MARGIN + 16, y + ROW_H - 4), fill=SOFT)
        mid = y + (ROW_H - 4) / 2
        _token(draw, (MARGIN + 20, mid), seat["role"], seat["role"][:1].upper(), radius=18)
        star = " \u2605" if index in winners else ""
        name = fit(seat["name"], TEXT, 120 - text_length(star, TEXT, True), True) + star
        _text(draw, _s(MARGIN + 46, mid), name, font=font(TEXT * _k(), True), fill=INK, anchor="lm")
        if index == view["dragon_seat"] and not over:
            draw.rounded_rectangle(
                _s(MARGIN + 170, mid - 19, MARGIN + 326, mid + 19), radius=8 * _k(), fill=DRAGON
            )
            _text(
                draw,
                _s(MARGIN + 248, mid),
                fit(write(said("DRAGON"), locale), TEXT, 148, True),
                font=font(TEXT * _k(), True),
                fill=WHITE,
                anchor="mm",
            )
        x = MARGIN + 330
        for card in view["played"][index]:
            draw.rounded_rectangle(
                _s(x, mid - 20, x + 30, mid + 20),
                radius=5 * _k(),
                fill=colours.get(card, UNKNOWN),
                outline=INK,
                width=2 * _k(),
            )
            _symbol(draw, symbols.get(card, "star"), (x + 15, mid), 10, WHITE)
            x += 34
        base = MARGIN + 330 + 5 * 34 + 4
        _coin(draw, (base + 22, mid), 22, str(view["purses"][index]))
        _chest(draw, (base + 78, mid), view["chests"][index])
        note = outcomes.get(index, "")
        if over:
            result = view.get("result") or {}
            totals = result.get("totals") or []
            bonus = result.get("bonus") or []
            if index < len(totals):
                total = str(totals[index])
                if index < len(bonus) and bonus[index]:
                    counted = said(
                        "total {total} (lair +{bonus})", total=total, bonus=str(bonus[index])
                    )
                else:
                    counted = said("total {total}", total=total)
                note = write(counted, locale)
        note = fit(note, TEXT, WIDTH - MARGIN - base - 112)
        _text(draw, _s(WIDTH - MARGIN, mid), note, font=font(TEXT * _k()), fill=INK, anchor="rm")


def _chest(draw: ImageDraw.ImageDraw, centre: tuple[float, float], contents: Any) -> None:
    """A closed chest with "?" (contents unknown) or its coins once the game is over."""
    cx, cy = centre
    draw.rounded_rectangle(
        _s(cx - 24, cy - 18, cx + 24, cy + 18),
        radius=5 * _k(),
        fill=CHEST,
        outline=INK,
        width=2 * _k(),
    )
    draw.line(_s(cx - 24, cy - 8, cx + 24, cy - 8), fill=INK, width=2 * _k())
    text = "?" if contents == "hidden" else str(contents)
    _text(
        draw,
        _s(cx, cy + 5),
        text,
        font=font(TEXT * _k(), True),
        fill=WHITE,
        anchor="mm",
        stroke_width=1 * _k(),
        stroke_fill=INK,
    )


def _last_outcomes(view: dict[str, Any], locale: Locale = "en") -> dict[int, str]:
    """Per seat, what happened to it in the last revealed round, in a few words (in
    ``locale``)."""
    last = view.get("last_round") or {}
    notes: dict[int, Said] = {}
    for play in last.get("plays", []):
        seat = play["seat"]
        if play["outcome"] == "chest":
            notes[seat] = said("coins into Chest")
        elif play["outcome"] == "caught":
            notes[seat] = said("caught!")
        elif play["coins"]:
            notes[seat] = said("moved, +{coins}", coins=str(play["coins"]))
        else:
            notes[seat] = said("moved")
    for hand in last.get("hands", []):
        notes[hand["seat"]] = said("caught, lost {coins}", coins=str(hand["returned"]))
    return {seat: write(note, locale) for seat, note in notes.items()}


# --- destination marks -------------------------------------------------------------------

Box = tuple[float, float, float, float]


def locate(view: dict[str, Any], name: str) -> tuple[float, float]:
    """The pixel centre, in the picture of ``view``, of the place ``name`` as the view names
    a Dwarf's square: ``"start"``, a path square by its index (``"0"`` is the square
    printed 1, up to ``len(view["path"]) - 1``) or ``"lair:<kind>"`` for a kind of
    ``view["lair"]``. Raises ``ValueError`` for any other name."""
    return _centre(_place_box(view, name))


def _place_box(view: dict[str, Any], name: str) -> tuple[int, int, int, int]:
    """The box of the place ``name`` (see :func:`locate`), or ``ValueError``."""
    text = str(name)
    if text == "start":
        return _start_box()
    if text.startswith("lair:") and text.split(":", 1)[1] in view["lair"]:
        return _lair_box(view["lair"].index(text.split(":", 1)[1]))
    if text.isdigit() and int(text) < len(view["path"]):
        return _box(int(text))
    raise ValueError(f"Dragon's Cave has no place {name!r}")


def covers(view: dict[str, Any], locale: Locale = "en") -> list[Box]:
    """The boxes of what the picture of ``view`` (in ``locale``) draws over the board: each
    Dwarf's token (with its dark ring) and the Dragon's badge. A mark never meets one of
    them."""
    reach = _token_radius(view) + 3
    spots = [spot for _, spot in _dwarf_spots(view)]
    boxes: list[Box] = [(x - reach, y - reach, x + reach, y + reach) for x, y in spots]
    if view.get("dragon_square") in view["lair"]:
        boxes.append(_dragon_box(view, locale))
    return boxes


def mark_boxes(view: dict[str, Any], locale: Locale = "en") -> dict[str, Box]:
    """Each mark of ``view["marks"]`` by its label, and the box its disc covers as drawn
    in ``locale`` (what :func:`render.marks.draw_mark` returns). Raises ``ValueError`` for
    a mark at a place :func:`locate` does not know."""
    return {
        mark.label: _disc_box(centre, mark_reach(WIDTH, mark.label))
        for mark, _, centre in _placed_marks(view, locale)
    }


def _disc_box(centre: tuple[float, float], radius: float) -> Box:
    x, y = centre
    return (x - radius, y - radius, x + radius, y + radius)


def _mark_spot(view: dict[str, Any], name: str) -> tuple[float, float]:
    """Where a mark on the place ``name`` goes: over a square's symbol, left of its Dwarves
    and under its number; right of Start, over its note."""
    x0, y0, x1, y1 = _place_box(view, name)
    if name == "start":
        return (x1 + 44, (y0 + y1) / 2)
    return (x0 + 40, y0 + 64)


def _placed_marks(
    view: dict[str, Any], locale: Locale = "en"
) -> list[tuple[Mark, tuple[float, float], tuple[float, float]]]:
    """Each mark, where it is wanted and the centre it is drawn on: on its place, or moved
    just clear of the marks before it and of the Dwarves and the Dragon."""
    marks = Mark.all_in(view)
    wanted = [(*_mark_spot(view, mark.at), mark_reach(WIDTH, mark.label)) for mark in marks]
    bounds = (0, LAIR_Y - 70, WIDTH, PANEL_Y)
    centres = spread_discs(wanted, covers(view, locale), bounds, first=0.0)  # right: same square
    return [(m, (w[0], w[1]), c) for m, w, c in zip(marks, wanted, centres, strict=True)]


def _draw_marks(draw: ImageDraw.ImageDraw, view: dict[str, Any], locale: Locale) -> None:
    """Every mark, last, with a leader back to its place when it had to move."""
    draw_spread(draw, _placed_marks(view, locale), covers(view, locale))
