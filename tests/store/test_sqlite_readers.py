"""The SQLite store's reads never wait for a write lock: while a write is held up behind
another writer, `/game status` and the listings are still read (the last committed state),
and they see each write once it is committed."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.sqlite import SqliteStore
from tests.store.test_contract import GUILD, NOW, game, running

HANG_GUARD = 60.0
"""Seconds after which a read that never returns fails the test instead of hanging it."""
BUSY_TIMEOUT = 120.0
"""Longer than the hang guard: the held-up write is still waiting when a read gives up."""


@contextlib.contextmanager
def another_writer(path: Path):
    """Another connection holding the database's write lock, a write made and not committed."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE games SET host_id = 999")
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


@pytest.fixture
async def sqlite(tmp_path) -> AsyncIterator[SqliteStore]:
    store = await SqliteStore.open(tmp_path / "games.sqlite3", busy_timeout=BUSY_TIMEOUT)
    yield store
    await store.close()


async def write_waiting_for_the_lock(store: SqliteStore, game_id: int) -> asyncio.Task[int]:
    """A write of the store started and waiting for the write lock: the task returns once
    its BEGIN IMMEDIATE has begun in the database thread (where it waits for the lock)."""
    loop = asyncio.get_running_loop()
    begun = asyncio.Event()

    def traced(statement: str) -> None:
        if statement.startswith("BEGIN IMMEDIATE"):
            loop.call_soon_threadsafe(begun.set)

    await store._db.set_trace_callback(traced)
    version = (await game(store, game_id)).version
    write = asyncio.create_task(
        store.update_game(game_id, version, now=NOW + 1, snapshot={"turn": 2})
    )
    # The callback stays: taking it off would queue behind the waiting BEGIN IMMEDIATE.
    await asyncio.wait_for(begun.wait(), HANG_GUARD)
    return write


async def test_a_game_is_read_while_a_write_waits_behind_another_writer(sqlite, tmp_path):
    game_id = await running(sqlite)
    before = await game(sqlite, game_id)
    with another_writer(tmp_path / "games.sqlite3"):
        write = await write_waiting_for_the_lock(sqlite, game_id)
        read = await asyncio.wait_for(sqlite.get_game(game_id), HANG_GUARD)
        assert not write.done(), "the read waited until the write gave up"
        assert read is not None
        assert (read.version, read.snapshot, read.host_id) == (
            before.version, {"turn": 0}, before.host_id,
        )  # fmt: skip
    assert await asyncio.wait_for(write, HANG_GUARD) == before.version + 1
    after = await game(sqlite, game_id)
    assert (after.version, after.snapshot) == (before.version + 1, {"turn": 2})


async def test_listings_and_deadlines_are_read_while_a_write_waits_behind_another_writer(
    sqlite, tmp_path
):
    game_id = await running(sqlite, deadline=NOW + 60)
    with another_writer(tmp_path / "games.sqlite3"):
        write = await write_waiting_for_the_lock(sqlite, game_id)
        listed = await asyncio.wait_for(sqlite.games(guild_id=GUILD), HANG_GUARD)
        woken = await asyncio.wait_for(sqlite.next_wakeup(), HANG_GUARD)
        logged = await asyncio.wait_for(sqlite.actions(game_id), HANG_GUARD)
        assert not write.done(), "the reads waited until the write gave up"
        assert [g.id for g in listed] == [game_id]
        assert woken == NOW + 60 and logged == []
    await asyncio.wait_for(write, HANG_GUARD)
