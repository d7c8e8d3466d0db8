"""The game pages' routes, through aiohttp's test client against a real host on both
stores: a page and its replay positions, its boards, the live event stream, 404s that
reveal nothing, the security headers, a renewed address and a server that switched its
pages off."""

from __future__ import annotations

import asyncio
import random

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service.history import web_pages
from bot.service.history.story import Walker
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, StatusUpdate
from bot.service.text import WebLink, as_text
from bot.web.app import HEADERS, build_app
from games import render
from tests.bot.clocks import TickingClock
from tests.bot.leak_checks import USERS, everyone_asked
from tests.web.events import EventReader

GUILD, CHANNEL = 1, 10
WEB_URL = "https://dragons.example.org"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def host(store):
    return GameHost(
        store, renderer=render, clock=TickingClock(), seeds=random.Random(5), web_url=WEB_URL
    )


@pytest.fixture
async def client(host):
    async with TestClient(TestServer(build_app(host.pages))) as client:
        yield client


async def open_game(host: GameHost, *, start: bool = True) -> int:
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=USERS[0], user_name="alice",
        slug="stgeorge", players=2,
    )  # fmt: skip
    game_id = next(n.game_id for n in opened.notices if isinstance(n, ChannelPost))
    await host.lobby.join(game_id=game_id, user_id=USERS[1], user_name="bob")
    if start:
        await host.lobby.start(game_id=game_id, user_id=USERS[0])
    return game_id


async def token_of(host: GameHost, game_id: int) -> str:
    record = await host.store.get_game(game_id)
    assert record is not None and record.page
    return record.page


async def play(host: GameHost, game_id: int, actions: int, seed: int = 1) -> None:
    chooser = random.Random(seed)
    for _ in range(actions):
        user, control = chooser.choice(await everyone_asked(host, game_id, list(USERS[:2])))
        await host.turns.act(game_id=game_id, user_id=user, action=control.choices[0].action)


async def test_a_page_shows_the_board_seats_moves_and_who_is_to_act(host, client):
    game_id = await open_game(host)
    await play(host, game_id, 3)
    token = await token_of(host, game_id)
    response = await client.get(f"/g/{token}")
    assert response.status == 200
    assert response.content_type == "text/html"
    page = await response.text()
    assert f"St. George and the Dragon #{game_id}" in page
    assert "alice" in page and "bob" in page
    assert "Waiting for" in page
    moves = page.split('<div id="moves">')[1].split("</div>")[0]
    assert moves.count("data-at=") == 3  # one link per move, each to its position
    assert f'src="/g/{token}/board/3.png"' in page  # the newest position is shown
    assert response.headers["Content-Encoding"] in ("gzip", "deflate")
    assert 'alt="St. George and the Dragon board: ' in page
    assert "Newest position" in page


