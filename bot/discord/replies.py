"""One way to answer every command and click: defer, run one host call, deliver."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypedDict, TypeVar

import discord

import i18n
from bot.discord.markup import content
from bot.service.admission import Busy
from bot.service.boards.alt_text import file_alt
from bot.service.errors import UserError
from bot.service.history.story import File
from bot.service.notices import Outcome, Reply
from bot.service.text import Text, said, visible
from bot.store import StoreBusy
from i18n import Locale

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

Made = TypeVar("Made")

Work = Callable[[], Awaitable[Outcome | Reply]]

FAILED_TEXT = said("Something went wrong on my side; nothing was changed. Please try again.")
BUSY_TEXT = said("The game store is busy right now; please try again in a moment.")
DONE_TEXT = "✅ " + said("Done.")
FAILED = FAILED_TEXT.plain()
BUSY = BUSY_TEXT.plain()
DONE = DONE_TEXT.plain()
"""The same answers in English (for a log, or a test reading the English text)."""

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


async def reader_locale(interaction: discord.Interaction[HostingBot]) -> Locale:
    """The language the asker reads: their ``/language`` choice, else the Discord locale
    this interaction brings, else the server's language. A server's own Discord locale is
    remembered as its interactions come (the language of its posts until an admin picks
    one)."""
    languages = interaction.client.host.languages
    if interaction.guild_id is not None:
        await languages.server(interaction.guild_id, seen=_code(interaction.guild_locale))
    return await languages.reader(
        interaction.user.id, seen=_code(interaction.locale), guild_id=interaction.guild_id
    )


async def server_locale(interaction: discord.Interaction[HostingBot]) -> Locale:
    """The language of the server the interaction comes from (English in a DM): what a
    reply shown to the whole channel is written in."""
    seen = _code(interaction.guild_locale) if interaction.guild_id is not None else None
    return await interaction.client.host.languages.server(interaction.guild_id, seen=seen)


def _code(locale: discord.Locale | None) -> str | None:
    """A Discord locale as its code (``es-419``), as the host's languages read it."""
    return locale.value if locale is not None else None


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
    ack: str | Text = "",
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

    await _note_languages(interaction)
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
        told = visible(ack) or (Text() if silent else DONE_TEXT)
        locale = await reader_locale(interaction)
        await interaction.client.courier.answer(interaction, outcome, content(told, None, locale))
        if waiting_publicly and private_first:
            await interaction.delete_original_response()
    except Exception:
        # The work is stored and its notices are in the outbox: only this answer failed.
        log.exception("answering %s failed after it was done", _what(interaction))


async def give_file(
    interaction: discord.Interaction[HostingBot], work: Callable[[], Awaitable[File]]
) -> None:
    """Answer the already deferred ``interaction`` with the file ``work`` makes; a
    UserError (or a failure) replaces the reply, which may be public, with a private one."""

    async def refuse(text: str) -> None:
        # The reply is completed first (until then a follow-up would only edit it).
        await interaction.edit_original_response(content="…")
        await interaction.followup.send(text, ephemeral=True)
        await interaction.delete_original_response()

    made = await _attempt(interaction, work, refuse)
    if made is not None:
        text = content(made.text, None, await reader_locale(interaction))
        attachment = discord.File(
            io.BytesIO(made.data), filename=made.name, description=file_alt(text)
        )
        await interaction.edit_original_response(content=text, attachments=[attachment])


async def _attempt(
    interaction: discord.Interaction[HostingBot],
    work: Callable[[], Awaitable[Made]],
    refuse: Callable[[str], Awaitable[None]],
) -> Made | None:
    """What ``work`` returns; None once ``refuse`` has told the asker, in their language,
    why it failed (what to do instead, the store busy, or a failure on the bot's side,
    logged)."""
    try:
        return await work()
    except Busy as busy:  # the host is full: nothing was done for it
        log.info("%s refused: the host is busy", _what(interaction))
        why = "⏳ " + busy.text
    except UserError as error:
        why = "⚠️ " + error.text
    except StoreBusy:
        log.warning("%s found the game store busy; nothing was changed", _what(interaction))
        why = "⏳ " + BUSY_TEXT
    except Exception:
        log.exception("%s failed", _what(interaction))
        why = FAILED_TEXT
    await refuse(content(why, None, await refusal_locale(interaction)))
    return None


async def _note_languages(interaction: discord.Interaction[HostingBot]) -> None:
    """Remember the Discord locales ``interaction`` shows (the asker's app, their server)
    before its work is done: what the work posts and sends is written in them already,
    even the first post of a server new to the bot. A store that cannot remember them
    now leaves them to the next interaction."""
    try:
        await reader_locale(interaction)
    except Exception:
        log.warning("the languages of %s were not remembered", _what(interaction), exc_info=True)


async def refusal_locale(interaction: discord.Interaction[HostingBot]) -> Locale:
    """:func:`reader_locale` for a refusal, which must reach the asker even when the store
    cannot tell their language now: English then."""
    try:
        return await reader_locale(interaction)
    except Exception:
        log.warning("the language of %s's asker is unknown now", _what(interaction), exc_info=True)
        return i18n.DEFAULT


def _what(interaction: discord.Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else "a control"
    return f"/{command}" if interaction.command else command
