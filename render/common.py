"""Drawing helpers shared by the game renderers: the bundled fonts, text drawn from cached
glyph masks, and the fixed palettes board pictures are encoded with."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

from render import png

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore  # the stubs' name; Pillow exports no such class

_FONTS = Path(__file__).parent / "fonts"

INK = (34, 30, 28)
PAPER = (247, 241, 227)
WHITE = (255, 255, 255)

Colour = tuple[int, int, int]

# The Okabe–Ito colours (Okabe and Ito 2008), chosen to stay apart in every common kind of
# colour blindness; sides and owners are drawn in these (tests/render/test_colour_blind.py).
ORANGE = (230, 159, 0)
SKY_BLUE = (86, 180, 233)
BLUISH_GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)
BLUE = (0, 114, 178)
VERMILLION = (213, 94, 0)
REDDISH_PURPLE = (204, 121, 167)

PNG_LEVEL = 3
"""zlib level of board PNGs. Deflated in bands (:mod:`render.png`), level 3 costs a tenth
more than level 2 for 4% fewer bytes; level 4 a third more for 10%; level 6 twice as much
for 14%."""


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at ``size`` px (no download, same look everywhere)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_FONTS / name), size)


# --- text ------------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def text_length(text: str, size: int, bold: bool = False) -> float:
    """How many pixels ``text`` takes in the bundled font at ``size`` (remembered)."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=8192)
def text_box(
    text: str, size: int, bold: bool = False, anchor: str | None = None
) -> tuple[float, float, float, float]:
    """The box ``text`` covers when drawn at (0, 0) with ``anchor`` (remembered); add the
    drawing point to place it, as ``ImageDraw.textbbox`` does."""
    return font(size, bold).getbbox(text, anchor=anchor)


@lru_cache(maxsize=4096)
def _mask(
    face: ImageFont.FreeTypeFont,
    text: str,
    anchor: str | None,
    stroke_width: float,
    start: tuple[float, float],
) -> tuple[ImagingCore, tuple[int, int]]:
    """The glyph mask Pillow would render for this text, and its offset (remembered: boards
    print the same names and numbers over and over)."""
    return face.getmask2(
        text, "L", None, None, None, stroke_width, anchor, 0, start, stroke_filled=True
    )


@dataclass(frozen=True)
class Drawn:
    """One line of text as it was drawn: its font size and the box it covers, in pixels of
    the canvas it was drawn on (``canvas_width`` wide: the picture, or the picture at a
    supersampling scale)."""

    text: str
    size: int
    box: tuple[float, float, float, float]
    canvas_width: int

    def at_width(self, width: float) -> tuple[float, tuple[float, float, float, float]]:
        """The font size and the box when the picture is shown ``width`` pixels wide."""
        k = width / self.canvas_width
        return self.size * k, tuple(v * k for v in self.box)  # type: ignore[return-value]


_COLLECTED: ContextVar[list[Drawn] | None] = ContextVar("collected_text", default=None)


@contextmanager
def collect_text() -> Iterator[list[Drawn]]:
    """Inside the block, every line :func:`draw_text` draws is added to the list yielded
    (for tests of what a player can read; cached backgrounds drawn earlier are not seen, so
    clear their caches first). Outside it, nothing is recorded and nothing is spent."""
    found: list[Drawn] = []
    token = _COLLECTED.set(found)
    try:
        yield found
    finally:
        _COLLECTED.reset(token)


def _record(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    anchor: str | None,
) -> None:
    found = _COLLECTED.get()
    if found is None:
        return
    left, top, right, bottom = face.getbbox(text, anchor=anchor or "la")
    box = (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom)
    found.append(Drawn(text, round(face.size), box, draw.im.size[0]))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str | None = None,
    stroke_width: float = 0,
    stroke_fill: Colour | None = None,
) -> None:
    """Exactly what ``draw.text(xy, text, font=face, fill=fill, anchor=anchor, ...)`` draws
    for one line of text on an RGB image, from glyph masks rendered once per process."""
    if not text:
        return
    if "\n" in text:
        raise ValueError("draw_text draws one line; draw each line on its own")
    _record(draw, xy, text, face, anchor)
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    ink = draw.draw.draw_ink(fill)
    layers = [(stroke_width, draw.draw.draw_ink(stroke_fill or fill))] if stroke_width else []
    if not layers or stroke_fill not in (None, fill):
        layers.append((0, ink))
    for width, colour in layers:
        mask, (dx, dy) = _mask(face, text, anchor or "la", width, start)
        draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, colour)


