"""The store's outbox: notices stored with the write they tell about, sent once, in order.

Each test runs against every store in ``conftest.STORES``.
"""

from __future__ import annotations

import pytest

from bot.store import NewSeat, Outgoing, StaleVersion
from tests.store.test_contract import ALICE, NOW, game, new_game, seat

POST = Outgoing("c100", {"kind": "post", "text": ["the board"]})
DM = Outgoing("u2", {"kind": "private", "text": ["your hand"]})


async def test_notices_are_stored_with_the_action_that_tells_them(store):
    game_id = await new_game(store)
    await seat(store, game_id, 0, ALICE)
    version = (await game(store, game_id)).version
    await store.append_action(
        game_id, version, seat=0, action="roll", events=[], now=NOW, notices=[POST, DM]
    )
    pending = await store.pending_notices()
    assert [(e.lane, e.body) for e in pending] == [(POST.lane, POST.body), (DM.lane, DM.body)]
    assert all(e.game_id == game_id and e.attempts == 0 for e in pending)
    assert pending[0].id < pending[1].id


async def test_a_stale_write_stores_none_of_its_notices(store):
    game_id = await new_game(store)
    with pytest.raises(StaleVersion):
        await store.append_action(
            game_id, 7, seat=0, action="roll", events=[], now=NOW, notices=[POST]
        )
    with pytest.raises(StaleVersion):
        await store.update_game(game_id, 7, now=NOW, notices=[POST], status="running")
    assert await store.pending_notices() == []


@pytest.mark.parametrize("write", ["add_seat", "mark_left", "remove_seats", "update_game"])
async def test_every_versioned_write_stores_its_notices(store, write):
    game_id = await new_game(store)
    version = (await game(store, game_id)).version
    calls = {
        "add_seat": lambda: store.add_seat(
            game_id, version, seat=0, role="r", user_id=ALICE, name="alice", now=NOW,
            notices=[POST],
        ),
        "mark_left": lambda: store.mark_left(
            game_id, version, user_id=ALICE, now=NOW, notices=[POST]
        ),
        "remove_seats": lambda: store.remove_seats(
            game_id, version, user_id=ALICE, now=NOW, notices=[POST]
        ),
        "update_game": lambda: store.update_game(game_id, version, now=NOW, notices=[POST]),
    }  # fmt: skip
    await calls[write]()
    assert [e.body for e in await store.pending_notices()] == [POST.body]


async def test_a_game_opens_with_its_host_seated_and_its_notices_naming_it(store):
    game_id = await new_game(
        store,
        seats=[NewSeat(0, "dragon", ALICE, "alice")],
        notices=lambda new_id: [Outgoing("c100", {"game": new_id})],
    )
    record = await game(store, game_id)
    assert [(s.seat, s.user_id) for s in record.seats] == [(0, ALICE)]
    assert record.version == 1, "the host's seat counts as one write"
    assert [e.body for e in await store.pending_notices()] == [{"game": game_id}]


async def test_a_sent_notice_is_marked_once_and_never_pending_again(store):
    game_id = await new_game(store)
    await store.enqueue(game_id, [POST, DM], now=NOW)
    first, second = await store.pending_notices()
    assert await store.mark_sent(first.id, now=NOW, message_id=555)
    assert not await store.mark_sent(first.id, now=NOW), "a second sender learns it was sent"
    assert [e.id for e in await store.pending_notices()] == [second.id]


async def test_pending_notices_of_chosen_lanes_in_order(store):
    game_id = await new_game(store)
    await store.enqueue(game_id, [POST, DM, Outgoing("c100", {"n": 2})], now=NOW)
    channel = await store.pending_notices(lanes=["c100"])
    assert [e.body for e in channel] == [POST.body, {"n": 2}]
    assert await store.pending_notices(lanes=[]) == []
    assert len(await store.pending_notices(limit=1)) == 1


async def test_a_notice_held_back_keeps_its_place_with_its_attempts(store):
    game_id = await new_game(store)
    await store.enqueue(game_id, [POST], now=NOW)
    (entry,) = await store.pending_notices()
    assert await store.retry_later(entry.id, not_before=NOW + 5) == 1
    assert await store.retry_later(entry.id, not_before=NOW + 15) == 2
    (again,) = await store.pending_notices()
    assert (again.id, again.attempts, again.not_before) == (entry.id, 2, NOW + 15)


async def test_a_notice_given_up_on_is_never_pending_nor_sent(store):
    game_id = await new_game(store)
    await store.enqueue(game_id, [POST], now=NOW)
    (entry,) = await store.pending_notices()
    await store.give_up(entry.id, reason="channel gone")
    assert await store.pending_notices() == []
    assert not await store.mark_sent(entry.id, now=NOW)


async def test_a_reminder_taken_twice_stores_its_notices_once(store):
    game_id = await new_game(store)
    version = (await game(store, game_id)).version
    await store.update_game(game_id, version, now=NOW, status="running", remind_at=NOW + 10)
    assert await store.take_reminder(game_id, NOW + 10, now=NOW, notices=[DM])
    assert not await store.take_reminder(game_id, NOW + 10, now=NOW, notices=[DM])
    assert [e.body for e in await store.pending_notices()] == [DM.body]


