"""The inbox's Next button (``dh:next``) and the servers a user shares with the bot.

Next shows the most urgent game waiting on whoever presses it, privately, with the same
stamped controls as its turn post: a move made there is played like any click."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.discord.controls.base import Clicked, Control, ViewButton, shown
from bot.discord.replies import answer
from bot.service.notices import Reply
from bot.service.text import said

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


async def shared_servers(bot: HostingBot, user_id: int) -> dict[int, str]:
    """The servers of ``user_id``'s games that the bot and the user are both in, with their
    names. A member not in the bot's cache (no Server Members intent) is asked of Discord."""
    shared: dict[int, str] = {}
    for guild_id in await bot.host.inbox.servers(user_id=user_id):
        guild = bot.get_guild(guild_id)
        if guild is None:
            continue  # the bot left the server
        if guild.get_member(user_id) is None:
            if bot.intents.members:
                continue  # the cache holds every member: the user left
            try:
                await guild.fetch_member(user_id)
            except discord.HTTPException:
                continue  # not a member (404), or it cannot be told now
        shared[guild_id] = discord.utils.escape_markdown(guild.name)
    return shared


class NextButton(Control, discord.ui.DynamicItem[ViewButton], template=r"dh:next"):
    """Shows the presser's most urgent waiting choice, for their eyes only."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Button(
                label=shown(said("Next"), 80),
                emoji="⏭️",
                style=discord.ButtonStyle.primary,
                custom_id="dh:next",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> NextButton:
        return cls()

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        bot, user_id = interaction.client, interaction.user.id

        async def work() -> Reply:
            visible = await shared_servers(bot, user_id)
            return await bot.host.inbox.next_choice(user_id=user_id, visible=visible)

        await answer(interaction, work)
