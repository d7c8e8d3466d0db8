"""Web page tokens (``create_game(page=...)``, ``game_by_page``, ``set_page``,
``clear_pages``) and ``versions``: a token finds its game until it is replaced or cleared,
and none of these changes a version.

Each test runs against every store in ``conftest.STORES``.
"""

from __future__ import annotations

from tests.store.test_contract import GUILD, game, new_game


async def test_a_page_token_finds_its_game_and_an_unknown_one_finds_nothing(store):
    game_id = await new_game(store, page="tok-one")
    other = await new_game(store, page="tok-two")
    found = await store.game_by_page("tok-one")
    assert found is not None and found.id == game_id and found.page == "tok-one"
    assert (await store.game_by_page("tok-two")).id == other
    assert await store.game_by_page("tok-none") is None
    assert (await game(store, game_id)).page == "tok-one"


async def test_a_new_token_replaces_the_old_one_without_a_new_version(store):
    game_id = await new_game(store, page="old")
    version = (await game(store, game_id)).version
    assert await store.set_page(game_id, "new")
    assert await store.game_by_page("old") is None
    assert (await store.game_by_page("new")).id == game_id
    assert (await game(store, game_id)).version == version
    assert not await store.set_page(game_id + 1000, "stray")


async def test_clearing_a_server_s_pages_leaves_other_servers_pages(store):
    here = await new_game(store, page="here")
    there = await new_game(store, page="there", guild_id=GUILD + 1)
    assert await store.clear_pages(GUILD) == 1
    assert await store.game_by_page("here") is None
    assert (await game(store, here)).page is None
    assert (await store.game_by_page("there")).id == there
    assert await store.clear_pages(GUILD) == 0


async def test_versions_are_read_for_the_games_that_exist(store):
    first = await new_game(store)
    second = await new_game(store)
    versions = await store.versions([first, second, second + 50])
    assert versions == {
        first: (await game(store, first)).version,
        second: (await game(store, second)).version,
    }
    assert await store.versions([]) == {}
