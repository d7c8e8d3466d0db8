"""The Discord bot: it only wires things together. Each cog owns its commands and its
listeners, :mod:`bot.discord.controls` every persistent control; :mod:`bot.discord.replies`
answers for all of them."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.discord import controls
from bot.discord.cogs import COGS
from bot.discord.delivery import Courier
from bot.discord.hosting import HostingBot
from bot.discord.markup import content
from bot.discord.replies import FAILED_TEXT, refusal_locale
from bot.discord.translator import CatalogTranslator
from bot.service.boards.picture_worker import Warmed
from bot.service.boards.pictures import Pictures
from bot.service.delivery.pacing import Pacer
from bot.service.doorbell import Doorbell
from bot.service.errors import UserError
from bot.service.garbage import ShortCollections
from bot.service.host import GameHost
from bot.service.text import Text, said
from bot.settings import Settings
from bot.store import open_store
from bot.web.server import WebServer
from games import render

log = logging.getLogger(__name__)

RATE_LIMIT_WAIT = 30.0
"""Seconds discord.py may keep one request waiting for a rate limit (its least)."""


class DragonBot(HostingBot):
    """A ``commands.Bot`` hosting the dragon games. Build it with :func:`create_bot`."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        intents = discord.Intents.default()
        intents.members = settings.members_intent
        # A rate limit discord.py would wait out longer than this is handed to the outbox,
        # which keeps the lane to it instead of holding a send (and its lane) that long.
        options.setdefault("max_ratelimit_timeout", RATE_LIMIT_WAIT)
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, **options
        )
        self.settings = settings
        self.courier: Courier = Courier(self)
        self._stopping: asyncio.Task[None] | None = None
        self.warming: asyncio.Task[Warmed | None] | None = None
        """The warm-up of the pictures drawn in this process's threads, while it runs."""
        self.collections: ShortCollections | None = None
        """Keeps this process's garbage collections short, when the process is the bot's."""
        self.web: WebServer | None = None
        """The game pages' server, when this process serves them (``WEB_PORT``)."""

    async def setup_hook(self) -> None:
        games.use_overrides(self.settings.data_overrides)
        store = await open_store(self.settings.database)
        seeds = random.Random(self.settings.seed) if self.settings.seed is not None else None
        self.pictures = (
            Pictures(self.settings.render_workers, self.settings.data_overrides)
            if self.settings.render_workers
            else None
        )
        drawer = self.pictures.draw if self.pictures else None
        animator = self.pictures.animate if self.pictures else None
        # The host rings the doorbell when it stores notices or moves a deadline; the
        # outbox and the scheduler listen to it from the moment they are built.
        self.doorbell = Doorbell()
        self.host = GameHost(
            store, doorbell=self.doorbell, renderer=render, drawer=drawer, animator=animator,
            clock=_now, seeds=seeds, web_url=self.settings.web_url,
        )  # fmt: skip
        self.host.computer_delay = self.settings.computer_delay
        # Fonts, backgrounds and layouts load now, not on each game's first board, and the
        # bot does not wait for them: the workers warm themselves as they start, or a thread
        # warms this process's renderers when boards are drawn here.
        if self.pictures is not None:
            self.pictures.start()
        else:
            self.warming = asyncio.create_task(self.host.drawing.warm())
        # Sends keep to Discord's pace, so a busy channel gets its newest state, not a queue.
        pacer = Pacer() if self.settings.paced else None
        self.outbox = self.host.new_outbox(self.courier, pacer=pacer)
        self.scheduler = self.host.new_scheduler(self.outbox.flush_outcome, clock=_now)
        controls.register(self)
        for cog in COGS:
            await self.load_extension(cog)
        self.tree.error(self.on_app_command_error)
        # Commands are synced with their names and descriptions in every shipped language.
        await self.tree.set_translator(CatalogTranslator(self.tree))
        await self._sync_commands()
        if self.settings.shard_ids is not None:
            # A process of a cluster: the others on the database wake it when they move a
            # deadline or store notices (listening begins before the first look, so nothing
            # falls between). A bot alone pokes itself and needs no listening connection.
            await store.subscribe(self._woken)
        self.outbox.start()
        self.scheduler.start()
        if self.settings.short_collections:
            admission = self.host.admission
            self.collections = ShortCollections(quiet=lambda: admission.in_flight == 0)
            self.collections.start()
        if self.settings.web_port is not None:
            self.web = WebServer(
                self.host.pages,
                self.settings.web_host,
                self.settings.web_port,
                languages=self.host.languages,
            )
            await self.web.start()
            log.info("game pages served on port %d", self.web.port)

    def _woken(self, kind: str) -> None:
        """A write (of any process sharing the store) moved a deadline or stored notices."""
        if kind == "clock":
            self.scheduler.poke()
        elif kind == "outbox":
            self.outbox.poke()
        self.host.pages.follows.poke()  # a page following the game sees it at once

    async def _sync_commands(self) -> None:
        if self.settings.sync_guild:
            guild = discord.Object(self.settings.sync_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        """Stop in order, once: the turn clock starts nothing more (firings under way
        finish), the outbox takes no lane (a send under way finishes, its claims are
        released), the gateway closes so no new interaction comes, and only then the store
        and the picture workers close. Whatever was stored and not sent is sent after the
        next start; a click answered meanwhile is told its post is delayed."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self._stop_in_order())
        await asyncio.shield(self._stopping)

    async def _stop_in_order(self) -> None:
        if self.warming is not None:
            self.warming.cancel()  # its thread ends on its own; nothing waits for it
        for worker in (getattr(self, "scheduler", None), getattr(self, "outbox", None)):
            if worker is not None:
                await worker.stop()
        await super().close()
        if self.web is not None:
            await self.web.close()
        host = getattr(self, "host", None)
        if host is not None:
            await host.close()
        pictures = getattr(self, "pictures", None)
        if pictures is not None:
            await pictures.close()
        if self.collections is not None:
            await self.collections.stop()

    async def on_app_command_error(
        self, interaction: discord.Interaction[DragonBot], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            told: str | Text = "⚠️ " + original.text
        elif isinstance(error, app_commands.MissingPermissions):
            told = "⚠️ " + said(
                "You are missing {permissions} permission(s) to run this command.",
                permissions=_listed(error.missing_permissions),
            )
        elif isinstance(error, app_commands.CheckFailure):
            told = f"⚠️ {error}"
        else:
            log.exception("command failed", exc_info=original)
            told = FAILED_TEXT
        text = content(told, None, await refusal_locale(interaction))
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


def _listed(permissions: list[str]) -> str:
    """Permissions as Discord's settings name them, listed as discord.py lists them
    (``Manage Server``, ``Kick Members and Ban Members``)."""
    names = [p.replace("_", " ").replace("guild", "server").title() for p in permissions]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _now() -> float:
    """Seconds since the epoch, from discord.py's clock (which tests can simulate)."""
    return discord.utils.utcnow().timestamp()


class ShardedDragonBot(DragonBot, commands.AutoShardedBot):
    """The same bot run as ``shard_count`` shards, all in this process or only its
    ``shard_ids``. Games, their DMs (which Discord sends on shard 0) and the buttons clicked
    in them all meet in one host per process; processes running other shards share the
    PostgreSQL database, whose claims and wake-ups split the deadlines and notices."""


def create_bot(settings: Settings) -> DragonBot:
    """The bot for ``settings`` (sharded when ``settings.shard_count`` is set, running only
    ``settings.shard_ids`` when they are); nothing connects until it is started."""
    if settings.shard_count is None:
        return DragonBot(settings)
    shard_ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedDragonBot(settings, shard_count=settings.shard_count, shard_ids=shard_ids)
