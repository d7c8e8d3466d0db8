"""A bot whose process is its alone keeps its garbage collections short while it runs."""

import gc

import pytest

from bot.settings import Settings


@pytest.fixture
def settings(tmp_path):
    return Settings(
        database=str(tmp_path / "games.sqlite3"), seed=1234, paced=False, short_collections=True
    )


async def test_a_bot_run_alone_freezes_what_survives_a_full_collection_until_it_closes(
    simcord_env, simcord_bot, world
):
    gc.collect()
    assert gc.get_freeze_count() > 0  # the next full collection walks only what is newer
    await simcord_bot.close()
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gc.get_freeze_count() == 0
