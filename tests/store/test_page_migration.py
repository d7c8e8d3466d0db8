"""Migration 15 gives every game stored before it a page token of its own, on both
stores, so the games already under way get pages too."""

from __future__ import annotations

import sqlite3

import asyncpg

from bot.store.migrations import scripts
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore
from tests.store.conftest import postgres_database

BEFORE = 14
"""The schema version before game pages."""
GAME = (
    "INSERT INTO games (guild_id, channel_id, slug, status, host_id, players, seed,"
    " created_at, updated_at) VALUES (1, 10, 'stgeorge', 'running', 5, 2, 7, 0, 0)"
)


def _tokens(records) -> list[str]:
    tokens = [r.page for r in records]
    assert all(tokens) and len(set(tokens)) == len(tokens), tokens
    assert all(len(t) >= 24 for t in tokens)
    return tokens


async def test_sqlite_games_stored_before_pages_get_a_token_each(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        for script in scripts("sqlite")[:BEFORE]:
            db.executescript(script)
        db.execute(f"PRAGMA user_version = {BEFORE}")
        for _ in range(3):
            db.execute(GAME)
    store = await SqliteStore.open(path)
    try:
        games = await store.games(active_only=False)
        tokens = _tokens(games)
        assert (await store.game_by_page(tokens[0])).id == games[0].id
    finally:
        await store.close()


async def test_postgres_games_stored_before_pages_get_a_token_each():
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
            for _ in range(3):
                await conn.execute(GAME)
        finally:
            await conn.close()
        store = await PostgresStore.open(url)
        try:
            games = await store.games(active_only=False)
            tokens = _tokens(games)
            assert (await store.game_by_page(tokens[-1])).id == games[-1].id
        finally:
            await store.close()
