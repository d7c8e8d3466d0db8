"""Autocomplete answers shared by the cogs. Each offers only what the typer may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import Interaction, app_commands

from bot.service.errors import UserError
from engines import GAMES

if TYPE_CHECKING:
    from bot.discord.client import DragonBot

MAX = 25


def _matches(current: str, *texts: str) -> bool:
    current = current.strip().lower()
    return not current or any(current in text.lower() for text in texts)


async def game_slugs(_: Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(
            name=f"{engine.title} ({engine.min_players}-{engine.max_players} players)", value=slug
        )
        for slug, engine in sorted(GAMES.items())
        if _matches(current, slug, engine.title)
    ][:MAX]


async def games_here(
    interaction: Interaction[DragonBot], current: str
) -> list[app_commands.Choice[int]]:
    """Open games of this server, those in this channel first."""
    if interaction.guild_id is None:
        return []
    records = await interaction.client.host.store.games(guild_id=interaction.guild_id)
    records.sort(key=lambda g: (g.channel_id != interaction.channel_id, -g.id))
    choices = []
    for record in records:
        title = GAMES[record.slug].title if record.slug in GAMES else record.slug
        name = f"#{record.id} {title} ({record.status})"
        if _matches(current, name):
            choices.append(app_commands.Choice(name=name[:100], value=record.id))
    return choices[:MAX]


async def open_roles(
    interaction: Interaction[DragonBot], current: str
) -> list[app_commands.Choice[str]]:
    """Roles still open at the lobby named (or the one in this channel)."""
    host = interaction.client.host
    game_id = getattr(interaction.namespace, "game", None)
    try:
        table = await host.find(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            game_id=game_id,
        )
        roles = await host.role_choices(table.record.id)
    except UserError:
        return []
    return [
        app_commands.Choice(name=r.name, value=r.key)
        for r in roles
        if _matches(current, r.key, r.name)
    ][:MAX]


async def new_game_roles(
    interaction: Interaction[DragonBot], current: str
) -> list[app_commands.Choice[str]]:
    """Roles of the game and table size being created."""
    slug = getattr(interaction.namespace, "game", None)
    engine = GAMES.get(slug or "")
    if engine is None:
        return []
    players = getattr(interaction.namespace, "players", None) or engine.min_players
    try:
        roles = engine.roles(players, engine.normalize_options({}))
    except Exception:
        return []
    return [
        app_commands.Choice(name=r.name, value=r.key)
        for r in roles
        if _matches(current, r.key, r.name)
    ][:MAX]


async def my_actions(
    interaction: Interaction[DragonBot], current: str
) -> list[app_commands.Choice[str]]:
    """The typer's own legal actions now, filtered by what they typed."""
    host = interaction.client.host
    game_id = getattr(interaction.namespace, "game", None)
    try:
        table = await host.find(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            game_id=game_id,
        )
        controls = await host.controls_for(game_id=table.record.id, user_id=interaction.user.id)
    except UserError:
        return []
    choices = []
    for control in controls:
        for choice in control.choices:
            if _matches(current, choice.action, choice.label):
                name = choice.label if choice.label != choice.action else choice.action
                choices.append(app_commands.Choice(name=name[:100], value=choice.action[:100]))
    return choices[:MAX]
