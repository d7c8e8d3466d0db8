"""Game pages from Discord, on a simulated Discord with the bot serving its pages: the
status message links the game's page, `/game page` gives it privately, its host gives it a
new address, and a server admin switches the server's pages off and on."""

import re

import aiohttp
import discord
import pytest

from bot.settings import Settings
from tests.e2e.conftest import status_messages, text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game, play_turn

WEB_URL = "https://dragons.example.org"
LINK = re.compile(re.escape(WEB_URL) + r"/g/([A-Za-z0-9_-]+)")


@pytest.fixture
def settings(database, request):
    """The bot serving its pages, unless the test is marked ``no_pages``."""
    if request.node.get_closest_marker("no_pages"):
        return Settings(database=database, seed=1234, paced=False)
    return Settings(
        database=database, seed=1234, members_intent=True, paced=False,
        web_port=0, web_url=WEB_URL,
    )  # fmt: skip


async def fetch(bot, path: str) -> tuple[int, str]:
    """What the bot's page server answers for ``path`` (the proxy's address replaced by
    the port it listens on)."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{bot.web.port}{path}") as response,
    ):
        return response.status, await response.text()


def linked(text: str) -> str:
    found = LINK.search(text)
    assert found, f"no page link in {text!r}"
    assert f"<{found.group(0)}>" in text, "the link has no preview"
    return found.group(1)


async def test_the_status_message_links_a_page_that_shows_the_game(simcord_env, world, simcord_bot):
    channel, players = await open_two_player_game(world)
    for _ in range(3):
        await play_turn(channel, players)
    [status] = status_messages(channel)
    token = linked(text_of(status))
    code, page = await fetch(simcord_bot, f"/g/{token}")
    assert code == 200
    assert "St. George and the Dragon #1" in page and "alice" in page and "bob" in page
    asked = await players["dragon"].slash(channel, "game page")
    [answer] = texts([asked])
    assert linked(answer) == token
    assert asked.response.flags.ephemeral


async def test_only_the_host_gives_a_game_a_new_address(simcord_env, world, simcord_bot):
    channel, players = await open_two_player_game(world)
    old = linked(text_of(status_messages(channel)[0]))
    refused = await players["dragon"].slash(channel, "game page", new_address=True)
    assert "Only the host" in texts([refused])[0]
    renewed = await players["knights"].slash(channel, "game page", new_address=True)
    new = linked(texts([renewed])[0])
    assert new != old
    assert (await fetch(simcord_bot, f"/g/{old}"))[0] == 404
    assert (await fetch(simcord_bot, f"/g/{new}"))[0] == 200
    assert linked(text_of(status_messages(channel)[0])) == new  # updated at once


async def test_an_admin_switches_the_server_s_pages_off_and_on(simcord_env, world, simcord_bot):
    guild, _, users = world
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    erin = guild.add_member(simcord_env.create_user("erin"), roles=[admins])
    channel, players = await open_two_player_game(world)
    token = linked(text_of(status_messages(channel)[0]))
    assert "server defaults" not in users["bob"].available_commands(channel)
    off = await erin.slash(channel, "server defaults", pages=False)
    assert "off" in texts([off])[0]
    assert "/g/" not in text_of(status_messages(channel)[0])
    assert (await fetch(simcord_bot, f"/g/{token}"))[0] == 404
    asked = await players["knights"].slash(channel, "game page")
    assert "switched off" in texts([asked])[0]
    on = await erin.slash(channel, "server defaults", pages=True)
    assert "on" in texts([on])[0]
    asked = await players["knights"].slash(channel, "game page")
    again = linked(texts([asked])[0])
    assert again != token
    assert linked(text_of(status_messages(channel)[0])) == again
    assert (await fetch(simcord_bot, f"/g/{again}"))[0] == 200


@pytest.mark.no_pages
async def test_a_bot_that_serves_no_pages_links_none_and_says_why(simcord_env, world, simcord_bot):
    channel, players = await open_two_player_game(world)
    await play_turn(channel, players)
    assert simcord_bot.web is None
    assert not LINK.search(text_of(status_messages(channel)[0]))
    assert "/g/" not in text_of(status_messages(channel)[0])
    asked = await players["knights"].slash(channel, "game page")
    assert "serves no web pages" in texts([asked])[0]
