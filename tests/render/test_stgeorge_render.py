"""The St. George board picture: a small valid PNG that shows what the view says."""

from __future__ import annotations

import io
import random

from PIL import Image

from engines.stgeorge import GAME
from games import render as render_slug
from render.stgeorge import CASTLE_COLOURS, KNIGHT_PX, LEGEND, SIZE, point_xy, render


def start_view(players: int = 5) -> dict:
    roles = [role.key for role in GAME.roles(players, {})]
    return GAME.view(GAME.setup(roles, {}, random.Random(0)), None)


def picture(view: dict) -> Image.Image:
    return Image.open(io.BytesIO(render(view))).convert("RGB")


def colour_at(image: Image.Image, point: str, dx: float = 0, dy: float = 0) -> tuple[int, ...]:
    x, y = point_xy(point)
    return image.getpixel((round(x + dx), round(y + dy)))


def near(colour: tuple[int, ...], target: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target, strict=True))


def with_pieces(view: dict, pieces: list[tuple[str, str]]) -> dict:
    return {**view, "pieces": [{"point": p, "owner": o} for p, o in pieces]}


def test_png_is_valid_small_and_phone_sized():
    data = render(start_view())
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= 300_000
    image = Image.open(io.BytesIO(data))
    assert image.size == (SIZE, SIZE + LEGEND)
    assert render_slug("stgeorge", start_view()) == data


def test_a_knight_shows_in_its_castle_colour_at_its_point():
    base = with_pieces(start_view(), [("lair", "dragon")])
    empty = picture(base)
    red = picture(with_pieces(base, [("lair", "dragon"), ("3c", "george")]))
    blue = picture(with_pieces(base, [("lair", "dragon"), ("3c", "andrew")]))
    # Just off the letter in the middle of the disc.
    assert near(colour_at(red, "3c", dx=-15), CASTLE_COLOURS["george"])
    assert near(colour_at(blue, "3c", dx=-15), CASTLE_COLOURS["andrew"])
    assert not near(colour_at(empty, "3c", dx=-15), CASTLE_COLOURS["george"])


def test_the_lair_is_green_and_the_dragon_dark():
    view = start_view()
    with_dragon = picture(view)
    without = picture(with_pieces(view, [("9f", "dragon")]))
    assert near(colour_at(without, "lair", dy=-20), (112, 170, 84))
    assert sum(colour_at(with_dragon, "lair")) < 250  # the Dragon's dark body
    assert sum(colour_at(without, "9f")) < 250
    assert colour_at(without, "lair") != colour_at(with_dragon, "lair")


def test_castle_not_in_play_is_greyed():
    five = picture(with_pieces(start_view(5), []))
    four = picture(with_pieces(start_view(4), []))
    edge = -(KNIGHT_PX + 3)  # on the tower's outline
    patrick = colour_at(five, "P2", dy=edge)
    grey = colour_at(four, "P2", dy=edge)
    assert near(patrick, CASTLE_COLOURS["patrick"], tolerance=40)
    assert abs(grey[0] - grey[1]) < 25 and abs(grey[1] - grey[2]) < 25
    assert near(colour_at(five, "G2", dy=edge), colour_at(four, "G2", dy=edge), tolerance=8)


def test_last_move_path_is_highlighted():
    view = with_pieces(start_view(), [("lair", "dragon"), ("1c", "george")])
    plain = picture(view)
    last = {
        "seat": 0,
        "owner": "george",
        "from": "G2",
        "to": "1c",
        "path": ["G2", "1f", "1e", "1d", "1c"],
        "captured": None,
        "scored": False,
        "roll": 4,
    }
    marked = picture({**view, "last": last})
    (x1, y1), (x2, y2) = point_xy("1e"), point_xy("1d")
    midpoint = (round((x1 + x2) / 2), round((y1 + y2) / 2))
    assert near(marked.getpixel(midpoint), (255, 214, 0))
    assert not near(plain.getpixel(midpoint), (255, 214, 0))


def test_die_shows_the_roll():
    view = start_view()
    box = (0, SIZE, 140, SIZE + LEGEND)
    faces = {roll: picture({**view, "roll": roll, "roll_seat": 0}).crop(box) for roll in (1, 6)}
    blank = picture(view).crop(box)
    assert faces[1].tobytes() != faces[6].tobytes()
    assert blank.tobytes() != faces[1].tobytes()


def test_whose_turn_changes_the_legend():
    view = start_view()
    first = picture(view).crop((140, SIZE, SIZE, SIZE + LEGEND))
    second = picture({**view, "to_move": 1}).crop((140, SIZE, SIZE, SIZE + LEGEND))
    assert first.tobytes() != second.tobytes()


def test_scored_and_taken_knights_are_drawn_in_their_castles_corner():
    view = start_view()
    plain = picture(view)
    counted = picture(
        {**view, "scored": {**view["scored"], "george": 1}, "taken": {**view["taken"], "david": 2}}
    )
    # One scored Knight stands in St. George's corner (top right), under its counts.
    behind_george = (SIZE - 16 - 21 - 15, 14 + 90)
    assert near(counted.getpixel(behind_george), CASTLE_COLOURS["george"], tolerance=60)
    assert not near(plain.getpixel(behind_george), CASTLE_COLOURS["george"], tolerance=60)
    corner = (0, 0, 300, 110)  # St. David's counts
    assert plain.crop(corner).tobytes() != counted.crop(corner).tobytes()


def test_finished_game_and_odd_views_render():
    view = start_view(3)
    over = {**view, "phase": "over", "to_move": None, "result": "The Dragon wins.", "winners": [2]}
    assert render(over)[:4] == b"\x89PNG"
    odd = {**view, "pieces": [{"point": "nowhere", "owner": "george"}], "last": {"path": []}}
    assert render(odd)[:4] == b"\x89PNG"
