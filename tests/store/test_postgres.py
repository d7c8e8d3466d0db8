"""What only the PostgreSQL store has to show: its migrations and schema version, refusing
a newer database, several processes sharing one database, lane order under concurrent
writers, unreadable rows passed over by reads that read further, and ``open_store``
choosing the store from the location."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import NewerDatabase, Outgoing, StaleVersion, StoreBusy, open_store
from bot.store.migrations import MIGRATIONS
from bot.store.postgres import PostgresStore, _Session
from bot.store.sqlite import SqliteStore
from tests.store.conftest import postgres_database
from tests.store.test_contract import ALICE, BOB, NOW, game, new_game, play, running

HANG_GUARD = 60.0
"""Seconds a wait may last before the test fails: only a guard against a hang, far above
what any of these waits takes even on a machine busy with other work."""


@pytest.fixture
async def url():
    async with postgres_database() as url:
        yield url


@pytest.fixture
async def store_and_side(url):
    """A store, and a connection of its own beside it (another process's write, held open
    by the test)."""
    # A write waiting for the held one may wait as long as the test takes to let it go,
    # not only the usual few seconds: the machine may be busy.
    store = await PostgresStore.open(url, busy_timeout=HANG_GUARD)
    conn = await asyncpg.connect(url)
    yield store, conn
    await conn.close()
    await store.close()


async def waits_for_a_lock(url: str, task: asyncio.Task) -> bool:
    """Whether ``task`` comes to wait for a lock on the server rather than finish: asked of
    the server (a session of this database waiting on a lock), so it does not depend on
    how fast the machine is. The question is put on a connection of its own, outside any
    transaction, since a transaction sees the server's activity as it was at its start."""
    watcher = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(HANG_GUARD):
            while not task.done():
                waiting = await watcher.fetchval(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
                if waiting:
                    return True
                await asyncio.sleep(0.01)
    finally:
        await watcher.close()
    return False


async def schema_version(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT version FROM schema_version")
    finally:
        await conn.close()


async def test_a_new_database_is_at_the_newest_schema_version(url):
    store = await PostgresStore.open(url)
    await store.close()
    assert await schema_version(url) == len(MIGRATIONS)
    store = await PostgresStore.open(url)  # opening again changes nothing
    await store.close()
    assert await schema_version(url) == len(MIGRATIONS)


async def test_a_database_from_a_newer_release_is_refused_and_left_as_it_was(url):
    store = await PostgresStore.open(url)
    game_id = await new_game(store)
    await store.close()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("UPDATE schema_version SET version = $1", len(MIGRATIONS) + 1)
        with pytest.raises(NewerDatabase, match="newer release") as refused:
            await PostgresStore.open(url)
        assert (refused.value.found, refused.value.known) == (len(MIGRATIONS) + 1, len(MIGRATIONS))
        assert await conn.fetchval("SELECT version FROM schema_version") == len(MIGRATIONS) + 1
        assert await conn.fetchval("SELECT count(*) FROM games") == 1
        assert await conn.fetchval("SELECT id FROM games") == game_id
    finally:
        await conn.close()


async def test_a_password_is_not_shown_in_the_refusal(url):
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE TABLE schema_version (one boolean PRIMARY KEY DEFAULT true, version integer);"
            f" INSERT INTO schema_version (version) VALUES ({len(MIGRATIONS) + 5})"
        )
        assert await conn.fetchval("SELECT to_regclass('games')") is None
        secret = url.replace("postgres@", "postgres:hunter2@")  # trust auth ignores it
        with pytest.raises(NewerDatabase) as refused:
            await PostgresStore.open(secret)
        assert "hunter2" not in str(refused.value)
        assert await conn.fetchval("SELECT to_regclass('games')") is None, "nothing written"
    finally:
        await conn.close()


async def test_processes_starting_together_migrate_once(url):
    stores = await asyncio.gather(*(PostgresStore.open(url) for _ in range(4)))
    try:
        assert await schema_version(url) == len(MIGRATIONS)
        ids = [await new_game(store) for store in stores]
        assert ids == sorted(set(ids))
    finally:
        for store in stores:
            await store.close()


async def test_two_processes_writing_at_one_version_apply_only_one(url):
    first, second = PostgresStore.open(url), PostgresStore.open(url)
    first, second = await first, await second
    try:
        game_id = await running(first)
        version = (await game(first, game_id)).version
        for _ in range(20):
            results = await asyncio.gather(
                first.append_action(
                    game_id, version, seat=0, action="a", events=[], now=NOW,
                    notices=[Outgoing("c1", {"by": "first"})],
                ),
                second.append_action(
                    game_id, version, seat=1, action="b", events=[], now=NOW,
                    notices=[Outgoing("c1", {"by": "second"})],
                ),
                return_exceptions=True,
            )  # fmt: skip
            assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"]
            version += 1
        log = await second.actions(game_id)
        assert [a.seq for a in log] == list(range(version - 19, version + 1))
        assert len(await first.pending_notices()) == 20
    finally:
        await first.close()
        await second.close()


async def test_a_notice_waits_for_an_older_uncommitted_one_of_its_lane(store_and_side, url):
    """Ids are taken in commit order within a lane, so a sender that sees an entry has
    seen every older one of its lane."""
    store, conn = store_and_side
    game_id = await new_game(store)
    open_write = conn.transaction()
    await open_write.start()
    await store._enqueue(_Session(conn), game_id, [Outgoing("c100", {"n": 1})], NOW)
    later = asyncio.create_task(store.enqueue(game_id, [Outgoing("c100", {"n": 2})], now=NOW))
    other_lane = await asyncio.wait_for(
        store.enqueue(game_id, [Outgoing("u7", {"n": 3})], now=NOW), HANG_GUARD
    )
    assert other_lane is None, "another lane does not wait"
    assert await waits_for_a_lock(url, later), "a later notice of the lane waits for the open write"
    assert [e.body for e in await store.pending_notices()] == [{"n": 3}]
    await open_write.commit()
    await asyncio.wait_for(later, HANG_GUARD)
    lane = await store.pending_notices(lanes=["c100"])
    assert [e.body for e in lane] == [{"n": 1}, {"n": 2}]
    assert lane[0].id < lane[1].id


async def test_an_action_of_one_statement_waits_for_an_older_write_of_its_lane(store_and_side, url):
    store, conn = store_and_side
    game_id = await running(store)
    open_write = conn.transaction()
    await open_write.start()
    await store._enqueue(_Session(conn), game_id, [Outgoing("c100", {"n": 1})], NOW)
    version = (await game(store, game_id)).version
    acting = asyncio.create_task(
        store.append_action(
            game_id, version, seat=0, action="move", events=[], now=NOW,
            notices=[Outgoing("c100", {"n": 2})],
        )
    )  # fmt: skip
    assert await waits_for_a_lock(url, acting), "the action's notice waits for the open write"
    await open_write.commit()
    assert await asyncio.wait_for(acting, HANG_GUARD) == version + 1
    lane = await store.pending_notices(lanes=["c100"])
    assert [e.body for e in lane] == [{"n": 1}, {"n": 2}]
    assert lane[0].id < lane[1].id


async def test_a_lane_won_by_waiting_reads_what_its_last_holder_left(store_and_side, url):
    """A claim that waited for the holder's last write reads the lane as that write left
    it: without the notice it sent."""
    store, conn = store_and_side
    game_id = await new_game(store)
    await store.enqueue(game_id, [Outgoing("c100", {"n": 1}), Outgoing("c100", {"n": 2})],
                        now=NOW)  # fmt: skip
    first, _ = await store.take_lane("c100", "a", now=NOW, lease_seconds=60)
    last_write = conn.transaction()  # a's send recorded and its claim given up, at once
    await last_write.start()
    await conn.execute(
        "UPDATE outbox SET sent_at = $1, message_id = 5 WHERE id = $2", NOW, first.id
    )
    await conn.execute("DELETE FROM lanes WHERE lane = 'c100'")
    taking = asyncio.create_task(store.take_lane("c100", "b", now=NOW, lease_seconds=60))
    assert await waits_for_a_lock(url, taking), "b waits on the lane's row"
    await last_write.commit()
    taken = await asyncio.wait_for(taking, HANG_GUARD)
    assert [e.body for e in taken] == [{"n": 2}]


async def test_a_seat_taken_by_another_process_is_stale(url):
    first, second = await PostgresStore.open(url), await PostgresStore.open(url)
    try:
        game_id = await new_game(first)
        await first.add_seat(game_id, 0, seat=0, role="r0", user_id=ALICE, name="a", now=NOW)
        with pytest.raises(StaleVersion):
            await second.add_seat(game_id, 0, seat=0, role="r0", user_id=BOB, name="b", now=NOW)
        assert (await game(second, game_id)).seat_of(ALICE) == [0]
    finally:
        await first.close()
        await second.close()


async def test_a_write_held_up_past_the_busy_timeout_is_busy_and_writes_nothing(url):
    store = await PostgresStore.open(url, busy_timeout=0.2)
    conn = await asyncpg.connect(url)
    try:
        game_id = await running(store)
        before = await game(store, game_id)
        holding = conn.transaction()
        await holding.start()
        await conn.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
        with pytest.raises(StoreBusy):
            await store.append_action(
                game_id, before.version, seat=0, action="roll", events=[], now=NOW,
                notices=[Outgoing("c1", {"n": 1})],
            )  # fmt: skip
        with pytest.raises(StoreBusy):
            await store.set_message(game_id, "board", 5)
        await holding.rollback()
        assert await game(store, game_id) == before
        assert await store.actions(game_id) == []
        assert await store.pending_notices() == []
        assert await play(store, game_id, 0, "roll") == before.version + 1, "free again"
    finally:
        await conn.close()
        await store.close()


@pytest.mark.parametrize("scheme", ["postgresql://", "postgres://"])
async def test_open_store_opens_postgresql_for_a_url(url, scheme):
    store = await open_store(url.replace("postgresql://", scheme, 1))
    try:
        assert isinstance(store, PostgresStore)
        assert await store.get_game(await new_game(store)) is not None
    finally:
        await store.close()


async def test_open_store_opens_sqlite_for_a_path(tmp_path):
    store = await open_store(str(tmp_path / "data" / "games.sqlite3"))
    try:
        assert isinstance(store, SqliteStore)
        assert (tmp_path / "data" / "games.sqlite3").exists()
    finally:
        await store.close()


async def damage(store: PostgresStore, game_id: int) -> None:
    await store._pool.execute("UPDATE games SET snapshot = '{broken' WHERE id = $1", game_id)


async def test_unreadable_games_take_no_place_in_a_listing_or_the_due_games(url):
    store = await PostgresStore.open(url)
    try:
        games = [await running(store, deadline=NOW - 100 + i) for i in range(8)]
        for bad in games[:5]:
            await damage(store, bad)
        with pytest.raises(ValueError):
            await store.get_game(games[0])
        assert [g.id for g in await store.due(NOW, limit=2)] == games[5:7]
        assert [g.id for g in await store.due(NOW)] == games[5:]
        assert [g.id for g in await store.games(limit=2)] == [games[7], games[6]]
        assert await store.next_wakeup() == NOW - 100 + 5
        assert await store.next_wakeup(exclude=games[5:7]) == NOW - 100 + 7
        assert await store.next_wakeup(exclude=games[5:]) is None
    finally:
        await store.close()
