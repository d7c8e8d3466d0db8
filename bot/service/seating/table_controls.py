"""What a table's posts carry before and after its game: the lobby's Join, Leave and Start
controls and status line, an invitation's Join, a finished game's Rematch, and the link to a
game's table.

The lobby, the turns and the clock all show these, so they live apart from the use cases that
press them (:mod:`bot.service.seating.gathering`), which keeps the arrows between those one way.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.service.errors import UserError
from bot.service.notices import Controls, StatusUpdate
from bot.service.tables import Table, player_name, seating_of
from bot.service.text import BoardLink, ChannelRef, Text, said
from bot.store import GameRecord
from engines.base import Choice, Prompt, Role

LOBBY = "lobby"
"""The prompt kind of a lobby post's Join, Leave and Start controls."""
SEAT = "seat"
"""The prompt kind of the menu asking which open seat to take."""
INVITE = "invite"
"""The prompt kind of an invitation's Join control."""
REMATCH = "rematch"
"""The prompt kind of a finished game's Rematch control."""
KINDS = frozenset({LOBBY, SEAT, INVITE, REMATCH})
"""Every prompt kind of this module: controls that are no action in a game."""
JOIN, LEAVE, START = "join", "leave", "start"


def lobby_controls(game_id: int) -> Controls:
    """Join, Leave and Start for the lobby of ``game_id``."""
    choices = (Choice(JOIN, "Join"), Choice(LEAVE, "Leave"), Choice(START, "Start"))
    return Controls(game_id, 0, Prompt(0, LOBBY, "Seats at this table"), choices)


def invite_controls(game_id: int, title: str) -> Controls:
    """The Join control of an invitation to ``game_id``."""
    return Controls(game_id, 0, Prompt(0, INVITE, "Invitation"), (Choice(JOIN, f"Join {title}"),))


def rematch_controls(game_id: int) -> Controls:
    """The Rematch control of the finished game ``game_id``."""
    return Controls(game_id, 0, Prompt(0, REMATCH, "Rematch"), (Choice(REMATCH, "Rematch"),))


def lobby_status(table: Table) -> StatusUpdate:
    """The game's status message while it waits for players: who sits where."""
    record = table.record
    names = {s.seat: player_name(s.name, s.computer) for s in record.seats}
    text = lobby_status_text(table.title, record.players, table.roles(), names)
    return StatusUpdate(record.id, record.channel_id, text)


def lobby_status_text(
    title: str, players: int, roles: list[Role], names: Mapping[int, str | Text]
) -> Text:
    """The status line of a lobby titled ``title`` with ``names`` seated by seat number."""
    waiting = said(
        "**{title}**: waiting for players ({seated} of {players} seated).",
        title=title, seated=len(names), players=players,
    )  # fmt: skip
    return "📜 " + waiting + "\n" + seating_of(roles, names)


def closed_lobby(table: Table) -> UserError | None:
    """Why a lobby control of ``table`` can no longer be used; None while it waits."""
    status = table.record.status
    if status == "lobby":
        return None
    title = table.title
    if status == "cancelled":
        return UserError(said("{title} was cancelled. `/game new` opens a new game.", title=title))
    if status == "finished":
        return UserError(
            said("{title} has already ended. `/game list` shows open games.", title=title)
        )
    return UserError(said("{title} has already started; its seats are taken.", title=title))


def table_link(record: GameRecord) -> Text:
    """Where a game's table is: its status message when it has one, else its channel."""
    if record.status_message_id:
        return Text.of(BoardLink(record.guild_id, record.channel_id, record.status_message_id))
    return Text.of(ChannelRef(record.channel_id))
