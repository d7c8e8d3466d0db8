"""Playing: ``/move`` and ``/hand``. The buttons and menus that play actions are in
:mod:`bot.discord.controls`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import autocomplete as ac
from bot.discord.replies import answer, asked
from bot.service.text import said

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


class Play(commands.Cog):
    """``/move`` and ``/hand``."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="move", description="Play an action by typing it (the list shows what is legal)"
    )
    @app_commands.guild_only()  # a game is found by its server and channel
    @app_commands.describe(
        action="What to do, e.g. roll or 3c-lair", game="Game number (default: this channel's)"
    )
    @app_commands.autocomplete(action=ac.my_actions)
    @app_commands.autocomplete(game=ac.games_here)
    async def move(
        self, interaction: discord.Interaction[HostingBot], action: str, game: int | None = None
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.turns.act(**asked(interaction), game_id=game, action=action),
            ack="✅ " + said("Played `{action}`.", action=action),
        )

    @app_commands.command(
        name="hand", description="Show your private choices and cards again (only you see them)"
    )
    @app_commands.guild_only()  # a game is found by its server and channel
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def hand(
        self, interaction: discord.Interaction[HostingBot], game: int | None = None
    ) -> None:
        await answer(
            interaction, lambda: self.bot.host.turns.hand(**asked(interaction), game_id=game)
        )


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(Play(bot))
