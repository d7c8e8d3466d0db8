"""The migration steps, each written once, build exactly the schema the steps released per
dialect built: from an empty database, and from a database the released steps brought to
any earlier version (an existing database migrates as it did). A step has both dialects."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from bot.store.migrations import MIGRATIONS, scripts
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore
from tests.store.conftest import postgres_database
from tests.store.released import postgres_steps, sqlite_steps

NEWEST = len(sqlite_steps.MIGRATIONS)

SCHEMA_VERSION = (
    "CREATE TABLE schema_version (one boolean PRIMARY KEY DEFAULT true"
    " CHECK (one), version integer NOT NULL);"
    " INSERT INTO schema_version (version) VALUES (0)"
)
"""PostgreSQL's schema version table, as the store makes it."""

POSTGRES_CATALOG = {
    "columns": "SELECT table_name, column_name, ordinal_position, data_type, is_nullable,"
    " column_default, is_identity, identity_generation FROM information_schema.columns"
    " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
    "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes"
    " WHERE schemaname = 'public' ORDER BY indexname",
    "constraints": "SELECT conrelid::regclass::text AS owner, conname,"
    " pg_get_constraintdef(oid) AS definition FROM pg_constraint"
    " WHERE connamespace = 'public'::regnamespace ORDER BY owner, conname",
    "sequences": "SELECT sequence_name, data_type FROM information_schema.sequences"
    " WHERE sequence_schema = 'public' ORDER BY sequence_name",
}


def test_every_step_is_written_in_both_dialects_and_numbered_as_released():
    assert len(MIGRATIONS) == NEWEST == len(postgres_steps.MIGRATIONS)
    assert all(step.sqlite.strip() and step.postgres.strip() for step in MIGRATIONS)


def sqlite_schema(path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        ).fetchall()
        version = db.execute("PRAGMA user_version").fetchone()[0]
    db.close()
    return [*rows, ("user_version", version)]


def released_sqlite(path, steps: int) -> None:
    """A database the released SQLite steps brought to version ``steps``."""
    db = sqlite3.connect(path)
    for script in sqlite_steps.MIGRATIONS[:steps]:
        db.executescript(script)
    db.execute(f"PRAGMA user_version = {steps}")
    db.commit()
    db.close()


@pytest.mark.parametrize("before", range(NEWEST + 1))
async def test_sqlite_migrates_to_the_schema_the_released_steps_built(tmp_path, before):
    released_sqlite(tmp_path / "released.sqlite3", NEWEST)
    released_sqlite(tmp_path / "migrated.sqlite3", before)
    store = await SqliteStore.open(tmp_path / "migrated.sqlite3")
    await store.close()
    expected = sqlite_schema(tmp_path / "released.sqlite3")
    assert len(expected) > 30
    assert sqlite_schema(tmp_path / "migrated.sqlite3") == expected


def test_the_sqlite_steps_are_the_released_scripts_word_for_word():
    # SQLite keeps each table's CREATE statement as written, with its added columns.
    assert scripts("sqlite") == sqlite_steps.MIGRATIONS


async def postgres_schema(url: str) -> dict[str, list[tuple]]:
    conn = await asyncpg.connect(url)
    try:
        catalog = {
            name: [tuple(row) for row in await conn.fetch(query)]
            for name, query in POSTGRES_CATALOG.items()
        }
        catalog["version"] = [(await conn.fetchval("SELECT version FROM schema_version"),)]
        return catalog
    finally:
        await conn.close()


async def released_postgres(url: str, steps: int) -> None:
    """A database the released PostgreSQL steps brought to version ``steps``."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(SCHEMA_VERSION)
        for script in postgres_steps.MIGRATIONS[:steps]:
            await conn.execute(script)
        await conn.execute("UPDATE schema_version SET version = $1", steps)
    finally:
        await conn.close()


@pytest.mark.parametrize("before", [None, 0, 1, 14, 19, 21, 22])
async def test_postgres_migrates_to_the_schema_the_released_steps_built(before):
    """``None``: a database without even the version table, as a new one is."""
    async with postgres_database() as released, postgres_database() as migrated:
        await released_postgres(released, NEWEST)
        if before is not None:
            await released_postgres(migrated, before)
        store = await PostgresStore.open(migrated)
        await store.close()
        expected = await postgres_schema(released)
        assert len(expected["columns"]) > 100
        assert await postgres_schema(migrated) == expected
