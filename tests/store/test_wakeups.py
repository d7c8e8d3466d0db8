"""Wake-ups between processes sharing one database (``Store.subscribe``): a write through
one PostgreSQL store that moves a deadline or stores notices calls back every other store
listening on that database, never the writer itself; a rolled-back write never does.
SQLite serves one process and never calls back.

The tests wait for the callback itself, never for a while: that a write woke nobody is
shown by a mark sent on the channel after it, which PostgreSQL delivers after every
wake-up of a transaction that committed before it."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import Outgoing, StaleVersion
from bot.store.postgres import CHANNEL, PostgresStore
from bot.store.sqlite import SqliteStore
from tests.store.conftest import postgres_database
from tests.store.test_contract import NOW, game, play, running

HANG_GUARD = 60.0
"""Seconds a wait may last before the test fails: only a guard against a hang, far above
what a wake-up takes even on a machine busy with other work."""


@pytest.fixture
async def url():
    async with postgres_database() as url:
        yield url


class Heard:
    """A subscriber's callback that keeps what it heard and lets a test wait for a kind."""

    def __init__(self) -> None:
        self.kinds: list[str] = []
        self._changed = asyncio.Event()

    def __call__(self, kind: str) -> None:
        self.kinds.append(kind)
        self._changed.set()

    async def wait_for(self, kind: str) -> None:
        async def until() -> None:
            while kind not in self.kinds:
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(until(), HANG_GUARD)


