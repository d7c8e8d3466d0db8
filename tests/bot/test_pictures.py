"""Boards drawn in worker processes are the pictures the bot's own process would draw."""

import asyncio
import random

import pytest

from bot.service.host import GameHost
from bot.service.notices import Board
from bot.service.pictures import Pictures, RecentBoards
from engines.replay import setup_rng
from games import ENGINES, render


async def test_a_board_drawn_in_a_worker_process_is_the_same_picture(store):
    engine = ENGINES["stgeorge"]
    roles = [r.key for r in engine.roles(2, engine.parse_options(""))]
    view = engine.view(engine.setup(roles, engine.parse_options(""), setup_rng(5)), None)
    pictures = Pictures(1)
    try:
        host = GameHost(store, drawer=pictures.draw, seeds=random.Random(1))
        drawn = await host.draw(Board("stgeorge", view))
        again = await pictures.draw("stgeorge", view)
    finally:
        pictures.close()
    assert drawn == again == render("stgeorge", view)
    assert drawn.startswith(b"\x89PNG")


async def test_a_replay_is_put_together_in_a_worker_process_as_in_a_thread(store):
    from games import animation
    from tests.bot.test_story import play_randomly, real_game

    pictures = Pictures(1)
    drawn = []

    async def drawer(slug, view):  # draws in the worker, keeping each board
        drawn.append(await pictures.draw(slug, view))
        return drawn[-1]

    try:
        host, game_id = await real_game(
            store, "stgeorge", drawer=drawer, animator=pictures.animate
        )
        await play_randomly(host, game_id, random.Random(2), 6)
        drawn.clear()  # the boards of the moves themselves
        host.boards = RecentBoards()  # so every board of the replay is drawn in the worker
        made = await host.replay_animation(game_id=game_id)
    finally:
        pictures.close()
    assert made.data == animation.animate(drawn)
    assert made.data.startswith(b"GIF8")


def _counting():
    calls = []

    async def draw(slug, view, corrections=None):
        calls.append((slug, view, corrections))
        await asyncio.sleep(0)
        return f"picture {len(calls)}".encode()

    return calls, draw


async def test_the_same_board_is_drawn_once_for_its_post_and_its_watchers(store):
    calls, draw = _counting()
    host = GameHost(store, drawer=draw, seeds=random.Random(1))
    view = {"pieces": [1, 2], "turn": 3}
    at_once = await asyncio.gather(*(host.draw(Board("stgeorge", dict(view))) for _ in range(3)))
    later = await host.draw(Board("stgeorge", {"turn": 3, "pieces": [1, 2]}))
    assert len(calls) == 1
    assert set(at_once) == {later} == {b"picture 1"}


async def test_another_view_game_or_data_is_drawn_anew(store):
    calls, draw = _counting()
    host = GameHost(store, drawer=draw, seeds=random.Random(1))
    await host.draw(Board("stgeorge", {"turn": 3}))
    await host.draw(Board("stgeorge", {"turn": 4}))
    await host.draw(Board("lions-dragons", {"turn": 4}))
    await host.draw(Board("lions-dragons", {"turn": 4}, {"pieces": {"lion": 2}}))
    assert len(calls) == 4


async def test_a_drawing_that_failed_is_tried_again():
    boards = RecentBoards()
    tries = []

    async def fails_once():
        tries.append(1)
        if len(tries) == 1:
            raise OSError("the worker died")
        return b"picture"

    with pytest.raises(OSError):
        await boards.get("stgeorge", {"turn": 1}, {}, fails_once)
    assert await boards.get("stgeorge", {"turn": 1}, {}, fails_once) == b"picture"
    assert len(tries) == 2


async def test_only_the_most_recent_boards_are_kept():
    boards = RecentBoards(size=2)
    tries = []

    async def draw():
        tries.append(1)
        return b"picture"

    for turn in (1, 2, 3, 1):
        await boards.get("stgeorge", {"turn": turn}, {}, draw)
    assert len(tries) == 4  # turn 1 was dropped for turn 3
