"""St. George and Lions and Dragons Chess read on a phone: shown 400 px wide, every word of
their pictures is at least 11 px, and no piece or arrow lies over a name a player reads a
move by (a St. George spoke number, ring letter or castle point, a Lions and Dragons cell);
in English and in the pseudo-locale, whose longer words must fit as well."""

from __future__ import annotations

import pytest

import render.lions_dragons
import render.stgeorge
from i18n import said, write
from render.common import Drawn
from render.marks import Box, overlap
from tests.render.test_legible_on_a_phone import LOCALES, PHONE, drawn_text, overlapping
from tests.render.test_palettes import boards

FLOOR = 11.0
"""The smallest font size at :data:`PHONE` px wide for these two games."""

GAMES = {"stgeorge": render.stgeorge, "lions-dragons": render.lions_dragons}


def sample(slug: str) -> list[dict]:
    """Set-up, positions through two games, their ends."""
    views = boards(slug)
    return views[:: max(1, len(views) // 10)] + views[-3:]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("slug", list(GAMES))
def test_every_word_is_eleven_px_on_a_phone(slug, locale):
    for view in sample(slug):
        found, _ = drawn_text(GAMES[slug], view, locale)
        small = sorted({(d.text, round(d.at_width(PHONE)[0], 1)) for d in found
                        if d.at_width(PHONE)[0] < FLOOR})  # fmt: skip
        assert len(found) >= 20
        assert not small


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("slug", list(GAMES))
def test_no_word_covers_another(slug, locale):
    for view in sample(slug):
        found, width = drawn_text(GAMES[slug], view, locale)
        assert not overlapping(found, width)


def at_picture(found: list[Drawn], width: int) -> list[tuple[str, Box]]:
    """Each line's text and box in the picture's own pixels."""
    return [(d.text, d.at_width(width)[1]) for d in found]


def stgeorge_names(view: dict, locale: str = "en") -> list[tuple[str, Box]]:
    """The wheel's spoke numbers, ring letters, castle point names and its Lair's name (in
    ``locale``), as drawn."""
    board = render.stgeorge.load("stgeorge", "board")
    names = {str(n) for n in range(1, board["spokes"] + 1)} | set(board["rings"])
    names |= {p for castle in board["castles"].values() for p in castle["points"]}
    names.add(write(said("Lair"), locale))
    found, width = drawn_text(render.stgeorge, view, locale)
    return [(t, box) for t, box in at_picture(found, width) if t in names and box[1] < width]


def lions_names(view: dict, locale: str = "en") -> list[tuple[str, Box]]:
    """Every cell's name, as drawn."""
    cells = {c["name"] for c in view["cells"]}
    found, width = drawn_text(render.lions_dragons, view, locale)
    return [(t, box) for t, box in at_picture(found, width) if t in cells]


NAMES = {"stgeorge": stgeorge_names, "lions-dragons": lions_names}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("slug", list(GAMES))
def test_no_piece_or_arrow_covers_a_name(slug, locale):
    for view in boards(slug):
        names = NAMES[slug](view, locale)
        covers = GAMES[slug].covers(view)
        assert names and covers
        hidden = {text for text, box in names if any(overlap(box, c) for c in covers)}
        assert not hidden


def test_every_cell_is_named():
    for view in sample("lions-dragons"):
        named = {text for text, _ in lions_names(view)}
        assert named >= {c["name"] for c in view["cells"]} - set(view.get("lions", []))


def test_the_wheel_names_every_ring_and_spoke():
    board = render.stgeorge.load("stgeorge", "board")
    for view in sample("stgeorge"):
        named = {text for text, _ in stgeorge_names(view)}
        assert set(board["rings"]) <= named
        assert {str(n) for n in range(1, board["spokes"] + 1)} <= named
