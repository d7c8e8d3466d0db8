"""``/rules``: a game's rules as one private message with a menu of its sections.

The message shows one section (its rules summary, notation, readings, reconstructed data,
and on a server with corrected data the values it corrected and who did); choosing
another in the menu edits the message in place. The menu is a ``DynamicItem`` whose id
carries the game (``dh:rules:<game>``), so it keeps working after a restart.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import autocomplete as ac
from bot.discord.markup import content
from bot.service.errors import UserError

if TYPE_CHECKING:
    from bot.discord.client import DragonBot
    from bot.service.server_data import Section

MAX_OPTIONS = 25
"""Discord's most options in one menu."""


def section_message(title: str, sections: list[Section], index: int) -> str:
    """The message showing section ``index`` of a game's rules."""
    index = min(max(index, 0), len(sections) - 1)
    head = f"**{title}: {sections[index].title}** ({index + 1}/{len(sections)})\n"
    return content(head + sections[index].text)


class SectionMenu(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dh:rules:(?P<game>[a-z0-9-]+)",
):
    """The menu of a game's rules sections; each option's value is a section's number."""

    def __init__(self, slug: str, sections: list[Section] | None = None, shown: int = 0) -> None:
        options = [
            discord.SelectOption(
                label=section.title[:100], value=str(index), default=index == shown
            )
            for index, section in enumerate((sections or [])[:MAX_OPTIONS])
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dh:rules:{slug}",
                placeholder="Choose a section of the rules",
                options=options or [discord.SelectOption(label="-")],
            )
        )
        self.slug = slug

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> SectionMenu:
        menu = cls(match["game"])
        menu.chosen = list(getattr(item, "values", None) or [])
        return menu

    async def callback(self, interaction: discord.Interaction) -> None:
        values = getattr(self, "chosen", None) or (interaction.data or {}).get("values", [])
        index = int(values[0]) if values and str(values[0]).isdigit() else 0
        shown = await _shown(interaction, self.slug, index)
        if shown is None:
            return
        text, view = shown
        await interaction.response.edit_message(content=text, view=view)


async def _shown(
    interaction: discord.Interaction, slug: str, index: int
) -> tuple[str, discord.ui.View] | None:
    """The message and menu showing section ``index``; None (having answered) when the
    game is unknown."""
    host = interaction.client.host  # type: ignore[attr-defined]
    try:
        sections = await host.rules_sections(slug, interaction.guild_id)
        title = host.game_title(slug)
    except UserError as error:
        await interaction.response.send_message(content("⚠️ " + error.text), ephemeral=True)
        return None
    index = min(max(index, 0), len(sections) - 1)
    view = discord.ui.View(timeout=None)
    view.add_item(SectionMenu(slug, sections, index))
    return section_message(title, sections, index), view


class Rules(commands.Cog):
    """The ``/rules`` command and its section menu."""

    def __init__(self, bot: DragonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SectionMenu)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(SectionMenu)

    @app_commands.command(
        name="rules", description="How a game is played here, its notation and reconstructed parts"
    )
    @app_commands.describe(game="Which game's rules to show")
    @app_commands.autocomplete(game=ac.game_slugs)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        shown = await _shown(interaction, game.strip().lower(), 0)
        if shown is None:
            return
        text, view = shown
        await interaction.response.send_message(text, view=view, ephemeral=True)


async def setup(bot: DragonBot) -> None:
    await bot.add_cog(Rules(bot))
