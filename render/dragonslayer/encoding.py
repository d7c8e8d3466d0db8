"""The Dragonslayer pictures' fixed palette and their encoding as PNG bytes.

One palette serves the map and the Battle Display, so a game's pictures look alike: every
colour :mod:`render.dragonslayer.style` and the Battle Display declare, kept exact (the
magicians' colours, their tints and shades, highlights), the blends of text over the
surfaces it is printed on, and the static map's own colours.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from render import png
from render.common import INK, PAPER, Palette
from render.dragonslayer import battle, style
from render.dragonslayer.board import background
from render.dragonslayer.layout import Layout, current_layout
from render.marks import MARK_KEYS, MARK_RAMPS


def encode(image: Image.Image) -> bytes:
    """A Dragonslayer picture as PNG bytes, in the game's fixed palette, deflated at
    :data:`PNG_LEVEL`."""
    return png.encode(palette().quantize(image), PNG_LEVEL)


PNG_LEVEL = 8
"""zlib level of Dragonslayer pictures: 8, where the other games use 3 (deflating a fresh
band takes about six times as long, some 30 ms a picture, for a fifth fewer bytes), so a
map whose every name is printed at phone size, and left clear of every piece, stays as
small as the others' pictures."""


def palette() -> Palette:
    """The palette of the map now loaded (a corrected data file gives a new one)."""
    return _palette(current_layout())


def _owner_colours() -> list[style.Colour]:
    """Every magician's colour, and the grey of pieces whose owner the view does not name."""
    return [*style.MAGICIAN_COLOURS.values(), style.FALLBACK_COLOUR]


def _magician_colours() -> list[style.Colour]:
    """Each magician's colour and the tints and shades its pieces, abode and names are
    drawn in."""
    colours = []
    for colour in _owner_colours():
        colours += [colour, style.tint(colour, 0.55), style.name_ink(colour)]
        colours += [style.shade(colour, 0.3), style.tint(colour, 0.7), style.tint(colour, 0.35)]
    return colours


def _battle_colours() -> list[style.Colour]:
    combat, magic = battle.COMBAT, battle.MAGIC
    colours = [combat, magic, battle.FIGHT_ROW, battle.FADED, battle.GOOD, battle.CELL]
    colours += [battle.HIDDEN_CELL, style.tint(style.PANEL, 0.45)]
    for colour in (combat, magic):
        colours += [style.tint(colour, 0.8), style.shade(colour, 0.3)]
        colours += [style.shade(colour, 0.15), style.tint(colour, 0.25)]
    colours += [style.tint(style.DRAGON, 0.88), style.shade(style.DRAGON, 0.2)]
    return colours


@lru_cache(maxsize=2)
def _palette(layout: Layout) -> Palette:
    magicians = _magician_colours()
    keys = (
        INK, PAPER, style.WHITE, style.SEA, *style.SEA_TINTS, style.SEA_EDGE, style.SEA_INK,
        style.LAND, style.SHORE, style.ROAD, style.ROAD_EDGE, style.TOWN_FILL,
        style.HAMLET_FILL, style.STONE, style.LAIR_FILL, style.MORGEN_FILL, style.TILE_BACK,
        style.DRAGON, style.HIGHLIGHT, style.PANEL, style.PANEL_EDGE, style.CURRENT_BAND,
        style.MUTED, style.ALERT, style.SUBTITLE, style.BOX_GOLD, style.CROWN, style.EYES,
        style.NOTE_PAPER, *magicians, *_battle_colours(), *MARK_KEYS,
    )  # fmt: skip
    surfaces = (PAPER, style.PANEL, style.CURRENT_BAND)
    # (The magicians' name inks print only on the map's art, whose own colours cover them.)
    inks = (INK, style.MUTED, style.ALERT, style.SUBTITLE)
    ramps = [(ink, surface) for ink in inks for surface in surfaces]
    ramps += [(style.letter_ink(colour), colour) for colour in _owner_colours()]
    ramps += [(INK, style.NOTE_PAPER), (style.DRAGON, style.NOTE_PAPER), (style.WHITE, INK)]
    ramps += [(style.WHITE, battle.COMBAT), (style.WHITE, battle.MAGIC), (INK, battle.CELL)]
    ramps += [(INK, battle.FIGHT_ROW), (battle.FADED, PAPER), (battle.FADED, battle.CELL)]
    ramps += MARK_RAMPS
    # The map's art alone fills the free entries: its names at phone size blend with land
    # and sea in many more ways than the Battle Display's flat ground, whose colours are
    # keys and ramps already.
    return Palette(keys, ramps, [background(layout)])
