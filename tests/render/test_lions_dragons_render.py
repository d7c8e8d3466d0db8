"""Lions and Dragons Chess board pictures: valid, small, and showing what changed."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines.lions_dragons import board
from games import ENGINES
from games import render as render_slug
from render.lions_dragons import (
    BALL_FILL,
    LAST_EDGE,
    PIECE_DY,
    PIECE_R,
    SIZE,
    _background,
    centre_of,
    render,
)

GAME = ENGINES["lions-dragons"]
FAR = {"a1": "white wizard", "l6": "black wizard"}


def picture(state: dict) -> Image.Image:
    data = render(GAME.view(state, None))
    return Image.open(io.BytesIO(data)).convert("RGB")


def spot(cell: str, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int]:
    """Pixel of ``cell``'s centre moved by ``(dx, dy)`` hex radii."""
    x, y = centre_of(*board.COORD[cell])
    return round(x + dx * SIZE), round(y + dy * SIZE)


def on_piece(cell: str, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int]:
    """Pixel of the piece on ``cell`` moved by ``(dx, dy)`` hex radii from its centre."""
    x, y = spot(cell, dx, dy)
    return x, y + PIECE_DY


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 40) -> bool:
    return sum(abs(i - j) for i, j in zip(a, b, strict=True)) <= tolerance


def test_png_is_valid_small_and_portrait_for_a_phone():
    state = GAME.setup(["white", "black"], {}, random.Random(1))
    data = render_slug("lions-dragons", GAME.view(state, None))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= 300_000
    image = Image.open(io.BytesIO(data))
    assert image.width >= 800 and image.height > image.width


def test_a_piece_changes_its_cell():
    empty = picture(GAME.position(FAR))
    # A point inside each glyph, off its letter (and across the Fireball's arrow).
    for spec, expect, where in (
        ("white roc", (252, 250, 244), (-0.3, 0.25)),
        ("black roc", (38, 36, 44), (-0.3, 0.25)),
        ("fireball ne", (255, 140, 20), (0.15, 0.15)),
    ):
        with_piece = picture(GAME.position({**FAR, "f6": spec}))
        point = on_piece("f6", *where)
        assert not close(empty.getpixel(point), with_piece.getpixel(point)), spec
        assert close(with_piece.getpixel(point), expect), spec


def test_white_light_black_dark():
    image = picture(GAME.position({**FAR, "e5": "white dragon", "g5": "black dragon"}))
    white = image.getpixel(on_piece("e5", 0.0, 0.3))
    black = image.getpixel(on_piece("g5", 0.0, 0.3))
    assert sum(white) > 600 and sum(black) < 200


def test_lions_and_goals_are_drawn():
    state = GAME.position(FAR, lions=["d5", "h5"])
    image = picture(state)
    lion = image.getpixel(spot("d5", -0.8, 0.0))  # the red rim outside the mane
    assert lion[0] > 100 and lion[1] < 60 and lion[2] < 60
    goal = image.getpixel(spot("f1", 0.0, 0.25))
    assert close(goal, (255, 214, 92), 60)
    plain = image.getpixel(spot("f6", 0.0, 0.25))
    assert not close(plain, goal, 60)


def test_last_move_and_capture_are_marked():
    before = GAME.position({**FAR, "f5": "white dragon", "f6": "black roc"})
    after, _ = GAME.apply(before, 0, "f5xf6", random.Random(0))
    old, new = picture(before), picture(after)
    rim = spot("f5", 0.0, -0.86 + 3.5 / SIZE)  # on the blue outline of the from-cell
    assert close(new.getpixel(rim), LAST_EDGE, 40)
    assert not close(old.getpixel(rim), LAST_EDGE, 40)
    mark = spot("f6", -0.62, 0.12 - 9 / SIZE)  # the capture badge's white ground
    assert close(new.getpixel(mark), (255, 255, 255), 30)
    assert not close(old.getpixel(mark), (255, 255, 255), 30)


def test_different_positions_give_different_images():
    a = GAME.setup(["white", "black"], {"lions": "symmetric"}, random.Random(0))
    b, _ = GAME.apply(a, 0, "fire f2-f4", random.Random(0))
    assert render(GAME.view(a, None)) != render(GAME.view(b, None))


@pytest.mark.parametrize("seed", range(3))
def test_renders_whole_random_games(seed):
    rng = random.Random(seed)
    state = GAME.setup(["white", "black"], {"cap": "20"}, rng)
    while GAME.result(state) is None and state["ply"] < 60:
        seat = state["seats"].index(state["to_move"])
        action = rng.choice(GAME.legal_actions(state, seat)).action
        state, _ = GAME.apply(state, seat, action, rng)
        if state["ply"] % 20 == 0:
            assert len(render(GAME.view(state, None))) <= 300_000
    assert render(GAME.view(state, None))[:4] == b"\x89PNG"


def test_background_is_cached():
    state = GAME.setup(["white", "black"], {"lions": "symmetric"}, random.Random(0))
    render(GAME.view(state, None))
    hits = _background.cache_info().hits
    render(GAME.view(state, None))
    assert _background.cache_info().hits == hits + 1


def test_a_dragon_with_the_ball_differs_from_a_dragon_by_shape():
    plain = picture(GAME.position({**FAR, "f6": "white dragon"}))
    holding = picture(GAME.position({**FAR, "f6": "white dragon_ball"}))
    # A gold ring inside the hexagon's edge, and a Ball a third of the piece wide at its corner.
    ring = on_piece("f6", 0.0, PIECE_R * 0.78 - 2 / SIZE)
    assert close(holding.getpixel(ring), BALL_FILL, 60)
    assert not close(plain.getpixel(ring), BALL_FILL, 60)
    ball = on_piece("f6", PIECE_R * 0.95 - 0.1, -PIECE_R * 0.8 - 0.1)
    assert close(holding.getpixel(ball), BALL_FILL, 60)
    assert not close(plain.getpixel(ball), BALL_FILL, 60)
