"""The host's controls as one persistent view: buttons, menus, or a two-step pick."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

import discord

from bot.discord.controls.base import MAX_CUSTOM_ID, shown, stamp
from bot.discord.controls.endings import OfferButton, ResignButton
from bot.discord.controls.inbox import NextButton
from bot.discord.controls.lobby import LobbyButton, RematchButton, SeatSelect
from bot.discord.controls.play import ActionButton, ActionSelect, GroupSelect, PlacesButton
from bot.service.community.inbox import NEXT
from bot.service.notices import Controls
from bot.service.play.destinations import has_places
from bot.service.play.endings import OFFER, RESIGN
from bot.service.play.turns import group_of
from bot.service.seating.table_controls import INVITE, JOIN, LOBBY, REMATCH, SEAT
from bot.service.text import Text, said, said_plural
from engines.base import Choice

MAX_BUTTONS = 10
MAX_OPTIONS = 25
MAX_ROWS = 5

Dynamic = discord.ui.DynamicItem[discord.ui.Item[discord.ui.View]]
"""A persistent control of a view: a button or menu rebuilt from its id."""

Row = list[Dynamic]


def _ending_items(control: Controls) -> Row:
    """The buttons of an offer or of a resignation's confirmation."""
    if control.prompt.kind == RESIGN:
        return [ResignButton(control.game_id, control.choices[0].label)]
    return [
        OfferButton(control.game_id, control.version, c.action, c.label) for c in control.choices
    ]


def _lobby_items(control: Controls) -> Row:
    return [LobbyButton(control.game_id, c.action) for c in control.choices]


def _invite_items(control: Controls) -> Row:
    return [LobbyButton(control.game_id, JOIN, c.label) for c in control.choices]


def _seat_items(control: Controls) -> Row:
    options = [discord.SelectOption(label=c.label[:100], value=c.action) for c in control.choices]
    return [SeatSelect(control.game_id, options[:25])]


def _rematch_items(control: Controls) -> Row:
    return [RematchButton(control.game_id)]


def _next_items(control: Controls) -> Row:
    return [NextButton()]


ROWS: dict[str, Callable[[Controls], Row]] = {
    OFFER: _ending_items,
    RESIGN: _ending_items,
    LOBBY: _lobby_items,
    INVITE: _invite_items,
    SEAT: _seat_items,
    REMATCH: _rematch_items,
    NEXT: _next_items,
}
"""The items of controls that are no action in a game, by prompt kind (each in a row of
its own)."""


def controls_view(controls: Sequence[Controls]) -> discord.ui.View | None:
    """A persistent view offering every decision in ``controls``; ``None`` if nothing to offer.

    Few choices become buttons, up to 25 a menu, more a two-step menu (piece, then move);
    a single piece with more than 25 moves gets its moves in several menus of 25. Anything
    beyond five rows stays reachable through ``/move``.
    """
    view = discord.ui.View(timeout=None)
    row = 0
    for control in controls:
        if control.choices and row < MAX_ROWS:
            row = _add(view, control, row)
    return view if view.children else None


def _add(view: discord.ui.View, control: Controls, row: int) -> int:
    """Add ``control``'s items to ``view`` from ``row`` on; the next free row."""
    version = stamp(control.version, control.prompt.secret)
    choices = list(control.choices)
    if control.prompt.kind in ROWS:
        for item in ROWS[control.prompt.kind](control):
            item.row = row
            view.add_item(item)
        return row + 1
    if _by_place(control):
        return _add_places(view, control, version, row)
    if len(choices) <= MAX_BUTTONS and row + math.ceil(len(choices) / 5) <= MAX_ROWS:
        for index, choice in enumerate(choices):
            button = ActionButton(control.game_id, version, choice.action, choice.label)
            button.row = row + index // 5
            view.add_item(button)
        return row + math.ceil(len(choices) / 5)
    if len(choices) <= MAX_OPTIONS:
        view.add_item(_select(control, version, choices, row))
        return row + 1
    if 1 < len(_groups(choices)) <= MAX_OPTIONS:
        view.add_item(_group_select(control, version, choices, row))
        return row + 1
    for start in range(0, len(choices), MAX_OPTIONS):
        if row >= MAX_ROWS:
            break
        page = choices[start : start + MAX_OPTIONS]
        view.add_item(_select(control, version, page, row, tag=str(row)))
        row += 1
    return row


