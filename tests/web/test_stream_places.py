"""Live updates for everyone: the event streams' places are capped per client, per page
and in all, so one reader or one game cannot take them all, and a stream whose reader left
gives its place back at once, not at the next heartbeat."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from bot.web import app as web_app
from bot.web.server import WebServer
from bot.web.streams import StreamLimits
from tests.web.events import EventReader
from tests.web.test_routes import host, open_game, token_of  # noqa: F401 (fixture)

LIMITS = StreamLimits(total=5, per_client=2, per_page=3)
GUARD = 20.0
"""Seconds after which a wait that should end at once fails the test (it is not what the
test waits for: the heartbeat is set to an hour)."""


@pytest.fixture(autouse=True)
def no_heartbeat(monkeypatch):
    """An idle stream writes nothing for an hour: only noticing the reader left frees it."""
    monkeypatch.setattr(web_app, "HEARTBEAT", 3600.0)


@pytest.fixture
async def server(host):  # noqa: F811
    server = WebServer(host.pages, "127.0.0.1", 0, limits=LIMITS)
    await server.start()
    yield server
    await server.close()


class Readers:
    """Event streams opened as clients with their own addresses (behind this machine's
    proxy: ``X-Forwarded-For``), each kept open until closed."""

    def __init__(self, port: int) -> None:
        self._base = f"http://127.0.0.1:{port}"
        self.session = aiohttp.ClientSession()

    async def open(self, token: str, client: str) -> aiohttp.ClientResponse:
        response = await self.session.get(
            f"{self._base}/g/{token}/events", headers={"X-Forwarded-For": client}
        )
        if response.status == 200:
            await EventReader(response.content).next("page")
        return response

    async def close(self) -> None:
        await self.session.close()


@pytest.fixture
async def readers(server):
    readers = Readers(server.port)
    yield readers
    await readers.close()


async def test_one_client_cannot_take_every_place(host, server, readers):  # noqa: F811
    pages = [await token_of(host, await open_game(host)) for _ in range(3)]
    for token in pages[:2]:
        assert (await readers.open(token, "203.0.113.7")).status == 200
    refused = await readers.open(pages[2], "203.0.113.7")
    assert refused.status == 503
    assert "Close the pages you no longer watch" in await refused.text()
    assert refused.headers["Retry-After"]
    assert (await readers.open(pages[2], "198.51.100.1")).status == 200  # others still can


async def test_one_page_cannot_take_every_place(host, server, readers):  # noqa: F811
    crowded, other = [await token_of(host, await open_game(host)) for _ in range(2)]
    for n in range(3):
        assert (await readers.open(crowded, f"203.0.113.{n}")).status == 200
    refused = await readers.open(crowded, "203.0.113.50")
    assert refused.status == 503
    assert "reload it in a minute" in await refused.text()
    assert (await readers.open(other, "203.0.113.50")).status == 200


async def test_the_server_has_a_ceiling_for_all(host, server, readers):  # noqa: F811
    pages = [await token_of(host, await open_game(host)) for _ in range(3)]
    opened = [await readers.open(pages[n % 3], f"203.0.113.{n}") for n in range(5)]
    assert [r.status for r in opened] == [200] * 5
    refused = await readers.open(pages[0], "198.51.100.9")
    assert refused.status == 503
    assert "Too many pages are followed live" in await refused.text()


async def test_a_closed_stream_gives_its_place_back_at_once(host, server, readers):  # noqa: F811
    token = await token_of(host, await open_game(host))
    first = await readers.open(token, "203.0.113.7")
    second = await readers.open(token, "203.0.113.7")
    assert (await readers.open(token, "203.0.113.7")).status == 503
    assert host.pages.follows.followed == 1
    first.close()  # the reader closed the tab
    await asyncio.wait_for(server.streams.until(lambda s: s.of_client("203.0.113.7") == 1), GUARD)
    third = await readers.open(token, "203.0.113.7")
    assert third.status == 200
    second.close()
    third.close()
    await asyncio.wait_for(server.streams.until(lambda s: s.open == 0), GUARD)
    assert host.pages.follows.followed == 0  # nobody waits on the game's moves any more
