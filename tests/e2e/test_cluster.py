"""One process of a two-process cluster: the bot runs shard 1 of 2 (``SHARD_IDS=1``) on
PostgreSQL, and plays the games of the servers on its shard; the servers on shard 0 are the
other process's."""

import pytest

from bot.settings import Settings
from tests.e2e.conftest import bot_posts, text_of, texts
from tests.e2e.test_shards import server_on_shard
from tests.store.conftest import postgres_database


@pytest.fixture
async def database():
    """A cluster shares one PostgreSQL database (SQLite is one process's)."""
    async with postgres_database() as url:
        yield url


@pytest.fixture
def settings(database):
    return Settings(
        database=database,
        seed=1234,
        members_intent=True,
        paced=False,
        shard_count=2,
        shard_ids=(1,),
    )


async def test_a_cluster_process_runs_its_own_shards_and_plays_their_games(simcord_env):
    bot = simcord_env.bot
    assert (bot.shard_count, sorted(bot.shards)) == (2, [1])
    guild, channel, (alice, bob, _) = server_on_shard(simcord_env, 1)
    assert bot.get_guild(guild.id).shard_id == 1
    await alice.slash(channel, "game new", game="lions-dragons")
    await bob.slash(channel, "game join")
    started = await alice.slash(channel, "game start")
    assert "has started" in texts([started])[0]
    assert "The game begins!" in text_of(bot_posts(channel)[-1])
