"""``/server``: what only a member with *Manage Server* may change, for the whole server.

A top-level group, because Discord hides a command from members without the permission
(``default_member_permissions``) only on top-level commands, never on a subcommand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.game import TIMEOUT_CHOICES
from bot.discord.cogs.language import LANGUAGE_CHOICES, chosen
from bot.discord.replies import answer, server_of
from bot.service.notices import Reply

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ServerAdmin(
    commands.GroupCog,
    group_name="server",
    group_description="Manage Server: settings for the games of this server",
):
    """The ``/server`` commands."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="defaults",
        description="The turn clock, threads, web pages and language of this server's games",
    )
    @app_commands.describe(
        hours="Hours per turn (0: no limit)",
        reminder="Hours before the end to remind the player (0: none)",
        on_timeout="What a timed-out turn does",
        threads="Play each new game in a thread of its own",
        pages="Web pages for the games (off: every page stops working at once)",
        playing_hours="Daily hours the clock runs, e.g. 9-22 (off: around the clock)",
        playing_days="Days the clock runs, e.g. mon-fri or sat,sun (all: every day)",
        timezone="Time zone of the playing hours, e.g. Europe/Paris",
        language="The language of the games' posts (Discord: the server's own)",
    )
    @app_commands.choices(on_timeout=TIMEOUT_CHOICES, language=LANGUAGE_CHOICES)
    # Discord hides the command from members without the permission; a server may still
    # grant it to others, so the check stays.
    @app_commands.checks.has_permissions(manage_guild=True)
    async def defaults(
        self,
        interaction: discord.Interaction[HostingBot],
        hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        reminder: app_commands.Range[float, 0, 24 * 60] | None = None,
        on_timeout: str | None = None,
        threads: bool | None = None,
        pages: bool | None = None,
        playing_hours: app_commands.Range[str, 0, 40] | None = None,
        playing_days: app_commands.Range[str, 0, 60] | None = None,
        timezone: app_commands.Range[str, 0, 60] | None = None,
        language: str | None = None,
    ) -> None:
        async def work() -> Reply:
            host = self.bot.host
            reply = await host.turn_clock.set_server_timing(
                guild_id=server_of(interaction), limit_hours=hours, reminder_hours=reminder,
                on_timeout=on_timeout, playing_hours=playing_hours, playing_days=playing_days,
                timezone=timezone,
            )  # fmt: skip
            if threads is not None:
                more = await host.turn_clock.set_server_threads(
                    guild_id=server_of(interaction), on=threads
                )
                reply = Reply(reply.text + "\n" + more.text, private=False)
            if pages is not None:
                more = await host.pages.switch(guild_id=server_of(interaction), on=pages)
                reply = Reply(reply.text + "\n" + more.text, private=False)
            if language is not None:
                told = await host.languages.set_server(
                    server_of(interaction), interaction.user.id, chosen(language),
                    is_admin=interaction.permissions.manage_guild,
                )  # fmt: skip
                reply = Reply(reply.text + "\n" + told, private=False)
            return reply

        await answer(interaction, work)


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(ServerAdmin(bot))
