"""``/games``: one inbox of a player's games on every server they share with the bot.

The frontend says which servers the asker can still see (the bot and the asker are both
members), with their names; games anywhere else are left out. The games waiting on the
asker come first, the most urgent deadline first, then the rest. The inbox's *Next*
control (:data:`NEXT`) shows the most urgent waiting game's choice privately, with the
same stamped controls as its turn post, so a move made from it is played like any click
(:meth:`~bot.service.play.turns.Turns.act`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.service.delivery import calls
from bot.service.desk import Desk, title_of
from bot.service.errors import UserError
from bot.service.notices import Controls, Reply
from bot.service.play.turns import MAX_PROMPTS_SHOWN, Turns, board_of, private_of
from bot.service.tables import STATUS_TEXTS, Table, seat_labels
from bot.service.text import BoardLink, ChannelRef, Moment, Text, said, said_plural
from bot.service.timekeeping.timing import pause_text
from bot.store import GameRecord
from engines.base import Choice, Prompt

NEXT = "inbox-next"
"""The prompt kind of the inbox's Next control: no action in a game, it asks for
:meth:`Inbox.next_choice`."""

MAX_LISTED = 25
"""Games listed at most in one inbox (the most urgent first)."""

Servers = Mapping[int, str]
"""The servers the asker can see, by id, with the name each is shown with."""


def next_controls() -> Controls:
    """The inbox's Next control."""
    return Controls(0, 0, Prompt(0, NEXT, "Next"), (Choice(NEXT, "Next"),))


@dataclass(frozen=True)
class Entry:
    """One game of the inbox, as read once."""

    record: GameRecord
    table: Table | None  # None: its stored state cannot be read
    waiting: bool  # the asker has a decision to make now

    @property
    def order(self) -> tuple[bool, bool, float, int]:
        """Waiting first, the nearest deadline first (none last), then the newest game."""
        deadline = self.record.deadline
        return (not self.waiting, deadline is None, deadline or 0.0, -self.record.id)


