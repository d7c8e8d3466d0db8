"""The catalog check: every shipped language complete, no message the code no longer says,
every place and Discord's markup kept in every translation, and command names Discord
takes.

The first tests read the shipped catalogs against what the code says now (a new message
fails them until ``make catalog`` adds it and a translator translates it); the rest prove
each check on small made-up catalogs, so that a check that passes is known to look.
"""

from __future__ import annotations

import asyncio
import functools
import textwrap
from pathlib import Path

import pytest
from discord import AppCommandType, app_commands

from bot import catalog
from i18n import SHIPPED, Locale, catalogs
from i18n.extract import Message, message
from tests.i18n.catalog_checks import (
    Entry,
    bad_command_names,
    entries_of,
    lost_emoji,
    missing,
    unbalanced_markup,
    untranslated,
    unused,
    wrong_places,
)


@functools.cache
def catalog_messages() -> tuple[Message, ...]:
    """Every message of the catalog: the code's and the slash commands' (read once)."""
    return tuple(catalog.messages())


@functools.cache
def command_siblings() -> tuple[tuple[str, ...], ...]:
    """The groups of English names that must stay unique in every language: the top-level
    slash commands, each group's commands, each command's options."""
    return asyncio.run(_command_siblings())


async def _command_siblings() -> tuple[tuple[str, ...], ...]:
    from bot.discord.client import COGS, DragonBot
    from bot.settings import Settings

    bot = DragonBot(Settings(database=":memory:"))
    try:
        for cog in COGS:
            await bot.load_extension(cog)
        top = bot.tree.get_commands(type=AppCommandType.chat_input)
        groups = [tuple(command.name for command in top)]
        for command in bot.tree.walk_commands(type=AppCommandType.chat_input):
            if isinstance(command, app_commands.Group):
                groups.append(tuple(sub.name for sub in command.commands))
            else:
                groups.append(tuple(p.display_name for p in command.parameters))
        return tuple(group for group in groups if len(group) > 1)
    finally:
        await bot.close()


def shipped(locale: Locale) -> list[Entry]:
    path = catalogs.path_of(locale, catalogs.FOLDER)
    assert path.exists(), f"no catalog for {locale}: run `make catalog`"
    return entries_of(path)


def report(faults: list[str], limit: int = 40) -> str:
    shown = "\n".join(faults[:limit])
    more = f"\n… and {len(faults) - limit} more" if len(faults) > limit else ""
    return f"{len(faults)} faults:\n{shown}{more}"


# The shipped catalogs


@pytest.mark.parametrize("locale", SHIPPED)
def test_every_shipped_language_is_complete(locale):
    entries = shipped(locale)
    faults = missing(catalog_messages(), entries) + untranslated(entries)
    assert not faults, report(faults)


@pytest.mark.parametrize("locale", SHIPPED)
def test_no_catalog_keeps_a_message_the_code_no_longer_says(locale):
    faults = unused(catalog_messages(), shipped(locale))
    assert not faults, report(faults)


@pytest.mark.parametrize("locale", SHIPPED)
def test_every_translation_keeps_its_places(locale):
    faults = wrong_places(shipped(locale))
    assert not faults, report(faults)


@pytest.mark.parametrize("locale", SHIPPED)
def test_every_translation_keeps_discord_markup_and_emoji(locale):
    entries = shipped(locale)
    faults = unbalanced_markup(entries) + lost_emoji(entries)
    assert not faults, report(faults)


@pytest.mark.parametrize("locale", SHIPPED)
def test_command_names_are_names_discord_takes_unique_among_siblings(locale):
    faults = bad_command_names(shipped(locale), command_siblings())
    assert not faults, report(faults)


def test_the_catalog_holds_the_commands_names_and_descriptions():
    names = {m.text for m in catalog_messages() if m.context == "command"}
    assert {"game", "new", "help"} <= names
    described = [
        m for m in catalog_messages() if m.context is None and m.comments == (catalog.TEXT_NOTE,)
    ]
    assert described, "the commands' descriptions are messages"
    siblings = command_siblings()
    assert any("new" in group for group in siblings)
    assert all(name in names for group in siblings for name in group)


