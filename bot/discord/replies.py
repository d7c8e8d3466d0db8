"""One way to answer every command and click: defer, run one host call, deliver."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypedDict, TypeVar

import discord

from bot.discord.markup import content
from bot.service.admission import Busy
from bot.service.boards.alt_text import file_alt
from bot.service.errors import UserError
from bot.service.history.story import File
from bot.service.notices import Outcome, Reply
from bot.service.text import visible
from bot.store import StoreBusy

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

Made = TypeVar("Made")

Work = Callable[[], Awaitable[Outcome | Reply]]

FAILED = "Something went wrong on my side; nothing was changed. Please try again."
BUSY = "The game store is busy right now; please try again in a moment."
DONE = "✅ Done."

log = logging.getLogger(__name__)


class Asked(TypedDict):
    """Where a request was made and who made it, as the host's calls take them."""

    guild_id: int | None
    channel_id: int | None
    user_id: int


def asked(interaction: discord.Interaction) -> Asked:
    """Where a request was made, as the host's calls take it: server, channel and user."""
    return {
        "guild_id": interaction.guild_id,
        "channel_id": interaction.channel_id,
        "user_id": interaction.user.id,
    }


class AskedInServer(TypedDict):
    """Where a request made in a server was made and who made it."""

    guild_id: int
    channel_id: int
    user_id: int


def server_of(interaction: discord.Interaction) -> int:
    """The server a command offered only in servers (``guild_only``) was used in; a
    UserError (never expected) if Discord sent one from elsewhere."""
    if interaction.guild_id is None:
        raise UserError("This command works only in a server channel.")
    return interaction.guild_id


def asked_in_server(interaction: discord.Interaction) -> AskedInServer:
    """:func:`asked` for a command offered only in servers (see :func:`server_of`)."""
    guild_id = server_of(interaction)
    if interaction.channel_id is None:
        raise UserError("This command works only in a server channel.")
    return {
        "guild_id": guild_id,
        "channel_id": interaction.channel_id,
        "user_id": interaction.user.id,
    }


async def answer(
    interaction: discord.Interaction[HostingBot],
    work: Work,
    *,
    ack: str = "",
    public: bool = False,
    quiet: bool = False,
) -> None:
    """Defer, do ``work``, deliver its notices; a UserError becomes a private answer.

    A host that is full refuses the request (:class:`Busy`, nothing done for it): the
    asker alone is told to try again in a moment (see :mod:`bot.service.admission`).

    ``ack`` answers the asker when no notice of ``work`` did (what it quotes of typed
    options shows their control characters visibly); ``public`` shows the reply to the
    whole channel. ``quiet`` (a clicked control whose answer is the post it
    updates or adds): the click is acknowledged without a "thinking…" message, and only
    a reply, a refusal or a delayed post is told to the clicker.
    """
    # Discord turns the first follow-up into the deferred reply, public or not: a public
    # "thinking…" is completed and taken away before a private line, so it stays private.
    waiting_publicly = False
    if not interaction.response.is_done():
        if quiet and interaction.type == discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=not public, thinking=True)
            waiting_publicly = public

    async def refuse(text: str) -> None:
        if waiting_publicly:
            await interaction.edit_original_response(content="…")
        await interaction.followup.send(text, ephemeral=True)
        if waiting_publicly:
            await interaction.delete_original_response()

    result = await _attempt(interaction, work, refuse)
    if result is None:
        return
    outcome = Outcome([result]) if isinstance(result, Reply) else result
    private_first = not outcome.replies or outcome.replies[0].private
    try:
        if waiting_publicly and private_first:
            await interaction.edit_original_response(content="…")
        # A "thinking…" reply is always completed, even by work that told nobody anything.
        silent = (
            interaction.response.type == discord.InteractionResponseType.deferred_message_update
        )
        await interaction.client.courier.answer(
            interaction, outcome, visible(ack).plain() or ("" if silent else DONE)
        )
        if waiting_publicly and private_first:
            await interaction.delete_original_response()
    except Exception:
        # The work is stored and its notices are in the outbox: only this answer failed.
        log.exception("answering %s failed after it was done", _what(interaction))


async def give_file(interaction: discord.Interaction, work: Callable[[], Awaitable[File]]) -> None:
    """Answer the already deferred ``interaction`` with the file ``work`` makes; a
    UserError (or a failure) replaces the reply, which may be public, with a private one."""

    async def refuse(text: str) -> None:
        # The reply is completed first (until then a follow-up would only edit it).
        await interaction.edit_original_response(content="…")
        await interaction.followup.send(text, ephemeral=True)
        await interaction.delete_original_response()

    made = await _attempt(interaction, work, refuse)
    if made is not None:
        attachment = discord.File(
            io.BytesIO(made.data), filename=made.name, description=file_alt(made.text)
        )
        await interaction.edit_original_response(content=made.text, attachments=[attachment])


async def _attempt(
    interaction: discord.Interaction,
    work: Callable[[], Awaitable[Made]],
    refuse: Callable[[str], Awaitable[None]],
) -> Made | None:
    """What ``work`` returns; None once ``refuse`` has told the asker why it failed (what
    to do instead, the store busy, or a failure on the bot's side, logged)."""
    try:
        return await work()
    except Busy as busy:  # the host is full: nothing was done for it
        log.info("%s refused: the host is busy", _what(interaction))
        await refuse(content("⏳ " + busy.text))
    except UserError as error:
        await refuse(content("⚠️ " + error.text))
    except StoreBusy:
        log.warning("%s found the game store busy; nothing was changed", _what(interaction))
        await refuse("⏳ " + BUSY)
    except Exception:
        log.exception("%s failed", _what(interaction))
        await refuse(FAILED)
    return None


def _what(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else "a control"
    return f"/{command}" if interaction.command else command
