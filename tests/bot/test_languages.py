"""Which language each reader reads (``bot.service.community.languages``), and the outbox
writing each delivery for its reader: a DM in its reader's language, what a channel shows
in its server's. Against every store in ``STORES``; no frontend."""

from __future__ import annotations

import random

import pytest

from bot.service.admission import Admission, Busy
from bot.service.community.languages import CACHE_SECONDS, Languages
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, PrivateMessage, StatusUpdate
from tests.bot.clicks import others_clicking
from tests.bot.test_host import ALICE, BOB, GUILD, started
from tests.toy_game import toy_renderer

CAROL = 103
OTHER_GUILD = 2


class Counting:
    """The store, counting the reads that decide a language."""

    def __init__(self, store):
        self.store = store
        self.reads = 0

    def __getattr__(self, name):
        return getattr(self.store, name)

    async def language(self, user_id):
        self.reads += 1
        return await self.store.language(user_id)

    async def guild_settings(self, guild_id):
        self.reads += 1
        return await self.store.guild_settings(guild_id)


@pytest.fixture
def languages(store, clock):
    return Languages(Counting(store), clock)


class Discord:
    """A fake sender: keeps every delivery as it arrives."""

    def __init__(self):
        self.deliveries = []

    async def __call__(self, delivery):
        self.deliveries.append(delivery)
        return 1000 + len(self.deliveries)


# -- a reader's language ---------------------------------------------------------------


async def test_a_reader_nobody_knows_anything_of_reads_english(languages):
    assert await languages.reader(ALICE) == "en"
    assert await languages.reader(ALICE, guild_id=GUILD) == "en"


async def test_a_reader_reads_their_choice_over_discord_and_the_server(languages):
    await languages.set_server(GUILD, ALICE, "de", is_admin=True)
    assert await languages.reader(BOB, guild_id=GUILD) == "de", "the server's language"
    assert await languages.reader(BOB, seen="es-ES", guild_id=GUILD) == "es", "Discord's"
    await languages.choose(BOB, "pt-BR")
    assert await languages.reader(BOB, seen="es-ES", guild_id=GUILD) == "pt-BR"
    assert await languages.reader(BOB, seen="fr", guild_id=OTHER_GUILD) == "pt-BR"


async def test_the_discord_locale_seen_now_wins_over_the_one_remembered(languages):
    assert await languages.reader(ALICE, seen="fr") == "fr"
    assert await languages.reader(ALICE) == "fr", "remembered"
    assert await languages.reader(ALICE, seen="es-419") == "es", "the client changed"
    assert await languages.reader(ALICE, guild_id=GUILD) == "es"


async def test_a_discord_locale_without_a_shipped_language_falls_through(languages):
    await languages.set_server(GUILD, ALICE, "de", is_admin=True)
    assert await languages.reader(BOB, seen="ja", guild_id=GUILD) == "de", "the server's"
    assert await languages.reader(BOB, seen="fr", guild_id=GUILD) == "fr"
    assert await languages.reader(BOB, seen="ja", guild_id=GUILD) == "fr", "the one remembered"
    assert await languages.reader(CAROL, seen="ko") == "en"


async def test_the_seen_locale_is_remembered_for_a_later_dm_by_another_process(store):
    assert await Languages(store).reader(BOB, seen="fr") == "fr"
    later = Languages(store)  # a host started afterwards, knowing nothing in memory
    assert await later.reader(BOB, guild_id=GUILD) == "fr"


async def test_following_discord_again_after_a_choice(languages):
    await languages.reader(ALICE, seen="de")
    await languages.choose(ALICE, "es")
    assert await languages.reader(ALICE) == "es"
    answer = await languages.choose(ALICE, None)
    assert "language of your Discord" in answer.plain()
    assert await languages.reader(ALICE) == "de"
    assert await languages.reader(ALICE, seen="fr") == "fr"


async def test_the_answer_to_a_choice_names_the_language_in_its_own_words(languages):
    answer = await languages.choose(ALICE, "fr")
    assert answer.plain() == "I'll write to you in Français from now on."
    assert answer.render(str, "en-XA") != answer.plain(), "a message of the catalog"


# -- a server's language ---------------------------------------------------------------


