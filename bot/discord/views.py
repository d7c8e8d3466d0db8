"""Turning the host's :class:`~bot.service.notices.Controls` into Discord components."""

from __future__ import annotations

import math
from collections.abc import Sequence

import discord

from bot.discord.components import NO_VERSION, ActionButton, ActionSelect, GroupSelect
from bot.service.notices import Controls
from engines.base import Choice

MAX_BUTTONS = 10
MAX_OPTIONS = 25
MAX_ROWS = 5


def controls_view(controls: Sequence[Controls]) -> discord.ui.View | None:
    """A persistent view offering every decision in ``controls``; ``None`` if nothing to offer.

    Few choices become buttons, up to 25 a menu, more a two-step menu (piece, then move).
    """
    view = discord.ui.View(timeout=None)
    row = 0
    for control in controls:
        version = NO_VERSION if control.prompt.secret else str(control.version)
        choices = list(control.choices)
        if not choices or row >= MAX_ROWS:
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
        else:
            view.add_item(_group_select(control, version, choices, row))
            row += 1
    return view if view.children else None


def group_view(control: Controls, group: str) -> discord.ui.View | None:
    """The second step of a two-step pick: the actions of one group."""
    version = NO_VERSION if control.prompt.secret else str(control.version)
    choices = [c for c in control.choices if c.group == group][:MAX_OPTIONS]
    if not choices:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(_select(control, version, choices, 0))
    return view


def _select(control: Controls, version: str, choices: list[Choice], row: int) -> ActionSelect:
    options = [discord.SelectOption(label=c.label[:100], value=c.action[:100]) for c in choices]
    item = ActionSelect(control.game_id, version, options, control.prompt.text)
    item.item.row = row
    return item


def _group_select(control: Controls, version: str, choices: list[Choice], row: int) -> GroupSelect:
    groups = list(dict.fromkeys(c.group or c.action for c in choices))[:MAX_OPTIONS]
    counts = {g: sum(1 for c in choices if (c.group or c.action) == g) for g in groups}
    options = [
        discord.SelectOption(label=g[:100], value=g[:100], description=f"{counts[g]} option(s)")
        for g in groups
    ]
    item = GroupSelect(control.game_id, version, options, f"{control.prompt.text}: pick a piece")
    item.item.row = row
    return item
