"""Offers waiting for answers (``make_offer``, ``offer``, ``accept_offer``, ``drop_offer``):
one per game, counted only while the game is at the version it was made at, each answer
stored once with its notices, and no version bumped by any of them.

Each test runs against every store in ``conftest.STORES``.
"""

from __future__ import annotations

from bot.store import Outgoing
from tests.store.test_contract import ALICE, BOB, CAROL, NOW, game, play, running

ASKED = Outgoing("c100", {"kind": "post", "text": ["Alice offers a draw"]})
ANSWERED = Outgoing("c100", {"kind": "post", "text": ["Bob accepts"]})


async def offer_draw(store, game_id: int, **given) -> bool:
    version = given.pop("version", (await game(store, game_id)).version)
    return await store.make_offer(
        game_id, version, kind=given.pop("kind", "draw"), seat=0, user_id=ALICE, now=NOW,
        notices=given.pop("notices", [ASKED]),
    )  # fmt: skip


async def bodies(store) -> list:
    return [e.body for e in await store.pending_notices()]


async def test_an_offer_is_stored_with_its_notices_and_bumps_no_version(store):
    game_id = await running(store)
    version = (await game(store, game_id)).version
    assert await offer_draw(store, game_id)
    offer = await store.offer(game_id)
    assert offer is not None
    assert (offer.game_id, offer.version, offer.kind, offer.seat, offer.user_id) == (
        game_id, version, "draw", 0, ALICE,
    )  # fmt: skip
    assert offer.accepted == () and offer.created_at == NOW
    assert (await game(store, game_id)).version == version
    assert await bodies(store) == [ASKED.body]


async def test_a_second_offer_at_the_same_version_stores_nothing(store):
    game_id = await running(store)
    assert await offer_draw(store, game_id)
    assert not await offer_draw(store, game_id, kind="takeback")  # a double click, or a rival
    assert (await store.offer(game_id)).kind == "draw"
    assert await bodies(store) == [ASKED.body]


async def test_an_offer_at_an_old_version_or_for_no_game_is_refused(store):
    game_id = await running(store)
    version = (await game(store, game_id)).version
    assert not await offer_draw(store, game_id, version=version - 1)
    assert not await store.make_offer(
        game_id + 99, 0, kind="draw", seat=0, user_id=ALICE, now=NOW, notices=[ASKED]
    )
    assert await store.offer(game_id) is None
    assert await bodies(store) == []


async def test_an_offer_lapses_when_the_game_moves_on_and_a_new_one_replaces_it(store):
    game_id = await running(store)
    assert await offer_draw(store, game_id)
    old = (await game(store, game_id)).version
    await play(store, game_id, 1, "roll")
    assert await store.offer(game_id) is None
    assert not await store.accept_offer(game_id, old, BOB, now=NOW, notices=[ANSWERED])
    assert not await store.drop_offer(game_id, old, now=NOW, notices=[ANSWERED])
    assert await offer_draw(store, game_id, kind="takeback")
    offer = await store.offer(game_id)
    assert offer.kind == "takeback" and offer.version == old + 1 and offer.accepted == ()
    assert await bodies(store) == [ASKED.body, ASKED.body]


async def test_each_acceptance_counts_once_with_its_notices(store):
    game_id = await running(store)
    version = (await game(store, game_id)).version
    await offer_draw(store, game_id, notices=[])
    assert await store.accept_offer(game_id, version, BOB, now=NOW, notices=[ANSWERED])
    assert not await store.accept_offer(game_id, version, BOB, now=NOW, notices=[ANSWERED])
    assert await store.accept_offer(game_id, version, CAROL, now=NOW)
    assert (await store.offer(game_id)).accepted == (BOB, CAROL)
    assert (await game(store, game_id)).version == version
    assert await bodies(store) == [ANSWERED.body]


async def test_a_declined_offer_is_gone_once(store):
    game_id = await running(store)
    version = (await game(store, game_id)).version
    await offer_draw(store, game_id, notices=[])
    assert await store.drop_offer(game_id, version, now=NOW, notices=[ANSWERED])
    assert not await store.drop_offer(game_id, version, now=NOW, notices=[ANSWERED])
    assert not await store.accept_offer(game_id, version, BOB, now=NOW)
    assert await store.offer(game_id) is None
    assert await bodies(store) == [ANSWERED.body]
    assert await offer_draw(store, game_id, notices=[])  # asking again is allowed


async def test_an_offer_survives_reopening_the_store(open_store):
    store = await open_store()
    game_id = await running(store)
    await offer_draw(store, game_id)
    await store.close()
    offer = await (await open_store()).offer(game_id)
    assert offer is not None and offer.kind == "draw" and offer.user_id == ALICE


async def test_a_game_is_read_with_the_offer_waiting_in_it_until_any_write_moves_it_on(store):
    game_id = await running(store)
    assert (await game(store, game_id)).offer is None
    version = (await game(store, game_id)).version
    await offer_draw(store, game_id)
    await store.accept_offer(game_id, version, BOB, now=NOW)
    offer = await store.offer(game_id)
    for read in (
        await game(store, game_id),
        (await store.games(user_id=ALICE))[0],
        (await store.games(channel_id=(await game(store, game_id)).channel_id))[0],
    ):
        assert read.offer == offer
        assert (read.offer.kind, read.offer.version, read.offer.accepted) == (
            "draw", version, (BOB,),
        )  # fmt: skip
    await store.update_game(game_id, version, now=NOW, status="paused")  # not an action
    assert (await game(store, game_id)).offer is None
    assert (await store.games(user_id=ALICE))[0].offer is None


async def test_a_due_game_is_claimed_with_the_offer_waiting_in_it(store):
    game_id = await running(store, deadline=NOW - 1)
    await offer_draw(store, game_id)
    (due,) = await store.due(NOW)
    (claimed,) = await store.claim_due(NOW, "owner", 60.0)
    assert due.offer == claimed.offer == await store.offer(game_id) is not None
