"""Which commands each member is offered where, and the table sizes of `/game new`."""

import discord

from tests.e2e.conftest import bot_posts, texts


async def test_server_defaults_are_offered_only_to_members_with_manage_server(simcord_env, world):
    guild, channel, users = world
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    erin = guild.add_member(simcord_env.create_user("erin"), roles=[admins])
    assert "server defaults" not in users["bob"].available_commands(channel)
    assert "server defaults" in erin.available_commands(channel)
    done = await erin.slash(channel, "server defaults", hours=24, threads=True)
    assert "24" in texts([done])[0]
    await users["bob"].slash(channel, "game new", game="lions-dragons")
    await users["carol"].slash(channel, "game join")
    await users["bob"].slash(channel, "game start")
    [thread] = channel.threads  # the server's new default: a thread for each game
    assert "Lions and Dragons Chess #1" in thread.name


async def test_commands_that_need_a_server_are_not_offered_in_dms(world):
    _, _, users = world
    in_dms = users["bob"].user.available_commands()
    assert not {"move", "hand"} & set(in_dms)
    assert not any(name.startswith(("game ", "server ")) for name in in_dms)


async def test_notify_works_in_dms(world):
    _, _, users = world
    done = await users["bob"].user.slash("notify", when="none")
    assert "no mentions and no reminders" in texts([done])[0]


async def test_players_offers_only_the_chosen_games_table_sizes(world):
    _, channel, users = world
    alice = users["alice"]

    async def sizes(game):
        offered = await alice.autocomplete(channel, "game new", "players", "", game=game)
        return [choice["value"] for choice in offered]

    assert await sizes("lions-dragons") == [2]
    assert await sizes("dragons-cave") == [2, 3, 4]
    assert await sizes("dragonslayer") == [2, 3, 4]
    assert await sizes("stgeorge") == [2, 3, 4, 5]


async def test_a_table_size_the_game_does_not_have_is_refused_naming_its_range(world):
    _, channel, users = world
    alice = users["alice"]
    refused = await alice.slash(channel, "game new", game="lions-dragons", players=3)
    assert refused.ephemeral
    assert "Lions and Dragons Chess is for exactly 2 players, not 3" in texts([refused])[0]
    refused = await alice.slash(channel, "game new", game="dragons-cave", players=5)
    assert "Dragon's Cave is for 2–4 players, not 5" in texts([refused])[0]
    assert not bot_posts(channel)
