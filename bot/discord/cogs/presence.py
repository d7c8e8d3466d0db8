"""``/away``: a player away for some days has their turn deadlines stretched in every game
(works in DMs too, since it concerns every server's games)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.replies import answer

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


class Presence(commands.Cog):
    """The ``/away`` command."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="away", description="Stretch your turn deadlines in every game while you are away"
    )
    @app_commands.describe(
        days="Days you are away, from 1 to 30 (0: you are back, ending it early)"
    )
    async def away(
        self, interaction: discord.Interaction[HostingBot], days: app_commands.Range[int, 0, 30]
    ) -> None:
        await answer(
            interaction, lambda: self.bot.host.away.go_away(user_id=interaction.user.id, days=days)
        )


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(Presence(bot))
