"""``/rules``'s menu of a game's sections: choosing one edits the message in place. Its id
carries the game (``dh:rules:<game>``)."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord

import i18n
from bot.discord.controls.base import Clicked, Control, ViewSelect, shown
from bot.discord.markup import content, writing
from bot.discord.replies import BUSY_TEXT, FAILED_TEXT, reader_locale, refusal_locale
from bot.service.errors import UserError
from bot.service.text import Text, said
from bot.store import StoreBusy

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot
    from bot.service.community.server_data import Section

log = logging.getLogger(__name__)

MAX_OPTIONS = 25
"""Discord's most options in one menu."""


def section_message(
    title: str, sections: list[Section], index: int, locale: i18n.Locale = i18n.DEFAULT
) -> str:
    """The message showing section ``index`` of a game's rules, written in ``locale``."""
    index = min(max(index, 0), len(sections) - 1)
    section = sections[index]
    head = Text.of("**", title, ": ", section.title, f"** ({index + 1}/{len(sections)})\n")
    return content(head + section.text, None, locale)


class SectionMenu(
    Control,
    discord.ui.DynamicItem[ViewSelect],
    template=r"dh:rules:(?P<game>[a-z0-9-]+)",
):
    """The menu of a game's rules sections; each option's value is a section's number."""

    def __init__(self, slug: str, sections: list[Section] | None = None, chosen: int = 0) -> None:
        options = [
            discord.SelectOption(
                label=shown(section.title, 100), value=str(index), default=index == chosen
            )
            for index, section in enumerate((sections or [])[:MAX_OPTIONS])
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dh:rules:{slug}",
                placeholder=shown(said("Choose a section of the rules"), 150),
                options=options or [discord.SelectOption(label="-")],
            )
        )
        self.slug = slug

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> SectionMenu:
        return cls(match["game"])

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        # discord.py fills in the chosen value before the callback.
        values = self.item.values
        index = int(values[0]) if values and str(values[0]).isdigit() else 0
        found = await rules_message(interaction, self.slug, index)
        if found is None:
            return
        text, view = found
        await interaction.response.edit_message(content=text, view=view)


async def rules_message(
    interaction: discord.Interaction[HostingBot], slug: str, index: int
) -> tuple[str, discord.ui.View] | None:
    """The message and menu showing section ``index`` of a game's rules, in the asker's
    language; None (having answered privately) when the game is unknown or the rules
    cannot be read now."""
    host = interaction.client.host
    why: Text
    try:
        locale = await reader_locale(interaction)
        sections = await host.server_data.rules_sections(slug, interaction.guild_id)
        title = host.server_data.game_title(slug)
    except UserError as error:
        why = "⚠️ " + error.text
    except StoreBusy:
        why = "⏳ " + BUSY_TEXT
    except Exception:
        log.exception("reading the rules of %s failed", slug)
        why = FAILED_TEXT
    else:
        index = min(max(index, 0), len(sections) - 1)
        view = discord.ui.View(timeout=None)
        with writing(locale):
            view.add_item(SectionMenu(slug, sections, index))
        return section_message(title, sections, index, locale), view
    told = content(why, None, await refusal_locale(interaction))
    await interaction.response.send_message(told, ephemeral=True)
    return None
