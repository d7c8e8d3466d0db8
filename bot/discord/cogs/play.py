"""Playing: ``/move`` and ``/hand``, and the buttons and menus that play actions.

The controls are ``DynamicItem``s: discord.py rebuilds them from the id of whatever was
clicked, so controls on any message keep working after a restart. Their ids carry the game,
a *stamp* saying when they were valid, and the action:

- ``12``: only while the game is still at version 12 (a turn: any later action makes the
  control stale);
- ``s12``: a secret prompt issued at version 12, valid until its seat acts again; other
  players answering their own secrets in between do not make it stale, but an answer from an
  earlier round does not count in a later one.

An offer's Accept and Decline (``dh:o:<game>:<version>:accept``) carry the version the offer
was made at, so they die when it lapses; the confirmation of ``/game resign`` is
``dh:r:<game>``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import autocomplete as ac
from bot.discord.replies import answer, asked
from bot.service.endings import ACCEPT, OFFER, RESIGN
from bot.service.notices import Controls
from bot.service.text import plural
from engines.base import Choice

if TYPE_CHECKING:
    from bot.discord.client import DragonBot

MAX_CUSTOM_ID = 100
MAX_BUTTONS = 10
MAX_OPTIONS = 25
MAX_ROWS = 5


def custom_id(*parts: object) -> str:
    """A component id from ``parts``; ValueError if it would pass Discord's 100 characters
    (a cut id would play a different action, or none)."""
    text = ":".join(str(p) for p in parts)
    if len(text) > MAX_CUSTOM_ID:
        raise ValueError(f"component id of {len(text)} characters (at most 100): {text[:40]}…")
    return text


def stamp(version: int, secret: bool) -> str:
    """The stamp for controls offered at ``version`` (see the module docstring)."""
    return f"s{version}" if secret else str(version)


def unstamp(text: str | None) -> dict[str, int]:
    """Keyword arguments for :meth:`GameHost.act` that check a control's stamp."""
    if not text:
        return {}
    if text.startswith("s"):
        return {"issued": int(text[1:])}
    return {"version": int(text)}


async def play(interaction: discord.Interaction, game_id: int, stamp_: str, action: str) -> None:
    """A control clicked: the turn's post, updated or new, is the answer (no ✅ to dismiss);
    only a refusal or a private reply comes back to the clicker alone."""
    host = interaction.client.host  # type: ignore[attr-defined]
    await answer(
        interaction,
        lambda: host.act(
            game_id=game_id, user_id=interaction.user.id, action=action, **unstamp(stamp_)
        ),
        quiet=True,
    )


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"dh:b:(?P<game>\d+):(?P<stamp>s?\d+):(?P<action>.+)",
):
    """One button that plays one action."""

    def __init__(
        self,
        game_id: int,
        stamp: str,
        action: str,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, custom_id=custom_id("dh:b", game_id, stamp, action)
            )
        )
        self.game_id, self.stamp, self.action = game_id, stamp, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["game"]), match["stamp"], match["action"], item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        await play(interaction, self.game_id, self.stamp, self.action)


class _GameMenu:
    """What both menus share: an id ``dh:<kind>:<game>:<stamp>[:<tag>]`` and one choice."""

    kind = ""

    def __init__(
        self,
        game_id: int,
        stamp: str,
        options: list[discord.SelectOption],
        placeholder: str = "Choose…",
        tag: str = "",
    ) -> None:
        parts = ("dh", self.kind, game_id, stamp, *([tag] if tag else []))
        super().__init__(  # type: ignore[call-arg]
            discord.ui.Select(
                custom_id=custom_id(*parts),
                placeholder=placeholder[:150],
                options=options or [discord.SelectOption(label="-")],
            )
        )
        self.game_id, self.stamp = game_id, stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> _GameMenu:
        menu = cls(int(match["game"]), match["stamp"], [])
        menu.item = item  # the clicked menu, carrying the chosen value
        return menu

    def chosen(self, interaction: discord.Interaction) -> str:
        values = getattr(self.item, "values", None) or (interaction.data or {}).get("values", [])
        return values[0] if values else ""


class ActionSelect(
    _GameMenu,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dh:s:(?P<game>\d+):(?P<stamp>s?\d+)(?::(?P<tag>\w*))?",
):
    """A menu whose every option value is an action."""

    kind = "s"

    async def callback(self, interaction: discord.Interaction) -> None:
        await play(interaction, self.game_id, self.stamp, self.chosen(interaction))


