"""``/help``: the games, how to start one, and every command, in one private message.

The command list is read from the bot's own command tree, so a command added anywhere
appears here (under "More" until it is given a group below).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.discord.markup import markup
from bot.discord.replies import refusal_locale
from bot.service.text import Text, said, said_plural

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

LIMIT = 2000

GameLine = tuple[str, str, int, int]
"""A game as the help lists it: slug, title, fewest and most players."""


class Listed(Protocol):
    """A command as the help lists it: its full name and what it does."""

    @property
    def qualified_name(self) -> str: ...

    @property
    def description(self) -> str: ...


GROUPS: list[tuple[Text, tuple[str, ...]]] = [
    (said("Gathering"), (
        "game new", "game join", "game addbot", "game leave", "game start", "game cancel",
        "game list", "game mine",
    )),
    (said("Playing"), (
        "games", "move", "hand", "game note", "game status", "game resign", "game draw",
        "game undo",
    )),
    (said("Clock"), ("game settings", "game givetime", "game pause", "game resume", "notify")),
    (said("Story"), ("game history", "game export", "game replay", "game page")),
    (said("Server admin (Manage Server)"), ("server defaults", "game data")),
    (said("Learning"), ("rules", "help")),
]  # fmt: skip
"""Where each command is listed; a command not named here is listed under "More"."""

MORE = said("More")

LINE = Text.of("\n")


def leaf_commands(tree: app_commands.CommandTree) -> list[Listed]:
    """Every command a user can type (subcommands, not their groups), in tree order."""
    return [c for c in tree.walk_commands() if isinstance(c, app_commands.Command)]


def grouped(found: Iterable[Listed]) -> list[tuple[Text, list[Listed]]]:
    """The commands by group, in :data:`GROUPS` order, the rest under "More"."""
    by_name = {c.qualified_name: c for c in found}
    groups: list[tuple[Text, list[Listed]]] = []
    for title, names in GROUPS:
        listed = [by_name.pop(name) for name in names if name in by_name]
        if listed:
            groups.append((title, listed))
    if by_name:
        groups.append((MORE, list(by_name.values())))
    return groups


def help_message(
    commands_found: list[Listed], games: list[GameLine], locale: i18n.Locale = i18n.DEFAULT
) -> str:
    """The help message in ``locale``: the games, how to start one, the commands (with
    their descriptions when they fit in one message, else by name), and where the rules
    are."""
    head = [said("**Dragon board games**"), *("- " + _game_line(*game) for game in games)]
    head += [
        Text(),
        said(
            "**Starting a game**: `/game new game:<game>` opens it in this channel; the others "
            "`/game join` (or the host fills seats with `/game addbot`); the host then "
            "`/game start`s it. The board and your buttons follow; `/move` types an action."
        ),
        Text(),
    ]
    tail = [
        Text(),
        said("Each game's rules, notation and reconstructed data: `/rules game:<game>`."),
    ]
    groups = grouped(commands_found)
    text = markup(LINE.join(head + _with_descriptions(groups) + tail), None, locale)
    if len(text) <= LIMIT:
        return text
    return markup(LINE.join(head + _names_only(groups) + tail), None, locale)[:LIMIT]


def _game_line(slug: str, title: str, low: int, high: int) -> Text:
    if low != high:
        return said(
            "**{title}** (`{slug}`), {low}-{high} players", title=title, slug=slug, low=low,
            high=high,
        )  # fmt: skip
    return said_plural(
        "**{title}** (`{slug}`), {count} player", "**{title}** (`{slug}`), {count} players",
        low, title=title, slug=slug,
    )  # fmt: skip


def _description(command: Listed) -> Text:
    """What ``command`` does, in the reader's words: a command's description is a message
    of the catalog (read there from the command tree, as Discord's own lists show it)."""
    return Text.of(i18n.Said(command.description))


def _with_descriptions(groups: list[tuple[Text, list[Listed]]]) -> list[Text]:
    lines = []
    for title, found in groups:
        entries = Text.of(" · ").join(
            Text.of(f"`/{c.qualified_name}` ", _description(c)) for c in found
        )
        lines.append(Text.of("**", title, "**: ", entries))
    return lines


def _names_only(groups: list[tuple[Text, list[Listed]]]) -> list[Text]:
    return [
        Text.of("**", title, "**: ", ", ".join(f"`/{c.qualified_name}`" for c in found))
        for title, found in groups
    ]


class Help(commands.Cog):
    """The ``/help`` command."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="The games, how to start one, and every command")
    async def help(self, interaction: discord.Interaction[HostingBot]) -> None:
        text = help_message(
            leaf_commands(self.bot.tree),
            self.bot.host.server_data.games_overview(),
            await refusal_locale(interaction),
        )
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(Help(bot))
