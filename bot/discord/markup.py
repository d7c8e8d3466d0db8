"""Writing the host's frontend-neutral text in Discord's markup."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from datetime import UTC, datetime

import discord

import i18n
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


_writing: ContextVar[i18n.Locale] = ContextVar("writing", default=i18n.DEFAULT)
"""The language a text is written in when no locale is given (see :func:`writing`)."""


@contextlib.contextmanager
def writing(locale: i18n.Locale) -> Iterator[i18n.Locale]:
    """Within the block, a text written without a locale is written in ``locale``: the
    labels and menus of a message's controls, built deep down for the one who reads it."""
    token = _writing.set(locale)
    try:
        yield locale
    finally:
        _writing.reset(token)


def markup(
    text: str | Text, servers: ServerNames | None = None, locale: i18n.Locale | None = None
) -> str:
    """``text`` as Discord shows it to a reader of ``locale`` (by default, the language
    :func:`writing` is in, else English): its messages in their words, mentions, channel
    links, relative times, jump links, and servers by the name ``servers`` gives."""
    written_in = locale or _writing.get()
    return as_text(text).render(lambda part: _part(part, servers, written_in), written_in)


def content(
    text: str | Text, servers: ServerNames | None = None, locale: i18n.Locale | None = None
) -> str:
    """:func:`markup`, clipped to what one message may hold."""
    written = markup(text, servers, locale)
    return written if len(written) <= MAX_CONTENT else written[: MAX_CONTENT - 1] + "…"


def _part(part: Part, servers: ServerNames | None, locale: i18n.Locale) -> str:
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
            return f"**{name}**" if name else i18n.write(i18n.said("a server"), locale)
    raise TypeError(f"no Discord markup for {part!r}")
