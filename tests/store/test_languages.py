"""The language each reader reads, as the store keeps it: a user's chosen locale and the
Discord locale last seen from them, a server's settings read at once, and the server of each
waiting notice's game, on every store in ``STORES``."""

from __future__ import annotations

from bot.store import Outgoing, Store
from tests.store.test_contract import ALICE, BOB, GUILD, NOW, OTHER_GUILD, new_game


async def test_a_users_language_is_unknown_until_set(store: Store):
    assert await store.language(ALICE) == (None, None)
    await store.set_dm_closed(ALICE, True)  # a user known for another fact
    assert await store.language(ALICE) == (None, None)


async def test_the_chosen_and_the_seen_language_are_set_apart_or_together(store: Store):
    await store.set_language(ALICE, seen="fr")
    assert await store.language(ALICE) == (None, "fr")
    await store.set_language(ALICE, chosen="de")
    assert await store.language(ALICE) == ("de", "fr"), "the seen locale stays"
    await store.set_language(ALICE, seen="es-419")
    assert await store.language(ALICE) == ("de", "es-419"), "the choice stays"
    await store.set_language(ALICE, chosen=None, seen="pt-BR")
    assert await store.language(ALICE) == (None, "pt-BR")
    await store.set_language(ALICE)  # nothing given: nothing changes
    assert await store.language(ALICE) == (None, "pt-BR")
    assert await store.language(BOB) == (None, None)


async def test_a_users_language_leaves_their_other_facts_as_they_are(store: Store):
    await store.set_notify_choice(ALICE, "none")
    await store.set_dm_closed(ALICE, True)
    await store.set_away(ALICE, NOW + 60)
    await store.set_language(ALICE, chosen="fr", seen="de")
    assert await store.notify_choice(ALICE) == "none"
    assert await store.dm_closed(ALICE) is True
    assert await store.away_until(ALICE) == NOW + 60
    await store.set_notify_choice(ALICE, "reminders")
    assert await store.language(ALICE) == ("fr", "de")


async def test_languages_are_kept_across_reopening(store: Store, open_store):
    await store.set_language(ALICE, chosen="es", seen="fr")
    await store.set_guild_setting(GUILD, "language", "de")
    await store.close()
    reopened = await open_store()
    assert await reopened.language(ALICE) == ("es", "fr")
    assert await reopened.guild_setting(GUILD, "language") == "de"


async def test_a_servers_settings_are_read_at_once_by_key(store: Store):
    assert await store.guild_settings(GUILD) == {}
    await store.set_guild_setting(GUILD, "language", "de")
    await store.set_guild_setting(GUILD, "guild_locale", "fr")
    await store.set_guild_setting(OTHER_GUILD, "language", "es")
    await store.set_guild_setting(GUILD, "language", "pt-BR")
    assert await store.guild_settings(GUILD) == {"language": "pt-BR", "guild_locale": "fr"}
    assert await store.guild_settings(OTHER_GUILD) == {"language": "es"}


async def test_a_waiting_notice_carries_its_games_server(store: Store):
    here = await new_game(store)
    there = await new_game(store, guild_id=OTHER_GUILD, channel_id=200)
    await store.enqueue(here, [Outgoing("u2", {"n": 1})], now=NOW)
    await store.enqueue(there, [Outgoing("u2", {"n": 2})], now=NOW)
    pending = await store.pending_notices()
    assert [(e.body["n"], e.guild_id) for e in pending] == [(1, GUILD), (2, OTHER_GUILD)]
    taken = await store.take_lane("u2", "a", now=NOW, lease_seconds=60)
    assert taken is not None
    assert [e.guild_id for e in taken] == [GUILD, OTHER_GUILD]