# The checks, on made-up catalogs

HEADER = """\
msgid ""
msgstr ""
"Language: {language}\\n"
"Plural-Forms: {plurals}\\n"
"Content-Type: text/plain; charset=utf-8\\n"

"""


def made_up(tmp_path: Path, body: str, language: str = "de") -> list[Entry]:
    """The entries of a catalog whose entries are ``body`` (in ``.po`` syntax)."""
    plurals = "nplurals=2; plural=(n > 1);" if language == "fr" else "nplurals=2; plural=(n != 1);"
    path = tmp_path / "messages.po"
    path.write_text(
        HEADER.format(language=language, plurals=plurals) + textwrap.dedent(body), "utf-8"
    )
    return entries_of(path)


WELL_MADE = """\
    msgid "Only the host, {host}, can start **{title}**."
    msgstr "Nur {host} kann **{title}** starten."

    msgid "{count} seat is free."
    msgid_plural "{count} seats are free."
    msgstr[0] "Ein Platz ist frei."
    msgstr[1] "{count} Plätze sind frei."

    msgid "🏆 {player} won. Type `/game new` to play again."
    msgstr "🏆 {player} hat gewonnen. Mit `/game new` geht es weiter."

    msgctxt "command"
    msgid "new"
    msgstr "neu"

    msgctxt "command"
    msgid "list"
    msgstr "liste"
"""

MESSAGES = [
    message("Only the host, {host}, can start **{title}**."),
    message("{count} seat is free.", "{count} seats are free."),
    message("🏆 {player} won. Type `/game new` to play again."),
    message("new", context="command"),
    message("list", context="command"),
]


def test_a_well_made_catalog_passes_every_check(tmp_path):
    entries = made_up(tmp_path, WELL_MADE)
    assert len(entries) == 5
    assert missing(MESSAGES, entries) == []
    assert untranslated(entries) == []
    assert unused(MESSAGES, entries) == []
    assert wrong_places(entries) == []
    assert unbalanced_markup(entries) == []
    assert lost_emoji(entries) == []
    assert bad_command_names(entries, [("new", "list")]) == []


def test_a_message_the_catalog_lacks_is_caught(tmp_path):
    entries = made_up(tmp_path, WELL_MADE)
    more = [*MESSAGES, message("Your turn, {player}.")]
    assert missing(more, entries) == ["missing: 'Your turn, {player}.'"]


def test_an_empty_translation_an_empty_plural_form_and_a_guess_are_caught(tmp_path):
    entries = made_up(
        tmp_path,
        """\
        msgid "Start"
        msgstr ""

        msgid "{count} seat is free."
        msgid_plural "{count} seats are free."
        msgstr[0] "Ein Platz ist frei."
        msgstr[1] ""

        #, fuzzy
        msgid "Leave"
        msgstr "Gehen"
        """,
    )
    assert untranslated(entries) == [
        "untranslated: 'Start'",
        "untranslated: '{count} seat is free.'",
        "fuzzy (a guess not yet checked): 'Leave'",
    ]


def test_an_unused_entry_is_caught(tmp_path):
    entries = made_up(tmp_path, WELL_MADE + '\nmsgid "Roll the die."\nmsgstr "Würfle."\n')
    assert unused(MESSAGES, entries) == ["unused: 'Roll the die.'"]


def test_a_command_name_of_the_same_text_as_a_sentence_is_a_message_of_its_own(tmp_path):
    entries = made_up(tmp_path, WELL_MADE)
    sentence_only = [m for m in MESSAGES if m.context is None] + [message("new")]
    assert unused(sentence_only, entries) == ["unused: [command] 'new'", "unused: [command] 'list'"]
    assert missing(sentence_only, entries) == ["missing: 'new'"]


