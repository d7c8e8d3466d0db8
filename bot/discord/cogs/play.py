"""``/move`` (typed actions with autocomplete) and ``/hand`` (re-open private choices)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs import autocomplete as ac
from bot.service.errors import UserError
from bot.service.notices import Reply

if TYPE_CHECKING:
    from bot.discord.client import DragonBot


@app_commands.guild_only()
class Play(commands.Cog):
    def __init__(self, bot: DragonBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="move", description="Play an action by typing it (the list shows what is legal)"
    )
    @app_commands.describe(
        action="What to do, e.g. roll or 3c-lair", game="Game number (default: this channel's)"
    )
    @app_commands.autocomplete(action=ac.my_actions, game=ac.games_here)
    async def move(
        self, interaction: discord.Interaction, action: str, game: int | None = None
    ) -> None:
        async def work():
            table = await self.bot.host.find(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                game_id=game,
            )
            return await self.bot.host.act(
                game_id=table.record.id, user_id=interaction.user.id, action=action
            )

        await self.bot.run_work(interaction, work, ack=f"✅ Played `{action}`.")

    @app_commands.command(
        name="hand", description="Show your private choices and cards again (only you see them)"
    )
    @app_commands.autocomplete(game=ac.games_here)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work() -> Reply:
            host = self.bot.host
            user = interaction.user.id
            if game is not None:
                records = [(await host.table(game)).record]
            else:
                records = await host.store.games(guild_id=interaction.guild_id, user_id=user)
            lines, controls = [], []
            for record in records:
                if record.status != "running":
                    continue
                private = await host.private_text(game_id=record.id, user_id=user)
                pending = [
                    c
                    for c in await host.controls_for(game_id=record.id, user_id=user)
                    if c.prompt.secret
                ]
                if private or pending:
                    title = (await host.table(record.id)).title
                    lines.append(f"**{title}**")
                    lines += [private] if private else []
                    lines += [f"Waiting for you: {c.prompt.text}" for c in pending]
                    controls += pending
            if not lines:
                raise UserError("Nothing private is waiting for you in this server's games.")
            return Reply("\n".join(lines), controls=tuple(controls[:5]))

        await self.bot.run_work(interaction, work)


class Notify(commands.Cog):
    @app_commands.command(name="notify", description="How the bot calls you to play")
    @app_commands.describe(when="Every turn, reminders only, or nothing")
    @app_commands.choices(
        when=[
            app_commands.Choice(name="every turn (mention) and reminders", value="turns"),
            app_commands.Choice(name="reminders only", value="reminders"),
            app_commands.Choice(name="nothing", value="none"),
        ]
    )
    async def notify(self, interaction: discord.Interaction, when: str) -> None:
        await interaction.client.run_work(
            interaction, lambda: interaction.client.host.set_notify(
                user_id=interaction.user.id, choice=when
            )
        )  # fmt: skip


async def setup(bot: DragonBot) -> None:
    await bot.add_cog(Play(bot))
    await bot.add_cog(Notify())
