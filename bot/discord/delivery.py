"""Sending the host's notices on Discord: channel posts, DMs, status edits, and the answer
to the asker.

The outbox (:mod:`bot.service.delivery.outbox`) decides what to send and when; :class:`Courier` only
knows how, and which Discord failures are transient (try again later; a rate limit longer
than discord.py waits out by itself also slows the lane's pace), a permission the
bot lacks in a channel (a 403: tried again until granted, the hosts told what to grant) or
lasting (the channel is gone, a 404; DMs are closed, error 50007, remembered per user).
Private messages go only by DM; with DMs closed the channel is told, without any secret,
that the choice waits behind a button only that player can open.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.discord.cards import card, is_card, rows_of, split
from bot.discord.controls.endings import settle_offer_post
from bot.discord.controls.play import open_private_view
from bot.discord.controls.views import controls_view
from bot.discord.markup import content, markup, writing
from bot.discord.replies import reader_locale, server_locale
from bot.service import wire
from bot.service.boards.alt_text import board_alt, clip
from bot.service.delivery.outbox import (
    ChannelGone,
    Delivery,
    DmsClosed,
    NoAccess,
    TryLater,
    Undeliverable,
)
from bot.service.errors import UserError
from bot.service.notices import (
    Board,
    ChannelPost,
    Controls,
    Outcome,
    PrivateFallback,
    PrivateMessage,
    StatusUpdate,
)
from bot.service.text import Mention, Text, said
from i18n import Locale

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

log = logging.getLogger(__name__)

CANNOT_DM = 50007
"""Discord's code for "Cannot send messages to this user" (their DMs are closed)."""
NOT_OURS_TO_EDIT = 50005
"""Discord's code for "Cannot edit a message authored by another user": a turn post's edit
refused so is posted anew at once; any other refusal is tried again first."""

PostChannel = (
    discord.TextChannel
    | discord.VoiceChannel
    | discord.StageChannel
    | discord.Thread
    | discord.DMChannel
    | discord.PartialMessageable
)
"""The channels a game's posts go to: those whose messages can be sent and edited."""

NEEDED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
}
"""The permissions the bot needs in a game's channel, by their names in Discord's settings."""
IN_THREADS = {"send_messages_in_threads": "Send Messages in Threads"}
"""What a game in a thread needs besides."""
HOW_TO_GRANT = (
    "A server admin can grant them in the channel's settings (Edit Channel, Permissions: "
    "add my role or me and allow them), or to my role in Server Settings, Roles."
)


@dataclass(frozen=True)
class _Plain:
    """A notice as a plain message: its text, its boards' pictures, its controls."""

    content: str
    files: tuple[discord.File, ...] = ()
    view: discord.ui.View | None = None


@dataclass(frozen=True)
class _Card:
    """A post as a card: its layout, and the picture drawn for it (None: no new one)."""

    view: discord.ui.LayoutView
    file: discord.File | None = None

    @property
    def files(self) -> tuple[discord.File, ...]:
        return (self.file,) if self.file is not None else ()


async def _send(
    to: discord.abc.Messageable,
    message: _Plain | _Card,
    nonce: str,
    mentions: discord.AllowedMentions,
) -> discord.Message:
    """Send ``message``: discord.py takes a card's layout only without text, and a view
    or pictures only when there are some, so each shape has its own call."""
    files = list(message.files)
    if isinstance(message, _Card):
        if files:
            return await to.send(
                files=files, view=message.view, nonce=nonce, allowed_mentions=mentions
            )
        return await to.send(view=message.view, nonce=nonce, allowed_mentions=mentions)
    text, view = message.content, message.view
    if view is None:
        if files:
            return await to.send(text, files=files, nonce=nonce, allowed_mentions=mentions)
        return await to.send(text, nonce=nonce, allowed_mentions=mentions)
    if files:
        return await to.send(text, files=files, view=view, nonce=nonce, allowed_mentions=mentions)
    return await to.send(text, view=view, nonce=nonce, allowed_mentions=mentions)


async def _edit(posted: discord.PartialMessage, message: _Plain | _Card) -> None:
    """Make ``posted`` show ``message`` instead, pinging nobody; a picture it already
    carries stays unless ``message`` brings a new one."""
    text = message.content if isinstance(message, _Plain) else None
    quiet = discord.AllowedMentions.none()
    if message.files:
        files = list(message.files)
        await posted.edit(
            content=text, view=message.view, attachments=files, allowed_mentions=quiet
        )
    else:
        await posted.edit(content=text, view=message.view, allowed_mentions=quiet)


