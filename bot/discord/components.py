"""Buttons and menus whose ids carry the game, its version and the action.

They are ``DynamicItem``s: discord.py rebuilds them from the id of whatever was clicked, so
controls on any message keep working after a restart.

The *stamp* in an id says when the controls were valid. ``12``: only while the game is
still at version 12 (a turn: any later action makes the control stale). ``s12``: a secret
prompt issued at version 12, valid until its seat acts again; other players answering their
own secrets in between do not make it stale, but an answer from an earlier round does not
count in a later one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.discord.client import DragonBot


def stamp(version: int, secret: bool) -> str:
    """The stamp for controls offered at ``version`` (see the module docstring)."""
    return f"s{version}" if secret else str(version)


def unstamp(text: str | None) -> dict[str, int]:
    """Keyword arguments for :meth:`GameHost.act` that check a control's stamp."""
    if not text:
        return {}
    if text.startswith("s"):
        return {"issued": int(text[1:])}
    return {"version": int(text)}


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"dh:b:(?P<game>\d+):(?P<stamp>s?\d+):(?P<action>.+)",
):
    """One button that plays one action."""

    def __init__(
        self,
        game_id: int,
        stamp: str,
        action: str,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, custom_id=f"dh:b:{game_id}:{stamp}:{action}"[:100]
            )
        )
        self.game_id, self.stamp, self.action = game_id, stamp, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["game"]), match["stamp"], match["action"], item.label or "…")

    async def callback(self, interaction: discord.Interaction[DragonBot]) -> None:
        await interaction.client.play_action(interaction, self.game_id, self.stamp, self.action)


class _GameMenu:
    """What both menus share: an id ``dh:<kind>:<game>:<stamp>[:<tag>]`` and one choice."""

    kind = ""

    def __init__(
        self,
        game_id: int,
        stamp: str,
        options: list[discord.SelectOption],
        placeholder: str = "Choose…",
        tag: str = "",
    ) -> None:
        suffix = f":{tag}" if tag else ""
        super().__init__(  # type: ignore[call-arg]
            discord.ui.Select(
                custom_id=f"dh:{self.kind}:{game_id}:{stamp}{suffix}",
                placeholder=placeholder[:150],
                options=options or [discord.SelectOption(label="-")],
            )
        )
        self.game_id, self.stamp = game_id, stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> _GameMenu:
        menu = cls(int(match["game"]), match["stamp"], [])
        menu.item = item  # the clicked menu, carrying the chosen value
        return menu

    def chosen(self, interaction: discord.Interaction) -> str:
        values = getattr(self.item, "values", None) or (interaction.data or {}).get("values", [])
        return values[0] if values else ""


class ActionSelect(
    _GameMenu,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dh:s:(?P<game>\d+):(?P<stamp>s?\d+)(?::(?P<tag>\w*))?",
):
    """A menu whose every option value is an action."""

    kind = "s"

    async def callback(self, interaction: discord.Interaction[DragonBot]) -> None:
        await interaction.client.play_action(
            interaction, self.game_id, self.stamp, self.chosen(interaction)
        )


class GroupSelect(
    _GameMenu,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dh:g:(?P<game>\d+):(?P<stamp>s?\d+)",
):
    """First step of a two-step pick: choose a piece, then get its moves privately."""

    kind = "g"

    async def callback(self, interaction: discord.Interaction[DragonBot]) -> None:
        await interaction.client.offer_group(
            interaction, self.game_id, self.stamp, self.chosen(interaction)
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


DYNAMIC_ITEMS = (ActionButton, ActionSelect, GroupSelect, OpenPrivateButton)
