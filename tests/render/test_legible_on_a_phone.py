"""Board pictures read on a phone: shown 400 px wide, every word a player needs is at least
:data:`FLOOR` (11) px, and no cell's name lies under a piece; in English and in the
pseudo-locale (the longest words: a board's words still fit, set no smaller)."""

from __future__ import annotations

import sys

import pytest

import render.dragonslayer
import render.lions_dragons
from engines.lions_dragons import board
from render.common import Drawn, collect_text
from tests.render.test_palettes import RENDERERS, boards

PHONE = 400
"""How wide a phone shows a picture in a chat, in CSS pixels."""

FLOOR = 11.0
"""The smallest font size at :data:`PHONE` px wide: every word a player reads to choose (a
coordinate, a square's number, a count) is at least 11 px type there."""
BATTLE_FLOOR = 11.0
"""The Dragonslayer Battle Display's floor: the same 11 px as every other board, though its
choices are also named on their buttons."""


def fresh_caches() -> None:
    """Forget every cached background and glyph, so the text they hold is drawn (and seen)
    again."""
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in vars(module).values():
                if hasattr(value, "cache_clear"):
                    value.cache_clear()


LOCALES = ("en", "en-XA")
"""English, and the pseudo-locale: every board word a third longer, accented, bracketed."""


def drawn_text(module, view: dict, locale: str = "en") -> tuple[list[Drawn], int]:
    """Every line of text a fresh picture of ``view`` in ``locale`` prints, and the
    picture's width."""
    found, (width, _) = drawn_on(module, view, locale)
    return found, width


def drawn_on(module, view: dict, locale: str = "en") -> tuple[list[Drawn], tuple[int, int]]:
    """Every line of text a fresh picture of ``view`` in ``locale`` prints, and the
    picture's size."""
    fresh_caches()
    with collect_text() as found:
        size = module.picture(view, locale).size
    # Text is drawn on the picture itself or on a copy a whole number of times as large.
    assert all(d.canvas_width % size[0] == 0 for d in found)
    return found, size


def too_small(found: list[Drawn], floor: float = FLOOR) -> list[tuple[str, float]]:
    """The lines of text smaller than ``floor`` on a phone, with their size there."""
    sizes = [(d.text, round(d.at_width(PHONE)[0], 1)) for d in found]
    return sorted({(text, size) for text, size in sizes if size < floor}, key=lambda t: t[1])


LEGIBLE = list(RENDERERS)


def outside(found: list[Drawn], picture: tuple[int, int]) -> list[str]:
    """The lines of text that run past the picture's edges."""
    width, height = picture
    out = []
    for d in found:
        left, top, right, bottom = d.at_width(width)[1]
        if left < 0 or top < 0 or right > width or bottom > height:
            out.append(d.text)
    return out


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("slug", LEGIBLE)
def test_every_word_of_every_board_reads_on_a_phone(slug, locale):
    views = boards(slug)
    # Set-up, positions through two games and their ends (and the hand-made views).
    for view in views[:: max(1, len(views) // 8)] + views[-3:]:
        found, size = drawn_on(RENDERERS[slug], view, locale)
        assert len(found) >= 20
        assert not too_small(found, BATTLE_FLOOR if isinstance(view.get("battle"), dict) else FLOOR)
        # However long the language's words, none runs off the picture.
        assert not outside(found, size)


@pytest.mark.parametrize("index", [0, 5, 13, -1])
def test_every_lions_and_dragons_cell_is_named_at_eleven_px(index):
    view = boards("lions-dragons")[index]
    found, _ = drawn_text(render.lions_dragons, view)
    names = {c["name"] for c in view["cells"]} - set(view.get("lions", []))
    sizes = {d.text: d.at_width(PHONE)[0] for d in found if d.text in names}
    # Every cell's name is printed (the whole board is a coordinate grid), at 11 px or more.
    assert set(sizes) == names
    assert min(sizes.values()) >= FLOOR


def piece_box(cell: str) -> tuple[float, float, float, float]:
    x, y = render.lions_dragons.centre_of(*board.COORD[cell])
    y += render.lions_dragons.PIECE_DY
    r = render.lions_dragons.SIZE * render.lions_dragons.PIECE_R
    return x - r, y - r, x + r, y + r


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("index", [0, 5, 13, -1])
def test_no_piece_covers_a_cell_name(index):
    view = boards("lions-dragons")[index]
    found, _ = drawn_text(render.lions_dragons, view)
    cells = {c["name"] for c in view["cells"]}
    labels = [d for d in found if d.text in cells]
    covered = [
        (d.text, p["cell"])
        for p in view.get("pieces", [])
        for d in labels
        if overlap(d.box, piece_box(p["cell"]))
    ]
    assert view.get("pieces") and not covered


def overlapping(found: list[Drawn], width: int) -> list[tuple[str, str]]:
    """Pairs of different lines of text whose boxes overlap by more than a pixel (a line
    drawn again over itself, as a box's name over its tile, is one line)."""
    boxes = [(d.text, d.at_width(width)[1]) for d in found]
    pairs = []
    for index, (one, a) in enumerate(boxes):
        for other, b in boxes[index + 1 :]:
            apart = a[2] <= b[0] + 1 or b[2] <= a[0] + 1 or a[3] <= b[1] + 1 or b[3] <= a[1] + 1
            if one != other and not apart:
                pairs.append((one, other))
    return pairs


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("slug", [slug for slug in RENDERERS if slug != "dragonslayer"])
def test_no_word_covers_another(slug, locale):
    views = boards(slug)
    for view in views[:: max(1, len(views) // 8)] + views[-3:]:
        found, width = drawn_text(RENDERERS[slug], view, locale)
        assert not overlapping(found, width)


@pytest.mark.parametrize("locale", LOCALES)
def test_no_dragonslayer_name_covers_another(locale):
    for view in boards("dragonslayer")[::3]:
        found, width = drawn_text(render.dragonslayer, view, locale)
        if isinstance(view.get("battle"), dict):
            assert not overlapping(found, width)  # the Battle Display: every word
        else:
            # The map's printed names (places, seas, abodes, boxes, the track), drawn on its
            # background at twice the size: pieces may stand over a name, names never do.
            printed = [d for d in found if d.canvas_width == 2 * width]
            assert len(printed) >= 40
            assert not overlapping(printed, width)
