"""Digests (``set_digest``, ``next_digest``, ``digests_due``, ``settle_digest``): a user's
two kinds apart, each moved on once with its DM stored in the same transaction, and a game
read with the watchers who take a digest instead of each board; migration 20 keeps the
digests stored before kinds as ``turns``.

Each test but the migration's runs against every store in ``conftest.STORES``.
"""

from __future__ import annotations

import sqlite3

import asyncpg

from bot.service import wire
from bot.service.notices import Outcome, PrivateMessage
from bot.store.migrations import scripts
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore
from tests.store.conftest import postgres_database
from tests.store.test_contract import ALICE, BOB, NOW, game, new_game

HOUR = 3600.0


async def test_a_users_two_digests_are_kept_apart(store):
    await store.set_digest(ALICE, 2 * HOUR, NOW + 2 * HOUR)
    await store.set_digest(ALICE, 5 * HOUR, NOW + 5 * HOUR, "watching")
    assert await store.next_digest() == NOW + 2 * HOUR
    due = await store.digests_due(NOW + 5 * HOUR)
    assert [(d.user_id, d.kind, d.every) for d in due] == [
        (ALICE, "turns", 2 * HOUR), (ALICE, "watching", 5 * HOUR),
    ]  # fmt: skip
    await store.set_digest(ALICE, None, 0)
    assert [d.kind for d in await store.digests_due(NOW + 5 * HOUR)] == ["watching"]
    await store.set_digest(ALICE, None, 0, "watching")
    assert await store.next_digest() is None


async def test_a_digest_is_settled_once_with_its_dm(store):
    game_id = await new_game(store)
    await store.set_digest(BOB, HOUR, NOW, "watching")
    [row] = await store.digests_due(NOW)
    dm = wire.outgoing(Outcome([PrivateMessage(game_id, BOB, "👀 digest")]))
    settle = {"due_at": NOW + HOUR, "seen": f"{game_id}:3", "game_id": game_id, "now": NOW}
    assert await store.settle_digest(row, notices=dm, **settle)
    assert not await store.settle_digest(row, notices=dm, **settle)  # another process did
    [moved] = await store.digests_due(NOW + HOUR)
    assert (moved.seen, moved.due_at, moved.kind) == (f"{game_id}:3", NOW + HOUR, "watching")
    sent = [e for e in await store.pending_notices() if e.body.get("user") == BOB]
    assert len(sent) == 1


async def test_a_game_is_read_with_its_digest_watchers(store):
    game_id = await new_game(store)
    await store.add_watcher(game_id, ALICE, now=NOW)
    await store.add_watcher(game_id, BOB, now=NOW)
    await store.set_digest(BOB, HOUR, NOW + HOUR, "watching")
    await store.set_digest(ALICE, HOUR, NOW + HOUR)  # a player's digest: boards still go
    record = await game(store, game_id)
    assert set(record.watchers) == {ALICE, BOB} and record.digest_watchers == {BOB}
    await store.set_digest(BOB, None, 0, "watching")
    assert (await game(store, game_id)).digest_watchers == frozenset()


BEFORE = 19
"""The schema version before digests had kinds."""


async def test_sqlite_digests_stored_before_kinds_are_players_digests(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        for script in scripts("sqlite")[:BEFORE]:
            db.executescript(script)
        db.execute(f"PRAGMA user_version = {BEFORE}")
        db.execute("INSERT INTO digests (user_id, every, due_at, seen) VALUES (5, 60, 9, 'x')")
    store = await SqliteStore.open(path)
    try:
        [row] = await store.digests_due(10)
        assert (row.user_id, row.kind, row.every, row.seen) == (5, "turns", 60, "x")
    finally:
        await store.close()


async def test_postgres_digests_stored_before_kinds_are_players_digests():
    async with postgres_database() as url:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(
                "CREATE TABLE schema_version (one boolean PRIMARY KEY DEFAULT true"
                " CHECK (one), version integer NOT NULL);"
                " INSERT INTO schema_version (version) VALUES (0)"
            )
            for script in scripts("postgres")[:BEFORE]:
                await conn.execute(script)
            await conn.execute("UPDATE schema_version SET version = $1", BEFORE)
            await conn.execute(
                "INSERT INTO digests (user_id, every, due_at, seen) VALUES (5, 60, 9, 'x')"
            )
        finally:
            await conn.close()
        store = await PostgresStore.open(url)
        try:
            [row] = await store.digests_due(10)
            assert (row.user_id, row.kind, row.every, row.seen) == (5, "turns", 60, "x")
            await store.set_digest(5, 120, 20, "watching")
            assert len(await store.digests_due(30)) == 2
        finally:
            await store.close()
