"""Claims with leases, for several processes sharing one database: due games
(``claim_due``/``release_game``) and outbox lanes (``claim_lane``/``release_lane``).

Each test runs against every store in ``conftest.STORES``; "two processes" are two stores
opened on the same database.
"""

from __future__ import annotations

import asyncio

from tests.store.test_contract import NOW, game, running

LEASE = 30.0


async def test_a_claim_takes_the_due_games_with_their_seats_and_changes_no_version(store):
    late = await running(store, deadline=NOW - 5)
    reminded = await running(store, remind_at=NOW - 1, deadline=NOW + 100)
    await running(store, deadline=NOW + 10)  # not due yet
    versions = {g: (await game(store, g)).version for g in (late, reminded)}
    claimed = await store.claim_due(NOW, "a", LEASE, 100)
    assert [g.id for g in claimed] == [late, reminded]
    assert all(len(g.seats) == 2 for g in claimed)
    assert {g: (await game(store, g)).version for g in (late, reminded)} == versions
    assert [g.id for g in await store.due(NOW)] == [late, reminded]  # still due


async def test_a_claim_holds_at_most_its_limit_earliest_first(store):
    games = [await running(store, deadline=NOW - 10 + i) for i in range(4)]
    assert [g.id for g in await store.claim_due(NOW, "a", LEASE, 2)] == games[:2]
    assert [g.id for g in await store.claim_due(NOW, "b", LEASE, 2)] == games[2:]


async def test_a_game_claimed_by_one_owner_is_not_claimed_by_another(store):
    games = [await running(store, deadline=NOW - 1) for _ in range(3)]
    assert [g.id for g in await store.claim_due(NOW, "a", LEASE, 100)] == games
    assert await store.claim_due(NOW + 1, "b", LEASE, 100) == []
    # its own owner claims it again (renewing the lease)
    assert [g.id for g in await store.claim_due(NOW + 1, "a", LEASE, 100)] == games


async def test_two_owners_claiming_at_once_get_disjoint_sets(open_store):
    first, second = await open_store(), await open_store()
    games = {await running(first, deadline=NOW - 1) for _ in range(12)}
    for _ in range(5):
        rounds = await asyncio.gather(
            *(
                store.claim_due(NOW, owner, LEASE, 100)
                for store, owner in ((first, "a"), (second, "b"), (first, "c"), (second, "d"))
            )
        )
        ids = [[g.id for g in claimed] for claimed in rounds]
        flat = [i for claimed in ids for i in claimed]
        assert len(flat) == len(set(flat)) == len(games), ids
        assert set(flat) == games
        for owner, claimed in zip("abcd", ids, strict=True):
            for game_id in claimed:
                await first.release_game(game_id, owner)


async def test_an_expired_claim_is_taken_over(store):
    game_id = await running(store, deadline=NOW - 1)
    assert [g.id for g in await store.claim_due(NOW, "a", 10, 100)] == [game_id]
    assert await store.claim_due(NOW + 9, "b", 10, 100) == []
    assert [g.id for g in await store.claim_due(NOW + 10, "b", 10, 100)] == [game_id]
    assert await store.claim_due(NOW + 11, "a", 10, 100) == []  # b holds it now


async def test_a_released_game_can_be_claimed_at_once_by_another(store):
    game_id = await running(store, deadline=NOW - 1)
    await store.claim_due(NOW, "a", LEASE, 100)
    await store.release_game(game_id, "b")  # not b's: nothing changes
    assert await store.claim_due(NOW, "b", LEASE, 100) == []
    await store.release_game(game_id, "a")
    assert [g.id for g in await store.claim_due(NOW, "b", LEASE, 100)] == [game_id]
    await store.release_game(game_id, "a")  # a's claim is gone: b keeps it
    assert await store.claim_due(NOW, "c", LEASE, 100) == []


async def test_releasing_a_game_nobody_holds_does_nothing(store):
    game_id = await running(store, deadline=NOW - 1)
    await store.release_game(game_id, "a")
    await store.release_game(game_id + 1000, "a")
    assert [g.id for g in await store.claim_due(NOW, "a", LEASE, 100)] == [game_id]


async def test_only_due_running_games_are_claimed(store):
    await running(store, deadline=NOW + 1)
    paused = await running(store, deadline=NOW - 1)
    await store.update_game(paused, (await game(store, paused)).version, now=NOW, status="paused")
    assert await store.claim_due(NOW, "a", LEASE, 100) == []


async def test_a_lane_is_claimed_by_one_owner_at_a_time(store):
    assert await store.claim_lane("c100", "a", NOW, LEASE)
    assert not await store.claim_lane("c100", "b", NOW + 1, LEASE)
    assert await store.claim_lane("c100", "a", NOW + 1, LEASE)  # renewed
    assert await store.claim_lane("c101", "b", NOW + 1, LEASE)  # lanes are independent
    assert not await store.claim_lane("c100", "b", NOW + LEASE, LEASE)  # renewal counted
    assert await store.claim_lane("c100", "b", NOW + 1 + LEASE, LEASE)  # expired: taken over
    assert not await store.claim_lane("c100", "a", NOW + 2 + LEASE, LEASE)


async def test_a_released_lane_can_be_claimed_at_once_by_another(store):
    assert await store.claim_lane("u1", "a", NOW, LEASE)
    await store.release_lane("u1", "b")  # not b's: nothing changes
    assert not await store.claim_lane("u1", "b", NOW, LEASE)
    await store.release_lane("u1", "a")
    assert await store.claim_lane("u1", "b", NOW, LEASE)
    await store.release_lane("u1", "a")  # a's claim is gone: b keeps it
    assert not await store.claim_lane("u1", "c", NOW, LEASE)
    await store.release_lane("u2", "a")  # nobody's: nothing happens


async def test_owners_claiming_one_lane_at_once_get_it_once(open_store):
    first, second = await open_store(), await open_store()
    for i in range(5):
        lane = f"c{i}"
        won = await asyncio.gather(
            *(
                store.claim_lane(lane, owner, NOW, LEASE)
                for store, owner in ((first, "a"), (second, "b"), (first, "c"), (second, "d"))
            )
        )
        assert sum(won) == 1, won