def _by_place(control: Controls) -> bool:
    """Whether ``control`` is picked in two steps, the second on a labelled picture: a
    public choice of places, not yet labelled, in groups (pieces) a menu holds."""
    if control.placed or control.prompt.secret or not has_places(control.choices):
        return False
    placed = [c for c in control.choices if c.to]
    groups = _groups(placed)
    if len(placed) == 1:
        return False  # one move to one place: its own button plays it
    return len(groups) <= MAX_OPTIONS and (len(groups) == 1 or "" not in groups)


def _add_places(view: discord.ui.View, control: Controls, version: str, row: int) -> int:
    """The first step: the piece to move (a menu, or one button when one piece moves),
    and the choices that go to no place (a pass, a roll) as buttons or a menu, in the
    engine's order of the two."""
    placed = [c for c in control.choices if c.to]
    others = [c for c in control.choices if not c.to]
    if others and not control.choices[0].to:
        row = _add_others(view, control, others, row)
    if row < MAX_ROWS:
        view.add_item(_opener(control, version, placed, row))
        row += 1
    if others and control.choices[0].to:
        row = _add_others(view, control, others, row)
    return row


def _opener(control: Controls, version: str, placed: list[Choice], row: int) -> Dynamic:
    """What opens the places: a menu of pieces, or one piece's button."""
    groups = _groups(placed)
    if len(groups) > 1:
        return _group_select(control, version, placed, row)
    button = PlacesButton(control.game_id, version, groups[0], _places_label(groups[0], placed))
    button.row = row
    return button


def _places_label(group: str, placed: list[Choice]) -> Text:
    """The label of the button showing where ``group``'s piece can go (the only piece
    that moves; no group: the places themselves)."""
    count = len({c.to for c in placed})
    if group:
        return said_plural(
            "{group}: {count} place on the board", "{group}: {count} places on the board",
            count, group=group,
        )  # fmt: skip
    return said_plural(
        "{count} place: pick on the board", "{count} places: pick on the board", count
    )


def _add_others(view: discord.ui.View, control: Controls, others: list[Choice], row: int) -> int:
    if row >= MAX_ROWS:
        return row
    return _add(
        view, Controls(control.game_id, control.version, control.prompt, tuple(others)), row
    )


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
    return list(dict.fromkeys(group_of(c) for c in choices))


def _select(
    control: Controls, version: str, choices: list[Choice], row: int, tag: str = ""
) -> ActionSelect:
    options = [discord.SelectOption(label=c.label[:100], value=_value(c.action)) for c in choices]
    hint = menu_placeholder(control.prompt.text)
    item = ActionSelect(control.game_id, version, options, hint, tag=tag)
    item.row = row
    return item


def _group_select(control: Controls, version: str, choices: list[Choice], row: int) -> GroupSelect:
    groups = _groups(choices)[:MAX_OPTIONS]
    counts = {g: sum(1 for c in choices if group_of(c) == g) for g in groups}
    places = {g: len({c.to for c in choices if group_of(c) == g and c.to}) for g in groups}
    options = [
        discord.SelectOption(
            label=g[:100], value=_value(g),
            description=shown(
                said_plural("{count} place", "{count} places", places[g]) if places[g]
                else said_plural("{count} move", "{count} moves", counts[g]),
                100,
            ),
        )
        for g in groups
    ]  # fmt: skip
    item = GroupSelect(control.game_id, version, options, said("Pick a piece to move"))
    item.row = row
    return item