class GroupSelect(
    _GameMenu,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"dh:g:(?P<game>\d+):(?P<stamp>s?\d+)",
):
    """First step of a two-step pick: choose a piece, then get its moves privately."""

    kind = "g"

    async def callback(self, interaction: discord.Interaction) -> None:
        host = interaction.client.host  # type: ignore[attr-defined]
        await answer(
            interaction,
            lambda: host.group_controls(
                game_id=self.game_id, user_id=interaction.user.id,
                group=self.chosen(interaction), version=unstamp(self.stamp).get("version"),
            ),
        )  # fmt: skip


class OpenPrivateButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"dh:open:(?P<game>\d+)(?::(?P<owner>\d+))?",
):
    """For players whose DMs are closed: shows their secret choice as an ephemeral message.
    The id names whose choice it opens (``dh:open:<game>:<user>``), so anyone else pressing
    it is told whose it is; buttons posted before carry the game alone."""

    def __init__(self, game_id: int, owner: int | None = None) -> None:
        parts = ("dh:open", game_id, *([owner] if owner else []))
        super().__init__(
            discord.ui.Button(
                label="Make my choice privately",
                emoji="🔒",
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id(*parts),
            )
        )
        self.game_id, self.owner = game_id, owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> OpenPrivateButton:
        return cls(int(match["game"]), int(match["owner"]) if match["owner"] else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        host = interaction.client.host  # type: ignore[attr-defined]
        await answer(
            interaction,
            lambda: host.private_controls(
                game_id=self.game_id, user_id=interaction.user.id, owner=self.owner
            ),
        )


class OfferButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"dh:o:(?P<game>\d+):(?P<version>\d+):(?P<answer>accept|decline)",
):
    """Accept or Decline a draw offer or a takeback request made at one version."""

    def __init__(self, game_id: int, version: int, answer: str, label: str = "…") -> None:
        style = discord.ButtonStyle.success if answer == ACCEPT else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, custom_id=custom_id("dh:o", game_id, version, answer)
            )
        )
        self.game_id, self.version, self.answer = game_id, version, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> OfferButton:
        return cls(int(match["game"]), int(match["version"]), match["answer"], item.label or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        host = interaction.client.host  # type: ignore[attr-defined]
        await answer(
            interaction,
            lambda: host.answer_offer(
                game_id=self.game_id, user_id=interaction.user.id, version=self.version,
                accept=self.answer == ACCEPT,
            ),
        )  # fmt: skip


class ResignButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dh:r:(?P<game>\d+)"):
    """Confirms ``/game resign`` (offered to the asker only)."""

    def __init__(self, game_id: int, label: str = "Yes, resign") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], emoji="🏳️", style=discord.ButtonStyle.danger,
                custom_id=custom_id("dh:r", game_id),
            )
        )  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ResignButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = interaction.client.host  # type: ignore[attr-defined]
        await answer(
            interaction,
            lambda: host.resign(game_id=self.game_id, user_id=interaction.user.id, confirmed=True),
        )


CONTROLS = (ActionButton, ActionSelect, GroupSelect, OpenPrivateButton, OfferButton, ResignButton)

ItemsOf = Callable[[Controls], list[discord.ui.Item]]


def _ending_buttons(control: Controls) -> list[discord.ui.Item]:
    """The buttons of an offer or of a resignation's confirmation."""
    if control.prompt.kind == RESIGN:
        return [ResignButton(control.game_id, control.choices[0].label)]
    return [
        OfferButton(control.game_id, control.version, c.action, c.label) for c in control.choices
    ]


BUTTONS: dict[str, ItemsOf] = {OFFER: _ending_buttons, RESIGN: _ending_buttons}
"""The items of controls that are no action in a game, by prompt kind (each in a row of
its own); other cogs add theirs (``bot.discord.cogs.lobby``)."""