async def _reply(
    followup: discord.Webhook, message: _Plain, *, private: bool, quiet: discord.AllowedMentions
) -> None:
    """Answer the asker with ``message`` (seen by them alone when ``private``)."""
    files = list(message.files)
    if message.view is None:
        await followup.send(message.content, files=files, ephemeral=private, allowed_mentions=quiet)
    else:
        await followup.send(
            message.content, files=files, view=message.view, ephemeral=private,
            allowed_mentions=quiet,
        )  # fmt: skip


class Courier:
    """Sends one bot's notices (the outbox's ``send``) and answers interactions."""

    def __init__(self, bot: HostingBot) -> None:
        self.bot = bot

    # -- answering the asker -----------------------------------------------------------

    async def answer(
        self, interaction: discord.Interaction[HostingBot], outcome: Outcome, ack: str
    ) -> None:
        """Send the notices of ``outcome`` that may go now, then answer the asker (with
        ``ack`` if no reply does). The action is stored already: a post that cannot go
        now follows from the outbox, and the asker is told so."""
        sent = await self.bot.outbox.flush_outcome(outcome)
        replies = outcome.replies
        reader = await reader_locale(interaction)
        for reply in replies:
            quiet = discord.AllowedMentions.none() if reply.quiet else discord.utils.MISSING
            # A public reply is read by the whole channel: it speaks the server's language.
            locale = reader if reply.private else await server_locale(interaction)
            message = await self._message(reply.text, reply.board, reply.controls, locale)
            await _reply(interaction.followup, message, private=reply.private, quiet=quiet)
        late = said("The channel post is delayed; it will follow shortly.")
        note = Text() if sent else "\n" + late
        if (ack and not replies) or note:
            told = (ack or "✅ " + said("Done.")) + note
            await interaction.followup.send(content(told, self._server, reader), ephemeral=True)

    # -- the outbox's sender -----------------------------------------------------------

    async def __call__(self, delivery: Delivery) -> int | None:
        notice = delivery.notice
        try:
            match notice:
                case ChannelPost():
                    return await self._post(notice, delivery)
                case StatusUpdate():
                    return await self._status(notice, delivery)
                case PrivateMessage():
                    return await self._dm(notice, delivery)
                case PrivateFallback():
                    return await self._fallback(notice, delivery)
        except discord.RateLimited as error:
            # Discord asked for a longer wait than discord.py keeps a request waiting: the
            # lane (or, with no lane, every send) keeps to it, and the notice waits its turn.
            pacer = self.bot.outbox.pacer
            if pacer is not None:
                pacer.slow_down(wire.lane(notice), error.retry_after)
            raise TryLater(f"Discord 429: retry after {error.retry_after:.0f} s") from error
        except discord.DiscordServerError as error:
            raise TryLater(f"Discord {error.status}") from error
        except (TimeoutError, aiohttp.ClientError, OSError) as error:
            raise TryLater(repr(error)) from error
        except discord.Forbidden as error:
            # A channel refusing a permission is still there: someone can grant it.
            channel_id = getattr(notice, "channel_id", 0)
            if isinstance(notice, PrivateMessage) or not channel_id:
                raise Undeliverable(f"Discord 403 {error.code}: {error.text}") from error
            lacking = self._lacking(channel_id)
            raise NoAccess(
                channel_id, lacking or self._needed(channel_id), known=bool(lacking),
                how=HOW_TO_GRANT, reason=error.text or f"Discord 403 {error.code}",
            ) from error  # fmt: skip
        except discord.NotFound as error:
            channel_id = getattr(notice, "channel_id", 0)
            if isinstance(notice, PrivateMessage) or not channel_id:
                raise Undeliverable(f"Discord 404 {error.code}: {error.text}") from error
            raise ChannelGone(channel_id, f"Discord 404 {error.code}") from error
        except discord.HTTPException as error:
            if error.status == 429 or error.status >= 500:
                raise TryLater(f"Discord {error.status}") from error
            raise Undeliverable(f"Discord {error.status} {error.code}: {error.text}") from error
        raise TypeError(f"cannot send {notice!r}")

    async def _post(self, post: ChannelPost, delivery: Delivery) -> int | None:
        channel = await self._channel(post.channel_id)
        if post.settles is not None:
            with writing(delivery.locale):  # the offer's post is in the server's language
                return await settle_offer_post(channel, post)
        if post.edit and delivery.board_message_id:
            edited = await self._edit_turn_post(
                channel, post, delivery.board_message_id, delivery.locale, lasting=delivery.retried
            )
            if edited is not None:
                return edited
        if post.passed:
            return None  # the passed turn's post is gone: no controls are left to take away
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in post.mentions]
        )
        try:
            posted = await self._posted(post, delivery.locale)
            message = await _send(channel, posted, delivery.nonce, mentions)
        except discord.NotFound as error:
            raise ChannelGone(post.channel_id, f"Discord {error.status} {error.code}") from error
        if post.final and isinstance(channel, discord.Thread):
            try:
                await channel.edit(archived=True)
            except discord.HTTPException as error:
                # The final post is out; a thread left open is no reason to send it again.
                log.info("could not archive thread %s: %s", channel.id, error)
        return message.id

    async def _edit_turn_post(
        self,
        channel: PostChannel,
        post: ChannelPost,
        message_id: int,
        locale: Locale,
        *,
        lasting: bool,
    ) -> int | None:
        """Update the turn's post in place (its text, controls and, with a board, its
        picture); None if it is gone or may not be edited, so it is posted anew. Edits ping
        nobody, and an edit sent twice leaves the same message.

        A refused edit (403) is tried again first, as a refused post is: a refusal that
        passes must not leave the turn posted twice. One that comes again (``lasting``: the
        notice was tried before) is taken as this message refusing its edits, and the turn
        is posted anew, which a channel that still lets the bot post takes."""
        try:
            if is_card(post):
                kept = None if post.board else await self._attached(channel, message_id)
                message: _Plain | _Card = await self._card(post, locale, kept)
            else:
                message = await self._message(post.text, post.board, post.controls, locale)
            await _edit(channel.get_partial_message(message_id), message)
        except discord.NotFound:
            return None  # deleted: a post of its own says it all
        except discord.Forbidden as error:
            if error.code != NOT_OURS_TO_EDIT and not lasting:
                raise  # perhaps a permission refused for now: tried again, as a post is
            return None  # not ours to edit: a post of its own says it all
        return message_id

    async def _attached(self, channel: PostChannel, message_id: int) -> discord.Attachment | None:
        """The picture a post of ours already carries (its first attachment), which an
        edit without a new board keeps showing."""
        message = discord.utils.get(self.bot.cached_messages, id=message_id)
        if message is None:
            message = await channel.fetch_message(message_id)
        return message.attachments[0] if message.attachments else None

    async def _status(self, update: StatusUpdate, delivery: Delivery) -> int:
        """Edit the game's status message in place; post a new one if it is gone."""
        channel = await self._channel(update.channel_id)
        quiet = discord.AllowedMentions.none()
        status = card([content(update.text, self._server, delivery.locale)])
        if delivery.status_message_id:
            try:
                await channel.get_partial_message(delivery.status_message_id).edit(
                    content=None, view=status, allowed_mentions=quiet
                )
                return delivery.status_message_id
            except discord.NotFound:
                pass
        try:
            message = await channel.send(view=status, allowed_mentions=quiet, nonce=delivery.nonce)
        except discord.NotFound as error:
            raise ChannelGone(update.channel_id, f"Discord {error.status} {error.code}") from error
        return message.id

    async def _dm(self, message: PrivateMessage, delivery: Delivery) -> int:
        if await self.bot.host.dms_closed(message.user_id):
            raise DmsClosed(message.user_id, lasting=False, reason="DMs known to be closed")
        try:
            user = self.bot.get_user(message.user_id) or await self.bot.fetch_user(message.user_id)
            private = await self._private(message, delivery.locale)
            sent = await _send(user, private, delivery.nonce, discord.AllowedMentions.all())
        except discord.Forbidden as error:
            raise DmsClosed(
                message.user_id, lasting=error.code == CANNOT_DM, reason=f"Discord {error.code}"
            ) from error
        except discord.NotFound as error:
            raise DmsClosed(message.user_id, lasting=False, reason="no such user") from error
        return sent.id

    async def _private(self, message: PrivateMessage, locale: Locale) -> _Plain:
        first = message.boards[0] if message.boards else None
        return await self._message(
            message.text, first, message.controls, locale, message.boards[1:]
        )

    async def _fallback(self, fallback: PrivateFallback, delivery: Delivery) -> int:
        channel = await self._channel(fallback.channel_id)
        with writing(delivery.locale):
            view = open_private_view(fallback.game_id, fallback.user_id)
        text = said(
            "{player}, I can't send you direct messages, so your private choice for game "
            "#{game} is behind the button below (only you will see it). `/hand` opens it too.",
            player=Mention(fallback.user_id),
            game=fallback.game_id,
        )
        try:
            message = await channel.send(
                content(text, self._server, delivery.locale), view=view, nonce=delivery.nonce,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(fallback.user_id)]),
            )  # fmt: skip
        except discord.NotFound as error:
            raise ChannelGone(fallback.channel_id) from error
        return message.id

    # -- helpers -----------------------------------------------------------------------

    def _server(self, guild_id: int) -> str | None:
        """A server's name as the bot sees it (None when it is not in the server)."""
        guild = self.bot.get_guild(guild_id)
        return discord.utils.escape_markdown(guild.name) if guild is not None else None

    async def _channel(self, channel_id: int) -> PostChannel:
        """The channel ``channel_id``; ChannelGone if Discord no longer has it (discord's
        Forbidden if the bot may not see it), and TypeError (kept, tried again later) if it
        is no channel posts can go to."""
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.NotFound as error:
                raise ChannelGone(channel_id) from error
        if not isinstance(channel, PostChannel):
            raise TypeError(f"channel {channel_id} ({type(channel).__name__}) holds no posts")
        return channel

    def _needs(self, channel_id: int) -> dict[str, str]:
        """The permissions the bot needs in the channel: flag, name in Discord's settings."""
        if isinstance(self.bot.get_channel(channel_id), discord.Thread):
            return NEEDED | IN_THREADS
        return NEEDED

    def _needed(self, channel_id: int) -> tuple[str, ...]:
        return tuple(self._needs(channel_id).values())

    def _lacking(self, channel_id: int) -> tuple[str, ...]:
        """The permissions the bot lacks in the channel as far as its cache tells (none
        when the cache shows them all granted, or knows no such channel)."""
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return ()
        perms = channel.permissions_for(channel.guild.me)
        return tuple(n for flag, n in self._needs(channel_id).items() if not getattr(perms, flag))

    async def _posted(self, post: ChannelPost, locale: Locale) -> _Plain | _Card:
        """A channel post, written in ``locale``, as a card or as a plain message."""
        if is_card(post):
            return await self._card(post, locale)
        return await self._message(post.text, post.board, post.controls, locale)

    async def _card(
        self, post: ChannelPost, locale: Locale, kept: discord.Attachment | None = None
    ) -> _Card:
        """A post as a card written in ``locale``: its text around its board (drawn now,
        or the picture ``kept`` on the message it updates) and its controls in rows."""
        picture = (kept.filename, kept.description) if kept is not None else None
        drawn = await self._file(post.board, 0, locale) if post.board is not None else None
        if drawn is not None:
            picture = (drawn.filename, drawn.description)
        text = content(post.text, self._server, locale)
        story = content(post.story, self._server, locale) if post.story else ""
        with writing(locale):
            rows = rows_of(controls_view(post.controls))
        return _Card(card(split(text, story), picture, rows), drawn)

    async def _message(
        self,
        text: str | Text,
        board: Board | None,
        controls: tuple[Controls, ...],
        locale: Locale,
        more: tuple[Board, ...] = (),
    ) -> _Plain:
        """A notice as a plain message written in ``locale``: its text, its board's
        picture (and ``more`` boards' after it) and its controls when it has them."""
        boards = enumerate((board, *more))
        drawn = [await self._file(b, n, locale) for n, b in boards if b is not None]
        files = tuple(f for f in drawn if f is not None)
        with writing(locale):
            view = controls_view(controls)
        return _Plain(content(text, self._server, locale), files, view)

    async def _file(self, board: Board, index: int, locale: Locale) -> discord.File | None:
        """``board``'s picture (its own words) and its alt text, written in ``locale``, as an
        attachment (None: not drawn)."""
        image = await self.bot.host.drawing.draw(board, locale)
        if not image:
            return None
        name = "board.png" if not index else f"board-{index + 1}.png"
        alt = clip(markup(board_alt(board), None, locale))
        return discord.File(io.BytesIO(image), filename=name, description=alt)

    async def open_thread(self, channel_id: int, title: str) -> discord.Thread:
        """A public thread for one game, under the channel where it was opened."""
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise UserError("Games get a thread of their own only in a text channel.")
        return await channel.create_thread(
            name=title[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
