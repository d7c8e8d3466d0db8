"""What every control shares: ids whole or refused, the stamp saying when a control was
valid, and a click handed on as one to this bot."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord.ui.view import BaseView

from bot.discord.markup import markup
from bot.service.text import Text

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot

Clicked = discord.ui.Item[BaseView]
"""The component a persistent control is rebuilt from: a button or menu of any view."""

ViewButton = discord.ui.Button[discord.ui.View]
"""A button as the controls build it: in a view (the cards move it into a row of theirs)."""

ViewSelect = discord.ui.Select[discord.ui.View]
"""A menu as the controls build it."""

MAX_CUSTOM_ID = 100
"""Discord's longest component id (and menu option value)."""


def custom_id(*parts: object) -> str:
    """A component id from ``parts``; ValueError if it would pass Discord's 100 characters
    (a cut id would play a different action, or none)."""
    text = ":".join(str(p) for p in parts)
    if len(text) > MAX_CUSTOM_ID:
        raise ValueError(f"component id of {len(text)} characters (at most 100): {text[:40]}…")
    return text


def stamp(version: int, secret: bool) -> str:
    """The stamp for controls offered at ``version``: ``12`` for a turn, valid only while
    the game is at version 12 (any later action makes it stale); ``s12`` for a secret
    prompt issued at version 12, valid until its seat acts again (other players answering
    their own secrets in between do not make it stale, but an answer from an earlier round
    does not count in a later one)."""
    return f"s{version}" if secret else str(version)


def unstamp(text: str | None) -> dict[str, int]:
    """Keyword arguments for :meth:`GameHost.act` that check a control's stamp."""
    if not text:
        return {}
    if text.startswith("s"):
        return {"issued": int(text[1:])}
    return {"version": int(text)}


def shown(text: str | Text, limit: int) -> str:
    """``text`` as a component shows it (a button's label, a menu's placeholder or option),
    in the language :func:`~bot.discord.markup.writing` is in (the reader's: a message's
    controls are built for the one who reads it), cut to Discord's ``limit`` for that
    field; plain strings (an engine's label, a piece's name) are shown as they are."""
    return markup(text)[:limit]


def label_of(item: Clicked, default: str) -> str:
    """The label of a clicked button, or ``default`` when it has none."""
    label = item.label if isinstance(item, discord.ui.Button) else None
    return label or default


class Control:
    """A persistent control's click, handed to :meth:`pressed` with the bot it reached.

    Put first among a ``DynamicItem``'s bases, so this ``callback`` is the one called.
    """

    async def callback(self, interaction: discord.Interaction) -> None:
        # discord.py hands a control only the clicks that reached the client which
        # registered it (controls.register), and that client is a HostingBot.
        await self.pressed(cast("discord.Interaction[HostingBot]", interaction))

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        """Answer the click."""
        raise NotImplementedError
