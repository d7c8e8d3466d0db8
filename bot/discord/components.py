"""Buttons and menus whose ids carry the game, its version and the action.

They are ``DynamicItem``s: discord.py rebuilds them from the id of whatever was clicked, so
controls on any message keep working after a restart. Version ``x`` marks a secret prompt's
controls: several players answer those in any order, so the engine, not the version,
decides whether an answer still counts.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.discord.client import DragonBot

NO_VERSION = "x"


def _version(text: str) -> int | None:
    return None if text == NO_VERSION else int(text)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"dh:b:(?P<game>\d+):(?P<version>\d+|x):(?P<action>.+)",
):
    """One button that plays one action."""

    def __init__(
        self,
        game_id: int,
        version: str,
        action: str,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, custom_id=f"dh:b:{game_id}:{version}:{action}"[:100]
            )
        )
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["game"]), match["version"], match["action"], item.label or "…")

    async def callback(self, interaction: discord.Interaction[DragonBot]) -> None:
        await interaction.client.play_action(
            interaction, self.game_id, _version(self.version), self.action
        )


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dh:s:(?P<game>\d+):(?P<version>\d+|x)(?::(?P<tag>\w*))?",
):
    """A menu whose every option value is an action."""

    def __init__(
        self,
        game_id: int,
        version: str,
        options: list[discord.SelectOption],
        placeholder: str = "Choose…",
        tag: str = "",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"dh:s:{game_id}:{version}:{tag}",
                placeholder=placeholder[:150],
                options=options or [discord.SelectOption(label="-")],
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> ActionSelect:
        select = cls(int(match["game"]), match["version"], [])
        select.item = item
        return select

    async def callback(self, interaction: discord.Interaction[DragonBot]) -> None:
        action = _chosen(interaction, self.item)
        await interaction.client.play_action(
            interaction, self.game_id, _version(self.version), action
        )


class GroupSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dh:g:(?P<game>\d+):(?P<version>\d+|x)",
):
    """First step of a two-step pick: choose a piece, then get its moves privately."""

    def __init__(
        self,
        game_id: int,
        version: str,
        options: list[discord.SelectOption],
        placeholder: str = "Choose a piece…",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"dh:g:{game_id}:{version}",
                placeholder=placeholder[:150],
                options=options or [discord.SelectOption(label="-")],
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> GroupSelect:
        select = cls(int(match["game"]), match["version"], [])
        select.item = item
        return select

    async def callback(self, interaction: discord.Interaction[DragonBot]) -> None:
        group = _chosen(interaction, self.item)
        await interaction.client.offer_group(
            interaction, self.game_id, _version(self.version), group
        )


class OpenPrivateButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"dh:open:(?P<game>\d+)"
):
    """For players whose DMs are closed: shows their secret choice as an ephemeral message."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Make my choice privately",
                emoji="🔒",
                style=discord.ButtonStyle.secondary,
                custom_id=f"dh:open:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> OpenPrivateButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[DragonBot]) -> None:
        await interaction.client.open_private(interaction, self.game_id)


def _chosen(interaction: discord.Interaction, item: Any) -> str:
    values = getattr(item, "values", None) or (interaction.data or {}).get("values", [])
    return values[0] if values else ""


DYNAMIC_ITEMS = (ActionButton, ActionSelect, GroupSelect, OpenPrivateButton)
