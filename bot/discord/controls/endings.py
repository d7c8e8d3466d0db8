"""The controls that end a game gracefully: an offer's Accept and Decline
(``dh:o:<game>:<version>:accept``, dying when the offer made at that version lapses) and
the confirmation of ``/game resign`` (``dh:r:<game>``)."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord

from bot.discord.controls.base import Clicked, Control, ViewButton, custom_id, label_of, shown
from bot.discord.markup import content
from bot.discord.replies import answer, server_locale
from bot.service.notices import ChannelPost
from bot.service.play.endings import ACCEPT
from bot.service.text import Text, said

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

log = logging.getLogger(__name__)


class OfferButton(
    Control,
    discord.ui.DynamicItem[ViewButton],
    template=r"dh:o:(?P<game>\d+):(?P<version>\d+):(?P<answer>accept|decline)",
):
    """Accept or Decline a draw offer or a takeback request made at one version."""

    def __init__(self, game_id: int, version: int, answer: str, label: str | Text = "…") -> None:
        style = discord.ButtonStyle.success if answer == ACCEPT else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=shown(label, 80), style=style,
                custom_id=custom_id("dh:o", game_id, version, answer),
            )
        )  # fmt: skip
        self.game_id, self.version, self.answer = game_id, version, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> OfferButton:
        game, version = int(match["game"]), int(match["version"])
        return cls(game, version, match["answer"], label_of(item, "…"))

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        host = interaction.client.host
        # The offer's post is the answer: it shows where the offer stands after the click
        # (a refusal or a private line still comes back to the clicker alone).
        await answer(
            interaction,
            lambda: host.endings.answer_offer(
                game_id=self.game_id, user_id=interaction.user.id, version=self.version,
                accept=self.answer == ACCEPT,
            ),
            quiet=True,
        )  # fmt: skip
        await show_standing(interaction, self.game_id, self.version)


async def show_standing(
    interaction: discord.Interaction[HostingBot], game_id: int, version: int
) -> None:
    """Update the clicked offer post to say where the offer made at ``version`` stands, in
    the server's language as the post is; it keeps Accept and Decline only while the offer
    still waits for answers."""
    message = interaction.message
    if message is None:
        return
    try:
        standing = await interaction.client.host.endings.offer_standing(
            game_id=game_id, version=version
        )
        locale = await server_locale(interaction)
    except Exception:
        log.exception("reading where the offer of game %s stands failed", game_id)
        return
    text = _with_standing(message.content, content(standing.line, None, locale))
    if standing.waiting and text == message.content:
        return
    view = discord.utils.MISSING if standing.waiting else None
    try:
        await interaction.edit_original_response(
            content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException as error:
        log.info("could not update the offer post %s: %s", message.id, error)


RECENT = 50
"""How far back in a channel an offer's post is looked for when it is settled."""


async def settle_offer_post(channel: discord.abc.Messageable, post: ChannelPost) -> int | None:
    """Put ``post.text`` (written in the language :func:`~bot.discord.markup.writing` is
    in: the server's, as the offer's post) under the post offering the offer made at
    ``post.settles`` and take its Accept and Decline away; the post's id, or None when no
    such post with live buttons is among the channel's recent messages (settled already
    by a click, or gone)."""
    prefix = custom_id("dh:o", post.game_id, post.settles) + ":"
    try:
        async for message in channel.history(limit=RECENT):
            ids = [getattr(c, "custom_id", None) or "" for row in message.components
                   for c in getattr(row, "children", ())]  # fmt: skip
            if any(i.startswith(prefix) for i in ids):
                await message.edit(
                    content=_with_standing(message.content, content(post.text)), view=None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )  # fmt: skip
                return int(message.id)
    except discord.HTTPException as error:
        # Settling is a courtesy to the reader: a click on the offer still answers right.
        log.info("could not settle the offer post of game %s: %s", post.game_id, error)
    return None


def _with_standing(offer_post: str, line: str) -> str:
    """The offer's post with ``line`` under the offer (in place of an earlier one)."""
    offer = offer_post.split("\n", 1)[0]
    return f"{offer}\n{line}" if line else offer


YES_RESIGN = said("Yes, resign")


class ResignButton(Control, discord.ui.DynamicItem[ViewButton], template=r"dh:r:(?P<game>\d+)"):
    """Confirms ``/game resign`` (offered to the asker only)."""

    def __init__(self, game_id: int, label: str | Text = YES_RESIGN) -> None:
        super().__init__(
            discord.ui.Button(
                label=shown(label, 80), emoji="🏳️", style=discord.ButtonStyle.danger,
                custom_id=custom_id("dh:r", game_id),
            )
        )  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> ResignButton:
        return cls(int(match["game"]))

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        host = interaction.client.host
        await answer(
            interaction,
            lambda: host.endings.resign(
                game_id=self.game_id, user_id=interaction.user.id, confirmed=True
            ),
        )
