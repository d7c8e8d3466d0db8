"""Destination marks on St. George and Lions and Dragons Chess pictures: each drawn by the
place it names, none over another, none under or over a piece or the last move, letters
11 px on a phone, colours exact through the encoding, and nothing else changed."""

from __future__ import annotations

import math
import string

import pytest
from PIL import Image, ImageChops

import render.lions_dragons
import render.stgeorge
from engines.data import load
from render.common import collect_text
from render.marks import MARK_CAP, MARK_FILL, MARK_KEYS, NOTABLE_FILL, PHONE, Box, overlap
from tests.render.test_palettes import boards, changed_colours, decoded

LABELS = [*string.ascii_uppercase, *(a + b for a in "AB" for b in "ABCDEFGH")]

STGEORGE_CROWD = [f"{spoke}a" for spoke in range(1, 15)] + ["lair", "3b", "4b", "5c", "G2", "P1"]
"""Every point of the crowded inner ring, the Lair, and a few more."""
LIONS_CROWD = ["e4", "e5", "f4", "f5", "f6", "g4", "g5", "d4", "d5", "e3", "f3", "g3", "f7"]
"""A cluster of neighbouring cells in the middle of the board."""


def stgeorge_places(view: dict) -> list[str]:
    """Crowded points, and every point a piece stands on (a capture's target)."""
    held = [p["point"] for p in view["pieces"]]
    return list(dict.fromkeys(STGEORGE_CROWD + held))


def lions_places(view: dict) -> list[str]:
    """A cluster of cells, and the first cells pieces stand on."""
    lions = set(view.get("lions", []))
    held = [p["cell"] for p in view["pieces"]][:12]
    return [c for c in dict.fromkeys(LIONS_CROWD + held) if c not in lions]


def stgeorge_xy(view: dict, place: str) -> tuple[float, float]:
    return render.stgeorge.point_xy(place)


def lions_xy(view: dict, place: str) -> tuple[float, float]:
    """A cell's centre, or the centre of the piece standing on it."""
    cell = next(c for c in view["cells"] if c["name"] == place)
    x, y = render.lions_dragons.centre_of(cell["q"], cell["r"])
    held = any(p["cell"] == place for p in view["pieces"])
    return x, y + render.lions_dragons.PIECE_DY * held


GAMES = {
    "stgeorge": (render.stgeorge, stgeorge_places, stgeorge_xy),
    "lions-dragons": (render.lions_dragons, lions_places, lions_xy),
}


def marked(slug: str, view: dict) -> dict:
    """``view`` with a mark on each of many places, those with a piece notable."""
    _, places, _ = GAMES[slug]
    held = {p.get("point") or p.get("cell") for p in view["pieces"]}
    marks = [
        {"at": place, "label": label, "notable": place in held}
        for place, label in zip(places(view), LABELS, strict=False)
    ]
    return {**view, "marks": marks}


