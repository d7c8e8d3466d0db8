"""Dragon's Cave and Dragonslayer pictures read on a phone: shown 400 px wide, every word a
player needs to choose (place names, square numbers, coins, counts, the track, the legend)
is at least :data:`FLOOR` px, and no piece or token lies over one."""

from __future__ import annotations

import pytest

import render.dragons_cave
import render.dragonslayer
from render.common import Drawn
from tests.render.test_dragons_cave_render import random_views
from tests.render.test_legible_on_a_phone import PHONE, drawn_text, overlapping
from tests.render.test_palettes import boards

FLOOR = 11.0
"""The least font size at :data:`PHONE` px wide: capitals 8 px tall, read at a glance."""


def sampled(views: list[dict]) -> list[dict]:
    """Early, middle and late positions and the last ones (the game's end, the hand-made
    views)."""
    return views[:: max(1, len(views) // 8)] + views[-4:]


def small(found: list[Drawn]) -> set[tuple[str, float]]:
    """The words under the floor on a phone, with their size there."""
    sizes = {(d.text, round(d.at_width(PHONE)[0], 2)) for d in found}
    return {(text, size) for text, size in sizes if size < FLOOR}


def inside(box, outer) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def meets(a, b) -> bool:
    """Whether two boxes overlap by more than a pixel's sliver."""
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def covered(found: list[Drawn], covers: list, width: int) -> list[str]:
    """The words a piece lies over: every word but a piece's own letters (inside it)."""
    words = [(d.text, d.at_width(width)[1]) for d in found]
    return [
        text
        for text, box in words
        if not any(inside(box, c) for c in covers) and any(meets(box, c) for c in covers)
    ]


# --- Dragon's Cave ---------------------------------------------------------------------------


def cave_views() -> list[dict]:
    """Four-player games from the shared boards, and two-player games (two Dwarves each,
    labelled with a letter and a number)."""
    return sampled(boards("dragons-cave")) + random_views(2, 5)[::3] + random_views(3, 7)[::4]


@pytest.mark.parametrize("index", range(len(cave_views())))
def test_every_word_of_dragons_cave_reads_at_eleven_px(index):
    view = cave_views()[index]
    found, width = drawn_text(render.dragons_cave, view)
    numbers = {str(i + 1) for i in range(len(view["path"]))}
    # The squares' numbers, the legend and the Treasure are all printed.
    assert numbers | {"Ruby", "Treasure", "START"} <= {d.text for d in found}
    assert not small(found)
    assert not overlapping(found, width)


@pytest.mark.parametrize("index", range(len(cave_views())))
def test_no_dwarf_or_dragon_covers_a_word_of_dragons_cave(index):
    view = cave_views()[index]
    found, width = drawn_text(render.dragons_cave, view)
    assert not covered(found, render.dragons_cave.covers(view), width)