async def test_stored_notices_survive_closing_and_reopening(open_store):
    store = await open_store()
    game_id = await new_game(store)
    await store.enqueue(game_id, [POST], now=NOW)
    await store.close()
    store = await open_store()
    assert [e.body for e in await store.pending_notices()] == [POST.body]


async def test_a_sent_notice_remembers_the_message_it_became(store):
    game_id = await new_game(store)
    await store.enqueue(game_id, [POST, POST], now=NOW)
    first, second = await store.pending_notices()
    assert await store.mark_sent(first.id, now=NOW, message_id=555, remember="board")
    assert (await game(store, game_id)).board_message_id == 555
    (left,) = await store.pending_notices()
    assert (left.board_message_id, left.status_message_id) == (555, None)
    assert not await store.mark_sent(first.id, now=NOW, message_id=777, remember="board")
    assert (await game(store, game_id)).board_message_id == 555, "only the one who marked it"
    with pytest.raises(ValueError):
        await store.mark_sent(second.id, now=NOW, message_id=1, remember="thread")


async def test_taking_a_lane_claims_it_and_reads_only_its_notices(store):
    game_id = await new_game(store)
    await store.set_message(game_id, "status", 42)
    await store.enqueue(game_id, [POST, DM, Outgoing("c100", {"n": 2})], now=NOW)
    taken = await store.take_lane("c100", "a", now=NOW, lease_seconds=60)
    assert [e.body for e in taken] == [POST.body, {"n": 2}]
    assert all(e.status_message_id == 42 for e in taken)
    assert await store.take_lane("c100", "b", now=NOW + 1, lease_seconds=60) is None
    assert not await store.claim_lane("c100", "b", NOW + 1, 60), "a holds it"
    assert await store.take_lane("c100", "a", now=NOW + 1, lease_seconds=60) is not None
    assert await store.take_lane("c999", "b", now=NOW, lease_seconds=60) == []
    assert not await store.claim_lane("c999", "a", NOW, 60), "an empty lane is claimed too"


async def test_recent_notices_are_a_games_newest_in_a_lane_sent_or_not(store):
    game_id = await new_game(store)
    other = await new_game(store)
    first = Outgoing("c100", {"kind": "post", "text": ["turn 1"]})
    second = Outgoing("c100", {"kind": "post", "text": ["turn 1, rolled"]})
    await store.enqueue(game_id, [first, DM], now=NOW)
    await store.enqueue(other, [Outgoing("c100", {"kind": "post", "text": ["elsewhere"]})], now=NOW)
    sent = (await store.pending_notices())[0]
    await store.mark_sent(sent.id, now=NOW, message_id=9)
    await store.enqueue(game_id, [second], now=NOW)
    assert await store.recent_notices(game_id, "c100") == [second.body, first.body]
    assert await store.recent_notices(game_id, "c100", limit=1) == [second.body]
    assert await store.recent_notices(game_id, "u2") == [DM.body]
    assert await store.recent_notices(game_id, "c555") == []


async def test_a_send_and_the_notices_it_folded_are_recorded_in_one_write(store):
    game_id = await new_game(store)
    await store.enqueue(game_id, [POST, POST, POST, DM], now=NOW)
    first, second, third, dm = await store.pending_notices()
    marked = await store.mark_sent(
        third.id, now=NOW, message_id=555, remember="board", covers=[first.id, second.id]
    )
    assert marked and [e.id for e in await store.pending_notices()] == [dm.id]
    assert (await game(store, game_id)).board_message_id == 555
    again = await store.mark_sent(third.id, now=NOW, message_id=1, covers=[dm.id])
    assert not again and [e.id for e in await store.pending_notices()] == [dm.id], (
        "only the one who marked the send records what it folded"
    )


async def test_what_a_nonce_was_sent_showing_is_kept_until_it_is_sent(store):
    game_id = await new_game(store)
    await store.enqueue(game_id, [POST], now=NOW)
    (entry,) = await store.pending_notices()
    assert entry.shown is None
    await store.note_shown(entry.id, "abc")
    (again,) = await store.take_lane("c100", "a", now=NOW, lease_seconds=60) or []
    assert again.shown == "abc"


async def test_a_call_held_for_quiet_hours_and_the_calls_it_folded_are_recorded_in_one_write(
    store,
):
    game_id = await new_game(store)
    await seat(store, game_id, 0, ALICE)
    version = (await game(store, game_id)).version
    older, newer = (Outgoing("u2", {"kind": "private", "text": [t]}) for t in ("old", "new"))
    await store.append_action(
        game_id, version, seat=0, action="roll", events=[], now=NOW, notices=[older, newer]
    )
    first, second = await store.pending_notices()
    held = await store.hold_call(
        second.id, user_id=ALICE, game_id=game_id, body=second.body, due_at=NOW + 60,
        now=NOW, covers=[first.id],
    )  # fmt: skip
    assert held
    assert await store.pending_notices() == [], "the folded call is told by the held one"
    assert [call.body for call in await store.held_due(NOW + 60)] == [second.body]
