"""Watchers and time away (``add_watcher``, ``remove_watcher``, ``watchers``,
``watched_games``, ``away_until``, ``set_away``) and moving a turn's deadline without
bumping the version (``move_deadline``).

Each test runs against every store in ``conftest.STORES``.
"""

from __future__ import annotations

from bot.store import Outgoing
from bot.store.postgres import PostgresStore
from tests.store.conftest import postgres_database
from tests.store.test_contract import (
    ALICE,
    BOB,
    CAROL,
    NOW,
    finish,
    game,
    new_game,
    play,
    running,
)
from tests.store.test_wakeups import Heard

STRETCHED = Outgoing("c100", {"kind": "post", "text": ["Bob is away"]})


async def test_a_watcher_is_listed_once_in_the_order_they_came(store):
    game_id = await running(store)
    assert await store.add_watcher(game_id, CAROL, now=NOW)
    assert await store.add_watcher(game_id, ALICE + 10, now=NOW + 1)
    assert not await store.add_watcher(game_id, CAROL, now=NOW + 2)
    assert await store.watchers(game_id) == [CAROL, ALICE + 10]


async def test_watchers_belong_to_their_game(store):
    first, second = await running(store), await running(store)
    await store.add_watcher(first, CAROL, now=NOW)
    assert await store.watchers(second) == []
    assert not await store.add_watcher(second + 100, CAROL, now=NOW)  # no such game


async def test_unwatching_removes_only_that_watcher(store):
    game_id = await running(store)
    await store.add_watcher(game_id, CAROL, now=NOW)
    await store.add_watcher(game_id, ALICE + 10, now=NOW)
    assert await store.remove_watcher(game_id, CAROL)
    assert not await store.remove_watcher(game_id, CAROL)
    assert await store.watchers(game_id) == [ALICE + 10]


async def test_watched_games_are_the_active_ones_newest_first_with_their_seats(store):
    older, newer, ended = await running(store), await running(store), await running(store)
    lobby = await new_game(store)
    for game_id in (older, newer, ended, lobby):
        await store.add_watcher(game_id, CAROL, now=NOW)
    await finish(store, ended, NOW + 5)
    watched = await store.watched_games(CAROL)
    assert [g.id for g in watched] == [lobby, newer, older]
    assert [s.user_id for s in watched[1].seats] == [ALICE, BOB]
    assert await store.watched_games(BOB) == []


async def test_away_is_none_until_set_and_can_be_ended(store):
    assert await store.away_until(BOB) is None
    await store.set_away(BOB, NOW + 86400)
    assert await store.away_until(BOB) == NOW + 86400
    assert await store.away_until(ALICE) is None
    await store.set_away(BOB, None)
    assert await store.away_until(BOB) is None


async def test_away_keeps_the_users_other_facts(store):
    await store.set_dm_closed(BOB, True)
    await store.set_notify_choice(BOB, "none")
    await store.set_away(BOB, NOW + 60)
    assert await store.dm_closed(BOB) and await store.notify_choice(BOB) == "none"
    await store.set_dm_closed(BOB, False)
    assert await store.away_until(BOB) == NOW + 60


async def test_moving_a_deadline_keeps_the_version_and_stores_its_notices(store):
    game_id = await running(store, deadline=NOW + 10, remind_at=NOW + 5)
    version = (await game(store, game_id)).version
    assert await store.move_deadline(
        game_id, version, deadline=NOW + 100, remind_at=NOW + 90, now=NOW,
        notices=[STRETCHED],
    )  # fmt: skip
    record = await game(store, game_id)
    assert (record.version, record.deadline, record.remind_at) == (version, NOW + 100, NOW + 90)
    assert [e.body for e in await store.pending_notices()] == [STRETCHED.body]
    assert await store.next_wakeup() == NOW + 90


async def test_moving_a_deadline_at_a_stale_version_writes_nothing(store):
    game_id = await running(store, deadline=NOW + 10, remind_at=None)
    version = (await game(store, game_id)).version
    await play(store, game_id, 0, "roll")
    assert not await store.move_deadline(
        game_id, version, deadline=NOW + 100, remind_at=None, now=NOW, notices=[STRETCHED]
    )
    assert (await game(store, game_id)).deadline == NOW + 10
    assert await store.pending_notices() == []
    assert not await store.move_deadline(game_id + 100, 1, deadline=NOW, remind_at=None, now=NOW)


async def test_a_deadline_moved_for_time_away_wakes_the_other_process():
    """On PostgreSQL, another process's scheduler hears of the moved deadline."""
    async with postgres_database() as url:
        writer, listener = await PostgresStore.open(url), await PostgresStore.open(url)
        try:
            heard = Heard()
            await listener.subscribe(heard)
            game_id = await running(writer, deadline=NOW + 10)
            await heard.wait_for("clock")
            heard.kinds.clear()
            version = (await game(writer, game_id)).version
            assert await writer.move_deadline(
                game_id, version, deadline=NOW + 99, remind_at=None, now=NOW
            )
            await heard.wait_for("clock")
        finally:
            await writer.close()
            await listener.close()


async def test_a_game_is_read_with_its_watchers_and_its_players_notify_and_time_away(store):
    """What a turn's notices need about the people around a game comes with the game, in
    the same read: the watchers in the order they came, each seat's /notify and /away."""
    game_id = await running(store)
    await store.add_watcher(game_id, CAROL, now=NOW)
    await store.add_watcher(game_id, CAROL + 1, now=NOW + 1)
    await store.set_notify_choice(BOB, "none")
    await store.set_away(ALICE, NOW + 3600)
    record = await game(store, game_id)
    assert record.watchers == (CAROL, CAROL + 1)
    assert record.notify_of(BOB) == "none" and record.notify_of(ALICE) == "turns"
    assert record.away_until_of(ALICE) == NOW + 3600 and record.away_until_of(BOB) is None
    [listed] = [g for g in await store.games(guild_id=record.guild_id) if g.id == game_id]
    assert listed.watchers == record.watchers and listed.notify_of(BOB) == "none"
