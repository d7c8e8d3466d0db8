"""``/games``: the user's inbox of games on every server they share with the bot.

The one command installable to a user as well as to a server, and offered everywhere:
in the bot's DMs, in any server and in private channels. Its answer is private, with the
Next button of :mod:`bot.discord.controls.inbox`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.controls.inbox import shared_servers
from bot.discord.replies import answer
from bot.service.notices import Reply

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


class Inbox(commands.Cog):
    """The ``/games`` command."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="games",
        description="Your games on every server, those waiting for you first (only you see it)",
    )
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def games(self, interaction: discord.Interaction[HostingBot]) -> None:
        user_id = interaction.user.id

        async def work() -> Reply:
            visible = await shared_servers(self.bot, user_id)
            return await self.bot.host.inbox.inbox(user_id=user_id, visible=visible)

        await answer(interaction, work)


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(Inbox(bot))
