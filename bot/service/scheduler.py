"""One task that sleeps until the nearest deadline or reminder, then fires what is due.

It never polls every game: the store answers "when is the next thing due?" from an index,
and the host pokes the scheduler whenever a deadline may have moved earlier. Deadlines that
passed while the bot was down are due at the first wake-up after a start; each fires once,
because the host settles it in a versioned transaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.service.host import GameHost
from bot.service.notices import Outcome

log = logging.getLogger(__name__)

# With nothing scheduled the task still wakes once a day; a poke wakes it at once anyway.
IDLE = 24 * 3600.0


class Scheduler:
    def __init__(
        self,
        host: GameHost,
        deliver: Callable[[Outcome], Awaitable[None]],
        clock: Callable[[], float],
    ) -> None:
        self._host = host
        self._deliver = deliver
        self._clock = clock
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._dirty = False

    def start(self) -> None:
        self._host.wakeup = self.poke
        self._task = asyncio.create_task(self._run(), name="turn-clock")

    def poke(self) -> None:
        """Look at the deadlines again (one may now be earlier than the one slept for).

        A sleeping task is restarted; a busy one looks again before it sleeps.
        """
        self._dirty = True
        if self._task is not None and self._sleeping:
            self._task.cancel()
            self._task = asyncio.create_task(self._run(), name="turn-clock")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            self._sleeping = self._dirty = False
            await self.fire()
            when = await self._host.next_wakeup()
            if self._dirty:
                continue  # a deadline moved while we looked
            delay = IDLE if when is None else min(IDLE, max(0.0, when - self._clock()))
            self._sleeping = True
            await asyncio.sleep(delay)

    async def fire(self) -> None:
        """Fire everything due now; a failure is logged and retried at the next wake-up."""
        try:
            outcome = await self._host.fire_due()
            await self._deliver(outcome)
        except Exception:
            log.exception("firing due deadlines failed")