async def test_a_servers_language_is_its_choice_else_its_discord_locale_else_english(languages):
    assert await languages.server(GUILD) == "en"
    assert await languages.server(None, seen="de") == "en", "a DM is no server's"
    assert await languages.server(GUILD, seen="de") == "de"
    assert await languages.server(GUILD) == "de", "remembered"
    assert await languages.server(GUILD, seen="ja") == "de", "none shipped: the one remembered"
    answer = await languages.set_server(GUILD, ALICE, "fr", is_admin=True)
    assert answer.plain() == "This server's games are written in Français from now on."
    assert await languages.server(GUILD, seen="de") == "fr"
    assert await languages.server(OTHER_GUILD) == "en"
    await languages.set_server(GUILD, ALICE, None, is_admin=True)
    assert await languages.server(GUILD) == "de", "its Discord locale again"


async def test_only_a_server_admin_sets_the_servers_language(languages):
    with pytest.raises(UserError, match="Only members with Manage Server"):
        await languages.set_server(GUILD, BOB, "de", is_admin=False)
    assert await languages.server(GUILD) == "en", "nothing changed"
    with pytest.raises(UserError, match="in one of its channels"):
        await languages.set_server(None, BOB, "de", is_admin=True)
    await languages.set_server(GUILD, ALICE, "de", is_admin=True)
    assert await languages.server(GUILD) == "de"


# -- reads and what is kept in memory --------------------------------------------------


async def test_a_language_is_read_once_and_kept_a_while(languages, clock):
    store = languages._store
    for _ in range(5):
        assert await languages.reader(ALICE, seen="fr", guild_id=GUILD) == "fr"
        assert await languages.server(GUILD, seen="de") == "de"
    assert store.reads == 2, "one read of the user's facts and one of the server's"
    clock.now += CACHE_SECONDS + 1
    await languages.reader(ALICE, guild_id=GUILD)
    assert store.reads == 3, "read again once kept long enough"


async def test_this_process_sees_its_own_writes_at_once(languages):
    assert await languages.reader(ALICE, guild_id=GUILD) == "en"
    await languages.choose(ALICE, "de")
    assert await languages.reader(ALICE, guild_id=GUILD) == "de"
    assert await languages.server(GUILD) == "en"
    await languages.set_server(GUILD, ALICE, "es", is_admin=True)
    assert await languages.server(GUILD) == "es"
    assert await languages.reader(BOB, guild_id=GUILD) == "es"


async def test_another_processs_change_is_seen_once_what_was_kept_is_old(store, clock):
    here, there = Languages(store, clock), Languages(store, clock)
    assert await here.reader(ALICE) == "en"
    await there.choose(ALICE, "fr")
    assert await here.reader(ALICE) == "en", "kept in memory a while"
    clock.now += CACHE_SECONDS
    assert await here.reader(ALICE) == "fr"


# -- through the host ------------------------------------------------------------------


async def test_a_french_player_on_a_german_server_reads_dms_in_french_the_channel_in_german(
    store, toy, clock
):
    host = GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))
    assert await host.languages.server(GUILD, seen="de") == "de"  # an interaction there
    assert await host.languages.reader(BOB, seen="fr", guild_id=GUILD) == "fr"  # Bob's client
    discord = Discord()
    outbox = host.new_outbox(discord)
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 3")
    assert await outbox.flush()

    def locales(kind, user=None):
        return {
            d.locale for d in discord.deliveries
            if isinstance(d.notice, kind) and getattr(d.notice, "user_id", user) == user
        }  # fmt: skip

    assert locales(PrivateMessage, BOB) == {"fr"}, "Bob's DMs, with no interaction to tell"
    assert locales(PrivateMessage, ALICE) == {"de"}, "Alice reads the server's language"
    assert locales(ChannelPost) == {"de"}
    assert locales(StatusUpdate) == {"de"}


async def test_choosing_languages_are_doors_of_the_hosts_admission(store, clock):
    host = GameHost(store, clock=clock, admission=Admission(limit=1, floor=1))
    async with others_clicking(host.admission, host.admission.limit):
        with pytest.raises(Busy):
            await host.languages.choose(ALICE, "de")
        with pytest.raises(Busy):
            await host.languages.set_server(GUILD, ALICE, "de", is_admin=True)
        assert await host.languages.reader(ALICE) == "en", "deciding is no click"
    assert host.admission.refused == 2
    await host.languages.choose(ALICE, "de")
    assert await host.languages.reader(ALICE) == "de"
