"""A server's corrected data through the real bot on a simulated Discord: a member with
Manage Server uploads a corrected file with `/game data`; one that cannot be used is
refused naming its field; games opened on that server afterwards use it, a game on another
server does not, and `/rules` there shows what was corrected and by whom."""

from __future__ import annotations

import json

import discord
import pytest

from tests.e2e.conftest import text_of, texts

RICH = json.dumps({"coins": [[3, 3, 3, 3, 3]] * 4}).encode()


@pytest.fixture
def admin(simcord_env, world):
    guild, _, _ = world
    role = guild.create_role("Organisers", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("erin"), roles=[role])


async def upload(member, channel, content, name="path.json", game="dragons-cave"):
    result = await member.slash(
        channel, "game data", action="upload", game=game, file=(name, content)
    )
    assert result.ephemeral
    return "\n".join(texts([result]))


async def open_and_start(channel, host, guest):
    await host.slash(channel, "game new", game="dragons-cave", players=2)
    await guest.slash(channel, "game join")
    await host.slash(channel, "game start")


async def board_coins(env, channel):
    """The coins printed on the squares of the board of the game in ``channel``."""
    games = [g for g in await env.bot.host.store.games() if g.channel_id == channel.id]
    [game] = games
    table = await env.bot.host.desk.table(game.id)
    return {square["coins"] for square in table.public_view()["path"]}


async def test_a_correction_is_refused_naming_its_field_then_accepted_and_used_here_only(
    simcord_env, world, admin
):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    other = simcord_env.create_guild(name="Other Club")
    other_channel = other.create_text_channel("games")
    carol = other.add_member(users["carol"].user)
    dave = other.add_member(users["dave"].user)

    refused = await upload(admin, channel, b'{"coins": [[1, 2]]}')
    assert "That file was not kept: path.json: coins" in refused
    not_json = await upload(admin, channel, b'{"coins": [[1, 1, 1, 1, 1],\n [1 1]]}')
    assert "not valid JSON, line 2 column" in not_json
    wrong_file = await upload(admin, channel, b"{}", name="board.json")
    assert "This game has no data file `board.json`. Its files: `path.json`" in wrong_file
    not_allowed = await upload(alice, channel, RICH)
    assert "Only members with Manage Server may upload" in not_allowed
    nothing = await alice.slash(channel, "game data", action="show")
    assert "no corrected data for any game" in texts([nothing])[0]

    kept = await upload(admin, channel, RICH)
    assert "Kept `path.json` for Dragon's Cave" in kept and "`coins`" in kept
    shown = texts([await alice.slash(channel, "game data", action="show")])[0]
    assert f"Dragon's Cave, `path.json` (`coins`): uploaded by <@{admin.id}>" in shown

    await open_and_start(channel, alice, bob)
    await open_and_start(other_channel, carol, dave)
    assert await board_coins(simcord_env, channel) == {3}
    assert await board_coins(simcord_env, other_channel) == {1, 2, 3}

    rules = (await alice.slash(channel, "rules", game="dragons-cave")).response
    [select] = rules.components[0]["components"]
    labels = [o["label"] for o in select["options"]]
    assert labels[-1] == "This server's corrections"
    corrections = text_of((await alice.select(rules, [str(len(labels) - 1)])).response)
    assert f"**`path.json`**, uploaded by <@{admin.id}>" in corrections
    assert "`coins`: `[[3, 3, 3, 3, 3]" in corrections
    assert "(bundled: `[[1, 1, 1, 1, 2]" in corrections
    elsewhere = (await carol.slash(other_channel, "rules", game="dragons-cave")).response
    assert "This server's corrections" not in json.dumps(elsewhere.components)


async def test_clearing_leaves_the_running_game_on_its_data_and_new_games_on_the_bundled(
    simcord_env, world, admin, restart
):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    await upload(admin, channel, RICH)
    await open_and_start(channel, alice, bob)
    not_allowed = await alice.slash(channel, "game data", action="clear", game="dragons-cave")
    assert "Only members with Manage Server may clear" in texts([not_allowed])[0]
    cleared = await admin.slash(channel, "game data", action="clear", game="dragons-cave")
    assert "Removed 1 corrected file of Dragon's Cave" in texts([cleared])[0]
    await restart()
    assert await board_coins(simcord_env, channel) == {3}
    status = await alice.slash(channel, "game status")
    assert status.response.attachments, "the board is drawn with the game's own data"
    missing = await admin.slash(channel, "game data", action="upload", game="dragons-cave")
    assert "Attach the corrected data file" in texts([missing])[0]
