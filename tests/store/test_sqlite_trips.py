"""The SQLite store's writes of several statements made in one trip to its database
thread: all or nothing, and the connection left ready for the next write."""

from __future__ import annotations

import sqlite3

import pytest

from bot.store import Outgoing
from bot.store.sqlite import SqliteStore, _bump_statement, _one_transaction
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
        await sqlite._in_one_trip(_one_transaction, statements)
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
    assert not await sqlite._in_one_trip(_one_transaction, statements)
    assert await sqlite.pending_notices() == []
    assert (await game(sqlite, game_id)).version == version
