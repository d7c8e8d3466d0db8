"""One task that sleeps until the nearest deadline or reminder, then fires what is due.

It never polls every game: the store answers "when is the next thing due?" from an index,
and the desk's store rings for the scheduler whenever a write may have moved a deadline
earlier. Deadlines that
passed while the bot was down are due at the first wake-up after a start; each fires once,
because the host settles it in a versioned transaction.

Due games are fired concurrently, each in a task of its own (at most ``concurrency`` at
once, and only while people's clicks leave the host room, see
:mod:`bot.service.admission`; a computer thinks in a worker thread meanwhile), one firing
at a time per game so its moves stay in order. Each game's notices are delivered as soon as
its firing is done, whatever the other games are doing. A game whose firing fails is held
back by the host and tried again later; the others go on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.service.admission import Admission
from bot.service.desk import Desk
from bot.service.notices import Outcome
from bot.service.timekeeping import quiet_hours
from bot.service.timekeeping.clock import TurnClock
from bot.store import GameRecord

log = logging.getLogger(__name__)

# With nothing scheduled the task still wakes once a day; a poke wakes it at once anyway.
IDLE = 24 * 3600.0
CONCURRENCY = 8
"""Games fired at once (computer turns of different games think side by side)."""
STOP_GRACE = 5.0
"""Seconds :meth:`Scheduler.stop` lets firings under way finish before cancelling them."""


class DueDigests(Protocol):
    """The digests that fall due (:class:`bot.service.delivery.digest.Digests`)."""

    async def send_due(self, now: float) -> Outcome: ...


class Scheduler:
    """Fires what is due, on time: deadlines and reminders (the turn clock's), calls held
    for quiet hours, digests."""

    def __init__(
        self,
        desk: Desk,
        turn_clock: TurnClock,
        digests: DueDigests,
        admission: Admission,
        deliver: Callable[[Outcome], Awaitable[object]],
        clock: Callable[[], float],
        *,
        concurrency: int = CONCURRENCY,
    ) -> None:
        """``desk``: the store (when the next held call and digest are due) and the doorbell
        it listens to; ``turn_clock`` fires the games due; ``admission`` puts that work after
        people's clicks; ``deliver`` sends what a firing told."""
        self._desk = desk
        self._turn_clock = turn_clock
        self._digests = digests
        self._admission = admission
        self._deliver = deliver
        self._clock = clock
        self._slots = asyncio.Semaphore(concurrency)
        self._task: asyncio.Task[None] | None = None
        self._firings: set[asyncio.Task[None]] = set()
        self._sleeping = False
        self._dirty = False
        self._stopping = False
        self._looked = False
        self.ready = asyncio.Event()
        """Set once the first look at the deadlines after the start has fired all that was
        due then (and delivered its notices)."""
        # Whenever a write moves a deadline the desk's store rings; this scheduler then
        # looks again.
        desk.doorbell.on_deadline_moved(self.poke)

    def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="turn-clock")

    def poke(self) -> None:
        """Look at the deadlines again (one may now be earlier than the one slept for).

        A sleeping task is restarted; a busy one looks again before it sleeps.
        """
        self._dirty = True
        if self._task is not None and self._sleeping and not self._stopping:
            self._task.cancel()
            self._task = asyncio.create_task(self._run(), name="turn-clock")

    async def stop(self) -> None:
        """Stop looking, and let firings under way finish (a firing cut short writes
        nothing); whatever is still running after :data:`STOP_GRACE` is cancelled."""
        self._stopping = True
        loop, self._task = self._task, None
        if loop is not None and self._sleeping:
            loop.cancel()
        if loop is not None:
            await asyncio.wait({loop}, timeout=STOP_GRACE)  # it starts nothing more now
        tasks = {t for t in (loop, *self._firings) if t is not None and not t.done()}
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=STOP_GRACE)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def _run(self) -> None:
        while not self._stopping:
            self._sleeping = self._dirty = False
            try:
                started = await self.fire()
                await self._release_held()
                when = await self._turn_clock.next_wakeup()
                for later in (
                    await self._desk.store.next_held(),
                    await self._desk.store.next_digest(),
                ):
                    if later is not None and (when is None or later < when):
                        when = later
            except Exception:
                log.exception("looking at the turn clock failed; looking again shortly")
                started, when = [], self._clock() + 1.0
            if not self._looked:
                self._looked = True
                self._when_done(started, self.ready.set)
            if self._dirty:
                continue  # a deadline moved while we looked
            if self._stopping:
                return
            delay = IDLE if when is None else min(IDLE, max(0.0, when - self._clock()))
            if delay == 0.0 and not started:
                # Due, yet nothing could be started (another process holds it): never spin.
                # A firing of this process that ends pokes the task anyway.
                delay = 1.0
            self._sleeping = True
            await asyncio.sleep(delay)

    async def fire(self) -> list[asyncio.Task[None]]:
        """Start firing every game due now that is not being fired already; returns the
        tasks started (each delivers its own notices and pokes the scheduler when done)."""
        now = self._clock()
        started = []
        for record in await self._turn_clock.due_games(now):
            if self._stopping:
                await self._turn_clock.unclaim(record.id)  # another process may fire it
            elif self._turn_clock.claim(record.id):
                task = asyncio.create_task(self._fire_one(record, now), name=f"fire-{record.id}")
                self._firings.add(task)
                task.add_done_callback(self._firings.discard)
                started.append(task)
        return started

    async def _release_held(self) -> None:
        """Send the calls held back in quiet hours that ended (see
        :mod:`bot.service.timekeeping.quiet_hours`), each player's as one DM."""
        # Stored through the desk's store, which wakes the outbox for them as they commit.
        outcome = await quiet_hours.release(self._desk.store, self._clock())
        outcome.notices += (await self._digests.send_due(self._clock())).notices
        if outcome.notices:
            try:
                await self._deliver(outcome)
            except Exception:
                log.exception("delivering held calls failed; the outbox sends them later")

    async def _fire_one(self, record: GameRecord, now: float) -> None:
        fired = False
        try:
            # People's clicks go first: a deadline waits while they fill the host.
            async with self._slots, self._admission.background():
                fired = True
                outcome = await self._turn_clock.fire_claimed(record, now)
            await self._deliver(outcome)
        except Exception:
            log.exception("game %s: delivering what its turn clock did failed", record.id)
        finally:
            if not fired:  # cancelled before its turn came: its claim goes back
                await self._turn_clock.unclaim(record.id)
            self._turn_clock.release(record.id)  # also when cancelled before its turn came
            self.poke()  # its next deadline may be the nearest now

    @staticmethod
    def _when_done(tasks: list[asyncio.Task[None]], then: Callable[[], None]) -> None:
        if not tasks:
            then()
            return
        waiting = set(tasks)

        def done(task: asyncio.Task[None]) -> None:
            waiting.discard(task)
            if not waiting:
                then()

        for task in tasks:
            task.add_done_callback(done)
