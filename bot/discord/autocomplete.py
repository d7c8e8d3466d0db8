"""Autocomplete answers shared by the cogs. Each offers only what the typer may see, in
the typer's language (Discord shows a suggestion's name as it is given)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from discord import Interaction, app_commands

import i18n
from bot.discord.markup import markup
from bot.discord.replies import asked, reader_locale
from bot.service.seating.sizes import sizes_text, table_sizes
from bot.service.text import Text, said_plural
from engines.base import Role
from games import SPECS

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

MAX = 25
"""Discord shows at most 25 suggestions."""

NAME_CHARS = 100
"""Discord's longest suggestion name."""

log = logging.getLogger(__name__)


def _matches(current: str, *texts: str) -> bool:
    current = current.strip().lower()
    return not current or any(current in text.lower() for text in texts)


def _game(interaction: Interaction) -> int | None:
    """The game number typed so far in the command's ``game`` option, if any."""
    return getattr(interaction.namespace, "game", None)


async def _locale(interaction: Interaction[HostingBot]) -> i18n.Locale:
    """The typer's language; English when it cannot be told now (suggestions are
    offered all the same)."""
    try:
        return await reader_locale(interaction)
    except Exception:
        log.info("the typer's language is unknown now; suggestions are in English")
        return i18n.DEFAULT


def _named(name: str | Text, locale: i18n.Locale) -> str:
    """A suggestion's name as the typer reads it, within Discord's length."""
    return markup(name, None, locale)[:NAME_CHARS]


async def game_slugs(
    interaction: Interaction[HostingBot], current: str
) -> list[app_commands.Choice[str]]:
    locale = await _locale(interaction)
    return [
        app_commands.Choice(
            name=_named(Text.of(spec.title, " (", sizes_text(spec.engine), ")"), locale),
            value=slug,
        )
        for slug, spec in SPECS.items()
        if _matches(current, slug, spec.title)
    ][:MAX]


async def games_here(
    interaction: Interaction[HostingBot], current: str
) -> list[app_commands.Choice[int]]:
    """Open games of this server, those in this channel first."""
    games = await interaction.client.host.listings.game_choices(**asked(interaction))
    return _numbered(games, current, await _locale(interaction))


async def story_games(
    interaction: Interaction[HostingBot], current: str
) -> list[app_commands.Choice[int]]:
    """Games whose story can be told: this server's open games, then its finished ones."""
    games = await interaction.client.host.listings.story_choices(**asked(interaction))
    return _numbered(games, current, await _locale(interaction))


def _numbered(
    games: Sequence[tuple[int, str | Text]], current: str, locale: i18n.Locale
) -> list[app_commands.Choice[int]]:
    """Games by number, named for the typer, those whose name holds what they typed."""
    named = [(number, _named(name, locale)) for number, name in games]
    return [
        app_commands.Choice(name=name, value=number)
        for number, name in named
        if _matches(current, name)
    ][:MAX]


def _role_choices(roles: list[Role], current: str) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=r.name, value=r.key)
        for r in roles
        if _matches(current, r.key, r.name)
    ][:MAX]


async def open_roles(
    interaction: Interaction[HostingBot], current: str
) -> list[app_commands.Choice[str]]:
    """Roles still open at the lobby named (or the one in this channel)."""
    host = interaction.client.host
    roles = await host.lobby.role_choices(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id, game_id=_game(interaction)
    )
    return _role_choices(roles, current)


async def new_game_roles(
    interaction: Interaction[HostingBot], current: str
) -> list[app_commands.Choice[str]]:
    """Roles of the game and table size being created."""
    namespace = interaction.namespace
    roles = interaction.client.host.lobby.new_game_roles(
        getattr(namespace, "game", None) or "", getattr(namespace, "players", None)
    )
    return _role_choices(roles, current)


async def my_actions(
    interaction: Interaction[HostingBot], current: str
) -> list[app_commands.Choice[str]]:
    """The typer's own legal actions now, filtered by what they typed."""
    host = interaction.client.host
    choices = await host.turns.action_choices(**asked(interaction), game_id=_game(interaction))
    return [
        app_commands.Choice(name=choice.label[:100], value=choice.action[:100])
        for choice in choices
        if _matches(current, choice.action, choice.label)
    ][:MAX]


async def table_sizes_of_game(
    interaction: Interaction[HostingBot], current: str
) -> list[app_commands.Choice[int]]:
    """The table sizes of the game chosen so far in ``/game new`` (every game's before one
    is chosen), filtered by the number typed."""
    slug = getattr(interaction.namespace, "game", None) or ""
    specs = [SPECS[slug]] if slug in SPECS else list(SPECS.values())
    sizes = sorted({n for spec in specs for n in table_sizes(spec.engine)})
    locale = await _locale(interaction)
    return [
        app_commands.Choice(
            name=_named(said_plural("{count} player", "{count} players", n), locale), value=n
        )
        for n in sizes
        if not current.strip() or current.strip() in str(n)
    ][:MAX]


async def watched_games(
    interaction: Interaction[HostingBot], current: str
) -> list[app_commands.Choice[int]]:
    """The games the typer watches."""
    games = await interaction.client.host.watchers.watched_choices(**asked(interaction))
    return _numbered(games, current, await _locale(interaction))
