"""``/game givetime``: the host gives a player more time (their time bank grows).

The command joins the ``/game`` group of :mod:`bot.discord.cogs.game` (loaded before it),
so it is typed like every other game command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import autocomplete as ac
from bot.discord.replies import answer, asked
from bot.service.bank import MAX_BANK_HOURS

if TYPE_CHECKING:
    from bot.discord.client import DragonBot


@app_commands.command(
    name="givetime", description="Give a player more time: their time bank grows (host)"
)
@app_commands.describe(
    player="The player to give time to",
    hours="Hours to add to their time bank (a bank holds at most 60 days)",
    game="Game number (default: the one in this channel)",
)
@app_commands.autocomplete(game=ac.games_here)
async def givetime(
    interaction: discord.Interaction[DragonBot],
    player: discord.Member,
    hours: app_commands.Range[float, 0, MAX_BANK_HOURS],
    game: int | None = None,
) -> None:
    host = interaction.client.host
    await answer(
        interaction,
        lambda: host.give_time(
            **asked(interaction), game_id=game, player_id=player.id, hours=hours
        ),
    )


class ClockBank(commands.Cog):
    """Adds ``/game givetime`` to the ``/game`` group, and takes it away on unloading."""

    def __init__(self, bot: DragonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group) and group.get_command("givetime") is None:
            group.add_command(givetime)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            group.remove_command("givetime")


async def setup(bot: DragonBot) -> None:
    await bot.add_cog(ClockBank(bot))
