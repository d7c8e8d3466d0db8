"""Rematches (``create_game(rematch_of=...)`` and ``rematch``): a finished game has at most
one rematch, however many are opened at the same moment, and a refused one writes nothing.

Each test runs against every store in ``conftest.STORES``.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.store import NewSeat, Outgoing, StaleVersion
from tests.store.test_contract import ALICE, BOB, new_game, running, set_fields

OPENED = Outgoing("c100", {"kind": "post", "text": ["A rematch is open"]})


async def finished(store) -> int:
    game_id = await running(store)
    await set_fields(store, game_id, status="finished", result="Alice wins")
    return game_id


async def test_a_rematch_is_found_from_the_game_it_was_opened_from(store):
    old = await finished(store)
    assert await store.rematch(old) is None
    new = await new_game(store, rematch_of=old, seats=[NewSeat(0, "a", BOB, "Bob")])
    assert await store.rematch(old) == new
    assert await store.rematch(new) is None
    assert (await store.get_game(new)).status == "lobby"


async def test_a_second_rematch_of_one_game_is_refused_and_writes_nothing(store):
    old = await finished(store)
    first = await new_game(store, rematch_of=old)
    before = await store.games(active_only=False)
    with pytest.raises(StaleVersion):
        await new_game(
            store, rematch_of=old, seats=[NewSeat(0, "a", ALICE, "Alice")], notices=[OPENED]
        )
    assert await store.games(active_only=False) == before
    assert await store.pending_notices() == []
    assert await store.rematch(old) == first


async def test_rematches_opened_at_the_same_moment_make_one_game(store):
    old = await finished(store)
    tried = await asyncio.gather(
        *(new_game(store, rematch_of=old, notices=[OPENED]) for _ in range(4)),
        return_exceptions=True,
    )
    made = [t for t in tried if isinstance(t, int)]
    assert len(made) == 1 and all(isinstance(t, StaleVersion) for t in tried if t not in made)
    assert await store.rematch(old) == made[0]
    assert len(await store.pending_notices()) == 1
