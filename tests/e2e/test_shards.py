"""One bot run as several shards: games in servers on different shards, and secret choices
made with the buttons of DMs (which Discord delivers on shard 0) for a game on shard 1."""

import pytest

from bot import create_bot
from bot.settings import Settings
from tests.e2e.conftest import bot_posts, text_of, texts
from tests.e2e.test_dragons_cave import dm_prompt, pick


@pytest.fixture
def settings(database):
    return Settings(database=database, seed=1234, members_intent=True, paced=False, shard_count=2)


def server_on_shard(env, shard):
    """A new server on ``shard`` with a #games channel and three members."""
    guild = env.create_guild(name=f"Dragon Club {shard}", shard_id=shard)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(f"s{shard}p{n}")) for n in range(3)]
    return guild, channel, members


async def test_a_sharded_bot_plays_in_servers_on_every_shard(simcord_env):
    bot = simcord_env.bot
    assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
    for shard in (0, 1):
        guild, channel, (alice, bob, _) = server_on_shard(simcord_env, shard)
        assert bot.get_guild(guild.id).shard_id == shard
        await alice.slash(channel, "game new", game="stgeorge")
        await bob.slash(channel, "game join")
        started = await alice.slash(channel, "game start")
        assert "has started" in texts([started])[0]
        assert "The game begins!" in text_of(bot_posts(channel)[-1])


async def test_dm_buttons_work_for_a_game_on_another_shard(simcord_env):
    _, channel, (alice, bob, carol) = server_on_shard(simcord_env, 1)
    await alice.slash(channel, "game new", game="dragons-cave", players=3)
    await bob.slash(channel, "game join")
    await carol.slash(channel, "game join")
    await alice.slash(channel, "game start")
    seen = len(bot_posts(channel))
    await pick(alice, "Round 1", "Sit on Ruby")
    await pick(bob, "Round 1", "Emerald:")
    await pick(carol, "Round 1", "Amber:")
    reveal = bot_posts(channel)[seen:]
    assert any("the cards are revealed" in text_of(m) for m in reveal)
    assert dm_prompt(bob, "Round 2")


async def test_a_process_of_a_cluster_runs_only_its_shard_ids():
    # Built only (nothing connects): the other shards are another process's.
    settings = Settings(database="postgresql://db/x", shard_count=4, shard_ids=(2, 3))
    bot = create_bot(settings)
    assert (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    assert create_bot(Settings(shard_count=2)).shard_ids is None
