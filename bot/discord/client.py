"""The Discord bot: built in ``setup_hook``, one cog per concern, thin handlers."""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.components import DYNAMIC_ITEMS, unstamp
from bot.discord.delivery import Courier
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import Controls, Outcome, Reply
from bot.service.scheduler import Scheduler
from bot.settings import Settings
from bot.store.sqlite import SqliteStore
from engines import data as engine_data
from render import render

log = logging.getLogger(__name__)

COGS = ("bot.discord.cogs.lobby", "bot.discord.cogs.play", "bot.discord.cogs.help")

Work = Callable[[], Awaitable[Outcome | Reply]]


class DragonBot(commands.Bot):
    """A ``commands.Bot`` hosting the dragon games. Build it with :func:`create_bot`."""

    host: GameHost

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.default()
        intents.members = settings.members_intent
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.settings = settings
        self.courier = Courier(self)

    async def setup_hook(self) -> None:
        engine_data.use_overrides(self.settings.data_overrides)
        store = await SqliteStore.open(self.settings.database)
        seeds = random.Random(self.settings.seed) if self.settings.seed is not None else None
        self.host = GameHost(
            store,
            renderer=render,
            clock=_now,
            seeds=seeds,
        )
        self.host.computer_delay = self.settings.computer_delay
        self.scheduler = Scheduler(self.host, self.courier.deliver, clock=_now)
        self.scheduler.start()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for cog in COGS:
            await self.load_extension(cog)
        self.tree.on_error = self.on_app_command_error
        await self._sync_commands()

    async def _sync_commands(self) -> None:
        if self.settings.sync_guild:
            guild = discord.Object(self.settings.sync_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        scheduler = getattr(self, "scheduler", None)
        if scheduler is not None:
            await scheduler.stop()
        host = getattr(self, "host", None)
        if host is not None:
            await host.store.close()
        await super().close()

    # -- the server changing under a game ----------------------------------------------

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.courier.deliver(await self.host.channel_gone(channel.id))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.courier.deliver(await self.host.channel_gone(payload.thread_id))

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        # Needs the Server Members intent (MEMBERS_INTENT=1); without it Discord never sends it.
        outcome = await self.host.member_left(guild_id=payload.guild_id, user_id=payload.user.id)
        await self.courier.deliver(outcome)

    # -- one way to answer every interaction -------------------------------------------

    async def run_work(
        self, interaction: discord.Interaction, work: Work, *, ack: str = "", public: bool = False
    ) -> None:
        """Defer, do ``work``, deliver its notices; a UserError becomes a private answer."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=not public, thinking=True)
        try:
            result = await work()
        except UserError as error:
            await interaction.followup.send(f"⚠️ {error}", ephemeral=True)
            return
        outcome = Outcome([result]) if isinstance(result, Reply) else result
        await self.courier.deliver(outcome, interaction, ack=ack)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            text = f"⚠️ {original}"
        elif isinstance(error, app_commands.CheckFailure):
            text = f"⚠️ {error}"
        else:
            log.exception("command failed", exc_info=original)
            text = "Something went wrong on my side; nothing was changed. Please try again."
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    # -- what buttons and menus do -----------------------------------------------------

    async def play_action(
        self, interaction: discord.Interaction, game_id: int, stamp: str, action: str
    ) -> None:
        await self.run_work(
            interaction,
            lambda: self.host.act(
                game_id=game_id, user_id=interaction.user.id, action=action, **unstamp(stamp)
            ),
            ack=f"✅ Played `{action}`.",
        )

    async def offer_group(
        self, interaction: discord.Interaction, game_id: int, stamp: str, group: str
    ) -> None:
        async def work() -> Reply:
            controls = await self._my_controls(interaction, game_id, unstamp(stamp).get("version"))
            picked = [
                Controls(
                    c.game_id,
                    c.version,
                    c.prompt,
                    tuple(ch for ch in c.choices if (ch.group or ch.action) == group),
                )
                for c in controls
            ]
            picked = [c for c in picked if c.choices]
            if not picked:
                raise UserError(f"Nothing to do with `{group}` now.")
            return Reply(f"Where to, from {group}?", controls=tuple(picked))

        await self.run_work(interaction, work)

    async def open_private(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work() -> Reply:
            controls = [
                c
                for c in await self.host.controls_for(game_id=game_id, user_id=interaction.user.id)
                if c.prompt.secret
            ]
            if not controls:
                raise UserError(f"No private choice is waiting for you in game #{game_id}.")
            text = "\n".join(c.prompt.text for c in controls)
            private = await self.host.private_text(game_id=game_id, user_id=interaction.user.id)
            return Reply(f"{text}\n{private}".strip(), controls=tuple(controls))

        await self.run_work(interaction, work)

    async def _my_controls(
        self, interaction: discord.Interaction, game_id: int, version: int | None
    ) -> list[Controls]:
        controls = await self.host.controls_for(game_id=game_id, user_id=interaction.user.id)
        if version is not None and controls and controls[0].version != version:
            raise UserError("That board has moved on; use the newest message.")
        if not controls:
            table = await self.host.table(game_id)
            if not table.record.seat_of(interaction.user.id):
                raise UserError(f"You are not playing in {table.title}.")
            raise UserError(f"It is not your turn in {table.title}.")
        return controls


def _now() -> float:
    """Seconds since the epoch, from discord.py's clock (which tests can simulate)."""
    return discord.utils.utcnow().timestamp()


def create_bot(settings: Settings) -> DragonBot:
    """The bot for ``settings``; nothing connects until it is started."""
    return DragonBot(settings)
