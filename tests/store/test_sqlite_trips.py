"""The SQLite store's writes of several statements made in one trip to its database
thread: all or nothing, and the connection left ready for the next write; writes arriving
together are committed together, each still all or nothing."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import Outgoing, StoreBusy
from bot.store.sqlite import SqliteStore, _bump_statement, _bumped
from tests.store.test_contract import NOW, game, play, running


@pytest.fixture
async def sqlite(tmp_path):
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    yield store
    await store.close()


async def test_a_transaction_failing_midway_leaves_the_game_as_it_was(sqlite):
    game_id = await running(sqlite)
    before = await game(sqlite, game_id)
    statements = [
        _bump_statement(game_id, before.version, NOW, {"snapshot": {"turn": 9}}),
        ("INSERT INTO no_such_table VALUES (?)", (1,)),
    ]
    with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
        await sqlite._in_one_trip(_bumped, statements)
    after = await game(sqlite, game_id)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    # Nothing was left open: the next action is written as usual.
    await play(sqlite, game_id, 0, "move", notices=[Outgoing("c1", {"text": "moved"})])
    assert (await game(sqlite, game_id)).version == before.version + 1
    assert [e.body for e in await sqlite.pending_notices()] == [{"text": "moved"}]


async def test_a_stale_bump_writes_none_of_the_statements_after_it(sqlite):
    game_id = await running(sqlite)
    version = (await game(sqlite, game_id)).version
    statements = [
        _bump_statement(game_id, version - 1, NOW, {}),
        ("INSERT INTO outbox (game_id, lane, body, created_at) VALUES (?, 'c1', '{}', ?)",
         (game_id, NOW)),
    ]  # fmt: skip
    assert not await sqlite._in_one_trip(_bumped, statements)
    assert await sqlite.pending_notices() == []
    assert (await game(sqlite, game_id)).version == version


async def transactions_begun(store: SqliteStore) -> list[str]:
    """The statements beginning a transaction on the store's writer from now on."""
    begun: list[str] = []

    def trace(statement: str) -> None:
        if statement.startswith("BEGIN"):
            begun.append(statement)

    await store._db._execute(store._db._conn.set_trace_callback, trace)
    return begun


async def test_writes_arriving_while_one_is_committed_go_together_each_all_or_nothing(
    sqlite, tmp_path
):
    first, second = [await running(sqlite) for _ in range(2)]
    version = (await game(sqlite, first)).version
    before = await game(sqlite, second)
    begun = await transactions_begun(sqlite)
    failing = [
        _bump_statement(second, before.version, NOW, {"snapshot": {"turn": 9}}),
        ("INSERT INTO no_such_table VALUES (?)", (1,)),
    ]
    # The first write goes at once; the three arriving while it is committed go together.
    alone, moved, broken, claimed = await asyncio.gather(
        sqlite.claim_lane("c0", "host-a", NOW, 30.0),
        sqlite.append_action(
            first,
            version,
            seat=0,
            action="move",
            events=[],
            now=NOW,
            notices=[Outgoing("c1", {"text": "first"})],
        ),
        sqlite._in_one_trip(_bumped, failing),
        sqlite.claim_lane("c3", "host-a", NOW, 30.0),
        return_exceptions=True,
    )
    assert begun == ["BEGIN IMMEDIATE"] * 2  # two transactions, two waits for the disk
    assert alone is True
    assert isinstance(broken, sqlite3.OperationalError)
    assert (await game(sqlite, second)).version == before.version  # undone alone
    assert claimed is True
    # Each answered write was committed: another connection sees it.
    other = sqlite3.connect(tmp_path / "games.sqlite3")
    try:
        assert other.execute("SELECT version FROM games WHERE id = ?", (first,)).fetchone() == (
            moved,
        )
        assert other.execute("SELECT owner FROM lanes WHERE lane = 'c3'").fetchall() == [
            ("host-a",)
        ]
    finally:
        other.close()


async def test_writes_waiting_together_on_a_busy_database_are_all_refused_and_none_done(
    tmp_path,
):
    store = await SqliteStore.open(tmp_path / "games.sqlite3", busy_timeout=0.05)
    try:
        game_id = await running(store)
        version = (await game(store, game_id)).version
        other = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            outcomes = await asyncio.gather(
                store.append_action(game_id, version, seat=0, action="move", events=[], now=NOW),
                store.claim_lane("c1", "host-a", NOW, 30.0),
                return_exceptions=True,
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert [type(o) for o in outcomes] == [StoreBusy, StoreBusy]
        assert (await game(store, game_id)).version == version
        assert await store.claim_lane("c1", "host-a", NOW, 30.0)  # free again: it goes
    finally:
        await store.close()


async def test_a_write_waiting_as_the_store_closes_is_committed_before_it_closes():
    store = await SqliteStore.open(":memory:")
    game_id = await running(store)
    version = (await game(store, game_id)).version
    async with store._lock:  # another transaction under way: the write waits its turn
        write = asyncio.create_task(
            store.append_action(game_id, version, seat=0, action="move", events=[], now=NOW)
        )
        await asyncio.sleep(0)
        closing = asyncio.create_task(store.close())
        await asyncio.sleep(0)
    # Bounded only so that a write left behind fails the test instead of hanging it.
    assert await asyncio.wait_for(write, 60) == version + 1, "answered once committed"
    await closing


async def test_writes_queued_behind_a_cancelled_write_are_still_committed_and_answered(sqlite):
    async with sqlite._lock:  # another transaction under way: the first write waits to lead
        leader = asyncio.create_task(sqlite.claim_lane("c0", "host-a", NOW, 30.0))
        await asyncio.sleep(0)
        follower = asyncio.create_task(sqlite.claim_lane("c1", "host-a", NOW, 30.0))
        await asyncio.sleep(0)
        leader.cancel()
        await asyncio.sleep(0)
    # Bounded only so that a stranded write fails the test instead of hanging it.
    assert await asyncio.wait_for(follower, 60) is True
    assert leader.cancelled()
    assert not await sqlite.claim_lane("c1", "host-b", NOW, 30.0), "c1 is host-a's"
