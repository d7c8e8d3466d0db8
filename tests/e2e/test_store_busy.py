"""A move made while another writer holds the database gets a kind private answer."""

import contextlib
import sqlite3

import pytest

from bot.discord.replies import BUSY
from bot.settings import Settings
from tests.e2e.conftest import answered, bot_posts, text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game


@pytest.fixture
def settings(tmp_path):
    """SQLite's own busy timeout (PostgreSQL's lock timeout is tested in tests/store)."""
    return Settings(
        database=str(tmp_path / "games.sqlite3"), seed=1234, members_intent=True, paced=False
    )


@contextlib.contextmanager
def held_by_another_writer(path):
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_a_busy_store_is_answered_privately_and_the_move_can_be_made_again(
    simcord_env, simcord_bot, world, settings
):
    channel, players = await open_two_player_game(world)
    async with simcord_bot.host.store._db.execute("PRAGMA busy_timeout = 100"):
        pass
    roll = bot_posts(channel)[-1]
    seen = len(bot_posts(channel))
    with held_by_another_writer(settings.database):
        result = await players["knights"].click(roll, label="Roll the die")
    assert answered(result) and all(m.ephemeral for m in answered(result))
    assert texts([result]) == ["⏳ " + BUSY]
    assert len(bot_posts(channel)) == seen, "nothing was played"
    again = await players["knights"].click(roll, label="Roll the die")
    assert not any(BUSY in text for text in texts([again]))
    assert "rolled" in text_of(bot_posts(channel)[-1]), "the turn's post tells the roll"
