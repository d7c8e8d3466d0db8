"""Slash commands in the reader's language: Discord is told each command's, option's and
choice's name and description as the catalogs translate them, within Discord's rules for
names (lower-case, no spaces, at most 32 characters, unique among siblings)."""

import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.discord.client import COGS, DragonBot
from bot.discord.translator import CatalogTranslator, as_name, command_texts
from bot.settings import Settings
from i18n import catalogs

NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for a command's or option's name (letters of any script)."""

GERMAN = {
    (None, "The language I write to you in"): "Die Sprache, in der ich dir schreibe",
    (None, "Follow Discord"): "Wie Discord",
    ("command", "language"): "Sprache",
    ("command", "defaults"): "Standard Werte",
    # Three of /game's subcommands: two translated alike, one as a sibling's English name.
    ("command", "join"): "Mitspielen",
    ("command", "start"): "mitspielen",
    ("command", "cancel"): "leave",
    ("command", "new"): "Ein neues Spiel anlegen, mit allen Optionen dieser Welt",
}


def made_up(folder, entries: dict[tuple[str | None, str], str], locale: str = "de") -> None:
    """A catalog of ``entries`` ((context, English): translation) for ``locale`` in
    ``folder``, laid out as the shipped ones are."""
    catalog = Catalog(locale=locale)
    for (context, english), translated in entries.items():
        catalog.add(english, translated, context=context)
    path = folder / locale / "LC_MESSAGES"
    path.mkdir(parents=True)
    with (path / "messages.po").open("wb") as file:
        write_po(file, catalog)


@pytest.fixture
async def bot():
    bot = DragonBot(Settings(database=":memory:"))
    for cog in COGS:
        await bot.load_extension(cog)
    await bot.tree.set_translator(CatalogTranslator(bot.tree))
    yield bot
    await bot.close()


@pytest.fixture
def german(tmp_path):
    made_up(tmp_path, GERMAN)
    with catalogs.reading(tmp_path):
        yield


async def synced(bot) -> dict[str, dict]:
    """Every top-level command as Discord is told about it when the commands are synced."""
    translator = bot.tree.translator
    return {
        command.name: await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    }


def named(payload: dict, name: str) -> dict:
    return next(option for option in payload["options"] if option["name"] == name)


def siblings(payload: dict):
    """Each set of names that must be unique: a command's options or subcommands."""
    yield payload.get("options", [])
    for option in payload.get("options", []):
        if option["type"] in (1, 2):
            yield from siblings(option)


async def test_a_german_catalog_entry_turns_a_description_a_name_and_a_choice(bot, german):
    payloads = await synced(bot)

    language = payloads["language"]
    assert language["name"] == "language"  # what Discord sends back: always English
    assert language["name_localizations"]["de"] == "sprache"
    assert language["description_localizations"]["de"] == "Die Sprache, in der ich dir schreibe"
    choices = named(language, "language")["choices"]
    follow = next(choice for choice in choices if choice["value"] == "discord")
    assert follow["name_localizations"]["de"] == "Wie Discord"
    deutsch = next(choice for choice in choices if choice["value"] == "de")
    assert "name_localizations" not in deutsch  # a language is named in its own words

    defaults = named(payloads["server"], "defaults")
    assert defaults["name_localizations"]["de"] == "standard-werte"
    # Only the languages with a catalog entry are localised: French has none here,
    # Japanese no catalog, English is the source.
    for other in ("fr", "ja", "en-US"):
        assert other not in language["name_localizations"]
        assert other not in language["description_localizations"]


async def test_names_stay_valid_and_unique_among_siblings(bot, german):
    game = (await synced(bot))["game"]
    subcommands = {option["name"]: option for option in game["options"]}

    # Two subcommands translated alike keep their English names, as does one translated
    # as a sibling's English name; a long name is cut to Discord's 32 characters.
    for clashing in ("join", "start", "cancel"):
        assert "de" not in subcommands[clashing].get("name_localizations", {}), clashing
    new = subcommands["new"]["name_localizations"]["de"]
    assert new == "ein-neues-spiel-anlegen-mit-alle"
    for payload in (await synced(bot)).values():
        for options in siblings(payload):
            shown = [o.get("name_localizations", {}).get("de", o["name"]) for o in options]
            assert all(NAME.match(name) for name in shown), shown
            assert len(shown) == len(set(shown)), shown


def test_a_name_is_made_into_what_discord_takes():
    assert as_name("Neues Spiel") == "neues-spiel"
    assert as_name("  Zug's Ende!  ") == "zugs-ende"
    assert as_name("Åbn spil") == "åbn-spil"
    assert as_name("?!") == ""
    assert len(as_name("x" * 40)) == 32


def test_the_command_texts_are_every_name_and_description_for_the_catalog():
    texts = command_texts()
    assert ("command", "language") in texts
    assert ("command", "defaults") in texts and ("command", "server") in texts
    assert ("command", "playing_hours") in texts  # an option's name
    assert (None, "The language I write to you in") in texts
    assert (None, "Follow Discord") in texts  # a choice's name
    assert (None, "Deutsch") not in texts  # a language's own name is not translated
    assert len(texts) == len(set(texts))