def controls_view(controls: Sequence[Controls]) -> discord.ui.View | None:
    """A persistent view offering every decision in ``controls``; ``None`` if nothing to offer.

    Few choices become buttons, up to 25 a menu, more a two-step menu (piece, then move);
    a single piece with more than 25 moves gets its moves in several menus of 25. Anything
    beyond five rows stays reachable through ``/move``.
    """
    view = discord.ui.View(timeout=None)
    row = 0
    for control in controls:
        version = stamp(control.version, control.prompt.secret)
        choices = list(control.choices)
        if not choices or row >= MAX_ROWS:
            continue
        if control.prompt.kind in BUTTONS:
            for item in BUTTONS[control.prompt.kind](control):
                item.item.row = row
                view.add_item(item)
            row += 1
            continue
        if len(choices) <= MAX_BUTTONS and row + math.ceil(len(choices) / 5) <= MAX_ROWS:
            for index, choice in enumerate(choices):
                item = ActionButton(control.game_id, version, choice.action, choice.label)
                item.item.row = row + index // 5
                view.add_item(item)
            row += math.ceil(len(choices) / 5)
        elif len(choices) <= MAX_OPTIONS:
            view.add_item(_select(control, version, choices, row))
            row += 1
        elif 1 < len(_groups(choices)) <= MAX_OPTIONS:
            view.add_item(_group_select(control, version, choices, row))
            row += 1
        else:
            for start in range(0, len(choices), MAX_OPTIONS):
                if row >= MAX_ROWS:
                    break
                page = choices[start : start + MAX_OPTIONS]
                view.add_item(_select(control, version, page, row, tag=str(row)))
                row += 1
    return view if view.children else None


def menu_placeholder(prompt: str) -> str:
    """A menu's placeholder from a prompt: plain words (Discord shows no markup there),
    without the notation hints in brackets, at most 150 characters."""
    text = re.sub(r"\s*\([^)]*`[^)]*\)", "", prompt).replace("`", "").strip()
    return text if len(text) <= 150 else text[:149] + "…"


def _value(action: str) -> str:
    """A menu option's value: the whole action, or ValueError (a cut one plays another)."""
    if len(action) > MAX_CUSTOM_ID:
        raise ValueError(f"menu value of {len(action)} characters (at most 100): {action[:40]}…")
    return action


def _groups(choices: list[Choice]) -> list[str]:
    return list(dict.fromkeys(c.group or c.action for c in choices))


def _select(
    control: Controls, version: str, choices: list[Choice], row: int, tag: str = ""
) -> ActionSelect:
    options = [discord.SelectOption(label=c.label[:100], value=_value(c.action)) for c in choices]
    hint = menu_placeholder(control.prompt.text)
    item = ActionSelect(control.game_id, version, options, hint, tag=tag)
    item.item.row = row
    return item


def _group_select(control: Controls, version: str, choices: list[Choice], row: int) -> GroupSelect:
    groups = _groups(choices)[:MAX_OPTIONS]
    counts = {g: sum(1 for c in choices if (c.group or c.action) == g) for g in groups}
    options = [
        discord.SelectOption(label=g[:100], value=_value(g), description=plural(counts[g], "move"))
        for g in groups
    ]
    item = GroupSelect(control.game_id, version, options, "Pick a piece to move")
    item.item.row = row
    return item


class Play(commands.Cog):
    """``/move`` and ``/hand``, and every control that plays an action."""

    def __init__(self, bot: DragonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*CONTROLS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*CONTROLS)

    @app_commands.command(
        name="move", description="Play an action by typing it (the list shows what is legal)"
    )
    @app_commands.guild_only()  # a game is found by its server and channel
    @app_commands.describe(
        action="What to do, e.g. roll or 3c-lair", game="Game number (default: this channel's)"
    )
    @app_commands.autocomplete(action=ac.my_actions, game=ac.games_here)
    async def move(
        self, interaction: discord.Interaction, action: str, game: int | None = None
    ) -> None:
        await answer(
            interaction,
            lambda: self.bot.host.act(**asked(interaction), game_id=game, action=action),
            ack=f"✅ Played `{action}`.",
        )

    @app_commands.command(
        name="hand", description="Show your private choices and cards again (only you see them)"
    )
    @app_commands.guild_only()  # a game is found by its server and channel
    @app_commands.describe(game="Game number (default: the one in this channel)")
    @app_commands.autocomplete(game=ac.games_here)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await answer(interaction, lambda: self.bot.host.hand(**asked(interaction), game_id=game))


async def setup(bot: DragonBot) -> None:
    await bot.add_cog(Play(bot))
