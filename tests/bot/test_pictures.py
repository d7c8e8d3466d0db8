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