async def test_every_response_has_the_security_headers_and_sets_no_cookie(host, client):
    token = await token_of(host, await open_game(host))
    for path in (f"/g/{token}", f"/g/{token}/board/0.png", "/static/page.js", "/nothing"):
        response = await client.get(path)
        for name, value in HEADERS.items():
            assert response.headers.get(name) == value, (path, name)
        assert "Set-Cookie" not in response.headers
    csp = HEADERS["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp
    assert "unsafe-inline" not in csp


async def test_a_position_asked_for_is_shown_and_its_board_is_a_png(host, client):
    game_id = await open_game(host)
    await play(host, game_id, 4)
    token = await token_of(host, game_id)
    page = await (await client.get(f"/g/{token}?at=1")).text()
    assert f'src="/g/{token}/board/1.png"' in page
    assert "Position 1 of 4" in page
    assert '<a href="?at=1" data-at="1" aria-current="step">' in page
    boards = [await (await client.get(f"/g/{token}/board/{n}.png")).read() for n in range(5)]
    assert all(board.startswith(PNG) for board in boards)
    assert len(set(boards)) > 1  # the positions differ
    response = await client.get(f"/g/{token}/board/5.png")
    assert response.status == 404


async def test_unknown_addresses_are_a_plain_404_that_reveals_nothing(host, client):
    game_id = await open_game(host)
    token = await token_of(host, game_id)
    bodies = set()
    for path in (
        "/g/" + "x" * 24, "/g/short", f"/g/{token[:-1]}", f"/g/{token}x/board/0.png",
        f"/g/{game_id}", "/", "/static/secret.txt", f"/g/{token}/board/99.png",
    ):  # fmt: skip
        response = await client.get(path)
        assert response.status == 404, path
        body = await response.text()
        assert "St. George" not in body and "alice" not in body
        bodies.add(body)
    assert len(bodies) <= 2  # ours, and aiohttp's for a path no route matches


async def test_a_game_not_started_has_a_page_without_a_board(host, client):
    token = await token_of(host, await open_game(host, start=False))
    page = await (await client.get(f"/g/{token}")).text()
    assert "has not started yet" in page
    assert "<img" not in page


async def test_the_event_stream_sends_the_page_then_each_move_without_a_reload(host, client):
    game_id = await open_game(host)
    token = await token_of(host, game_id)
    response = await client.get(f"/g/{token}/events?from=1")
    assert response.headers["Content-Type"] == "text/event-stream"
    events = EventReader(response.content)
    first = await events.next("page")
    assert first["from"] == 1 and first["positions"] == []
    await play(host, game_id, 1)
    moved = await events.next("page")
    assert moved["version"] > first["version"]
    assert moved["from"] == 1 and len(moved["positions"]) == 1
    assert moved["positions"][0]["src"] == f"/g/{token}/board/1.png"
    assert 'data-at="1"' in moved["moves"]
    response.close()


async def test_a_renewed_address_ends_the_old_one_and_its_stream(host, client):
    game_id = await open_game(host)
    old = await token_of(host, game_id)
    stream = await client.get(f"/g/{old}/events")
    events = EventReader(stream.content)
    await events.next("page")
    refused = host.pages.address(game_id=game_id, user_id=USERS[1], renew=True)
    with pytest.raises(Exception, match="Only the host"):
        await refused
    outcome = await host.pages.address(game_id=game_id, user_id=USERS[0], renew=True)
    new = await token_of(host, game_id)
    assert new != old
    assert f"{WEB_URL}/g/{new}" in str(as_text(outcome.notices[0].text).render(_url))
    await play(host, game_id, 1)  # the stream looks again when the game moves on
    assert await events.next("gone") == {}
    assert (await client.get(f"/g/{old}")).status == 404
    assert (await client.get(f"/g/{old}/board/0.png")).status == 404
    assert (await client.get(f"/g/{new}")).status == 200


async def test_a_server_that_switches_pages_off_has_none_until_it_switches_them_on(host, client):
    game_id = await open_game(host)
    token = await token_of(host, game_id)
    reply = await host.pages.switch(guild_id=GUILD, on=False)
    assert "off" in str(reply.text)
    for path in (f"/g/{token}", f"/g/{token}/board/0.png", f"/g/{token}/events"):
        assert (await client.get(path)).status == 404
    later = await open_game(host)
    assert (await host.store.get_game(later)).page is None
    with pytest.raises(Exception, match="switched off"):
        await host.pages.address(game_id=game_id, user_id=USERS[0])
    await host.pages.switch(guild_id=GUILD, on=True)
    renewed = await token_of(host, game_id)
    assert renewed != token
    assert (await client.get(f"/g/{renewed}")).status == 200
    assert (await client.get(f"/g/{token}")).status == 404
    assert (await host.store.get_game(later)).page


async def test_the_status_message_links_the_page_only_where_pages_are_served(store):
    for web_url, expected in ((WEB_URL, True), (None, False)):
        host = GameHost(store, clock=TickingClock(), seeds=random.Random(5), web_url=web_url)
        game_id = await open_game(host, start=False)
        token = await token_of(host, game_id)
        outcome = await host.lobby.start(game_id=game_id, user_id=USERS[0])
        assert _links(outcome) == ([f"{WEB_URL}/g/{token}"] if expected else [])
        status = await host.listings.status(game_id=game_id, user_id=USERS[1])
        shown = [p for p in as_text(status.text).parts if isinstance(p, WebLink)]
        assert len(shown) == (1 if expected else 0)


async def test_the_page_script_and_style_are_served_and_nothing_else(client):
    script = await client.get("/static/page.js")
    assert script.status == 200 and script.content_type == "text/javascript"
    assert "EventSource" in await script.text()
    style = await client.get("/static/page.css")
    assert style.status == 200 and style.content_type == "text/css"
    icon = await client.get("/static/icon.svg")
    assert icon.status == 200 and icon.content_type == "image/svg+xml"
    assert (await client.get("/static/../app.py")).status == 404


def _links(outcome) -> list[str]:
    found = []
    for notice in outcome.notices:
        if isinstance(notice, StatusUpdate):
            found += [p.url for p in as_text(notice.text).parts if isinstance(p, WebLink)]
    return found


def _url(part) -> str:
    return part.url if isinstance(part, WebLink) else ""


async def test_pages_asked_at_once_walk_the_game_once_and_walk_on_as_it_moves(host, monkeypatch):
    game_id = await open_game(host)
    await play(host, game_id, 2)
    token = await token_of(host, game_id)
    walks, started = [], []
    real_walked_on = web_pages._walked_on

    class Counted(Walker):
        def __init__(self, *args, **kwargs):
            started.append(1)
            super().__init__(*args, **kwargs)

    def counted(walker, engine, record, actions):
        walks.append(record.version)
        return real_walked_on(walker, engine, record, actions)

    monkeypatch.setattr(web_pages, "Walker", Counted)
    monkeypatch.setattr(web_pages, "_walked_on", counted)
    pages = await asyncio.gather(*(host.pages.page(token) for _ in range(5)))
    assert len({p.version for p in pages}) == 1 and len(walks) == 1
    await host.pages.picture(token, 1)
    assert len(walks) == 1  # kept
    await play(host, game_id, 3)
    moved = await host.pages.page(token)
    assert len(walks) == 2 and len(started) == 1  # walked on from where it stopped
    fresh = web_pages.Pages(host.desk, host.drawing)
    assert await fresh.page(token) == moved  # the same as one walk of the whole log
