"""The controls that end a game gracefully: an offer's Accept and Decline
(``dh:o:<game>:<version>:accept``, dying when the offer made at that version lapses) and
the confirmation of ``/game resign`` (``dh:r:<game>``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.controls.base import Control, custom_id, label_of
from bot.discord.replies import answer
from bot.service.endings import ACCEPT

if TYPE_CHECKING:
    from bot.discord.client import DragonBot


class OfferButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"dh:o:(?P<game>\d+):(?P<version>\d+):(?P<answer>accept|decline)",
):
    """Accept or Decline a draw offer or a takeback request made at one version."""

    def __init__(self, game_id: int, version: int, answer: str, label: str = "…") -> None:
        style = discord.ButtonStyle.success if answer == ACCEPT else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, custom_id=custom_id("dh:o", game_id, version, answer)
            )
        )
        self.game_id, self.version, self.answer = game_id, version, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OfferButton:
        game, version = int(match["game"]), int(match["version"])
        return cls(game, version, match["answer"], label_of(item, "…"))

    async def pressed(self, interaction: discord.Interaction[DragonBot]) -> None:
        host = interaction.client.host
        await answer(
            interaction,
            lambda: host.answer_offer(
                game_id=self.game_id, user_id=interaction.user.id, version=self.version,
                accept=self.answer == ACCEPT,
            ),
        )  # fmt: skip


class ResignButton(
    Control, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:r:(?P<game>\d+)"
):
    """Confirms ``/game resign`` (offered to the asker only)."""

    def __init__(self, game_id: int, label: str = "Yes, resign") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], emoji="🏳️", style=discord.ButtonStyle.danger,
                custom_id=custom_id("dh:r", game_id),
            )
        )  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResignButton:
        return cls(int(match["game"]))

    async def pressed(self, interaction: discord.Interaction[DragonBot]) -> None:
        host = interaction.client.host
        await answer(
            interaction,
            lambda: host.resign(game_id=self.game_id, user_id=interaction.user.id, confirmed=True),
        )
