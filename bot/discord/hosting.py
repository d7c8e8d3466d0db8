"""The bot as the Discord frontend's parts see it: the host it fronts, the outbox that sends
what the host stored, and the courier that answers a click and opens a game's thread.

:class:`bot.discord.client.DragonBot` is the real one. The cogs, controls, replies and
delivery name only :class:`HostingBot`, so none of them imports the client back: the client
imports them.
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord.ext import commands

from bot.service.delivery.outbox import Outbox
from bot.service.host import GameHost
from bot.service.notices import Outcome


class Answering(Protocol):
    """What answers a click with its outcome and opens threads (the client's courier)."""

    async def answer(
        self, interaction: discord.Interaction[HostingBot], outcome: Outcome, ack: str
    ) -> None: ...

    async def open_thread(self, channel_id: int, title: str) -> discord.Thread: ...


class HostingBot(commands.Bot):
    """A ``commands.Bot`` that fronts a game host (built by the client's setup hook)."""

    host: GameHost
    outbox: Outbox
    courier: Answering
