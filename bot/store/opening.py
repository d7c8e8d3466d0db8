"""Opening a store from one setting: a PostgreSQL URL or an SQLite path."""

from __future__ import annotations

from bot.store.postgres import PostgresStore
from bot.store.protocol import Store
from bot.store.sqlite import SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


async def open_store(location: str) -> Store:
    """The store at ``location``, its schema brought up to date: a ``postgresql://…`` or
    ``postgres://…`` URL opens :class:`~bot.store.postgres.PostgresStore`; anything else is
    the path of an SQLite file (or ``":memory:"``) for :class:`~bot.store.sqlite.SqliteStore`.
    """
    if location.startswith(POSTGRES_SCHEMES):
        return await PostgresStore.open(location)
    return await SqliteStore.open(location)
