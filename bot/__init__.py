"""The dragon game host: a Discord bot (and an offline local table) for four dragon games."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.discord.client import DragonBot
    from bot.settings import Settings


def create_bot(settings: Settings) -> DragonBot:
    """Build the Discord bot for ``settings`` (see :mod:`bot.discord.client`), with the
    log filters that keep secrets out of every log line (:mod:`bot.logs`)."""
    from bot import logs
    from bot.discord.client import create_bot as build

    logs.protect()
    return build(settings)
