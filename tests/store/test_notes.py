"""Private notes (``set_note``, ``notes``): each user's own, per game, replaced or removed,
gone with the game; no version changes.

Each test runs against every store in ``conftest.STORES``.
"""

from __future__ import annotations

from tests.store.test_contract import ALICE, BOB, NOW, game, new_game


async def test_a_note_is_its_author_s_alone_per_game(store):
    first, second = await new_game(store), await new_game(store)
    version = (await game(store, first)).version
    assert await store.set_note(first, ALICE, "the Dragon bluffs", now=NOW)
    assert await store.set_note(second, ALICE, "watch the left spoke", now=NOW)
    assert await store.set_note(first, BOB, "alice always splits 2-1", now=NOW)
    assert await store.notes(ALICE, [first, second]) == {
        first: "the Dragon bluffs", second: "watch the left spoke",
    }  # fmt: skip
    assert await store.notes(BOB, [first, second]) == {first: "alice always splits 2-1"}
    assert await store.notes(ALICE, []) == {}
    assert (await game(store, first)).version == version


async def test_a_note_is_replaced_removed_and_refused_for_no_game(store):
    game_id = await new_game(store)
    await store.set_note(game_id, ALICE, "first", now=NOW)
    await store.set_note(game_id, ALICE, "second", now=NOW + 1)
    assert await store.notes(ALICE, [game_id]) == {game_id: "second"}
    assert await store.set_note(game_id, ALICE, None, now=NOW + 2)
    assert await store.notes(ALICE, [game_id]) == {}
    assert not await store.set_note(game_id + 99, ALICE, "stray", now=NOW)
    assert await store.notes(ALICE, [game_id + 99]) == {}
