"""The store keeps each server's corrected data files and the corrections each game was
opened with, on every store in ``STORES``."""

from __future__ import annotations

from bot.store import Store
from tests.store.test_contract import NOW, game, new_game

GUILD, OTHER = 7, 8
ALICE, BOB = 1, 2


async def test_a_servers_files_are_kept_replaced_by_a_new_upload_and_listed_in_order(
    store: Store,
):
    await store.set_guild_data(GUILD, "stgeorge", "board", {"spokes": 14}, user_id=ALICE, now=NOW)
    await store.set_guild_data(GUILD, "dragons_cave", "path", {"coins": []}, user_id=ALICE, now=NOW)
    await store.set_guild_data(
        GUILD, "stgeorge", "board", {"lair_colour": "blue"}, user_id=BOB, now=NOW + 5
    )
    rows = await store.guild_data(GUILD)
    assert [(r.package, r.name) for r in rows] == [("dragons_cave", "path"), ("stgeorge", "board")]
    board = rows[1]
    assert (board.content, board.user_id, board.uploaded_at) == (
        {"lair_colour": "blue"},
        BOB,
        NOW + 5,
    )
    assert await store.guild_data(OTHER) == []


async def test_clearing_removes_one_packages_files_or_all_and_says_how_many(store: Store):
    for package, name in [
        ("stgeorge", "board"),
        ("dragonslayer", "tiles"),
        ("dragonslayer", "battle"),
    ]:
        await store.set_guild_data(GUILD, package, name, {"x": 1}, user_id=ALICE, now=NOW)
    await store.set_guild_data(OTHER, "dragonslayer", "tiles", {"x": 2}, user_id=ALICE, now=NOW)
    assert await store.clear_guild_data(GUILD, "dragonslayer") == 2
    assert await store.clear_guild_data(GUILD, "dragonslayer") == 0
    assert [r.package for r in await store.guild_data(GUILD)] == ["stgeorge"]
    assert await store.clear_guild_data(GUILD) == 1
    assert await store.guild_data(GUILD) == []
    assert len(await store.guild_data(OTHER)) == 1


async def test_a_game_keeps_the_data_it_was_opened_with_across_writes_and_reopening(
    store: Store, open_store
):
    corrected = {"stgeorge": {"board": {"lair_colour": "blue", "rings": [1, 2]}}}
    with_data = await new_game(store, data=corrected)
    plain = await new_game(store)
    await store.update_game(with_data, 0, now=NOW + 1, status="running")
    assert (await game(store, with_data)).data == corrected
    assert (await game(store, plain)).data == {}
    reopened = await open_store()
    assert (await game(reopened, with_data)).data == corrected
    listed = {
        g.id: g.data for g in await reopened.games(guild_id=(await game(store, plain)).guild_id)
    }
    assert listed == {with_data: corrected, plain: {}}
