"""Writing the host's frontend-neutral text in Discord's markup."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import discord

from bot.service.text import (
    BoardLink,
    ChannelRef,
    Mention,
    Moment,
    Part,
    ServerRef,
    Text,
    WebLink,
    as_text,
)

ServerNames = Callable[[int], str | None]
"""A server's name by id, as the bot sees it (None when it does not know the server)."""

MAX_CONTENT = 2000
"""Discord's limit on a message's text."""


def markup(text: str | Text, servers: ServerNames | None = None) -> str:
    """``text`` as Discord shows it: mentions, channel links, relative times, jump links,
    and servers by the name ``servers`` gives."""
    return as_text(text).render(lambda part: _part(part, servers))


def content(text: str | Text, servers: ServerNames | None = None) -> str:
    """:func:`markup`, clipped to what one message may hold."""
    written = markup(text, servers)
    return written if len(written) <= MAX_CONTENT else written[: MAX_CONTENT - 1] + "…"


def _part(part: Part, servers: ServerNames | None = None) -> str:
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
        case ServerRef(guild_id):
            name = servers(guild_id) if servers is not None else None
            return f"**{name}**" if name else "a server"
    raise TypeError(f"no Discord markup for {part!r}")
