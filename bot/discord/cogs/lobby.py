"""Gathering a table by buttons: a lobby post's Join, Leave and Start, the menu asking which
seat to take, an invitation's Join (it works from the DM), and a finished game's Rematch.

Like every control they are ``DynamicItem``s rebuilt from the id of what was clicked, so
they keep working after a restart. Their ids carry only the game (``dh:l:12:join``,
``dh:ls:12``, ``dh:rm:12``): each press reads the game as it is then, and the host answers
clearly once the lobby has started or closed.
"""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.discord.cogs.play import BUTTONS, custom_id
from bot.discord.replies import answer
from bot.service.gathering import INVITE, JOIN, LEAVE, LOBBY, REMATCH, SEAT, START
from bot.service.notices import Controls

if TYPE_CHECKING:
    from bot.discord.client import DragonBot

STYLES = {
    JOIN: discord.ButtonStyle.success,
    LEAVE: discord.ButtonStyle.secondary,
    START: discord.ButtonStyle.primary,
}
EMOJIS = {JOIN: "🪑", LEAVE: "🚪", START: "▶️"}


def _host(interaction: discord.Interaction):
    return interaction.client.host  # type: ignore[attr-defined]


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"dh:l:(?P<game>\d+):(?P<what>join|leave|start)",
):
    """Join, Leave or Start one game's lobby."""

    def __init__(self, game_id: int, what: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or what.capitalize())[:80], style=STYLES[what], emoji=EMOJIS[what],
                custom_id=custom_id("dh:l", game_id, what),
            )
        )  # fmt: skip
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["game"]), match["what"], item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        host, user = _host(interaction), interaction.user
        asker = {"game_id": self.game_id, "user_id": user.id}
        if self.what == START:
            work = partial(host.press_start, **asker, open_thread=_thread_opener(interaction))
        else:
            press = host.press_join if self.what == JOIN else host.press_leave
            work = partial(press, **asker, user_name=user.display_name)
        await answer(interaction, work)


class SeatSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"dh:ls:(?P<game>\d+)"):
    """Join's menu of open seats (shown to the asker only); each value is a role key."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id("dh:ls", game_id), placeholder="Choose your seat",
                options=options or [discord.SelectOption(label="-")],
            )
        )  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> SeatSelect:
        menu = cls(int(match["game"]))
        values = getattr(item, "values", None) or (interaction.data or {}).get("values", [])
        menu.chosen = list(values)
        return menu

    async def callback(self, interaction: discord.Interaction) -> None:
        host, user = _host(interaction), interaction.user
        role = self.chosen[0] if self.chosen else ""
        await answer(
            interaction,
            lambda: host.press_seat(
                game_id=self.game_id, user_id=user.id, user_name=user.display_name, role=role
            ),
        )


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dh:rm:(?P<game>\d+)"):
    """Opens a rematch of a finished game for its players."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Rematch", emoji="🔁", style=discord.ButtonStyle.primary,
                custom_id=custom_id("dh:rm", game_id),
            )
        )  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host, user = _host(interaction), interaction.user
        channel = interaction.channel
        parent = channel.parent_id if isinstance(channel, discord.Thread) else None
        await answer(
            interaction,
            lambda: host.rematch(
                game_id=self.game_id, user_id=user.id, user_name=user.display_name,
                parent_channel_id=parent,
            ),
        )  # fmt: skip


ITEMS = (LobbyButton, SeatSelect, RematchButton)


def _thread_opener(interaction: discord.Interaction):
    """The frontend's way to open a game's own thread (for Start), giving its channel id."""
    courier = interaction.client.courier  # type: ignore[attr-defined]

    async def open_thread(channel_id: int, title: str) -> int:
        return (await courier.open_thread(channel_id, title)).id

    return open_thread


def _lobby_items(control: Controls) -> list[discord.ui.Item]:
    return [LobbyButton(control.game_id, c.action) for c in control.choices]


def _invite_items(control: Controls) -> list[discord.ui.Item]:
    return [LobbyButton(control.game_id, JOIN, c.label) for c in control.choices]


def _seat_items(control: Controls) -> list[discord.ui.Item]:
    options = [discord.SelectOption(label=c.label[:100], value=c.action) for c in control.choices]
    return [SeatSelect(control.game_id, options[:25])]


def _rematch_items(control: Controls) -> list[discord.ui.Item]:
    return [RematchButton(control.game_id)]


BUTTONS.update(
    {LOBBY: _lobby_items, INVITE: _invite_items, SEAT: _seat_items, REMATCH: _rematch_items}
)


class Gathering(commands.Cog):
    """The persistent controls that gather a table (``/game invite`` is in the game cog)."""

    def __init__(self, bot: DragonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*ITEMS)


async def setup(bot: DragonBot) -> None:
    await bot.add_cog(Gathering(bot))
