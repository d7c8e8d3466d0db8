"""The store contract suite runs once for every store in ``STORES``.

An entry maps a name to an async context manager that is given the test's ``tmp_path``,
makes a fresh, empty database for that one test, yields a coroutine function opening a
store on it (called again after ``close`` to reopen the same data), and removes the
database afterwards. A new store implementation is tested by adding its entry here.

``postgres`` uses the server the run decided on (see ``tests/conftest.py``: the one
configured in ``TEST_DATABASE_URL``, the one running at 127.0.0.1:5432, or a private one
started for the run): each test creates its own database there and drops it. A server that
cannot be reached fails its tests, saying so; they are never skipped.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.store import Store
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore

Opener = Callable[[], Awaitable[Store]]


@asynccontextmanager
async def sqlite(tmp_path: Path) -> AsyncIterator[Opener]:
    path = tmp_path / "store" / "games.sqlite3"

    async def open_store() -> Store:
        return await SqliteStore.open(path)

    yield open_store


def postgres_server() -> str:
    """The URL of the PostgreSQL server the tests use (trust auth, user postgres), as the
    run decided it in ``tests/conftest.py``; each test makes its own database there."""
    return os.environ["TEST_DATABASE_URL"]


def postgres_url(database: str) -> str:
    """The URL of ``database`` on the tests' server (whose URL may carry a query, such as a
    socket folder)."""
    return urlunsplit(urlsplit(postgres_server())._replace(path=f"/{database}"))


async def _postgres_admin() -> asyncpg.Connection:
    """A connection to the ``test`` database; an unreachable server fails the test (never
    skips it) saying which server it is."""
    try:
        return await asyncpg.connect(postgres_url("test"), timeout=30)
    except (OSError, TimeoutError, asyncpg.PostgresError) as error:
        failure = error
    pytest.fail(
        f"The PostgreSQL tests need {postgres_url('test')} (trust auth, user postgres), and"
        f" it could not be reached: {failure!r}. Unset TEST_DATABASE_URL and stop whatever"
        " listens at 127.0.0.1:5432 to have the tests start a server of their own, or see"
        " the README, section PostgreSQL.",
        pytrace=False,
    )


@asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL database with a name of its own: yields its URL and drops
    it afterwards."""
    name = f"dragon_test_{uuid.uuid4().hex}"
    admin = await _postgres_admin()
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        # a test's commits need not wait for the disk (only a crash of the server would
        # tell the difference), which on a busy machine is most of a PostgreSQL test's time
        await admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    finally:
        await admin.close()
    try:
        yield postgres_url(name)
    finally:
        admin = await _postgres_admin()
        try:  # FORCE ends the connections a failed test may have left open
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@asynccontextmanager
async def postgres(tmp_path: Path) -> AsyncIterator[Opener]:
    async with postgres_database() as url:

        async def open_store() -> Store:
            return await PostgresStore.open(url)

        yield open_store


STORES: dict[str, Callable[[Path], AbstractAsyncContextManager[Opener]]] = {
    "sqlite": sqlite,
    "postgres": postgres,
}


@pytest.fixture(params=sorted(STORES))
async def open_store(request, tmp_path) -> AsyncIterator[Opener]:
    """Opens a store on this test's own database; every store opened is closed at the end."""
    opened: list[Store] = []
    async with STORES[request.param](tmp_path) as opener:

        async def open_tracked() -> Store:
            store = await opener()
            opened.append(store)
            return store

        yield open_tracked
        for store in opened:
            await store.close()


@pytest.fixture
async def store(open_store) -> Store:
    return await open_store()