def centered_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour = INK,
    bold: bool = False,
) -> None:
    """Draw ``text`` centred on ``xy``."""
    draw_text(draw, xy, text, font(size, bold), fill, anchor="mm")


# --- words that must fit ---------------------------------------------------------------------
#
# A board's own words are written in its reader's language, and many languages say more than
# English does. Type never goes under a board's smallest size (the size a phone still shows
# at 11 px), so a line too long for its room is first set smaller down to that size, then
# broken between words where the board has lines to spare, and only then cut short.


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text``, or as much of it as fits ``width`` pixels at ``size`` with an ellipsis."""
    if text_length(text, size, bold) <= width:
        return text
    while text and text_length(text + "\u2026", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def fitting_size(text: str, size: int, least: int, width: float, bold: bool = False) -> int:
    """The largest size from ``size`` down to ``least`` at which ``text`` is at most
    ``width`` pixels wide (``least`` when none is)."""
    while size > least and text_length(text, size, bold) > width:
        size -= 1
    return size


def wrap(text: str, size: int, width: float, bold: bool = False, most: int = 0) -> list[str]:
    """``text`` broken between words into lines at most ``width`` pixels wide at ``size``
    (a word wider than a line is cut short); with ``most``, at most that many lines, the
    last one cut short where words are left over."""
    lines: list[str] = []
    for word in text.split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and text_length(trial, size, bold) <= width:
            lines[-1] = trial
        else:
            lines.append(word)
    if most and len(lines) > most:
        lines = [*lines[: most - 1], " ".join(lines[most - 1 :])]
    return [fit(line, size, width, bold) for line in lines]


def widest(widths: Sequence[float], room: float) -> float:
    """The widest any of ``widths`` may be so that all of them fit ``room`` together: only
    the longest are cut, all to the same width (the widest of them when all fit)."""
    if sum(widths) <= room:
        return max(widths, default=0.0)
    left = room
    for count, width in enumerate(sorted(widths)):
        share = left / (len(widths) - count)
        if width > share:
            return share
        left -= width
    return max(widths)


# --- palettes and encoding -------------------------------------------------------------------

KEEP_CLEAR = 12
"""No other palette entry lies this close to a key colour, so the nearest-colour lookup
(which works on colours cut to 6 bits a channel) always finds the key colour itself."""


BACKGROUND_SHARE = 96
"""Entries left for the colours of the static backgrounds after the keys and ramps."""


def ink_on(colour: Colour) -> Colour:
    """Dark ink on a light ``colour``, white on a dark one (letters on tokens stay readable
    whatever the owner's colour)."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


def mix(a: Colour, b: Colour, amount: float) -> Colour:
    """``a`` moved ``amount`` of the way to ``b`` (how anti-aliased edges blend)."""
    return tuple(round(x + (y - x) * amount) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _distance(a: Colour, b: Colour) -> float:
    return math.dist(a, b)


class Palette:
    """A fixed palette of at most 256 colours, the same in every process.

    First the ``keys``: every colour that tells players something (sides, owners,
    highlights), each kept exact (one nearly the same as an earlier key becomes that key:
    :attr:`merged`). Then the anti-aliasing ramps of the ``ramps`` pairs
    (text and edges of one colour over another), ``steps`` mixes each. The rest is filled
    from the static ``backgrounds`` (median cut, which is deterministic), skipping colours
    the palette already holds nearly.
    """

    def __init__(
        self,
        keys: Iterable[Colour],
        ramps: Iterable[tuple[Colour, Colour]] = (),
        backgrounds: Sequence[Image.Image] = (),
        steps: int = 3,
    ) -> None:
        self.keys, self.merged = _distinct(list(dict.fromkeys(_rgb(k) for k in keys)))
        if len(self.keys) > 256:
            raise ValueError(f"{len(self.keys)} key colours do not fit in a palette")
        self.colours: list[Colour] = list(self.keys)
        ramp = [mix(a, b, step / (steps + 1)) for a, b in ramps for step in range(1, steps + 1)]
        self._add(ramp, 256 - BACKGROUND_SHARE * bool(backgrounds))
        for index, background in enumerate(backgrounds):
            share = (256 - len(self.colours)) // (len(backgrounds) - index)
            self._add(_main_colours(background, max(share * 2, 2)), len(self.colours) + share)
        self.image = _palette_image(self.colours)

    def _add(self, colours: Iterable[Colour], limit: int) -> None:
        """Add ``colours`` until the palette holds ``limit``: none near a key colour, none
        the same as one already in."""
        have = set(self.colours)
        for colour in colours:
            if len(self.colours) >= min(limit, 256):
                return
            if colour in have or any(_distance(colour, k) < KEEP_CLEAR for k in self.keys):
                continue
            self.colours.append(colour)
            have.add(colour)

    def quantize(self, image: Image.Image) -> Image.Image:
        """``image`` as a palette image: each pixel the nearest palette colour, no dither."""
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        return rgb.quantize(palette=self.image, dither=Image.Dither.NONE)


def _palette_image(colours: Sequence[Colour]) -> Image.Image:
    image = Image.new("P", (1, 1))
    flat = [channel for colour in colours for channel in colour]
    image.putpalette(flat + flat[:3] * (256 - len(colours)))
    return image


def _distinct(keys: list[Colour]) -> tuple[list[Colour], dict[Colour, Colour]]:
    """``keys`` without those the palette lookup cannot tell from another key (it works on
    colours cut to 6 bits a channel, so two keys a few steps apart can share a cell), and
    what each one left out is drawn as instead: the same to the eye."""
    merged: dict[Colour, Colour] = {}
    while True:
        strip = Image.new("RGB", (len(keys), 1))
        strip.putdata(keys)
        found = strip.quantize(palette=_palette_image(keys), dither=Image.Dither.NONE)
        shown = found.convert("RGB")
        lost = [(key, shown.getpixel((i, 0))) for i, key in enumerate(keys)]
        lost = [(key, twin) for key, twin in lost if twin != key]
        if not lost:
            return keys, merged
        key, twin = lost[-1]
        merged[key] = twin  # type: ignore[assignment]
        keys = [kept for kept in keys if kept != key]


def _rgb(colour: Sequence[int]) -> Colour:
    """A colour given as any sequence of red, green and blue, as a tuple."""
    red, green, blue = colour
    return red, green, blue


def _main_colours(image: Image.Image, count: int) -> list[Colour]:
    """The ``count`` colours median cut finds in ``image``, most used first."""
    reduced = image.convert("RGB").quantize(colors=min(count, 256), method=Image.Quantize.MEDIANCUT)
    flat, counted = reduced.getpalette(), reduced.getcolors(256)
    if flat is None or counted is None:
        raise ValueError("median cut gave no palette")
    # A palette image counts its colours by index.
    used = sorted(((n, i) for n, i in counted if isinstance(i, int)), reverse=True)
    return [(flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]) for _, i in used]


def png_bytes(image: Image.Image, palette: Palette) -> bytes:
    """Encode as a small palette PNG: each pixel the nearest colour of the game's fixed
    ``palette`` (no per-picture palette search), zlib level :data:`PNG_LEVEL`, the rows
    the game's earlier boards share deflated once (:mod:`render.png`). The same board
    gives the same bytes in every process."""
    return png.encode(palette.quantize(image), PNG_LEVEL)