async def mark(url: str) -> None:
    """Send a mark (kind ``mark``) on the wake-up channel from a connection of no store's:
    every listening store hears it after the wake-ups of everything committed before."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, "mark test")
    finally:
        await conn.close()


async def heard_only_the_mark(url: str, heard: Heard) -> list[str]:
    """What ``heard`` was called back with up to a mark sent now."""
    await mark(url)
    await heard.wait_for("mark")
    return heard.kinds


@pytest.fixture
async def pair(url):
    """Two stores on one database, as two processes would have them; the second listens."""
    writer = await PostgresStore.open(url)
    listener = await PostgresStore.open(url)
    heard = Heard()
    await listener.subscribe(heard)
    yield writer, listener, heard
    await writer.close()
    await listener.close()


async def test_a_moved_deadline_wakes_the_other_process(pair):
    writer, _, heard = pair
    game_id = await running(writer)
    await heard.wait_for("clock")
    heard.kinds.clear()
    record = await game(writer, game_id)
    await writer.update_game(game_id, record.version, now=NOW, deadline=NOW + 60)
    await heard.wait_for("clock")
    heard.kinds.clear()
    await play(writer, game_id, 0, "move", remind_at=NOW + 30)
    await heard.wait_for("clock")


async def test_stored_notices_wake_the_other_process(pair):
    writer, _, heard = pair
    game_id = await running(writer)
    await heard.wait_for("clock")  # starting the game's clock; heard a moment after commit
    heard.kinds.clear()
    await writer.enqueue(game_id, [Outgoing("channel:1", {"text": "hi"})], now=NOW)
    await heard.wait_for("outbox")
    assert "clock" not in heard.kinds, "notices alone move no deadline"
    heard.kinds.clear()
    await play(writer, game_id, 0, "move", notices=[Outgoing("channel:1", {"text": "moved"})])
    await heard.wait_for("outbox")


async def test_a_write_without_deadlines_or_notices_wakes_nobody(pair, url):
    writer, _, heard = pair
    game_id = await running(writer)
    await heard.wait_for("clock")
    heard.kinds.clear()
    record = await game(writer, game_id)
    await writer.update_game(game_id, record.version, now=NOW, snapshot={"turn": 1})
    await writer.set_message(game_id, "status", 7)
    assert await heard_only_the_mark(url, heard) == ["mark"]


async def test_a_stale_write_wakes_nobody(pair, url):
    writer, _, heard = pair
    game_id = await running(writer)
    await heard.wait_for("clock")
    heard.kinds.clear()
    record = await game(writer, game_id)
    await writer.update_game(game_id, record.version, now=NOW)
    with pytest.raises(StaleVersion):
        await writer.update_game(
            game_id, record.version, now=NOW, deadline=NOW + 1,
            notices=[Outgoing("channel:1", {"text": "never"})],
        )  # fmt: skip
    assert await heard_only_the_mark(url, heard) == ["mark"]


async def test_every_other_store_hears_a_write_and_the_writer_does_not(url):
    stores = [await PostgresStore.open(url) for _ in range(3)]
    try:
        heard = [Heard() for _ in stores]
        for store, callback in zip(stores, heard, strict=True):
            await store.subscribe(callback)
        await running(stores[0])
        for callback in heard[1:]:
            await callback.wait_for("clock")
        assert await heard_only_the_mark(url, heard[0]) == ["mark"], (
            "a host pokes itself; its own wake-ups would only echo"
        )
    finally:
        for store in stores:
            await store.close()


async def test_a_lost_listening_connection_is_opened_again_and_says_look_again(pair, url):
    writer, _, heard = pair
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND query LIKE 'LISTEN%'"
        )
    finally:
        await admin.close()
    await heard.wait_for("clock")
    await heard.wait_for("outbox")
    heard.kinds.clear()
    game_id = await running(writer)
    await heard.wait_for("clock")
    await writer.enqueue(game_id, [Outgoing("channel:1", {"text": "hi"})], now=NOW)
    await heard.wait_for("outbox")


async def test_closing_stops_listening(url):
    writer = await PostgresStore.open(url)
    listener = await PostgresStore.open(url)
    witness = await PostgresStore.open(url)  # still listening: the wake-up was sent
    heard, seen = Heard(), Heard()
    try:
        await listener.subscribe(heard)
        await witness.subscribe(seen)
        await listener.close()
        await running(writer)
        await seen.wait_for("clock")
        assert await heard_only_the_mark(url, seen) == ["clock", "mark"]
        assert heard.kinds == []
    finally:
        await writer.close()
        await listener.close()
        await witness.close()


async def test_sqlite_serves_one_process_and_never_calls_back(tmp_path):
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    heard = Heard()
    try:
        await store.subscribe(heard)
        await running(store)
        await asyncio.sleep(0.1)
        assert heard.kinds == []
    finally:
        await store.close()


async def test_a_move_with_notices_and_a_new_deadline_wakes_both_kinds(pair):
    writer, _, heard = pair
    game_id = await running(writer)
    await heard.wait_for("clock")
    heard.kinds.clear()
    await play(
        writer, game_id, 0, "move", deadline=NOW + 60,
        notices=[Outgoing("channel:1", {"text": "moved"}), Outgoing("dm:5", {"text": "you"})],
    )  # fmt: skip
    await heard.wait_for("outbox")
    await heard.wait_for("clock")


async def test_a_move_that_moves_no_deadline_and_tells_nobody_wakes_nobody(pair, url):
    writer, _, heard = pair
    game_id = await running(writer)
    await heard.wait_for("clock")
    heard.kinds.clear()
    await play(writer, game_id, 0, "move")
    assert await heard_only_the_mark(url, heard) == ["mark"]


async def test_a_stale_move_wakes_nobody_and_stores_nothing(pair, url):
    writer, _, heard = pair
    game_id = await running(writer)
    await heard.wait_for("clock")
    heard.kinds.clear()
    record = await game(writer, game_id)
    await play(writer, game_id, 0, "first")
    with pytest.raises(StaleVersion):
        await writer.append_action(
            game_id, record.version, seat=1, action="late", events=[], now=NOW,
            deadline=NOW + 1, notices=[Outgoing("channel:1", {"text": "never"})],
        )  # fmt: skip
    assert await heard_only_the_mark(url, heard) == ["mark"]
    assert [a.action for a in await writer.actions(game_id)] == ["first"]
    assert await writer.pending_notices() == []
