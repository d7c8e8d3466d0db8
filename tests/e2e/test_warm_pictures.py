"""The bot warms its pictures as it starts, without waiting for them: its picture workers
are started at once and warm every registered game, or, when it draws in threads, one
thread warms this process's renderers."""

from dataclasses import replace

import pytest

from games import SPECS


@pytest.fixture
def database(tmp_path):
    return str(tmp_path / "games.sqlite3")


@pytest.fixture(params=[0, 1], ids=["threads", "workers"])
def settings(request, settings):
    return replace(settings, render_workers=request.param)


async def test_the_bot_warms_the_pictures_of_every_game_from_its_start(simcord_bot, world):
    bot = simcord_bot  # started in a simulated Discord with a server (world)
    if bot.settings.render_workers:
        assert bot.warming is None
        assert len(bot.pictures.pids) == 1  # started with the bot, not on the first board
        warmed = await bot.pictures.warmed()
    else:
        assert bot.pictures is None
        warmed = await bot.warming
    assert warmed is not None
    assert warmed.games == tuple(SPECS)
    assert warmed.failed == {}
