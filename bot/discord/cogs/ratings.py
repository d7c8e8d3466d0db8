"""``/leaderboard`` and ``/stats``: this server's ratings, shown to the whole channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.replies import answer, asked
from games import SPECS

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

GAMES = [app_commands.Choice(name=spec.title, value=slug) for slug, spec in SPECS.items()]


class Ratings(commands.Cog):
    """The ``/leaderboard`` and ``/stats`` commands."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="leaderboard", description="The best rated players of a game on this server"
    )
    @app_commands.describe(game="Which game's ratings to show")
    @app_commands.choices(game=GAMES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction[HostingBot], game: str) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.standings.leaderboard(**asked(interaction), game=game),
            public=True,
        )

    @app_commands.command(
        name="stats", description="Games, wins, rating and roles played on this server"
    )
    @app_commands.describe(user="Whose record to show (yourself if left out)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction[HostingBot], user: discord.User | None = None
    ) -> None:
        target = user.id if user is not None else None
        await answer(
            interaction,
            lambda: self.bot.host.standings.stats(**asked(interaction), target=target),
            public=True,
        )


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(Ratings(bot))
