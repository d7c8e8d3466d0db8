"""Dragonslayer pictures: the public view in, PNG bytes out.

While a Dragon fight is shown (``view["battle"]`` is a dict) the picture is the Battle
Display; otherwise it is the map of Urland with the pieces and the parties. One concern per
module:

* :mod:`~render.dragonslayer.layout`: where everything goes (sizes, places, names, spots);
* :mod:`~render.dragonslayer.style`: colours, text measuring and the scaled pen;
* :mod:`~render.dragonslayer.board`: the static map's art and the pieces' glyphs;
* :mod:`~render.dragonslayer.map`: the view's pieces, path and boxes on the map;
* :mod:`~render.dragonslayer.panel`: the map's header and the parties' panel under it;
* :mod:`~render.dragonslayer.battle`: the Battle Display, drawn instead of the map;
* :mod:`~render.dragonslayer.encoding`: the fixed palette both are encoded in.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from i18n import Locale
from render.dragonslayer import battle
from render.dragonslayer.battle import battle_picture
from render.dragonslayer.board import background
from render.dragonslayer.encoding import encode, palette
from render.dragonslayer.layout import (
    HEADER,
    HEIGHT,
    MAP_H,
    MAP_W,
    PANEL_W,
    WIDTH,
    abode_xy,
    box_xy,
    current_layout,
    face_down_xy,
    place_xy,
    sea_xy,
    track_xy,
)
from render.dragonslayer.map import map_picture
from render.dragonslayer.places import covers, draw_marks, locate, map_names, mark_boxes
from render.dragonslayer.style import SIDE_COLOURS, magician_colour

__all__ = [
    "HEADER",
    "HEIGHT",
    "MAP_H",
    "MAP_W",
    "PANEL_W",
    "SIDE_COLOURS",
    "WIDTH",
    "abode_xy",
    "box_xy",
    "covers",
    "encode",
    "face_down_xy",
    "locate",
    "magician_colour",
    "map_names",
    "mark_boxes",
    "palette",
    "picture",
    "place_xy",
    "render",
    "sea_xy",
    "track_xy",
    "warm",
]


def render(view: dict[str, Any], locale: Locale = "en") -> bytes:
    """PNG of a public view of Dragonslayer: the Battle Display while a Dragon fight is shown
    (``view["battle"]`` is a dict), else the map of Urland with the pieces and the parties;
    its words in ``locale``."""
    return encode(picture(view, locale))


def picture(view: dict[str, Any], locale: Locale = "en") -> Image.Image:
    """The picture :func:`render` encodes (RGB): the map :data:`WIDTH` wide and at most
    :data:`HEIGHT` tall (its panel as tall as the parties need) with the view's marks
    drawn last (:mod:`render.dragonslayer.places`), or the Battle Display, which ignores
    marks."""
    if isinstance(view.get("battle"), dict):
        return battle_picture(view, locale)  # no places there: marks are ignored
    image = map_picture(view, locale)
    draw_marks(ImageDraw.Draw(image), view)
    return image


def warm() -> None:
    """Work out the map's layout (where the names and the sea spots go: about a second),
    draw the map's art and the Battle Display's ground, and make the palette of
    both, now rather than on the first picture, for the data files loaded."""
    background(current_layout())
    battle.background()
    palette()
