"""``/language``: the language the bot writes to a player in (their answers, DMs and seat
pages), or Discord's language of their app again."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.discord.replies import answer
from bot.service.notices import Reply
from i18n.locales import NAMES

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

FOLLOW_DISCORD = "discord"
"""The choice that follows Discord's language (the app's for a player, the server's for
a server) instead of a language chosen here."""

PICKED: tuple[i18n.Locale, ...] = ("en", "de", "fr", "es", "pt-BR")
"""The languages offered, each by its own name (the pseudo-locale is for tests only)."""

LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=NAMES[locale], value=locale) for locale in PICKED),
    app_commands.Choice(name="Follow Discord", value=FOLLOW_DISCORD),
]
"""The choices of a ``language:`` option; the languages' own names are never translated."""


def chosen(value: str) -> i18n.Locale | None:
    """The language a ``language:`` choice names; None to follow Discord's."""
    return None if value == FOLLOW_DISCORD else i18n.normalise(value)


class Language(commands.Cog):
    """The ``/language`` command."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    @app_commands.command(name="language", description="The language I write to you in")
    @app_commands.describe(language="Your language, or Discord's language of your app")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[HostingBot], language: str) -> None:
        async def work() -> Reply:
            told = await self.bot.host.languages.choose(interaction.user.id, chosen(language))
            return Reply(told)

        # The answer is written once the choice is stored: in the language just chosen.
        await answer(interaction, work)


async def setup(bot: HostingBot) -> None:
    await bot.add_cog(Language(bot))
