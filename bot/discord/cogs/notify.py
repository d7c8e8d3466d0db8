"""``/notify``: how the bot calls a player, event by event (works in DMs too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.replies import answer
from bot.service.delivery import calls

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


class Notify(commands.Cog):
    """The ``/notify`` command."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description="How the bot calls you, event by event")
    @app_commands.describe(
        event="The event to set (with how); leave both out to see your settings",
        how="A mention in the game's channel, a DM, both, or nothing",
        when="The older choice: every turn, reminders only, or nothing",
        quiet="Quiet hours on your clock, e.g. 22-8 (no DM, no ping then); off removes them",
        timezone="Your time zone for quiet hours, an IANA name such as Europe/Paris",
        digest="One DM every N hours of the games waiting for you, not one per turn; 0 stops it",
        watching="One DM every N hours with the newest boards of games you watch; 0: each board",
    )
    @app_commands.choices(
        event=[app_commands.Choice(name=name, value=e) for e, name in calls.EVENTS.items()],
        how=[
            app_commands.Choice(name="mention in the game's channel", value=calls.MENTION),
            app_commands.Choice(name="DM", value=calls.DM),
            app_commands.Choice(name="both", value=calls.BOTH),
            app_commands.Choice(name="neither", value=calls.NONE),
        ],
        when=[
            app_commands.Choice(name="every turn (mention) and reminders", value="turns"),
            app_commands.Choice(name="reminders only", value="reminders"),
            app_commands.Choice(name="nothing", value="none"),
        ],
    )
    async def notify(
        self,
        interaction: discord.Interaction[HostingBot],
        event: str | None = None,
        how: str | None = None,
        when: str | None = None,
        quiet: str | None = None,
        timezone: str | None = None,
        digest: app_commands.Range[int, 0, 168] | None = None,
        watching: app_commands.Range[int, 0, 168] | None = None,
    ) -> None:
        user_id = interaction.user.id
        host = self.bot.host
        if digest is not None or watching is not None:
            kind = "turns" if digest is not None else "watching"
            every = digest if digest is not None else watching or 0
            await answer(
                interaction,
                lambda: host.turn_clock.set_digest(user_id=user_id, hours=every, kind=kind),
            )
            return
        if quiet is not None or timezone is not None:
            await answer(
                interaction,
                lambda: host.turn_clock.set_quiet(user_id=user_id, hours=quiet, zone=timezone),
            )
            return
        if event is None and how is None:
            if when is not None:
                await answer(
                    interaction, lambda: host.turn_clock.set_notify(user_id=user_id, choice=when)
                )
            else:
                await answer(interaction, lambda: host.turn_clock.show_calls(user_id=user_id))
            return
        chosen_event, chosen_how = event or "", how or ""
        await answer(
            interaction,
            lambda: host.turn_clock.set_call(user_id=user_id, event=chosen_event, how=chosen_how),
        )


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(Notify(bot))
