"""Slash commands in the reader's language: their names, options, choices and descriptions
as Discord shows them in each locale a catalog is shipped for.

discord.py asks :class:`CatalogTranslator` for every text of the command tree when the
commands are synced, once per Discord locale. Descriptions and choice names are sentences
of the catalog (no context); command, group and option names are entries with the context
``command``, made into what Discord takes for a name (lower-case, no spaces, at most 32
characters) and kept unique among their siblings: a name that would clash with a sibling's
stays English, as does every name of a locale without a catalog. The English names are
what Discord sends back when a command is used, so the commands are dispatched alike in
every language.

:func:`command_texts` lists every such text of the bot's commands for the catalog tool.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location
from discord.ext import commands

import i18n
from bot.discord.cogs import COGS
from i18n import catalogs
from i18n.locales import NAMES as LANGUAGE_NAMES

CONTEXT = "command"
"""The catalog's context for command, group and option names (their msgctxt)."""

NAME_LIMIT = 32
TEXT_LIMIT = 100
"""Discord's longest name of a command or option, and longest description or choice name."""

NAMES = {Location.command_name, Location.group_name, Location.parameter_name}
"""Where a text is a name Discord matches (rather than a sentence a person reads)."""

KEPT = frozenset(LANGUAGE_NAMES.values())
"""Texts shown as they are in every locale: each language's own name (a language picker's
choices)."""

_NOT_IN_NAMES = re.compile(r"[^-_\w]+")
"""What Discord's names may not hold (they match ``^[-_\\w]{1,32}$``, letters of any script)."""

Command = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu


class CatalogTranslator(app_commands.Translator):
    """Translates the command tree ``tree`` from the shipped catalogs (see the module)."""

    def __init__(self, tree: app_commands.CommandTree[Any] | None = None) -> None:
        self.tree = tree

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """``string`` in the language shipped for Discord's ``locale``; None where it reads
        as in English (no catalog for the locale, no translation, or a name that would
        clash with a sibling's)."""
        ours = i18n.from_discord(locale.value)
        if ours is None or ours not in i18n.SHIPPED:
            return None
        if context.location in NAMES:
            return self._names(context.data, ours).get(string.message)
        if string.message in KEPT:
            return None
        written = catalogs.translation(string.message, None, None, ours)
        return written[:TEXT_LIMIT] if written != string.message else None

    def _names(self, data: object, locale: i18n.Locale) -> dict[str, str]:
        """The localised names of the item ``data`` and its siblings, by English name (only
        those that differ from English and clash with no sibling)."""
        return localised_names(self._siblings(data), locale)

    def _siblings(self, data: object) -> list[str]:
        """The English names among which ``data``'s name must be unique, its own included:
        a parameter's command's parameters, a subcommand's group's commands, or the tree's
        top-level commands."""
        if isinstance(data, app_commands.Parameter):
            return [parameter.display_name for parameter in data.command.parameters]
        parent = getattr(data, "parent", None)
        if isinstance(parent, app_commands.Group):
            return [command.name for command in parent.commands]
        if self.tree is not None:
            return [command.name for command in self.tree.get_commands()]
        return [str(getattr(data, "name", ""))]


def as_name(text: str) -> str:
    """``text`` as Discord takes a command's or option's name: lower-case, spaces as
    ``-``, nothing but letters, digits, ``-`` and ``_``, at most 32 characters ("" when
    nothing is left)."""
    name = _NOT_IN_NAMES.sub("", re.sub(r"\s+", "-", text.strip().lower()))
    return name[:NAME_LIMIT].strip("-")


def localised_names(english: Sequence[str], locale: i18n.Locale) -> dict[str, str]:
    """The names of the siblings ``english`` in ``locale``, by English name: each from the
    catalog (context ``command``), as Discord takes names (:func:`as_name`). A name the
    catalog does not change is left out; so are names that would clash: two translated
    alike, or one translated as a sibling's English name. Those stay English, which are
    unique among siblings already."""
    wanted: dict[str, str] = {}
    for name in english:
        translated = as_name(catalogs.translation_in_context(CONTEXT, name, locale))
        if translated and translated != name:
            wanted[name] = translated
    while True:
        shown = [wanted.get(name, name) for name in english]
        clashing = {name for name in wanted if shown.count(wanted[name]) > 1}
        if not clashing:
            return wanted
        for name in clashing:
            del wanted[name]


def walk_texts(commands: Sequence[Command]) -> Iterator[tuple[str | None, str]]:
    """Every (context, English text) of ``commands`` and what they hold, as the translator
    looks them up: names with the context ``command``, descriptions and choice names
    without one."""
    for command in commands:
        yield CONTEXT, command.name
        if isinstance(command, app_commands.ContextMenu):
            continue
        yield None, command.description
        if isinstance(command, app_commands.Group):
            yield from walk_texts(command.commands)
            continue
        for parameter in command.parameters:
            yield CONTEXT, parameter.display_name
            yield None, parameter.description
            for choice in parameter.choices:
                if choice.name not in KEPT:
                    yield None, choice.name


def command_texts() -> list[tuple[str | None, str]]:
    """Every (context, English text) the bot's slash commands show, in order, each once:
    what the catalogs translate for the translator. The cogs are loaded offline for it (no
    connection, no database)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_command_texts())
    # Called from a running loop: the bot is built on a loop of its own, in a thread.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _command_texts()).result()


async def _command_texts() -> list[tuple[str | None, str]]:
    # The cogs alone make the command tree: loaded into a bot that never connects.
    bot = commands.Bot(
        command_prefix=commands.when_mentioned, intents=discord.Intents.none(), help_command=None
    )
    try:
        for cog in COGS:
            await bot.load_extension(cog)
        found = walk_texts(bot.tree.get_commands())  # every type: slash and menu commands
        return list(dict.fromkeys(text for text in found if text[1].strip() not in ("", "…")))
    finally:
        await bot.close()
