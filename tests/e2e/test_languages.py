"""Every reader in their language: a French player on a German server is answered and
sent DMs in French, while the channel's posts and cards are written once, in German.

Discord tells the bot each interaction's ``locale`` (the user's app) and ``guild_locale``
(the server's); SimCord sends ``en-US`` for both, so ``speaking`` sets them per user and
per server. The shipped catalogs are read through made-up ones where a test needs words
it can recognise: each language's entries tagged with the language (``⟪fr⟫ …``), or the
pseudo-locale ``en-XA``, whose texts are bracketed ``⟦…⟧``.
"""

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from i18n import Locale, catalogs, pseudo
from tests.e2e.conftest import answered, bot_posts, control_labels, text_of, texts
from tests.e2e.languages import channel_lines, made_from_shipped, speak
from tests.e2e.test_stgeorge import play_turn


@pytest.fixture
def speaking(monkeypatch):
    """``{user or server id: Discord locale code}``: what their interactions tell the bot
    (``locale`` for a user, ``guild_locale`` for a server); en-US for anyone not named."""
    return speak(monkeypatch)


def tagged(folder, *locales: Locale) -> None:
    """Catalogs in ``folder`` for ``locales`` holding every message of the shipped ones,
    each translated as its English text tagged with its language: ``⟪de⟫ The game
    begins!``. A line with a tag came through that language's catalog."""
    for locale in locales:
        made_from_shipped(folder, locale, f"⟪{locale}⟫ {{}}".format, keep=False)


def dms(member) -> list[str]:
    channel = member.user.dm_channel
    return [text_of(m) for m in channel.history() if m.author.bot] if channel else []


def private(results) -> list[str]:
    """What the asker alone was shown: the private messages answering ``results``."""
    return [text_of(m) for r in results for m in answered(r) if m.ephemeral and text_of(m)]


@pytest.fixture
def french_and_german(tmp_path):
    tagged(tmp_path, "fr", "de")
    with catalogs.reading(tmp_path):
        yield


async def test_stgeorge_in_french_for_a_french_player_on_a_german_server(
    simcord_env, world, speaking, french_and_german
):
    guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    speaking.update({alice.id: "fr", guild.id: "de"})

    asked = [await alice.slash(channel, "game new", game="stgeorge", players=2, role="knights")]
    asked.append(await alice.slash(channel, "notify", event="turn", how="dm"))
    joined = await bob.slash(channel, "game join", role="dragon")
    asked.append(await alice.slash(channel, "game start"))
    players = {"knights": alice, "dragon": bob}
    for _ in range(8):
        await play_turn(channel, players)
        if any("⟪" in line for line in dms(alice)):
            break

    # Alice reads French: her private answers and her DMs.
    answers = private(asked)
    assert answers and all("⟪fr⟫" in line for line in answers), answers
    assert dms(alice) and all("⟪fr⟫" in line for line in dms(alice)), dms(alice)
    # The channel reads German: every post and card, written once for everyone.
    lines = channel_lines(channel)
    assert any("The game begins!" in line for line in lines)
    assert all("⟪de⟫" in line and "⟪fr⟫" not in line for line in lines), lines
    # Bob's Discord is English, which no catalog translates.
    assert not any("⟪" in line for line in private([joined]))


async def test_a_reader_of_the_pseudo_locale_is_answered_in_it_and_the_channel_is_not(
    simcord_bot, simcord_env, world, speaking
):
    guild, channel, users = world
    carol = users["carol"]
    speaking.update({carol.id: "fr", guild.id: "de"})
    await simcord_bot.host.languages.choose(carol.id, "en-XA")

    made = await carol.slash(channel, "game new", game="stgeorge", players=2, role="knights")

    answers = private([made])
    assert answers and all(pseudo.is_accented(line) for line in answers), answers
    lines = channel_lines(channel)
    assert lines and not any(pseudo.is_accented(line) for line in lines), lines
    # The server's Discord locale came with the interaction, and is remembered.
    assert await simcord_bot.host.languages.server(guild.id) == "de"


async def test_a_server_in_the_pseudo_locale_posts_in_it_and_answers_a_french_reader_not(
    simcord_bot, simcord_env, world, speaking
):
    guild, channel, users = world
    alice = users["alice"]
    speaking.update({alice.id: "fr", guild.id: "de"})
    await simcord_bot.host.languages.set_server(guild.id, alice.id, "en-XA", is_admin=True)

    made = await alice.slash(channel, "game new", game="stgeorge", players=2, role="knights")

    lines = channel_lines(channel)
    assert lines and all(pseudo.is_accented(line) for line in lines), lines
    lobby = bot_posts(channel)[-1]
    assert control_labels(lobby)
    assert all(pseudo.is_accented(label) for label in control_labels(lobby))
    answers = private([made])
    assert answers and not any(pseudo.is_accented(line) for line in answers), answers


async def test_the_language_command_answers_in_the_language_chosen(
    simcord_bot, simcord_env, world, speaking, french_and_german
):
    guild, channel, users = world
    dave = users["dave"]
    speaking.update({dave.id: "de", guild.id: "de"})

    chosen = await dave.slash(channel, "language", language="fr")
    assert texts([chosen]) == ["⟪fr⟫ I'll write to you in Français from now on."]
    assert await simcord_bot.host.languages.reader(dave.id) == "fr"

    back = await dave.slash(channel, "language", language="discord")
    assert texts([back]) == ["⟪de⟫ I'll write to you in the language of your Discord from now on."]
    assert await simcord_bot.host.languages.reader(dave.id) == "de"


async def test_server_defaults_language_sets_the_language_of_the_channel(
    simcord_bot, simcord_env, world, speaking, french_and_german
):
    guild, channel, _ = world
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(simcord_env.create_user("erin"), roles=[admins])
    speaking.update({admin.id: "de", guild.id: "de"})

    set_to = await admin.slash(channel, "server defaults", language="fr")

    # A public answer, read by the whole channel: in the server's language, now French.
    assert any("⟪fr⟫ This server's games are written in Français" in t for t in texts([set_to]))
    assert await simcord_bot.host.languages.server(guild.id) == "fr"


async def test_command_names_and_descriptions_reach_discord_localised(
    simcord_bot, simcord_env, tmp_path
):
    made = Catalog(locale="de")
    made.add("language", "Sprache", context="command")
    made.add("The language I write to you in", "Die Sprache, in der ich dir schreibe")
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    with (tmp_path / "de" / "LC_MESSAGES" / "messages.po").open("wb") as file:
        write_po(file, made)

    with catalogs.reading(tmp_path):
        await simcord_bot.tree.sync()

    synced = simcord_env.backend.find_command("language", None)
    assert synced["name"] == "language"
    assert synced["name_localizations"] == {"de": "sprache"}
    assert synced["description_localizations"] == {"de": "Die Sprache, in der ich dir schreibe"}
