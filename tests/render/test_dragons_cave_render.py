"""The Dragon's Cave picture: a valid, small PNG that shows what the public view says."""

from __future__ import annotations

import copy
import io
import random

import pytest
from PIL import Image

from games import ENGINES
from games import render as render_slug
from render.dragons_cave import (
    DRAGON,
    HEIGHT,
    KIND_COLOURS,
    MARGIN,
    PANEL_Y,
    PLAYER_COLOURS,
    ROW_H,
    WIDTH,
    _box,
    _lair_box,
    render,
)

GAME = ENGINES["dragons-cave"]


def start_view(players: int = 4) -> dict:
    roles = [role.key for role in GAME.roles(players, {})]
    return GAME.view(GAME.setup(roles, {}, random.Random(0)), None)


def picture(view: dict) -> Image.Image:
    return Image.open(io.BytesIO(render(view))).convert("RGB")


def close(colour, expected, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def random_views(players: int, seed: int) -> list[dict]:
    """The first public view of each phase met in a random game, and the last one."""
    rng = random.Random(seed)
    roles = [role.key for role in GAME.roles(players, {})]
    state = GAME.setup(roles, {}, rng)
    views = {}
    while GAME.result(state) is None:
        views.setdefault(state["phase"], GAME.view(state, None))
        prompt = rng.choice(GAME.prompts(state))
        action = rng.choice(GAME.legal_actions(state, prompt.seat)).action
        state, _ = GAME.apply(state, prompt.seat, action, rng)
    return [*views.values(), GAME.view(state, None)]


def test_start_picture_is_a_small_png_of_the_right_size():
    data = render(start_view())
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= 300_000
    image = Image.open(io.BytesIO(data))
    assert image.size == (WIDTH, HEIGHT) and WIDTH == 1024


def test_registered_under_the_game_slug():
    view = start_view(3)
    assert render_slug("dragons-cave", view) == render(view)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_phase_of_a_random_game_renders(players):
    views = random_views(players, seed=players)
    phases = {view["phase"] for view in views}
    assert "over" in phases
    for view in views:
        data = render(view)
        assert len(data) <= 300_000
        assert Image.open(io.BytesIO(data)).size == (WIDTH, HEIGHT)


def test_squares_show_their_kind_colour():
    view = start_view()
    image = picture(view)
    for index, square in enumerate(view["path"]):
        x0, _, _, y1 = _box(index)
        # A point in the square's lower middle, clear of symbol, number and coins.
        assert close(image.getpixel((x0 + 80, y1 - 8)), KIND_COLOURS[square["kind"]])


def test_a_dwarf_appears_on_its_square_in_its_colour():
    view = start_view()
    x0, y0, _, y1 = _box(3)
    spot = (x0 + 98 - 10, (y0 + y1) // 2)  # inside the token, beside its letter
    before = picture(view).getpixel(spot)
    moved = copy.deepcopy(view)
    moved["dwarves"][1]["square"] = 3
    after = picture(moved).getpixel(spot)
    assert close(before, KIND_COLOURS[view["path"][3]["kind"]])
    assert close(after, PLAYER_COLOURS["blue"])


def test_the_dragon_appears_on_its_lair_square_once_revealed():
    view = start_view()
    place = view["lair"].index("sapphire")
    x0, y0, _, _ = _lair_box(place)
    spot = (x0 + 6, y0 - 30)  # inside the badge above the square, left of its text
    assert not close(picture(view).getpixel(spot), DRAGON)
    revealed = copy.deepcopy(view)
    revealed["dragon_square"] = "sapphire"
    revealed["last_round"] = {
        "round": 1,
        "dragon_square": "sapphire",
        "plays": [],
        "hands": [],
        "dragon_seat": 0,
        "shortage": None,
    }
    assert close(picture(revealed).getpixel(spot), DRAGON)


def test_face_up_cards_are_drawn_in_the_player_row():
    view = start_view()
    spot = (MARGIN + 330 + 4, PANEL_Y + 2 * ROW_H + (ROW_H - 4) // 2 + 14)
    played = copy.deepcopy(view)
    played["played"][2] = ["emerald"]
    assert not close(picture(view).getpixel(spot), KIND_COLOURS["emerald"])
    assert close(picture(played).getpixel(spot), KIND_COLOURS["emerald"])


def test_chests_are_closed_until_the_end_and_counts_change_the_picture():
    view = start_view()
    base = render(view)
    counted = copy.deepcopy(view)
    counted["waiting"] = {"kind": "choices", "done": 3, "total": 4}
    assert render(counted) != base
    richer = copy.deepcopy(view)
    richer["treasure"] = 40
    richer["purses"][0] = 4
    assert render(richer) != base
    opened = copy.deepcopy(view)
    opened["chests"] = [5, 0, 0, 0]
    opened["phase"] = "over"
    opened["waiting"] = None
    opened["result"] = {"winners": [0], "text": "Red wins with 5 coins.", "totals": [5, 0, 0, 0]}
    assert render(opened) != base


def test_picture_depends_only_on_the_public_view():
    """Two games that differ only in secrets give the same picture."""
    roles = [role.key for role in GAME.roles(3, {})]
    state = GAME.setup(roles, {}, random.Random(0))
    one, _ = GAME.apply(state, 1, "card ruby", random.Random(0))
    two, _ = GAME.apply(state, 1, "card chest", random.Random(0))
    assert render(GAME.view(one, None)) == render(GAME.view(two, None))
