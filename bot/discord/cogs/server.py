"""The server changing under its games: channels and threads deleted, members leaving."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


class ServerEvents(commands.Cog):
    """Listeners that tell the host what happened to a game's channel or players; what
    the host then tells people goes out through the outbox."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.bot.host.lobby.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.host.lobby.channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        # Needs the Server Members intent (MEMBERS_INTENT=1); without it Discord never sends it.
        await self.bot.host.lobby.member_left(guild_id=payload.guild_id, user_id=payload.user.id)


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(ServerEvents(bot))
