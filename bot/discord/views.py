"""Turning the host's :class:`~bot.service.notices.Controls` into Discord components."""

from __future__ import annotations

import math
from collections.abc import Sequence

import discord

from bot.discord.components import ActionButton, ActionSelect, GroupSelect, stamp
from bot.service.notices import Controls
from engines.base import Choice

MAX_BUTTONS = 10
MAX_OPTIONS = 25
MAX_ROWS = 5


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


def _groups(choices: list[Choice]) -> list[str]:
    return list(dict.fromkeys(c.group or c.action for c in choices))


def _select(
    control: Controls, version: str, choices: list[Choice], row: int, tag: str = ""
) -> ActionSelect:
    options = [discord.SelectOption(label=c.label[:100], value=c.action[:100]) for c in choices]
    item = ActionSelect(control.game_id, version, options, control.prompt.text, tag=tag)
    item.item.row = row
    return item


def _group_select(control: Controls, version: str, choices: list[Choice], row: int) -> GroupSelect:
    groups = _groups(choices)[:MAX_OPTIONS]
    counts = {g: sum(1 for c in choices if (c.group or c.action) == g) for g in groups}
    options = [
        discord.SelectOption(label=g[:100], value=g[:100], description=f"{counts[g]} option(s)")
        for g in groups
    ]
    item = GroupSelect(control.game_id, version, options, f"{control.prompt.text}: pick a piece")
    item.item.row = row
    return item