def views(slug: str) -> list[dict]:
    """Set-up, positions through two games and their ends, each with many marks."""
    every = boards(slug)
    return [marked(slug, view) for view in every[:: max(1, len(every) // 5)] + every[-2:]]


def grown(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_mark_is_drawn_by_its_place(slug):
    module, _, xy = GAMES[slug]
    apart = []
    for view in views(slug):
        boxes = module.mark_boxes(view)
        assert set(boxes) == {m["label"] for m in view["marks"]}
        for mark in view["marks"]:
            box = boxes[mark["label"]]
            reach = (box[2] - box[0]) / 2
            apart.append(math.dist(centre(box), xy(view, mark["at"])) / reach)
    # On its place, or beside it with a leader line: short for most, and even round the
    # Lair with every point of the inner ring marked, within a few discs.
    apart.sort()
    assert apart[len(apart) * 4 // 5] <= 3.5
    assert apart[-1] <= 8


@pytest.mark.parametrize("slug", list(GAMES))
def test_marks_on_empty_places_sit_on_them_where_there_is_room(slug):
    module, _, xy = GAMES[slug]
    view = boards(slug)[0]
    held = {p.get("point") or p.get("cell") for p in view["pieces"]}
    far = {"stgeorge": ["3c", "7e", "11b"], "lions-dragons": ["e5", "h4", "c3"]}[slug]
    far = [place for place in far if place not in held]
    view = {**view, "marks": [{"at": p, "label": L} for p, L in zip(far, "ABC", strict=False)]}
    for label, box in module.mark_boxes(view).items():
        place = far["ABC".index(label)]
        assert math.dist(centre(box), xy(view, place)) < 1


@pytest.mark.parametrize("slug", list(GAMES))
def test_no_mark_covers_another(slug):
    module = GAMES[slug][0]
    for view in views(slug):
        boxes = list(module.mark_boxes(view).values())
        assert len(boxes) >= 12
        for index, one in enumerate(boxes):
            assert not any(overlap(one, other) for other in boxes[index + 1 :])


@pytest.mark.parametrize("slug", list(GAMES))
def test_no_piece_or_arrow_lies_under_a_mark(slug):
    module = GAMES[slug][0]
    for view in views(slug):
        covers = module.covers(view)
        assert covers
        for label, box in module.mark_boxes(view).items():
            assert not any(overlap(box, cover) for cover in covers), label


@pytest.mark.parametrize("slug", list(GAMES))
def test_mark_letters_are_eleven_px_on_a_phone(slug):
    module = GAMES[slug][0]
    view = views(slug)[-1]
    labels = {m["label"] for m in view["marks"]}
    with collect_text() as found:
        width = module.picture(view).width
    sizes = {d.text: d.at_width(PHONE)[0] for d in found if d.text in labels and d.size > 25}
    assert set(sizes) == labels
    # Capitals are 0.73 of the font size.
    assert min(sizes.values()) * 0.73 >= MARK_CAP
    assert width in (800, 1024)


@pytest.mark.parametrize("slug", list(GAMES))
def test_marks_keep_their_colours_through_the_encoding(slug):
    module = GAMES[slug][0]
    palette = module.palette()
    # A key the palette holds as a twin no one tells apart (Lions and Dragons draws its
    # text in a dark ink a step from INK) shows as that twin, as every such key does.
    exact = {key for key in MARK_KEYS if key not in palette.merged}
    assert exact <= set(palette.keys)
    assert {MARK_FILL, NOTABLE_FILL} <= exact
    for view in views(slug)[::2]:
        drawn = module.picture(view).convert("RGB")
        shown = decoded(module.encode(drawn))
        assert not changed_colours(drawn, shown) & exact
        boxes = module.mark_boxes(view)
        for mark in view["marks"]:
            box = boxes[mark["label"]]
            x, y = centre(box)
            # The disc's fill, just left of its letters.
            spot = (round(x - 0.55 * (y - box[1])), round(y))
            fill = NOTABLE_FILL if mark["notable"] else MARK_FILL
            assert drawn.getpixel(spot) == fill == shown.getpixel(spot)


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_place_not_on_the_board_is_named(slug):
    module = GAMES[slug][0]
    view = {**boards(slug)[0], "marks": [{"at": "z99", "label": "A"}]}
    with pytest.raises(ValueError, match="z99"):
        module.picture(view)
    with pytest.raises(ValueError, match="z99"):
        module.mark_boxes(view)


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_view_without_marks_draws_as_before(slug):
    module, _, xy = GAMES[slug]
    for view in boards(slug)[::4]:
        plain = module.picture(view)
        assert module.picture({**view, "marks": []}).tobytes() == plain.tobytes()
        assert module.picture({**view, "marks": None}).tobytes() == plain.tobytes()
        assert module.mark_boxes(view) == {}
        # Marks change only their discs and their leader lines to their places.
        with_marks = marked(slug, view)
        diff = ImageChops.difference(module.picture(with_marks), plain).convert("L")
        allowed = Image.new("L", plain.size, 0)
        boxes = module.mark_boxes(with_marks)
        for mark in with_marks["marks"]:
            box = boxes[mark["label"]]
            (x1, y1), (x2, y2) = centre(box), xy(view, mark["at"])
            left, right = min(x1, x2) - 12, max(x1, x2) + 12
            top, bottom = min(y1, y2) - 12, max(y1, y2) + 12
            allowed.paste(255, tuple(map(round, (left, top, right, bottom))))
            allowed.paste(255, tuple(map(round, grown(box, 2))))
        outside = ImageChops.subtract(diff.point(lambda v: 255 if v else 0), allowed)
        assert outside.getbbox() is None


def test_the_wheel_has_a_place_for_every_point():
    points = load("stgeorge", "board")["points"]
    view = {**boards("stgeorge")[0], "marks": [{"at": p, "label": "A"} for p in points][:1]}
    assert render.stgeorge.mark_boxes(view)