class Inbox:
    """A player's games on every server they can see, and the most urgent choice."""

    def __init__(self, desk: Desk, turns: Turns) -> None:
        self._desk = desk
        self._turns = turns

    async def servers(self, *, user_id: int) -> set[int]:
        """The servers of the games ``user_id`` sits in (for the frontend to say which of
        them the user can still see)."""
        return {r.guild_id for r in await self._seated(user_id)}

    async def inbox(self, *, user_id: int, visible: Servers, offer_next: bool = True) -> Reply:
        """Every active game ``user_id`` sits in on the servers ``visible``, those waiting
        on them first (the most urgent deadline first), each with its server, channel,
        newest board, deadline and the asker's note; with Next when one waits (unless
        ``offer_next`` is False: a frontend without it)."""
        entries = await self._entries(user_id, visible)
        if not entries:
            return Reply(
                said(
                    "You are not in any open game on a server you share with me. "
                    "`/game list` in a server shows its games; `/game new` opens one."
                )
            )
        notes = await self._desk.store.notes(user_id, [e.record.id for e in entries])
        shown = entries[:MAX_LISTED]
        lines = [self._line(e, visible, notes.get(e.record.id)) for e in shown]
        waiting = sum(e.waiting for e in entries)
        if len(entries) > len(shown):
            lines.append(said("…and {count} more.", count=len(entries) - len(shown)))
        text = Text.of(_head(waiting, offer_next), "\n", Text.of("\n").join(lines))
        return Reply(text, controls=(next_controls(),) if waiting and offer_next else ())

    async def next_choice(self, *, user_id: int, visible: Servers) -> Reply:
        """The choice of the most urgent game waiting on ``user_id``, with its controls
        (the same as its turn post's or private prompt's), its board and the asker's note."""
        entries = [e for e in await self._entries(user_id, visible) if e.waiting]
        if not entries or entries[0].table is None:
            raise UserError(said("Nothing is waiting for you now. `/games` lists your games."))
        table = entries[0].table
        record = table.record
        controls = self._turns.controls_of(table, user_id)[:MAX_PROMPTS_SHOWN]
        where = said(
            "**{game}** on **{server}**, {channel}",
            game=table.title,
            server=visible[record.guild_id],
            channel=ChannelRef(record.channel_id),
        )
        if record.deadline:
            where += ", " + said("turn ends {when}", when=Moment(record.deadline))
        lines: list[str | Text] = [where]
        lines += [c.prompt.text for c in controls]
        private = private_of(table, user_id)
        lines += [private] if private else []
        note = (await self._desk.store.notes(user_id, [record.id])).get(record.id)
        lines += ["📝 " + said("Your note: {note}", note=note)] if note else []
        if len(entries) > 1:
            lines.append(
                said_plural(
                    "Then {count} more waiting for you: press **Next** again.",
                    "Then {count} more waiting for you: press **Next** again.",
                    len(entries) - 1,
                )
            )
        return Reply(Text.of("\n").join(lines), controls=tuple(controls), board=board_of(table))

    async def waiting(self, *, user_id: int) -> list[tuple[GameRecord, Text]]:
        """The games waiting on ``user_id`` on every server, the most urgent first, each
        with its line (a digest's, naming its server and channel)."""
        entries = [e for e in await self._entries(user_id, None) if e.waiting]
        found = []
        for entry in entries:
            record, table = entry.record, entry.table
            assert table is not None
            line = Text.of("➡️ ", calls.where(record, table.title), ": ", said("**your turn**"))
            if record.deadline:
                line += ", " + said("turn ends {when}", when=Moment(record.deadline))
            if record.board_message_id:
                board = BoardLink(record.guild_id, record.channel_id, record.board_message_id)
                line += " · " + said("board: {board}", board=board)
            found.append((record, line))
        return found

    async def _seated(self, user_id: int) -> list[GameRecord]:
        """The active games where ``user_id`` holds a seat they have not left."""
        records = await self._desk.store.games(user_id=user_id)
        return [
            r for r in records
            if any(s.user_id == user_id and not s.left and s.computer is None for s in r.seats)
        ]  # fmt: skip

    async def _entries(self, user_id: int, visible: Servers | None) -> list[Entry]:
        entries = []
        for record in await self._seated(user_id):
            if visible is not None and record.guild_id not in visible:
                continue
            try:
                table: Table | None = self._desk.loaded(record)
            except UserError:
                table = None
            waiting = table is not None and bool(self._turns.controls_of(table, user_id))
            entries.append(Entry(record, table, waiting))
        entries.sort(key=lambda e: e.order)
        return entries

    @staticmethod
    def _line(entry: Entry, visible: Servers, note: str | None) -> Text:
        record, table = entry.record, entry.table
        title = table.title if table is not None else f"{title_of(record.slug)} #{record.id}"
        where = said(
            "{game} on **{server}**, {channel}",
            game=title,
            server=visible[record.guild_id],
            channel=ChannelRef(record.channel_id),
        )
        if table is None:
            state = "⚠️ " + said("cannot be read (its stored state is damaged)")
        elif entry.waiting:
            state = said("**your turn**")
        elif record.status == "paused":
            state = pause_text(record, STATUS_TEXTS["paused"])
        elif record.status == "running":
            waiting = sorted({p.seat for p in table.prompts()})
            state = said("waiting for {seats}", seats=seat_labels(table, waiting))
        else:
            state = STATUS_TEXTS[record.status]
        line = Text.of("➡️ " if entry.waiting else "▫️ ", where, ": ", state)
        if record.status == "running" and record.deadline:
            line += ", " + said("turn ends {when}", when=Moment(record.deadline))
        if record.board_message_id and record.status != "lobby":
            board = BoardLink(record.guild_id, record.channel_id, record.board_message_id)
            line += " · " + said("board: {board}", board=board)
        if note:
            line += "\n    📝 " + note
        return line


def _head(waiting: int, offer_next: bool) -> Text:
    """The inbox's first line: whose games, and how many wait for the asker."""
    if not waiting:
        return said("**Your games** (only you see this)")
    if offer_next:
        return said_plural(
            "**Your games** (only you see this): {count} waiting for you. **Next** shows the "
            "most urgent one.",
            "**Your games** (only you see this): {count} waiting for you. **Next** shows the "
            "most urgent one.",
            waiting,
        )
    return said_plural(
        "**Your games** (only you see this): {count} waiting for you.",
        "**Your games** (only you see this): {count} waiting for you.",
        waiting,
    )