def test_a_missing_place_and_a_new_place_are_caught(tmp_path):
    entries = made_up(
        tmp_path,
        """\
        msgid "Only the host, {host}, can start **{title}**."
        msgstr "Nur der Gastgeber kann **{title}** starten."

        msgid "Your turn, {player}."
        msgstr "{spieler}, du bist dran."

        msgid "{count} seat is free."
        msgid_plural "{count} seats are free."
        msgstr[0] "Ein Platz ist frei."
        msgstr[1] "Mehrere Plätze sind frei."

        msgid "Game #{game}"
        msgstr "Partie #{game"
        """,
    )
    assert wrong_places(entries) == [
        "lost ['host'] in 'Nur der Gastgeber kann **{title}** starten.': "
        "'Only the host, {host}, can start **{title}**.'",
        "lost ['player'] in '{spieler}, du bist dran.': 'Your turn, {player}.'",
        "new ['spieler'] in '{spieler}, du bist dran.': 'Your turn, {player}.'",
        "no form shows {count}: '{count} seat is free.'",
        "unreadable braces in 'Partie #{game': 'Game #{game}'",
    ]


def test_unbalanced_bold_a_lost_backtick_and_a_lost_bracket_are_caught(tmp_path):
    entries = made_up(
        tmp_path,
        """\
        msgid "Only the host, {host}, can start **{title}**."
        msgstr "Nur {host} kann **{title} starten."

        msgid "Type `/game new` to play again."
        msgstr "Mit `/game new geht es weiter."

        msgid "The page: <{url}>"
        msgstr "Die Seite: {url}>"

        msgid "||{card}|| is hidden."
        msgstr "||{card}|| ist verdeckt."
        """,
    )
    faults = unbalanced_markup(entries)
    assert len(faults) == 3
    assert "**{title}**" in faults[0] and "** 2×" in faults[0]
    assert "/game new" in faults[1] and "` 2×" in faults[1]
    assert "The page" in faults[2]


def test_a_dropped_emoji_is_caught(tmp_path):
    entries = made_up(
        tmp_path,
        """\
        msgid "🏆 {player} won."
        msgstr "{player} hat gewonnen."

        msgid "⚠️ Careful."
        msgstr "⚠️ Vorsicht."
        """,
    )
    assert lost_emoji(entries) == [
        "emoji of '{player} hat gewonnen.' are not 1: '🏆 {player} won.'"
    ]


def test_command_names_discord_would_refuse_and_siblings_alike_are_caught(tmp_path):
    entries = made_up(
        tmp_path,
        """\
        msgctxt "command"
        msgid "new"
        msgstr "Neu"

        msgctxt "command"
        msgid "list"
        msgstr "alle spiele"

        msgctxt "command"
        msgid "playing_hours"
        msgstr "spielzeiten_an_jedem_tag_der_woche_x"

        msgctxt "command"
        msgid "leave"
        msgstr "gehen"

        msgctxt "command"
        msgid "go"
        msgstr "gehen"

        msgctxt "command"
        msgid "join"
        msgstr "mitspielen"

        msgctxt "command"
        msgid "draw"
        msgstr "zeichnen"
        """,
    )
    faults = bad_command_names(entries, [("leave", "go"), ("join", "start"), ("draw", "leave")])
    assert faults == [
        "not a name Discord takes: 'Neu' for 'new'",
        "not a name Discord takes: 'alle spiele' for 'list'",
        "not a name Discord takes: 'spielzeiten_an_jedem_tag_der_woche_x' for 'playing_hours'",
        "'gehen' names two of ['go', 'leave']",
    ]


def test_a_name_in_another_script_is_a_name_discord_takes(tmp_path):
    entries = made_up(tmp_path, 'msgctxt "command"\nmsgid "rules"\nmsgstr "règles"\n', "fr")
    assert bad_command_names(entries, [("rules", "help")]) == []


def test_a_translated_name_may_not_take_an_english_siblings_name(tmp_path):
    entries = made_up(tmp_path, 'msgctxt "command"\nmsgid "start"\nmsgstr "join"\n')
    assert bad_command_names(entries, [("join", "start")]) == [
        "'join' names two of ['join', 'start']"
    ]
