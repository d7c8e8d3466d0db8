"""``/notify``: how the bot calls a player to play (works in DMs too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.replies import answer

if TYPE_CHECKING:
    from bot.discord.client import DragonBot


class Notify(commands.Cog):
    """The ``/notify`` command."""

    def __init__(self, bot: DragonBot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description="How the bot calls you to play")
    @app_commands.describe(when="Every turn, reminders only, or nothing")
    @app_commands.choices(
        when=[
            app_commands.Choice(name="every turn (mention) and reminders", value="turns"),
            app_commands.Choice(name="reminders only", value="reminders"),
            app_commands.Choice(name="nothing", value="none"),
        ]
    )
    async def notify(self, interaction: discord.Interaction[DragonBot], when: str) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.set_notify(user_id=interaction.user.id, choice=when),
        )


async def setup(bot: DragonBot) -> None:
    await bot.add_cog(Notify(bot))
