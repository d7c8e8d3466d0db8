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
from collections.abc import Mapping
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
