"""On SQLite, while a move waits for the write lock another program holds, `/game status`
of another game, `/game list` and the games autocomplete offers still answer at once."""

from __future__ import annotations

import asyncio
import io
import random
import sqlite3
from pathlib import Path

from bot.console.table import CHANNEL, GUILD, LocalTable
from bot.service.host import GameHost
from bot.store.sqlite import SqliteStore
from games import render

HANG_GUARD = 60.0
"""Seconds after which an answer that never comes fails the test instead of hanging it."""
BUSY_TIMEOUT = 120.0
"""Longer than the hang guard: the held-up move is still waiting when an answer gives up."""


async def two_games(path: Path) -> LocalTable:
    store = await SqliteStore.open(path, busy_timeout=BUSY_TIMEOUT)
    host = GameHost(store, renderer=render, seeds=random.Random(5))
    table = LocalTable(host, io.StringIO())
    lines = ["alice: /game new game:stgeorge players:2 role:knights", "bob: /game join",
             "alice: /game start",
             "carol: /game new game:stgeorge players:2 role:knights", "dave: /game join",
             "carol: /game start game:2"]  # fmt: skip
    await table.run_lines(lines, echo=False)
    return table


async def test_status_list_and_autocomplete_answer_while_a_move_waits_for_another_writer(
    tmp_path,
):
    path = tmp_path / "games.sqlite3"
    table = await two_games(path)
    store = table.host.store
    assert isinstance(store, SqliteStore)
    before = await store.get_game(1)
    assert before is not None
    loop = asyncio.get_running_loop()
    begun = asyncio.Event()

    def traced(statement: str) -> None:
        if statement.startswith("BEGIN IMMEDIATE"):
            loop.call_soon_threadsafe(begun.set)

    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE games SET updated_at = updated_at")
        # The callback stays: taking it off would queue behind the waiting BEGIN IMMEDIATE.
        await store._db.set_trace_callback(traced)
        move = asyncio.create_task(
            table.host.turns.act(game_id=1, user_id=table.user("alice"), action="roll")
        )
        await asyncio.wait_for(begun.wait(), HANG_GUARD)
        asker = {"guild_id": GUILD, "channel_id": CHANNEL, "user_id": table.user("carol")}
        status = await asyncio.wait_for(table.host.listings.status(game_id=2, **asker), HANG_GUARD)
        listing = await asyncio.wait_for(table.host.listings.list_games(guild_id=GUILD), HANG_GUARD)
        offered = await asyncio.wait_for(
            table.host.listings.game_choices(guild_id=GUILD, channel_id=CHANNEL), HANG_GUARD
        )
        assert not move.done(), "the answers waited until the move gave up"
        assert "#2" in str(status.text) and "#1" in str(listing.text)
        assert [number for number, _ in offered] == [2, 1]
    finally:
        other.execute("ROLLBACK")
        other.close()
    try:
        await asyncio.wait_for(move, HANG_GUARD)  # the move goes through once the lock is free
        after = await store.get_game(1)
        assert after is not None and after.version == before.version + 1
    finally:
        await table.close()
