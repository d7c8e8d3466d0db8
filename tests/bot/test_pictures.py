"""Boards drawn in worker processes are the pictures the bot's own process would draw."""

import random

from bot.service.host import GameHost
from bot.service.notices import Board
from bot.service.pictures import Pictures
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
        made = await host.replay_animation(game_id=game_id)
    finally:
        pictures.close()
    assert made.data == animation.animate(drawn)
    assert made.data.startswith(b"GIF8")
