"""Writing the host's frontend-neutral text in Discord's markup."""

from __future__ import annotations

from datetime import UTC, datetime

import discord

from bot.service.text import BoardLink, ChannelRef, Mention, Moment, Part, Text, WebLink, as_text

MAX_CONTENT = 2000
"""Discord's limit on a message's text."""


def markup(text: str | Text) -> str:
    """``text`` as Discord shows it: mentions, channel links, relative times, jump links."""
    return as_text(text).render(_part)


def content(text: str | Text) -> str:
    """:func:`markup`, clipped to what one message may hold."""
    written = markup(text)
    return written if len(written) <= MAX_CONTENT else written[: MAX_CONTENT - 1] + "…"


def _part(part: Part) -> str:
    match part:
        case Mention(user_id):
            return f"<@{user_id}>"
        case ChannelRef(channel_id):
            return f"<#{channel_id}>"
        case Moment(at):
            return discord.utils.format_dt(datetime.fromtimestamp(at, UTC), "R")
        case BoardLink(guild_id, channel_id, message_id):
            return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
        case WebLink(url):
            return f"<{url}>"  # the brackets keep Discord from adding a preview
    raise TypeError(f"no Discord markup for {part!r}")
