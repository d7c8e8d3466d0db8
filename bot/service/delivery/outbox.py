"""Sending what the outbox holds: every notice of every accepted write, once, in order.

The host stores each notice in the transaction of the write it tells about
(:mod:`bot.service.wire`). An :class:`Outbox` sends them through a frontend's ``send``:

- in order within a *lane* (one channel, or one user's DMs), each lane on its own, so a
  slow or failing channel holds up nobody else;
- a transient failure (:class:`TryLater`: Discord's 5xx, a dropped connection) keeps the
  notice and its lane waiting, and it is tried again with growing pauses;
- a permission the channel refuses the bot (:class:`NoAccess`) is no lasting failure: the
  notice waits the same way, for as long as it takes, and the hosts of the channel's games
  are told, once, what to grant where;
- a lasting one (:class:`ChannelGone`, :class:`DmsClosed`, :class:`Undeliverable`) is
  handled as the host says (the game pauses; the player gets the closed-DM button) and the
  lane goes on;
- what was sent is recorded at once, with the notices the send told for (folded into it,
  see :mod:`bot.service.delivery.superseded`), in one transaction. After a crash, whatever was
  committed and not yet recorded is sent at the next start; the nonce each send carries
  lets the receiving side drop a second copy of a message it already has.

A send's fate is proven, not assumed. Discord answers a send under a nonce it has seen
with the message it made then, showing what that send showed. So before a send that may
make a message, what it shows is noted under its nonce (:meth:`Store.note_shown`); a later
send under that nonce that shows something else (a fold grown since, a newer status) may be
answered with the old message, and that message is then edited to show the newer content.
A channel refusing a permission alarms the hosts only when the retry fails too, and they
hear when the channel works again.

Each delivery is written for whoever reads it (:attr:`Delivery.locale`): what a channel
shows (posts, cards, the status, a fallback) in the language of the game's server, a DM in
its reader's (:mod:`bot.service.community.languages` decides which).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

from bot.service import wire
from bot.service.admission import Owed
from bot.service.community.watchers import watch_fallback
from bot.service.delivery import superseded
from bot.service.delivery.pacing import Pacer
from bot.service.delivery.superseded import Planned
from bot.service.desk import Desk, title_of
from bot.service.notices import (
    Board,
    ChannelPost,
    Notice,
    Outcome,
    PrivateFallback,
    PrivateMessage,
    Sendable,
    StatusUpdate,
)
from bot.service.text import ChannelRef, said
from bot.service.timekeeping import quiet_hours
from bot.store import GameRecord, OutboxEntry
from i18n import DEFAULT, Locale

log = logging.getLogger(__name__)

BACKOFF = (1.0, 2.0, 5.0, 15.0, 60.0, 300.0)
"""Seconds to wait before the next try, by how many tries failed (the last one repeats)."""
IDLE = 24 * 3600.0
"""With nothing to retry the worker sleeps this long; storing a notice wakes it at once."""
MAX_ATTEMPTS = 50
"""Failed tries after which a notice is given up on (about four hours of pauses)."""
LANE_LEASE = 60.0
"""Seconds a claim on a lane lasts (renewed before each notice): processes sharing the
database send each lane from the one that claimed it; if that process dies, another takes
the lane over this long after its last renewal."""
CONCURRENCY = 16
"""Notices sent at once, each of another lane."""
STOP_GRACE = 5.0
"""Seconds :meth:`Outbox.stop` lets sends under way finish before abandoning them."""
TAKE = 5000
"""Waiting notices of a lane read at a time (the lane is read again while there are more);
a backlog read whole is folded whole. A thousand computer moves in a row leave about
3,000, so such a burst is read at once and its channel is told its newest position in
one pass, not the position where a read happened to stop."""
PACE_WAIT = 0.5
"""Seconds a lane waits for its pace in place (a click's own posts keep it waiting); past
that it gives its turn up and is looked at again when it may send."""
LANE_BUSY = 1.0
"""Seconds before a lane another process is sending is looked at again (it may have left
notices stored after it read the lane, or died)."""


class TryLater(Exception):
    """A transient failure: the notice stays first in its lane and is sent again later."""


class Undeliverable(Exception):
    """A lasting failure: this notice can never be sent as it is; its lane goes on."""


class NoAccess(TryLater):
    """The channel is there, but the bot lacks a permission in it (Discord's 403): the
    notice waits, is tried again with growing pauses and never given up on, and the hosts
    of the channel's games are told what to grant."""

    def __init__(
        self, channel_id: int, needs: tuple[str, ...], *, known: bool, how: str, reason: str
    ) -> None:
        """``needs``: the permissions the bot lacks there (by their names as shown to server
        admins) when ``known``, else all it needs there; ``how``: how to grant them."""
        super().__init__(reason)
        self.channel_id = channel_id
        self.needs = needs
        self.known = known
        self.how = how


class ChannelGone(Undeliverable):
    """The game's channel is deleted (Discord no longer knows it)."""

    def __init__(self, channel_id: int, reason: str = "") -> None:
        super().__init__(reason or f"channel {channel_id} is gone")
        self.channel_id = channel_id


class DmsClosed(Undeliverable):
    """Direct messages to the user fail; ``lasting`` when Discord says they are closed
    (remembered, so the bot stops trying), else only for this message."""

    def __init__(self, user_id: int, *, lasting: bool, reason: str = "") -> None:
        super().__init__(reason or f"direct messages to {user_id} fail")
        self.user_id = user_id
        self.lasting = lasting


@dataclass(frozen=True)
class Delivery:
    """One notice to send, with what the sender needs to know about its game now."""

    notice: Notice
    nonce: str
    """Unique per stored notice: a second send of the same notice carries the same one."""
    status_message_id: int | None = None
    """The game's status message to edit (a StatusUpdate), if it has one."""
    board_message_id: int | None = None
    """The game's previous board post (its controls go once a new board is posted)."""
    retried: bool = False
    """Whether an earlier send of this notice failed (a refusal that comes again lasts)."""
    locale: Locale = DEFAULT
    """The language to write it in: its reader's for a DM, its game's server's for what a
    channel shows."""


@dataclass
class _Messages:
    """A game's status message and newest board post, as known while sending its lane."""

    status: int | None
    board: int | None


Send = Callable[[Delivery], Awaitable[int | None]]
"""A frontend's sender: sends one notice and returns the id of the message it made or
edited (None if none); raises TryLater or an Undeliverable."""


class Boards(Protocol):
    """The boards' pictures (:class:`bot.service.boards.drawing.Drawing`): a board drawn
    ahead of its send, in the language the send is written in, and kept until then."""

    async def draw(self, board: Board | None, locale: Locale = DEFAULT) -> bytes | None: ...

    def kept(
        self, board: Board | None, locale: Locale = DEFAULT
    ) -> AbstractContextManager[None]: ...


class Channels(Protocol):
    """What becomes of games whose channel is deleted (:class:`bot.service.seating.lobby.Lobby`)."""

    async def channel_gone(self, channel_id: int) -> object: ...


class Readers(Protocol):
    """The languages people read (:class:`bot.service.community.languages.Languages`): a
    user's, and a server's."""

    async def reader(
        self, user_id: int, *, seen: str | None = None, guild_id: int | None = None
    ) -> Locale: ...

    async def server(self, guild_id: int | None, *, seen: str | None = None) -> Locale: ...


class Owing(Protocol):
    """The host's admission (:class:`bot.service.admission.Admission`): a lane being sent
    is work owed, which fills its limit so that a host falling behind refuses new clicks."""

    def owed(self) -> AbstractAsyncContextManager[Owed]: ...


_lane_owed: ContextVar[Owed | None] = ContextVar("lane_owed", default=None)
"""The owed work of the lane this task sends, told the time it waits for Discord's pace."""


class Outbox:
    """Sends stored notices through ``send`` (see the module docstring)."""

    def __init__(
        self,
        desk: Desk,
        boards: Boards,
        channels: Channels,
        owner: str,
        send: Send,
        *,
        readers: Readers,
        concurrency: int = CONCURRENCY,
        one_by_one: bool = False,
        lane_lease: float = LANE_LEASE,
        pacer: Pacer | None = None,
        owing: Owing | None = None,
    ) -> None:
        """``one_by_one``: send everything in the order it was stored, one at a time (a
        local table, where one terminal shows every lane). ``lane_lease``: seconds this
        outbox's claim on a lane lasts (see :data:`LANE_LEASE`). ``pacer``: the pace of
        the sends (None: as fast as they go, as at a local table). ``owing``: the
        admission each lane being sent is counted in (None: none).

        What it uses: the ``desk`` (the outbox's table in the store, the clock, notices for
        hosts, the doorbell it listens to), the ``boards`` drawn ahead of their sends, the
        ``channels`` part that pauses the games of a deleted channel, the ``owner`` this
        process claims lanes as, and the ``readers``' languages each delivery is written
        in."""
        self._desk = desk
        self._boards = boards
        self._channels = channels
        self._owner = owner
        self._readers = readers
        self.send = send
        self.one_by_one = one_by_one
        self.lane_lease = lane_lease
        self.pacer = pacer
        self._owing = owing
        self._locks: dict[str, asyncio.Lock] = {}
        self._slots = asyncio.Semaphore(concurrency)
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._dirty = False
        self._next_retry: float | None = None
        self._stopping = False
        self._lanes: set[asyncio.Task[bool]] = set()
        """The lanes being sent now, each in a task of its own (so stopping can wait for
        them, or abandon them, without touching the tasks that asked for them)."""
        self._refused: set[int] = set()
        """Channels refusing the bot a permission whose hosts were told (until a send there
        goes through again, when they are told it works)."""
        self._refusing: set[int] = set()
        """Channels that refused the bot once since a send there last went through: a
        second refusal (the retry's) is a failure that lasts."""
        # Whenever a write stores notices the desk's store rings; this outbox then sends them.
        desk.doorbell.on_notices_stored(self.poke)

    # -- running in the background -----------------------------------------------------

    def start(self) -> None:
        """Send what is waiting now, then whatever is stored later, until :meth:`stop`."""
        self._stopping = False
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="outbox")

    async def stop(self, grace: float = STOP_GRACE) -> None:
        """Stop sending, in order: no lane is taken any more (a flush asked for now sends
        nothing and says so), a notice being sent is finished (one still going after
        ``grace`` seconds is abandoned, unrecorded), and every lane this outbox claimed
        is released before this returns, so the store may be closed then. Whatever was
        not sent stays stored and is sent after the next start."""
        self._stopping = True
        worker, self._task = self._task, None
        if worker is not None and self._sleeping:
            worker.cancel()
        running = {t for t in (worker, *self._lanes) if t is not None and not t.done()}
        if running:
            _, late = await asyncio.wait(running, timeout=grace)
            for task in late:
                log.warning("stopping: a send under way is abandoned; it is sent after a start")
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        if worker is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    def poke(self) -> None:
        """Notices were stored: send them soon. A sleeping worker is restarted; a busy one
        looks again before it sleeps."""
        self._dirty = True
        if self._task is not None and self._sleeping and not self._stopping:
            self._task.cancel()
            self._task = asyncio.create_task(self._run(), name="outbox")

    async def _run(self) -> None:
        while not self._stopping:
            self._sleeping = self._dirty = False
            try:
                await self.flush()
            except Exception:
                # A store that failed is tried again shortly; nothing is lost.
                log.exception("sending stored notices failed; trying again shortly")
                self._retry_at(self._desk.clock() + BACKOFF[0])
            if self._stopping:
                return
            if self._dirty:
                continue
            delay = IDLE
            if self._next_retry is not None:
                delay = min(IDLE, max(0.0, self._next_retry - self._desk.clock()))
            self._sleeping = True
            await asyncio.sleep(delay)

    # -- sending -----------------------------------------------------------------------

    async def flush(self, lanes: list[str] | None = None) -> bool:
        """Send every stored notice that may go now (of ``lanes`` only, when given).

        True when nothing of those lanes is left waiting (for a retry or for another
        sender); False when some notice is held back by a transient failure.
        """
        if self._stopping:
            return False
        if lanes is None:
            self._next_retry = None
        pending = await self._desk.store.pending_notices(lanes=lanes)
        by_lane = list(dict.fromkeys(entry.lane for entry in pending))
        if not by_lane:
            return True
        if self.one_by_one:
            return await self._send_in_order(by_lane)
        done = await asyncio.gather(*(self._lane_task(lane) for lane in by_lane))
        return all(done)

    async def _send_in_order(self, lanes: list[str]) -> bool:
        """Send the pending notices of ``lanes`` in stored order, one at a time; lanes
        another process is sending wait."""
        claimed = [lane for lane in lanes if await self._claim(lane)]
        held = set(lanes) - set(claimed)
        try:
            known: dict[int, _Messages] = {}
            pending = await self._desk.store.pending_notices(lanes=claimed) if claimed else []
            for index, entry in enumerate(pending):
                if entry.lane in held or self._stopping:
                    held.add(entry.lane)
                    continue
                renewed = index == 0 or await self._claim(entry.lane)
                send = Planned(entry, wire.load(entry.body))
                if not renewed or not await self._send_entry(send, known):
                    held.add(entry.lane)
        finally:
            for lane in claimed:
                await self._release(lane)
        return not held

    async def flush_outcome(self, outcome: Outcome) -> bool:
        """Send the notices of ``outcome`` (and anything older in their lanes) now.

        True when all of them went; False when some wait: for a retry, for another sender,
        or because sending failed on this side (the store lost, say), which is logged and
        never raised. The write is stored either way: whatever waits is sent by the
        outbox's worker, which is woken for it.
        """
        lanes = list(dict.fromkeys(wire.lane(n) for n in outcome.outgoing))
        if not lanes:
            return True
        if self.one_by_one:
            done: list[bool | BaseException] = [
                *await asyncio.gather(self.flush(lanes), return_exceptions=True)
            ]
        else:
            done = await asyncio.gather(
                *(self._lane_task(lane) for lane in lanes), return_exceptions=True
            )
        # (A lane abandoned by a stop is cancelled: not sent, and no failure to retry.)
        failures = [d for d in done if isinstance(d, Exception)]
        for failure in failures:
            log.error("sending stored notices failed; they are sent later", exc_info=failure)
        if failures:
            self._retry_at(self._desk.clock() + BACKOFF[0])
            self.poke()
        return all(d is True for d in done)

    def _lane_task(self, lane: str) -> asyncio.Task[bool]:
        """Send ``lane`` (see :meth:`_send_lane`) in a task :meth:`stop` knows about."""
        task = asyncio.create_task(self._send_owed(lane), name=f"outbox-{lane}")
        self._lanes.add(task)
        task.add_done_callback(self._lanes.discard)
        return task

    async def _send_owed(self, lane: str) -> bool:
        """:meth:`_send_lane`, counted as work the host owes while it waits and runs (its
        waits for Discord's pace aside: see :meth:`_paced`)."""
        if self._owing is None:
            return await self._send_lane(lane)
        async with self._owing.owed() as owed:
            _lane_owed.set(owed)  # this lane's own task: its context is its own
            return await self._send_lane(lane)

    async def _send_lane(self, lane: str) -> bool:
        """Send the lane's pending notices in order, holding its claim in the store (so no
        other process sends them meanwhile); False if some must wait. What a newer notice
        supersedes is not sent (:mod:`bot.service.delivery.superseded`), and each send waits for
        the lane's pace; a lane that must wait long gives its turn up, and its backlog is
        taken again (folded anew) when the pace allows."""
        lock = self._locks.setdefault(lane, asyncio.Lock())
        async with lock:
            if self.pacer is not None and (pause := self.pacer.ready(lane)) > PACE_WAIT:
                # Nothing could go before long: leave the backlog unread (it is read, and
                # folded, once, when the lane may send).
                self._retry_at(self._desk.clock() + pause)
                return False
            async with self._slots:
                if self._stopping:
                    return False
                claimed = self._desk.clock()
                # Read under the lane's claim: another flush may have sent some already.
                pending = await self._desk.store.take_lane(
                    lane, self._owner, now=claimed, lease_seconds=self.lane_lease,
                    limit=TAKE,
                )  # fmt: skip
            if pending is None:
                self._retry_at(claimed + min(LANE_BUSY, self.lane_lease))
                return False
            try:
                while True:
                    if not await self._send_taken(lane, pending):
                        return False
                    if len(pending) < TAKE:
                        return True
                    pending = await self._desk.store.pending_notices(lanes=[lane], limit=TAKE)
            finally:
                await self._release(lane)

    async def _send_taken(self, lane: str, pending: list[OutboxEntry]) -> bool:
        """Send what ``pending`` (the lane's waiting notices, taken under its claim) still
        tells; False if some must wait."""
        claimed = self._desk.clock()
        known: dict[int, _Messages] = {}
        waiting = [(entry, wire.load(entry.body)) for entry in pending]
        for send in superseded.plan(waiting):
            if self._stopping:
                return False  # the rest is sent after the next start
            if self._desk.clock() - claimed > self.lane_lease / 2:
                if not await self._claim(lane):  # renew the lease
                    return False
                claimed = self._desk.clock()
            # The board drawn ahead (in the language its send is written in) stays drawn
            # until its send, however long that waits.
            locale = await self._locale(send.notice, send.entry.guild_id)
            with self._boards.kept(getattr(send.notice, "board", None), locale):
                if not await self._drawn_in_pace(lane, send.notice, locale):
                    return False
                async with self._slots:
                    if not await self._send_entry(send, known, locale):
                        return False
        return True

    async def _drawn_in_pace(self, lane: str, notice: Sendable, locale: Locale = DEFAULT) -> bool:
        """Draw ``notice``'s board, then wait for the lane's pace (see :meth:`_paced`).
        The pace is taken once the picture is ready, so a slow drawing (a busy host) never
        brings two requests to Discord closer together than they were let go; the picture
        is kept, so the frontend's own drawing of it costs nothing. A lane that could not
        go soon anyway draws nothing: its backlog may yet fold to a newer board."""
        board = getattr(notice, "board", None)
        soon = self.pacer is None or self.pacer.ready(lane) <= PACE_WAIT
        if board is not None and soon:
            try:
                await self._boards.draw(board, locale)
            except Exception:  # the frontend draws it again, and tells what went wrong
                log.debug("drawing a board before its pace failed", exc_info=True)
        return await self._paced(lane)

    async def _paced(self, lane: str) -> bool:
        """Wait for the lane's pace (see :mod:`bot.service.delivery.pacing`); False, with the lane
        looked at again when it may send, if that is more than :data:`PACE_WAIT` away."""
        if self.pacer is None:
            return True
        began = time.monotonic()  # the admission's clock, not the host's
        paced = await self.pacer.wait(lane, at_most=PACE_WAIT)
        if (owed := _lane_owed.get()) is not None:
            owed.waited(time.monotonic() - began)
        if paced:
            return True
        self._retry_at(self._desk.clock() + max(self.pacer.ready(lane), 0.05))
        return False

    async def _claim(self, lane: str) -> bool:
        """Claim (or renew) the lane for this host; while another process holds it, look
        again after :data:`LANE_BUSY`."""
        now = self._desk.clock()
        if await self._desk.store.claim_lane(lane, self._owner, now, self.lane_lease):
            return True
        self._retry_at(now + min(LANE_BUSY, self.lane_lease))
        return False

    async def _release(self, lane: str) -> None:
        try:
            await self._desk.store.release_lane(lane, self._owner)
        except Exception:
            log.warning("releasing lane %s failed; its claim lapses", lane, exc_info=True)

    async def _send_entry(
        self, send: Planned, known: dict[int, _Messages], locale: Locale | None = None
    ) -> bool:
        """Send ``send``'s notice under its entry (recording the entries it covers as sent
        with it), written in ``locale`` (worked out here when not given); False if it must
        wait (the lane stops behind it)."""
        entry, notice = send.entry, send.notice
        now = self._desk.clock()
        if entry.not_before is not None and entry.not_before > now:
            self._retry_at(entry.not_before)
            return False
        quieted = await self._quieted(send, now)
        if quieted is None:
            return True
        notice = quieted
        messages = known.setdefault(
            entry.game_id, _Messages(entry.status_message_id, entry.board_message_id)
        )
        under = send.nonce_entry
        delivery = Delivery(
            notice,
            nonce=f"dh{under.id}",
            status_message_id=messages.status,
            board_message_id=messages.board,
            retried=entry.attempts > 0,
            locale=locale or await self._locale(notice, entry.guild_id),
        )
        shown = _shown(notice, delivery.locale) if _may_make_message(delivery) else None
        try:
            if shown is not None and under.shown is None:
                await self._desk.store.note_shown(under.id, shown)
            message_id = await self.send(delivery)
            if shown is not None and under.shown not in (None, shown) and message_id:
                # The nonce went out before showing something else: Discord may have
                # answered with that message. It is made to show what is meant now.
                message_id = await self.send(_as_edit(delivery, message_id)) or message_id
                await self._desk.store.note_shown(under.id, shown)
        except NoAccess as error:
            await self._later(entry, str(error), give_up=False)
            await self._refused_by(error, lasting=entry.attempts > 0)
            return False
        except TryLater as error:
            await self._later(entry, str(error))
            return False
        except Undeliverable as error:
            await self._desk.store.give_up(entry.id, reason=str(error))
            await self._handle(notice, error)
            return True
        except Exception as error:
            # Not known to be lasting: keep the notice and try again later.
            log.exception("sending notice %s of game %s failed", entry.id, entry.game_id)
            await self._later(entry, repr(error))
            return False
        remember = _remembered(notice, message_id, messages)
        # Recorded as the entry whose nonce it carried, the others as told by it.
        await self._desk.store.mark_sent(
            under.id, now=self._desk.clock(), message_id=message_id, remember=remember,
            covers=[e.id for e in (entry, *send.covers) if e.id != under.id],
        )  # fmt: skip
        if isinstance(notice, (ChannelPost, StatusUpdate, PrivateFallback)):
            await self._works_again(notice.channel_id)
        return True

    async def _locale(self, notice: Sendable, guild_id: int | None) -> Locale:
        """The language ``notice`` is written in: a DM in its reader's, what a channel of
        server ``guild_id`` shows (a post, the status, a fallback) in the server's, once for
        every reader there."""
        if isinstance(notice, PrivateMessage):
            return await self._readers.reader(notice.user_id, guild_id=guild_id)
        return await self._readers.server(guild_id)

    async def _quieted(self, send: Planned, now: float) -> Sendable | None:
        """``send``'s notice as it may reach its players now (see
        :mod:`bot.service.timekeeping.quiet_hours`): None when it is a DM call held back
        (recorded as sent, and kept until the quiet hours end); a post pings nobody in quiet
        hours."""
        entry, notice = send.entry, send.notice
        store = self._desk.store
        if isinstance(notice, PrivateMessage) and not notice.controls:
            due = await quiet_hours.until(store, notice.user_id, now)
            if due is None:
                return notice
            # Held until ``due``: the desk's store wakes the scheduler, which releases it then.
            await store.hold_call(
                entry.id, user_id=notice.user_id, game_id=entry.game_id, body=entry.body,
                due_at=due, now=now, covers=[e.id for e in send.covers],
            )  # fmt: skip
            return None
        if isinstance(notice, ChannelPost) and notice.mentions:
            quiet = {u for u in notice.mentions if await quiet_hours.until(store, u, now)}
            if quiet:
                kept = tuple(u for u in notice.mentions if u not in quiet)
                return dataclasses.replace(notice, mentions=kept)
        return notice

    async def _later(self, entry: OutboxEntry, reason: str, *, give_up: bool = True) -> None:
        """Try ``entry`` again after a pause that grows with its failed tries; after
        :data:`MAX_ATTEMPTS` it is given up on, unless ``give_up`` is False."""
        pause = BACKOFF[min(entry.attempts, len(BACKOFF) - 1)]
        if give_up and entry.attempts + 1 >= MAX_ATTEMPTS:
            log.warning("giving up on notice %s of game %s: %s", entry.id, entry.game_id, reason)
            await self._desk.store.give_up(entry.id, reason=reason)
            return
        not_before = self._desk.clock() + pause
        await self._desk.store.retry_later(entry.id, not_before=not_before)
        log.info("notice %s of game %s waits %.0f s: %s", entry.id, entry.game_id, pause, reason)
        self._retry_at(not_before)

    def _retry_at(self, when: float) -> None:
        if self._next_retry is None or when < self._next_retry:
            self._next_retry = when

    async def _refused_by(self, error: NoAccess, *, lasting: bool) -> None:
        """A channel refused a send: its hosts are told once the refusal lasts (this is a
        retry refused again); a single refusal whose retry goes through alarms nobody."""
        if lasting or error.channel_id in self._refusing:
            await self._tell_refused(error)
        else:
            self._refusing.add(error.channel_id)
            log.info("channel %s refused a post once; it is tried again", error.channel_id)

    async def _works_again(self, channel_id: int) -> None:
        """A send in the channel went through: if its hosts were told it refused the bot,
        tell them it works again."""
        self._refusing.discard(channel_id)
        if channel_id not in self._refused:
            return
        self._refused.discard(channel_id)
        log.info("channel %s takes posts again", channel_id)
        told: list[Notice] = []
        for host_id, records in (await self._by_host(channel_id)).items():
            titles = ", ".join(f"{title_of(r.slug)} #{r.id}" for r in reversed(records))
            where = ChannelRef(channel_id)
            if len(records) == 1:
                text = "✅ " + said(
                    "I can post in {channel} again, thank you: the posts that waited are going "
                    "out now, and {game} goes on there as before. Nothing more to do.",
                    channel=where, game=titles,
                )  # fmt: skip
            else:
                text = "✅ " + said(
                    "I can post in {channel} again, thank you: the posts that waited are going "
                    "out now, and {games} go on there as before. Nothing more to do.",
                    channel=where, games=titles,
                )  # fmt: skip
            told.append(PrivateMessage(records[0].id, host_id, text))
        if told:
            await self._desk.tell(Outcome(told))

    async def _by_host(self, channel_id: int) -> dict[int, list[GameRecord]]:
        """The games in the channel, by the user who hosts them."""
        by_host: dict[int, list[GameRecord]] = {}
        for record in await self._desk.store.games(channel_id=channel_id):
            by_host.setdefault(record.host_id, []).append(record)
        return by_host

    async def _tell_refused(self, error: NoAccess) -> None:
        """Tell each host of a game in the refusing channel, once, what the bot lacks there,
        how to grant it, and that nothing is lost meanwhile."""
        if error.channel_id in self._refused:
            return
        self._refused.add(error.channel_id)
        log.warning("channel %s refuses a permission: %s", error.channel_id, error)
        by_host = await self._by_host(error.channel_id)
        needs = error.needs
        what = (
            said("the permission {name}", name=needs[0])
            if len(needs) == 1
            else said("the permissions {names} and {last}", names=", ".join(needs[:-1]),
                      last=needs[-1])
        )  # fmt: skip
        # Discord's 403 does not say which permission is missing; the frontend may know.
        why = (
            said("I lack {what} there ({error}).", what=what, error=str(error))
            if error.known
            else said("Discord refused my post there ({error}); I need {what} there.",
                      error=str(error), what=what)
        )  # fmt: skip
        told: list[Notice] = []
        for host_id, records in by_host.items():
            titles = ", ".join(f"{title_of(r.slug)} #{r.id}" for r in reversed(records))
            where = ChannelRef(error.channel_id)
            if len(records) == 1:
                text = "⚠️ " + said(
                    "I can't post in {channel}: {why} {how} Nothing is lost meanwhile: {game} "
                    "goes on, and its posts wait and go out by themselves as soon as I may post "
                    "there again.",
                    channel=where, why=why, how=error.how, game=titles,
                )  # fmt: skip
            else:
                text = "⚠️ " + said(
                    "I can't post in {channel}: {why} {how} Nothing is lost meanwhile: {games} "
                    "go on, and their posts wait and go out by themselves as soon as I may post "
                    "there again.",
                    channel=where, why=why, how=error.how, games=titles,
                )  # fmt: skip
            told.append(PrivateMessage(records[0].id, host_id, text))
        if told:
            await self._desk.tell(Outcome(told))

    async def _handle(self, notice: Sendable, error: Undeliverable) -> None:
        """What a lasting failure changes: the game pauses, or the player gets a button."""
        log.warning("a notice of game %s cannot be sent: %s", notice.game_id, error)
        if isinstance(error, ChannelGone):
            await self._channels.channel_gone(error.channel_id)
        elif isinstance(error, DmsClosed) and isinstance(notice, PrivateMessage):
            if error.lasting:
                await self._desk.store.set_dm_closed(error.user_id, True)
            if notice.controls and notice.channel_id:
                fallback = PrivateFallback(notice.game_id, notice.channel_id, notice.user_id)
                await self._desk.tell(Outcome([fallback]))
            elif notice.boards and notice.channel_id:
                await self._desk.tell(Outcome([watch_fallback(notice)]))
        self.poke()


def _may_make_message(delivery: Delivery) -> bool:
    """Whether ``delivery`` may make a new message in a channel (not edit one it knows):
    such a send's nonce may later be answered with the message it made."""
    notice = delivery.notice
    if isinstance(notice, StatusUpdate):
        return delivery.status_message_id is None
    if isinstance(notice, ChannelPost):
        return notice.settles is None and not (notice.edit and delivery.board_message_id)
    return False


def _shown(notice: Sendable, locale: Locale = DEFAULT) -> str:
    """A short digest of what ``notice`` shows written in ``locale``, the same in every
    process (and for English, the same as before languages were told apart)."""
    body = json.dumps(wire.dump(notice), sort_keys=True, separators=(",", ":"))
    if locale != DEFAULT:
        body = f"{locale}\n{body}"
    return hashlib.blake2b(body.encode(), digest_size=12).hexdigest()


def _as_edit(delivery: Delivery, message_id: int) -> Delivery:
    """``delivery`` as an edit of message ``message_id`` (which Discord answered a send
    under its nonce with), pinging nobody again."""
    notice = delivery.notice
    if isinstance(notice, StatusUpdate):
        return dataclasses.replace(delivery, status_message_id=message_id)
    assert isinstance(notice, ChannelPost)
    edit = dataclasses.replace(notice, edit=True, mentions=())
    return dataclasses.replace(delivery, notice=edit, board_message_id=message_id)


def _remembered(notice: Notice, message_id: int | None, messages: _Messages) -> str | None:
    """Which of its game's messages a sent notice became (``"board"``, ``"status"``), to be
    remembered with the send; None if neither changed."""
    if message_id is None:
        return None
    if isinstance(notice, ChannelPost) and (
        notice.board is not None or (notice.turn is not None and message_id != messages.board)
    ):
        # A turn's post is the one its later steps update: a post with a board, or a turn's
        # post made anew (the old one was deleted); one updated in place stays it.
        messages.board = message_id
        return "board"
    if isinstance(notice, StatusUpdate) and message_id != messages.status:
        messages.status = message_id
        return "status"
    return None
