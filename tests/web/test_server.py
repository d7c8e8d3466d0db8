"""The pages' server on a real port: every request is logged without the page's token, at
any level and from any library, and stopping it ends the live streams."""

from __future__ import annotations

import asyncio
import logging

import aiohttp

from bot import logs
from bot.web.server import WebServer
from tests.web.events import EventReader
from tests.web.test_routes import host, open_game, play, token_of  # noqa: F401 (fixture)


async def test_no_log_line_holds_a_page_token(host, caplog):  # noqa: F811
    logs.protect()  # as the bot and the pages' own process do
    caplog.set_level(logging.DEBUG)
    server = WebServer(host.pages, "127.0.0.1", 0)
    await server.start()
    try:
        game_id = await open_game(host)
        await play(host, game_id, 2)
        token = await token_of(host, game_id)
        base = f"http://127.0.0.1:{server.port}"
        async with aiohttp.ClientSession() as session:
            for path in (f"/g/{token}", f"/g/{token}/board/1.png", f"/g/{token}x", "/nothing"):
                async with session.get(base + path) as response:
                    await response.read()
    finally:
        await server.close()
    logged = [r.getMessage() for r in caplog.records]
    assert any("GET /g/… 200" in line for line in logged), logged  # requests are logged
    assert not [line for line in logged if token in line]


async def test_stopping_the_server_ends_the_streams_it_serves(host):  # noqa: F811
    server = WebServer(host.pages, "127.0.0.1", 0)
    await server.start()
    token = await token_of(host, await open_game(host))
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}/g/{token}/events") as stream,
    ):
        await EventReader(stream.content).next("page")
        await asyncio.wait_for(server.close(), timeout=30)
        assert await stream.content.read() == b""  # the stream ended
