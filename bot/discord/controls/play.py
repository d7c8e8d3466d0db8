"""The controls that play: a turn's buttons and menus, the two-step pick of a piece, and
the button that opens a secret choice for a player whose DMs are closed.

Their ids carry the game, a stamp saying when they were valid (:func:`stamp`) and the
action: ``dh:b:12:57:roll``, ``dh:s:12:s57``, ``dh:g:12:57``, ``dh:open:12:<user>``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.discord.controls.base import (
    Clicked,
    Control,
    ViewButton,
    ViewSelect,
    custom_id,
    label_of,
    shown,
    unstamp,
)
from bot.discord.replies import answer
from bot.service.notices import ChannelPost, Outcome, Reply, StatusUpdate
from bot.service.text import ChannelRef, Text, said

if TYPE_CHECKING:
    from bot.discord.hosting import HostingBot


async def play(
    interaction: discord.Interaction[HostingBot], game_id: int, stamp: str, action: str
) -> None:
    """A control clicked: the turn's post, updated or new, is the answer (no ✅ to dismiss);
    only a refusal or a private reply comes back to the clicker alone. A click away from
    the game's channel (a choice shown by the inbox's Next, or a secret one in DMs), where
    the clicker sees no post change, is confirmed privately."""
    host = interaction.client.host

    async def work() -> Outcome | Reply:
        outcome = await host.turns.act(
            game_id=game_id, user_id=interaction.user.id, action=action, **unstamp(stamp)
        )
        if isinstance(outcome, Outcome) and not outcome.replies:
            confirmed = _confirmed(outcome, game_id, interaction.channel_id)
            outcome.notices += [confirmed] if confirmed else []
        return outcome

    await answer(interaction, work, quiet=True)


def _confirmed(outcome: Outcome, game_id: int, here: int | None) -> Reply | None:
    """A private "done" for a click made away from the game's channel (None in it)."""
    channels = {
        n.channel_id for n in outcome.notices
        if isinstance(n, ChannelPost | StatusUpdate) and n.game_id == game_id
    }  # fmt: skip
    if here in channels:
        return None
    if channels:
        done = said(
            "Done in game #{game}, in {channel}.", game=game_id, channel=ChannelRef(min(channels))
        )
    else:
        done = said("Done in game #{game}.", game=game_id)
    return Reply("✅ " + done, private=True)


class ActionButton(
    Control,
    discord.ui.DynamicItem[ViewButton],
    template=r"dh:b:(?P<game>\d+):(?P<stamp>s?\d+):(?P<action>.+)",
):
    """One button that plays one action."""

    def __init__(
        self,
        game_id: int,
        stamp: str,
        action: str,
        label: str | Text = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=shown(label, 80), style=style,
                custom_id=custom_id("dh:b", game_id, stamp, action),
            )
        )  # fmt: skip
        self.game_id, self.stamp, self.action = game_id, stamp, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["game"]), match["stamp"], match["action"], label_of(item, "…"))

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        await play(interaction, self.game_id, self.stamp, self.action)


def _menu(
    kind: str,
    game_id: int,
    stamp: str,
    options: list[discord.SelectOption],
    placeholder: str | Text,
    tag: str = "",
) -> ViewSelect:
    """A game's menu with the id ``dh:<kind>:<game>:<stamp>[:<tag>]``."""
    parts = ("dh", kind, game_id, stamp, *([tag] if tag else []))
    return discord.ui.Select(
        custom_id=custom_id(*parts),
        placeholder=shown(placeholder, 150),
        options=options or [discord.SelectOption(label="-")],
    )


def _chosen(menu: ViewSelect) -> str:
    """The value chosen in a clicked menu (discord.py fills it in before the callback)."""
    values = menu.values
    return values[0] if values else ""


CHOOSE = said("Choose…")
"""A menu's placeholder where the prompt gives none."""


