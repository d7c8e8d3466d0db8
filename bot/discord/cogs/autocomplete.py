"""Autocomplete answers shared by the cogs. Each offers only what the typer may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import Interaction, app_commands

from bot.service.errors import UserError
from engines import GAMES
from engines.base import BadOptions, Role

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


async def _game_id(interaction: Interaction[DragonBot]) -> int | None:
    """The game the command being typed is about, or ``None`` if it is unclear."""
    try:
        table = await interaction.client.host.find(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            game_id=getattr(interaction.namespace, "game", None),
        )
    except UserError:
        return None
    return table.record.id


def _role_choices(roles: list[Role], current: str) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=r.name, value=r.key)
        for r in roles
        if _matches(current, r.key, r.name)
    ][:MAX]


async def open_roles(
    interaction: Interaction[DragonBot], current: str
) -> list[app_commands.Choice[str]]:
    """Roles still open at the lobby named (or the one in this channel)."""
    game_id = await _game_id(interaction)
    if game_id is None:
        return []
    return _role_choices(await interaction.client.host.role_choices(game_id), current)


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
    except BadOptions:
        return []
    return _role_choices(roles, current)


async def my_actions(
    interaction: Interaction[DragonBot], current: str
) -> list[app_commands.Choice[str]]:
    """The typer's own legal actions now, filtered by what they typed."""
    game_id = await _game_id(interaction)
    if game_id is None:
        return []
    controls = await interaction.client.host.controls_for(
        game_id=game_id, user_id=interaction.user.id
    )
    choices = []
    for control in controls:
        for choice in control.choices:
            if _matches(current, choice.action, choice.label):
                name = choice.label if choice.label != choice.action else choice.action
                choices.append(app_commands.Choice(name=name[:100], value=choice.action[:100]))
    return choices[:MAX]
