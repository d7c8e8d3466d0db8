"""An offer made between a write's read and its commit: the write moves the game past an
offer it did not see, so it cannot have told the offer's post what became of it. The
store itself stores the offer's lapse notice (given with :meth:`Store.make_offer`) in the
write's transaction, first, unless a notice of the write settles that offer already.

Each test runs against every store in ``conftest.STORES``; the last one makes PostgreSQL's
one-statement action wait for the offer's commit, as two processes can.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store import Outgoing
from bot.store.postgres import _LANE_LOCKS, PostgresStore, _lane_key
from tests.store.conftest import postgres_database
from tests.store.test_contract import ALICE, BOB, CAROL, NOW, game, running
from tests.store.test_results import finish

ASKED = Outgoing("c100", {"kind": "post", "text": ["Alice offers a draw"]})
LAPSE = Outgoing("c100", {"kind": "post", "text": ["Lapsed"], "settles": "at the offer"})
MOVED = Outgoing("c100", {"kind": "post", "text": ["Bob moved"]})
TOLD = Outgoing("u7", {"kind": "private", "text": ["your turn"]})
HANG_GUARD = 60.0
"""Seconds a wait may last before the test fails: a guard against a hang only."""


async def offer_draw(store, game_id: int, version: int | None = None) -> int:
    """Alice offers a draw at ``version`` (the game's own by default); that version."""
    if version is None:
        version = (await game(store, game_id)).version
    made = await store.make_offer(
        game_id, version, kind="draw", seat=0, user_id=ALICE, now=NOW, notices=[ASKED],
        lapse=Outgoing(LAPSE.lane, {**LAPSE.body, "settles": version}, settles=version),
    )  # fmt: skip
    assert made
    return version


def lapse_at(version: int) -> dict:
    return {**LAPSE.body, "settles": version}


async def bodies(store) -> list:
    return [e.body for e in await store.pending_notices()]


async def move(store, game_id, version):
    return await store.append_action(
        game_id, version, seat=1, action="roll", events=[], now=NOW, notices=[MOVED, TOLD]
    )


async def pause(store, game_id, version):
    return await store.update_game(
        game_id, version, now=NOW, status="paused", notices=[MOVED, TOLD]
    )


async def leave(store, game_id, version):
    return await store.mark_left(game_id, version, user_id=BOB, now=NOW, notices=[MOVED, TOLD])


async def remove(store, game_id, version):
    return await store.remove_seats(game_id, version, user_id=BOB, now=NOW, notices=[MOVED, TOLD])


async def seat_one_more(store, game_id, version):
    return await store.add_seat(
        game_id, version, seat=2, role="r2", user_id=CAROL, name="Carol", now=NOW,
        notices=[MOVED, TOLD],
    )  # fmt: skip


async def end(store, game_id, version):
    return await finish(store, game_id, notices=[MOVED, TOLD])


WRITES = [move, pause, leave, remove, seat_one_more, end]


@pytest.mark.parametrize("write", WRITES, ids=lambda w: w.__name__)
async def test_a_write_past_an_offer_it_did_not_see_stores_its_lapse_first(store, write):
    game_id = await running(store)
    version = await offer_draw(store, game_id)  # after the write read the game
    assert await write(store, game_id, version) == version + 1
    assert await bodies(store) == [ASKED.body, lapse_at(version), MOVED.body, TOLD.body]
    assert await store.offer(game_id) is None


async def test_a_write_that_settles_the_offer_itself_stores_no_second_lapse(store):
    game_id = await running(store)
    version = await offer_draw(store, game_id)
    answered = Outgoing("c100", {"kind": "post", "text": ["Drawn"]}, settles=version)
    await store.append_action(
        game_id, version, seat=1, action="!draw", events=[], now=NOW, notices=[answered]
    )
    await store.update_game(game_id, version + 1, now=NOW, status="paused")
    assert await bodies(store) == [ASKED.body, answered.body]


async def test_an_offer_lapses_once_and_a_declined_one_not_at_all(store):
    game_id = await running(store)
    first = await offer_draw(store, game_id)
    await move(store, game_id, first)
    await move(store, game_id, first + 1)  # past no offer
    second = await offer_draw(store, game_id)
    assert await store.drop_offer(game_id, second, now=NOW)
    await move(store, game_id, second)
    assert [b["text"] for b in await bodies(store)].count(LAPSE.body["text"]) == 1


async def test_an_offer_made_without_a_lapse_notice_lapses_untold(store):
    game_id = await running(store)
    version = (await game(store, game_id)).version
    assert await store.make_offer(game_id, version, kind="draw", seat=0, user_id=ALICE, now=NOW)
    await move(store, game_id, version)
    assert await bodies(store) == [MOVED.body, TOLD.body]


async def test_a_second_offer_at_the_version_is_refused_and_keeps_the_first_lapse(store):
    game_id = await running(store)
    version = await offer_draw(store, game_id)
    other = Outgoing("c100", {"kind": "post", "text": ["other"]}, settles=version)
    assert not await store.make_offer(
        game_id, version, kind="takeback", seat=1, user_id=BOB, now=NOW, lapse=other
    )
    await move(store, game_id, version)
    assert await bodies(store) == [ASKED.body, lapse_at(version), MOVED.body, TOLD.body]


async def sessions_waiting_for_locks(url: str, count: int) -> None:
    """Return once ``count`` sessions of the database wait for a lock (asked of the
    server, so it does not depend on how fast the machine is)."""
    watcher = await asyncpg.connect(url)
    try:
        async with asyncio.timeout(HANG_GUARD):
            while (
                await watcher.fetchval(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
                < count
            ):
                await asyncio.sleep(0.01)
    finally:
        await watcher.close()


async def test_an_action_of_one_statement_waiting_for_an_offer_stores_its_lapse():
    """PostgreSQL: the action's statement starts (and takes its snapshot) while the offer
    is being made, waits for the game's row, and bumps the version once the offer is
    committed; the offer's lapse is stored with the action all the same."""
    async with postgres_database() as url:
        store = await PostgresStore.open(url, busy_timeout=HANG_GUARD)
        side = await asyncpg.connect(url)
        try:
            game_id = await running(store)
            version = (await game(store, game_id)).version
            held = side.transaction()  # holds the offer's lane, so the offer waits half way
            await held.start()
            await side.execute("SELECT pg_advisory_xact_lock($1, $2)", _LANE_LOCKS,
                               _lane_key(ASKED.lane))  # fmt: skip
            offering = asyncio.create_task(offer_draw(store, game_id, version))
            await sessions_waiting_for_locks(url, 1)
            acting = asyncio.create_task(
                store.append_action(
                    game_id, version, seat=1, action="roll", events=[], now=NOW,
                    notices=[TOLD],
                )
            )  # fmt: skip
            await sessions_waiting_for_locks(url, 2)
            await held.commit()
            await asyncio.wait_for(offering, HANG_GUARD)
            assert await asyncio.wait_for(acting, HANG_GUARD) == version + 1
            assert await bodies(store) == [ASKED.body, lapse_at(version), TOLD.body]
        finally:
            await side.close()
            await store.close()
