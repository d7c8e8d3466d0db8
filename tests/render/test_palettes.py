"""Board pictures keep their colours through the fixed palettes, and the same view gives the
same PNG bytes in every process."""

from __future__ import annotations

import hashlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

import render.dragons_cave
import render.dragonslayer
import render.lions_dragons
import render.stgeorge
from bench.boards import renderer_module
from games import SPECS, playout
from render.common import draw_text, font
from render.dragonslayer.board import _disc, _tile_backs
from render.dragonslayer.encoding import _palette as dragonslayer_palette
from render.dragonslayer.style import Pen
from tests.render.test_dragonslayer_battle_render import battle_view, unresolved_view
from tests.render.test_dragonslayer_render import busy_view

ROOT = Path(__file__).parents[2]
RENDERERS = {slug: renderer_module(slug) for slug in SPECS}
"""Every registered game's renderer module: its ``picture``, ``encode`` and ``palette``."""


def played_views(slug: str, seed: int, every: int = 9, most: int = 12) -> list[dict]:
    """Public views through one random game at the largest table: its set-up, every
    ``every``-th position (at most ``most``) and its end."""
    engine = SPECS[slug].engine
    views: list[dict] = []
    for seq, view in enumerate(playout(slug, engine.max_players, seed, random.Random(seed))):
        last = view
        if seq % every == 0:
            views.append(view)
        if len(views) >= most or seq >= 3000:
            break
    return [*views, last]


def boards(slug: str) -> list[dict]:
    """Views with the game's pieces, marks and panels in many states: through two random
    games at the largest table (early and far on), and for Dragonslayer a crowded map and
    Battle Displays made by hand."""
    views = played_views(slug, 1) + played_views(slug, 2, every=40)
    if slug == "lions-dragons":
        over = dict(views[-1], result={"winner": "white", "text": "White wins: a goal."})
        views.append(over)
    if slug == "dragonslayer":
        views += [busy_view(), battle_view(), battle_view("lake", raid=True), unresolved_view()]
    return views


def decoded(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def largest_channel(image: Image.Image) -> Image.Image:
    """Per pixel, the largest of the three channels (an "L" image)."""
    red, green, blue = image.split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


NOT_A_KEY = (1, 2, 3)


def changed_colours(drawn: Image.Image, shown: Image.Image) -> set[tuple[int, int, int]]:
    """The colours of the drawing at the pixels the encoded picture shows otherwise."""
    moved = largest_channel(ImageChops.difference(drawn, shown)).point(lambda v: v and 255)
    kept = Image.composite(drawn, Image.new("RGB", drawn.size, NOT_A_KEY), moved)
    return {colour for _count, colour in kept.getcolors(1 << 16)} - {NOT_A_KEY}


@pytest.mark.parametrize("slug", list(RENDERERS))
def test_every_key_colour_of_a_palette_maps_to_itself(slug):
    palette = RENDERERS[slug].palette()
    assert len(palette.colours) <= 256
    assert len(palette.keys) >= 20
    colours = [*palette.keys, *palette.merged]
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(colours)
    shown = palette.quantize(strip).convert("RGB")
    assert [shown.getpixel((i, 0)) for i in range(len(palette.keys))] == palette.keys
    # A key the lookup cannot tell from another becomes that one: a step no one sees.
    for index, (key, twin) in enumerate(palette.merged.items(), len(palette.keys)):
        assert shown.getpixel((index, 0)) == twin
        assert max(abs(a - b) for a, b in zip(key, twin, strict=True)) <= 4


@pytest.mark.parametrize("slug", list(RENDERERS))
def test_encoded_boards_keep_their_colours(slug):
    module = RENDERERS[slug]
    keys = module.palette().keys
    for view in boards(slug):
        drawn = module.picture(view).convert("RGB")
        shown = decoded(module.encode(drawn))
        assert shown.size == drawn.size
        # Colours that tell players something come through exactly, wherever they are.
        assert not changed_colours(drawn, shown) & set(keys)
        # Edges and blends move a little, never far, and the picture as a whole hardly.
        off = largest_channel(ImageChops.difference(drawn, shown))
        assert ImageStat.Stat(off).mean[0] < 0.6
        far = ImageStat.Stat(off.point(lambda v: 255 if v > 32 else 0)).mean[0] / 255
        assert far < 0.001


@pytest.mark.parametrize("slug", list(RENDERERS))
def test_boards_stay_small(slug):
    for view in boards(slug)[::4]:
        assert len(SPECS[slug].render(view)) <= 140_000


DRAW_IN_A_FRESH_PROCESS = """
import hashlib, json, sys
from games import render
views = json.load(sys.stdin)
print(json.dumps({slug: hashlib.sha256(render(slug, view)).hexdigest() for slug, view in views}))
"""


def test_the_same_view_gives_the_same_bytes_in_every_process():
    views = [(slug, boards(slug)[3]) for slug in RENDERERS]
    here = {slug: hashlib.sha256(SPECS[slug].render(view)).hexdigest() for slug, view in views}
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", DRAW_IN_A_FRESH_PROCESS],
            input=json.dumps(views),
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        assert json.loads(done.stdout) == here


def test_the_same_view_gives_the_same_bytes_after_the_caches_are_cleared():
    from render import common

    views = {slug: boards(slug)[-1] for slug in RENDERERS}
    before = {slug: SPECS[slug].render(view) for slug, view in views.items()}
    for cached in (
        render.lions_dragons.palette,
        render.dragons_cave.palette,
        render.stgeorge._palette,
        dragonslayer_palette,
        common._mask,
        common.text_length,
        common.text_box,
    ):
        cached.cache_clear()
    assert {slug: SPECS[slug].render(view) for slug, view in views.items()} == before


@pytest.mark.parametrize("anchor", [None, "la", "mm", "lm", "rm", "mt", "mb", "rt", "lb"])
def test_text_from_cached_masks_is_what_pillow_draws(anchor):
    for x, y in ((40, 30), (40.5, 30.5), (41.25, 29.75), (40.8, 31.1)):
        for text, size, bold, stroke in (("Galen", 16, True, 0), ("12 · 3", 15, False, 2)):
            face = font(size, bold)
            pillow = Image.new("RGB", (160, 70), (236, 228, 208))
            ours = pillow.copy()
            halo = (34, 30, 28) if stroke else None
            ImageDraw.Draw(pillow).text(
                (x, y), text, font=face, fill=(38, 98, 212), anchor=anchor,
                stroke_width=stroke, stroke_fill=halo,
            )  # fmt: skip
            draw_text(ImageDraw.Draw(ours), (x, y), text, face, (38, 98, 212), anchor, stroke, halo)
            assert ImageChops.difference(pillow, ours).getbbox() is None


@pytest.mark.parametrize(
    ("shapes", "reach", "args"),
    [(_tile_backs, 18, ()), (_disc, 18, ((222, 118, 18), 14)), (_disc, 15, ((28, 140, 70), 11))],
)
def test_shapes_pasted_from_a_sprite_are_what_pen_draws(shapes, reach, args):
    chooser = random.Random(3)
    spots = [(n + part, 60.5) for n in range(40, 44) for part in (0, 0.25, 0.5, 0.75)]
    spots += [(chooser.uniform(30, 90), chooser.uniform(30, 90)) for _ in range(60)]
    for spot in spots:
        drawn = Image.new("RGB", (130, 130), (226, 224, 180))
        pasted = drawn.copy()
        shapes(Pen(drawn, 1), spot, *args)
        Pen(pasted, 1).stamp(shapes, spot, reach, *args)
        assert ImageChops.difference(drawn, pasted).getbbox() is None, spot