class ActionSelect(
    Control,
    discord.ui.DynamicItem[ViewSelect],
    template=r"dh:s:(?P<game>\d+):(?P<stamp>s?\d+)(?::(?P<tag>\w*))?",
):
    """A menu whose every option value is an action; ``tag`` tells apart the menus of one
    piece with more moves than one menu holds."""

    def __init__(
        self,
        game_id: int,
        stamp: str,
        options: list[discord.SelectOption],
        placeholder: str | Text = CHOOSE,
        tag: str = "",
    ) -> None:
        super().__init__(_menu("s", game_id, stamp, options, placeholder, tag))
        self.game_id, self.stamp = game_id, stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> ActionSelect:
        return cls(int(match["game"]), match["stamp"], [], tag=match["tag"] or "")

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        await play(interaction, self.game_id, self.stamp, _chosen(self.item))


class GroupSelect(
    Control,
    discord.ui.DynamicItem[ViewSelect],
    template=r"dh:g:(?P<game>\d+):(?P<stamp>s?\d+)",
):
    """First step of a two-step pick: choose a piece, then get its moves privately."""

    def __init__(
        self,
        game_id: int,
        stamp: str,
        options: list[discord.SelectOption],
        placeholder: str | Text = CHOOSE,
    ) -> None:
        super().__init__(_menu("g", game_id, stamp, options, placeholder))
        self.game_id, self.stamp = game_id, stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> GroupSelect:
        return cls(int(match["game"]), match["stamp"], [])

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        await show_places(interaction, self.game_id, self.stamp, _chosen(self.item))


class PlacesButton(
    Control,
    discord.ui.DynamicItem[ViewButton],
    template=r"dh:p:(?P<game>\d+):(?P<stamp>s?\d+):(?P<group>.*)",
):
    """First step where one piece moves: shows where it can go, labelled on a picture,
    to the clicker alone."""

    def __init__(self, game_id: int, stamp: str, group: str, label: str | Text = "…") -> None:
        super().__init__(
            discord.ui.Button(
                label=shown(label, 80), emoji="📍", style=discord.ButtonStyle.primary,
                custom_id=custom_id("dh:p", game_id, stamp, group),
            )
        )  # fmt: skip
        self.game_id, self.stamp, self.group = game_id, stamp, group

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> PlacesButton:
        return cls(int(match["game"]), match["stamp"], match["group"], label_of(item, "…"))

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        await show_places(interaction, self.game_id, self.stamp, self.group)


async def show_places(
    interaction: discord.Interaction[HostingBot], game_id: int, stamp: str, group: str
) -> None:
    """The second step of a pick, for the clicker's eyes only: ``group``'s moves, labelled
    on a picture of the board when they go to places."""
    host = interaction.client.host
    await answer(
        interaction,
        lambda: host.turns.group_controls(
            game_id=game_id, user_id=interaction.user.id, group=group,
            version=unstamp(stamp).get("version"),
        ),
    )  # fmt: skip


class OpenPrivateButton(
    Control,
    discord.ui.DynamicItem[ViewButton],
    template=r"dh:open:(?P<game>\d+)(?::(?P<owner>\d+))?",
):
    """For players whose DMs are closed: shows their secret choice as an ephemeral message.
    The id names whose choice it opens (``dh:open:<game>:<user>``), so anyone else pressing
    it is told whose it is; buttons posted before carry the game alone."""

    def __init__(self, game_id: int, owner: int | None = None) -> None:
        parts = ("dh:open", game_id, *([owner] if owner else []))
        super().__init__(
            discord.ui.Button(
                label=shown(said("Make my choice privately"), 80),
                emoji="🔒",
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id(*parts),
            )
        )
        self.game_id, self.owner = game_id, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Clicked, match: re.Match[str], /
    ) -> OpenPrivateButton:
        return cls(int(match["game"]), int(match["owner"]) if match["owner"] else None)

    async def pressed(self, interaction: discord.Interaction[HostingBot]) -> None:
        host = interaction.client.host
        await answer(
            interaction,
            lambda: host.turns.private_controls(
                game_id=self.game_id, user_id=interaction.user.id, owner=self.owner
            ),
        )


def open_private_view(game_id: int, owner: int) -> discord.ui.View:
    """The view holding the button that opens ``owner``'s secret choice in ``game_id``."""
    view = discord.ui.View(timeout=None)
    view.add_item(OpenPrivateButton(game_id, owner))
    return view
