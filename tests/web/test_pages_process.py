"""The pages served by a process of their own (`python -m bot web`, the Procfile's web
line) follow a game another process plays on the same SQLite file: a move made there
reaches an open page's event stream."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import sys
from pathlib import Path

import aiohttp

from bot.service.host import GameHost
from bot.store.sqlite import SqliteStore
from tests.bot.clocks import TickingClock
from tests.web.events import EventReader
from tests.web.test_routes import open_game, play, token_of

ROOT = Path(__file__).parents[2]


async def test_a_move_made_by_another_process_reaches_the_page_s_stream(tmp_path):
    database = tmp_path / "games.sqlite3"
    store = await SqliteStore.open(database)
    host = GameHost(store, clock=TickingClock(), seeds=random.Random(5))
    server = None
    try:
        game_id = await open_game(host)
        token = await token_of(host, game_id)
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "WEB_"))}
        env |= {
            "PYTHONPATH": str(ROOT), "WEB_PORT": str(port), "RENDER_WORKERS": "0",
            "DATABASE_PATH": str(database),
        }  # fmt: skip
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "web", cwd=tmp_path, env=env,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert server.stderr is not None
        said = b""
        while b"Serving the game pages" not in said:
            line = await server.stderr.readline()
            assert line, f"the pages' process stopped: {said.decode()}"
            said += line
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/g/{token}/events") as stream,
        ):
            events = EventReader(stream.content)
            first = await events.next("page")
            await play(host, game_id, 1)  # in this process, not the pages'
            moved = await events.next("page")
        assert moved["version"] > first["version"] and len(moved["positions"]) == 1
    finally:
        if server is not None and server.returncode is None:
            server.terminate()
            assert await server.wait() == 0
        await store.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
