"""Dragonslayer pictures' colours, text measuring and a pen that draws at a scale.

Shared by the map of Urland (:mod:`render.dragonslayer.map`) and the Battle Display
(:mod:`render.dragonslayer.battle`), so both pictures look like one game.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from render.common import (
    BLUE,
    INK,
    SKY_BLUE,
    VERMILLION,
    YELLOW,
    draw_text,
    fit,
    font,
    ink_on,
    text_length,
)

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore  # the stubs' name; Pillow exports no such class

Point = tuple[float, float]
Box = tuple[float, float, float, float]
Colour = tuple[int, int, int]

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
SUBTITLE = (70, 62, 52)  # the header's second line
BOX_GOLD = (240, 200, 90)  # a tile still in its box
CROWN = (255, 226, 90)
EYES = (255, 200, 40)
NOTE_PAPER = (250, 244, 232)  # the Abandoned Weapons Display

MAGICIAN_COLOURS: dict[str, Colour] = {
    "aurric": YELLOW,
    "merridyds": BLUE,
    "old_kyvin": VERMILLION,
    "galen": SKY_BLUE,
}
"""Each magician's colour (Okabe–Ito: apart in every common colour blindness); every piece
in it also carries the magician's initial."""
FALLBACK_COLOUR = (110, 110, 110)
SIDE_COLOURS = dict(MAGICIAN_COLOURS)
"""Every magician's colour (the tests check they stay apart for colour-blind players)."""


class Pen:
    """Draws in full-size pixel coordinates on an image ``k`` times as large."""

    def __init__(self, image: Image.Image, k: int) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.k = k

    def stamp(self, shapes: Shapes, xy: Point, reach: int, *args: Any) -> None:
        """What ``shapes(pen, xy, *args)`` draws, pasted from a sprite drawn once per place
        ``xy`` lies at within a square of two pixels. ``shapes`` draws only hard-edged
        shapes (no text: its edges blend with what lies beneath) within ``reach`` pixels of
        ``xy``. At a scale (a supersampled background, drawn once) it just draws."""
        if self.k != 1:
            shapes(self, xy, *args)
            return
        x, y = xy
        # An even shift: Pillow rounds halves to even, which a shift by an odd pixel flips.
        left, top = 2 * math.floor(x / 2), 2 * math.floor(y / 2)
        sprite = _sprite(shapes, args, x - left, y - top, reach)
        side = 2 * reach + 2
        box = (left - reach, top - reach, left - reach + side, top - reach + side)
        self.image.im.paste(sprite, box, sprite)  # Image.paste's checks cost more than this

    def _w(self, width: float) -> int:
        return max(1, round(width * self.k))

    def _pts(self, points: Any) -> list[Point]:
        return [(x * self.k, y * self.k) for x, y in points]

    def line(self, points: Any, fill: Colour, width: float, curve: bool = False) -> None:
        self.draw.line(
            self._pts(points), fill=fill, width=self._w(width), joint="curve" if curve else None
        )

    def polygon(
        self,
        points: Any,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1.0,
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
        draw_text(
            self.draw,
            (xy[0] * self.k, xy[1] * self.k),
            text,
            font(size * self.k, bold),
            fill,
            anchor,
            self._w(halo_width) if halo else 0,
            halo,
        )


Shapes = Callable[..., None]


@lru_cache(maxsize=1024)
def _sprite(
    shapes: Shapes, args: tuple[object, ...], dx: float, dy: float, reach: int
) -> ImagingCore:
    """``shapes`` drawn at ``(reach + dx, reach + dy)`` on a clear square ``2 * reach + 2``
    pixels wide: what they draw at any point an even number of pixels away, shifted (the
    image's core, which pastes itself with its own alpha as the mask)."""
    sprite = Image.new("RGBA", (2 * reach + 2, 2 * reach + 2))
    shapes(Pen(sprite, 1), (reach + dx, reach + dy), *args)
    return sprite.im


def text_width(text: str, size: int, bold: bool = False) -> float:
    """How many pixels ``text`` takes in the bundled font at ``size``."""
    return text_length(text, size, bold)


def tint(colour: Colour, amount: float) -> Colour:
    """``colour`` mixed with white: 0 unchanged, 1 white."""
    return tuple(round(c + (255 - c) * amount) for c in colour)  # type: ignore[return-value]


def shade(colour: Colour, amount: float) -> Colour:
    """``colour`` mixed with black: 0 unchanged, 1 black."""
    return tuple(round(c * (1 - amount)) for c in colour)  # type: ignore[return-value]


def magician_colour(key: str) -> Colour:
    """The colour a magician's pieces, abode and panel are drawn in."""
    return MAGICIAN_COLOURS.get(key, FALLBACK_COLOUR)


def name_ink(colour: Colour) -> Colour:
    """``colour`` darkened enough to print a name in on a light ground (a light colour such
    as yellow more)."""
    r, g, b = colour
    return shade(colour, 0.35 if 0.299 * r + 0.587 * g + 0.114 * b < 150 else 0.6)


def letter_ink(colour: Colour) -> Colour:
    """The colour of letters printed on ``colour``: dark on light, white on dark."""
    return ink_on(colour)


def initials(name: str) -> str:
    """Up to two capital initials of ``name`` (``"Old Kyvin"`` is ``"OK"``), or ``"?"``."""
    return "".join(word[:1] for word in name.split())[:2].upper() or "?"


def wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """Lines of ``text`` no wider than ``width`` pixels, broken between words."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if text_width(trial, size, bold) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return [fit(line, size, width, bold) for line in lines]
