"""The store contract suite runs once for every store in ``STORES``.

An entry maps a name to an async context manager that is given the test's ``tmp_path``,
makes a fresh, empty database for that one test, yields a coroutine function opening a
store on it (called again after ``close`` to reopen the same data), and removes the
database afterwards. A new store implementation is tested by adding its entry here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.sqlite import SqliteStore

Opener = Callable[[], Awaitable[Store]]


@asynccontextmanager
async def sqlite(tmp_path: Path) -> AsyncIterator[Opener]:
    path = tmp_path / "store" / "games.sqlite3"

    async def open_store() -> Store:
        return await SqliteStore.open(path)

    yield open_store


STORES: dict[str, Callable[[Path], AbstractAsyncContextManager[Opener]]] = {
    "sqlite": sqlite,
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
