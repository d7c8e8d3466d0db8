"""Delivering the host's notices on Discord: replies, channel posts and private messages.

Private messages go by DM. When a user's DMs are closed (Discord error 50007) that is
remembered, the channel is told (without any secret) and offered a button that opens the
choice as an ephemeral message, which only that player can see.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.discord.cogs.play import OpenPrivateButton, controls_view
from bot.discord.markup import content
from bot.service.errors import UserError
from bot.service.notices import ChannelPost, Outcome, PrivateMessage, Reply, StatusUpdate
from bot.service.text import Text

if TYPE_CHECKING:
    from bot.discord.client import DragonBot

log = logging.getLogger(__name__)

CANNOT_DM = 50007


def _file(image: bytes | None) -> discord.File | None:
    return discord.File(io.BytesIO(image), filename="board.png") if image else None


def _kwargs(text: str | Text, image: bytes | None, controls: tuple) -> dict:
    kwargs: dict = {"content": content(text)}
    if image:
        kwargs["file"] = _file(image)
    view = controls_view(controls)
    if view is not None:
        kwargs["view"] = view
    return kwargs


class Courier:
    """Sends notices for one bot."""

    def __init__(self, bot: DragonBot) -> None:
        self.bot = bot

    async def deliver(
        self, outcome: Outcome, interaction: discord.Interaction | None = None, ack: str = ""
    ) -> None:
        """Send every notice; the asker gets ``ack`` if nothing else answered them."""
        answered = False
        for notice in outcome.notices:
            if isinstance(notice, Reply):
                answered |= await self._reply(interaction, notice)
            elif isinstance(notice, ChannelPost):
                await self.post(notice)
            elif isinstance(notice, PrivateMessage):
                answered |= await self._private(notice, interaction)
            elif isinstance(notice, StatusUpdate):
                await self.status(notice)
        if interaction is not None and not answered and ack:
            await interaction.followup.send(ack, ephemeral=True)

    async def _reply(self, interaction: discord.Interaction | None, reply: Reply) -> bool:
        if interaction is None:
            return False
        await interaction.followup.send(
            ephemeral=reply.private, **_kwargs(reply.text, reply.image, reply.controls)
        )
        return True

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel  # type: ignore[return-value]

    async def post(self, post: ChannelPost) -> discord.Message | None:
        channel = await self.channel(post.channel_id)
        if channel is None:
            return None
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in post.mentions]
        )
        message = await channel.send(
            allowed_mentions=mentions, **_kwargs(post.text, post.image, post.controls)
        )
        if post.image:
            await self.bot.host.remember_message(post.game_id, "board", message.id)
        if post.final and isinstance(channel, discord.Thread):
            await channel.edit(archived=True)
        return message

    async def open_thread(self, channel_id: int, title: str) -> discord.Thread:
        """A public thread for one game, under the channel where it was opened."""
        channel = await self.channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise UserError("Games get a thread of their own only in a text channel.")
        return await channel.create_thread(
            name=title[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )

    async def status(self, update: StatusUpdate) -> None:
        """Edit the game's status message in place; post a new one if it is gone."""
        channel = await self.channel(update.channel_id)
        if channel is None:
            return
        quiet = discord.AllowedMentions.none()
        if update.message_id:
            try:
                await channel.get_partial_message(update.message_id).edit(
                    content=content(update.text), allowed_mentions=quiet
                )
                return
            except discord.NotFound:
                pass
        message = await channel.send(content(update.text), allowed_mentions=quiet)
        await self.bot.host.remember_message(update.game_id, "status", message.id)

    async def _private(
        self, message: PrivateMessage, interaction: discord.Interaction | None
    ) -> bool:
        """Deliver one private message; True if it answered the interaction's user."""
        host = self.bot.host
        asker = interaction is not None and interaction.user.id == message.user_id
        if asker and (interaction.guild is None or await host.dms_closed(message.user_id)):
            await interaction.followup.send(
                ephemeral=True, **_kwargs(message.text, message.image, message.controls)
            )
            return True
        if not await host.dms_closed(message.user_id):
            try:
                user = self.bot.get_user(message.user_id) or await self.bot.fetch_user(
                    message.user_id
                )
                await user.send(**_kwargs(message.text, message.image, message.controls))
                return False
            except discord.Forbidden as error:
                if error.code != CANNOT_DM:
                    raise
                await host.mark_dms_closed(message.user_id)
        if asker:
            await interaction.followup.send(
                ephemeral=True, **_kwargs(message.text, message.image, message.controls)
            )
            return True
        if message.controls:
            await self._dm_fallback(message)
        return False

    async def _dm_fallback(self, message: PrivateMessage) -> None:
        channel = await self.channel(message.channel_id) if message.channel_id else None
        if channel is None:
            return
        view = discord.ui.View(timeout=None)
        view.add_item(OpenPrivateButton(message.game_id))
        await channel.send(
            f"<@{message.user_id}>, I can't send you direct messages, so your private choice "
            f"for game #{message.game_id} is behind the button below (only you will see it). "
            "`/hand` opens it too.",
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(message.user_id)]),
        )
