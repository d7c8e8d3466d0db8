"""``/rules``: a game's rules as one private message with a menu of its sections.

The message shows one section (its rules summary, notation, readings, reconstructed data,
and on a server with corrected data the values it corrected and who did); choosing
another in the menu (:class:`bot.discord.controls.rules.SectionMenu`) edits the message in
place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import autocomplete as ac
from bot.discord.controls.rules import rules_message

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


class Rules(commands.Cog):
    """The ``/rules`` command."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="rules", description="How a game is played here, its notation and reconstructed parts"
    )
    @app_commands.describe(game="Which game's rules to show")
    @app_commands.autocomplete(game=ac.game_slugs)
    async def rules(self, interaction: discord.Interaction[HostingBot], game: str) -> None:
        shown = await rules_message(interaction, game.strip().lower(), 0)
        if shown is None:
            return
        text, view = shown
        await interaction.response.send_message(text, view=view, ephemeral=True)


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(Rules(bot))
