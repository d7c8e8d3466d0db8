"""Spectators: ``/game watch`` and ``/game unwatch``, and what a watcher is sent.

A watcher gets every new public board of the game by direct message: the same board (the
public view) and the same public text as the channel post, stored in the transaction of
the write that posts it, so it is sent exactly once. Nothing else reaches a watcher: no
private line, no secret prompt, no controls. When their DMs are closed the outbox mentions
them in the game's channel instead (:func:`watch_fallback`). A watcher who chose a digest
(``/notify watching:<hours>``) gets none of these: every N hours one DM shows the newest
position of each game they watch that moved (:mod:`bot.service.delivery.digest`). The game's status
message counts its watchers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Unpack

from bot.service.delivery import calls
from bot.service.desk import Desk, Where, title_of
from bot.service.errors import UserError
from bot.service.notices import ChannelPost, Outcome, PrivateMessage, Reply, StatusUpdate
from bot.service.tables import STATUS_TEXTS, Table, status_line
from bot.service.text import Mention, Text, said, said_plural
from bot.service.timekeeping.away import away_text, show_away
from bot.service.timekeeping.timing import pause_text
from bot.store import ActionStore

ENDED = ("finished", "cancelled")


def watching_text(table: Table) -> Text:
    """The line counting the game's watchers (with a newline before it), or nothing."""
    return _count_line(len(table.record.watchers))


def tell_watchers(outcome: Outcome, table: Table) -> None:
    """Add to ``outcome`` a direct message for each watcher with every new public board
    its channel posts carry, and the watcher count to its status update. Called where
    an action's notices are put together, so they are stored in its transaction."""
    record = table.record
    posts = [
        (n, n.board) for n in outcome.notices
        if isinstance(n, ChannelPost) and n.board is not None and n.game_id == record.id
    ]  # fmt: skip
    updates = [n for n in outcome.notices if isinstance(n, StatusUpdate)]
    if not posts and not updates:
        return
    watchers = [u for u in record.watchers if not record.seat_of(u)]
    if not watchers:
        return
    for index, notice in enumerate(outcome.notices):
        if isinstance(notice, StatusUpdate) and notice.game_id == record.id:
            text = notice.text + _count_line(len(watchers))
            outcome.notices[index] = replace(notice, text=text)
    boarded = [u for u in watchers if u not in record.digest_watchers]  # the rest: a digest
    for post, board in posts:
        watching = said(
            "Watching {game}; `/game unwatch game:{number}` stops it.",
            game=calls.where(record, table.title),
            number=record.id,
        )
        text = Text.of("👀 ", post.text, "\n", watching)
        for user in boarded:
            outcome.add(
                PrivateMessage(record.id, user, text, channel_id=record.channel_id, boards=(board,))
            )


def tell_onlookers(outcome: Outcome, table: Table, now: float) -> None:
    """Who is away (at ``now``) and who watches, added to the notices of an action (or a
    start or resume) in ``outcome``: called once where they are put together."""
    show_away(outcome, table, now)
    tell_watchers(outcome, table)


def onlookers_text(table: Table, now: float) -> Text:
    """Who is away among the players asked now, and how many watch (each on a line of its
    own, with a newline before it), or nothing."""
    return away_text(table, now) + watching_text(table)


