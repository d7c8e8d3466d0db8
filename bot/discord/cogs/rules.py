"""``/rules``: each game's rules summary, notation and reconstructed data."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import autocomplete as ac
from bot.discord.markup import content
from bot.service.errors import UserError

if TYPE_CHECKING:
    from bot.discord.client import DragonBot

LIMIT = 2000


FENCE = "```"
MAX_PAGES = 15


def pages(text: str, limit: int = LIMIT) -> list[str]:
    """Split Markdown into message-sized pages at line boundaries.

    A code block cut by a page break is closed at the end of one page and opened again at
    the start of the next, so tables stay tables.
    """
    result, page, fenced = [], "", False
    room = limit - len(FENCE) - 1
    for block in text.split("\n"):
        while len(block) > room:
            result.append(block[:room])
            block = block[room:]
        if len(page) + len(block) + 1 > room:
            result.append(page + (f"\n{FENCE}" if fenced else ""))
            page = FENCE if fenced else ""
        page = f"{page}\n{block}" if page else block
        if block.strip().startswith(FENCE):
            fenced = not fenced
    if page.strip():
        result.append(page)
    return result


class Rules(commands.Cog):
    """The ``/rules`` command."""

    def __init__(self, bot: DragonBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="rules", description="How a game is played here, its notation and reconstructed parts"
    )
    @app_commands.describe(game="Which game")
    @app_commands.autocomplete(game=ac.game_slugs)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        try:
            text = self.bot.host.rules(game)
        except UserError as error:
            await interaction.response.send_message(content("⚠️ " + error.text), ephemeral=True)
            return
        chunks = pages(text)
        await interaction.response.send_message(chunks[0], ephemeral=True)
        for chunk in chunks[1:MAX_PAGES]:
            await interaction.followup.send(chunk, ephemeral=True)


async def setup(bot: DragonBot) -> None:
    await bot.add_cog(Rules(bot))
