"""Gathering a table by buttons: a lobby post's Join, Leave and Start, the menu asking which
seat to take, an invitation's Join (it works from the DM), and a finished game's Rematch.

Their ids carry only the game (``dh:l:12:join``, ``dh:ls:12``, ``dh:rm:12``): each press
reads the game as it is then, and the host answers clearly once the lobby has started or
closed.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING

import discord

from bot.discord.controls.base import (
    Clicked,
    Control,
    ViewButton,
    ViewSelect,
    custom_id,
    label_of,
    shown,
)
from bot.discord.replies import Work, answer
from bot.service.seating.table_controls import JOIN, LEAVE, START
from bot.service.text import Text, said

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

STYLES = {
    JOIN: discord.ButtonStyle.success,
    LEAVE: discord.ButtonStyle.secondary,
    START: discord.ButtonStyle.primary,
}
EMOJIS = {JOIN: "🪑", LEAVE: "🚪", START: "▶️"}
LABELS = {JOIN: said("Join"), LEAVE: said("Leave"), START: said("Start")}
"""Each lobby button's label where the host gives none."""


class LobbyButton(
    Control,
    discord.ui.DynamicItem[ViewButton],
    template=r"dh:l:(?P<game>\d+):(?P<what>join|leave|start)",
):
    """Join, Leave or Start one game's lobby."""

    def __init__(self, game_id: int, what: str, label: str | Text = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=shown(label or LABELS[what], 80), style=STYLES[what], emoji=EMOJIS[what],
                custom_id=custom_id("dh:l", game_id, what),
            )
        )  # fmt: skip
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["game"]), match["what"], label_of(item, ""))

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        host, user = interaction.client.host, interaction.user
        work: Work
        if self.what == START:
            opener = _thread_opener(interaction.client)
            work = partial(host.gathering.press_start, game_id=self.game_id, user_id=user.id,
                           open_thread=opener)  # fmt: skip
        else:
            press = host.gathering.press_join if self.what == JOIN else host.gathering.press_leave
            work = partial(
                press, game_id=self.game_id, user_id=user.id, user_name=user.display_name
            )
        await answer(interaction, work)


class SeatSelect(Control, discord.ui.DynamicItem[ViewSelect], template=r"dh:ls:(?P<game>\d+)"):
    """Join's menu of open seats (shown to the asker only); each value is a role key."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id("dh:ls", game_id),
                placeholder=shown(said("Choose your seat"), 150),
                options=options or [discord.SelectOption(label="-")],
            )
        )  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> SeatSelect:
        return cls(int(match["game"]))

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        host, user = interaction.client.host, interaction.user
        # discord.py fills in the chosen value before the callback.
        role = self.item.values[0] if self.item.values else ""
        await answer(
            interaction,
            lambda: host.gathering.press_seat(
                game_id=self.game_id, user_id=user.id, user_name=user.display_name, role=role
            ),
        )


class RematchButton(Control, discord.ui.DynamicItem[ViewButton], template=r"dh:rm:(?P<game>\d+)"):
    """Opens a rematch of a finished game for its players."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=shown(said("Rematch"), 80), emoji="🔁", style=discord.ButtonStyle.primary,
                custom_id=custom_id("dh:rm", game_id),
            )
        )  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["game"]))

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        host, user = interaction.client.host, interaction.user
        channel = interaction.channel
        parent = channel.parent_id if isinstance(channel, discord.Thread) else None
        await answer(
            interaction,
            lambda: host.gathering.rematch(
                game_id=self.game_id, user_id=user.id, user_name=user.display_name,
                parent_channel_id=parent,
            ),
        )  # fmt: skip


def _thread_opener(bot: HostingBot) -> Callable[[int, str], Awaitable[int]]:
    """The frontend's way to open a game's own thread (for Start), giving its channel id."""

    async def open_thread(channel_id: int, title: str) -> int:
        return (await bot.courier.open_thread(channel_id, title)).id

    return open_thread