class Watchers:
    """``/game watch`` and ``/game unwatch``, and the status message as it stands."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk

    async def watch(self, *, user_id: int, **where: Unpack[Where]) -> Outcome:
        """``user_id`` starts watching the game: refused for a player of it, a game that is
        over, or one they watch already. The status message shows the new count."""
        table = await self._desk.find(user_id=user_id, **where)
        record = table.record
        if record.seat_of(user_id):
            raise UserError(said("You play in {game}, so you already see it.", game=table.title))
        if record.status in ENDED:
            raise UserError(
                said(
                    "{game} is {status}; `/game history game:{number}` shows how it went.",
                    game=table.title,
                    status=STATUS_TEXTS[record.status],
                    number=record.id,
                )
            )
        if not await self._desk.store.add_watcher(record.id, user_id, now=self._desk.clock()):
            raise UserError(
                said(
                    "You are already watching {game}. `/game unwatch` stops watching.",
                    game=table.title,
                )
            )
        every = calls.digest_hours(await self._desk.store.calls(user_id), "watching")
        outcome = Outcome([Reply("👀 " + _watching(table.title, record.id, every))])
        await self._recount(outcome, table)
        return outcome

    async def unwatch(
        self, *, user_id: int, game_id: int | None = None, guild_id: int | None = None, **_: object
    ) -> Outcome:
        """``user_id`` stops watching the game named, else the only game they watch (the
        watched games are listed when that is unclear)."""
        table = await self._watched(user_id, game_id, guild_id)
        if not await self._desk.store.remove_watcher(table.record.id, user_id):
            raise UserError(said("You are not watching {game}.", game=table.title))
        outcome = Outcome([Reply(said("You no longer watch {game}.", game=table.title))])
        await self._recount(outcome, table)
        return outcome

    async def watched_choices(self, *, user_id: int, **_: object) -> list[tuple[int, str]]:
        """``(number, name)`` of the games ``user_id`` watches (for autocomplete)."""
        records = await self._desk.store.watched_games(user_id)
        return [(r.id, f"#{r.id} {title_of(r.slug)}") for r in records]

    async def _recount(self, outcome: Outcome, table: Table) -> None:
        """Refresh the running game's status message with the new watcher count."""
        table = await self._desk.table(table.record.id)  # read again: it counts its watchers
        if table.record.status == "running" and table.state is not None:
            outcome.add(await self.status_update(table))
            await self._desk.stored(
                outcome, self._desk.store.enqueue, table.record.id, now=self._desk.clock()
            )

    async def status_update(self, table: Table) -> StatusUpdate:
        """The game's status message as it stands (see :func:`status_update`)."""
        return await status_update(self._desk, table)

    async def _watched(self, user_id: int, game_id: int | None, guild_id: int | None) -> Table:
        """The game to stop watching: the one named, else the only one watched."""
        if game_id is not None:
            return await self._desk.find(game_id=game_id, guild_id=guild_id)
        records = await self._desk.store.watched_games(user_id)
        if not records:
            raise UserError(
                said("You are not watching any game. `/game watch` starts watching one.")
            )
        if len(records) > 1:
            listing = ", ".join(f"#{r.id} {title_of(r.slug)}" for r in records)
            raise UserError(
                said("You watch several games ({games}); add `game:<number>`.", games=listing)
            )
        return self._desk.loaded(records[0])


async def status_update(desk: Desk, table: Table) -> StatusUpdate:
    """The game's status message as it stands, for a change that is not an action (a
    pause, a watcher, a player away): the last public event is read from the log. A
    paused game says who paused it and how to go on, instead of whose turn it is."""
    last = await last_public(desk.store, table.record.id)
    if table.record.status == "paused":
        text = Text.of(f"📜 **{table.title}**: ", pause_text(table.record, STATUS_TEXTS["paused"]))
        text += Text.of("\n", said("Last: {event}", event=last)) if last else ""
        text += desk.page_link(table.record)
    else:
        text = status_line(table, last, desk.page_link(table.record), desk.clock())
    text += onlookers_text(table, desk.clock())
    return StatusUpdate(table.record.id, table.record.channel_id, text)


async def last_public(store: ActionStore, game_id: int) -> str:
    """The newest public event of a game, as its log tells it ("" before any)."""
    for entry in reversed(await store.actions(game_id)):
        public = [e["text"] for e in entry.events if e.get("seat") is None]
        if public:
            return str(public[-1])
    return ""


def watch_fallback(message: PrivateMessage) -> ChannelPost:
    """What a watcher whose DMs are closed gets instead of a board by DM: a mention in the
    game's channel (no secret: the board it points to is the public one posted there)."""
    text = said(
        "{watcher}, I can't send you direct messages: the new board of game #{number} you "
        "watch is in the post above.",
        watcher=Mention(message.user_id),
        number=message.game_id,
    )
    return ChannelPost(message.game_id, message.channel_id, text, mentions=(message.user_id,))


def _count_line(count: int) -> Text:
    if not count:
        return Text()
    watching = said_plural("{count} person watching", "{count} people watching", count)
    return Text.of("\n👀 ", watching)


def _watching(title: str, number: int, every: int) -> Text:
    """What ``/game watch`` answers: how the watcher is sent the boards (``every`` hours
    in a digest, or 0: each by direct message) and how to stop."""
    if every:
        return said(
            "You are watching {game}: its newest board comes in your digest of watched games "
            "every {hours} h. `/game unwatch game:{number}` stops it.",
            game=title,
            hours=every,
            number=number,
        )
    return said(
        "You are watching {game}: each new board comes to you by direct message "
        "(`/notify watching:<hours>` sends a digest instead). `/game unwatch game:{number}` "
        "stops it.",
        game=title,
        number=number,
    )
