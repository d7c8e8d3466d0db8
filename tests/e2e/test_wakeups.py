"""A process of a cluster (``SHARD_IDS``) on PostgreSQL listens for the other processes'
wake-ups: a deadline moved or a notice stored by another process sharing the database pokes
its scheduler or its outbox. A bot alone (no ``SHARD_IDS``) pokes itself and does not
listen."""

import asyncio

import pytest

from bot.settings import Settings
from bot.store import Outgoing
from bot.store.postgres import PostgresStore
from tests.store.conftest import postgres_database

HANG = 60


@pytest.fixture
async def database():
    async with postgres_database() as url:
        yield url


@pytest.fixture
def settings(database):
    return Settings(
        database=database,
        seed=1234,
        members_intent=True,
        paced=False,
        shard_count=2,
        shard_ids=(0, 1),
    )


async def test_another_process_s_writes_poke_the_scheduler_and_the_outbox(
    simcord_env, database, world, monkeypatch
):
    bot = simcord_env.bot
    _, channel, users = world
    await users["alice"].slash(channel, "game new", game="stgeorge")
    await users["bob"].slash(channel, "game join")
    await users["alice"].slash(channel, "game start")
    pokes: list[str] = []
    both_poked = asyncio.Event()

    def poked(what: str) -> None:
        pokes.append(what)
        if {"clock", "outbox"} <= set(pokes):
            both_poked.set()

    monkeypatch.setattr(bot.scheduler, "poke", lambda: poked("clock"))
    monkeypatch.setattr(bot.outbox, "poke", lambda: poked("outbox"))
    other = await PostgresStore.open(database)  # another process's store
    try:
        (record,) = await other.games()
        await other.update_game(record.id, record.version, now=0.0, remind_at=1e12)
        await other.enqueue(record.id, [Outgoing(f"channel:{channel.id}", {})], now=0.0)
        # the notifications come over the listening connection; the limit only ends a hang
        try:
            await asyncio.wait_for(both_poked.wait(), HANG)
        except TimeoutError:
            pytest.fail(f"not both poked within {HANG} s: {pokes}")
        for entry in await other.pending_notices():
            if entry.body == {}:  # the stand-in notice is never to be sent
                await other.give_up(entry.id, reason="a test's stand-in")
    finally:
        await other.close()
