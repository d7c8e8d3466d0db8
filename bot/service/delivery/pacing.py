"""Keeping sends within Discord's pace: per channel, and for the bot as a whole.

Discord limits how fast one channel's messages can be sent and edited, and how many
requests a bot makes per second; a request past a limit is refused (429) and must wait
anyway. :class:`Pacer` waits *before* each send instead, with one window per lane (a
channel, or one user's DMs) and one for the bot (never more than so many requests in any
stretch of so many seconds), so the outbox never runs into the
limits, and while a lane waits its newer notices collapse into fewer sends (see
:mod:`bot.service.delivery.outbox`).

The defaults are conservative (5 requests per 5 seconds in a channel, 50 per second in
all), what Discord documents; when Discord tells a tighter pace (a 429's retry-after, a
bucket's reset) the frontend calls :meth:`Pacer.slow_down`.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable

PER_CHANNEL = (5, 5.0)
"""Requests per seconds in one channel (or one user's DMs)."""
STEADY = (3, 4.0)
"""...and, within that, at most so many in any so many seconds: what one move tells (the
passed turn's post retired, the new turn's post, the status edit) still goes at once, and
a channel kept busy (a burst of computer moves) is asked evenly, not five times at once
and then nothing, and at most once a second counting those first three (3 in any 4 s
leaves 3 + 3 in the first 8 s; 3 in any 3 s would leave 9 in the first 7)."""
GLOBAL = (50, 1.0)
"""Requests per seconds for the whole bot."""
SPARE = 0.1
"""A tenth of each window's length kept to spare: a request reaches Discord a little after
its turn is taken here (its picture drawn meanwhile), so two of them may arrive closer
together than they were let go."""
KEPT = 4096
"""Lanes whose windows are kept before those of quiet lanes are dropped."""


class Window:
    """At most ``size`` requests in any ``per`` seconds: the times of the last ``size``."""

    def __init__(self, size: int, per: float) -> None:
        self.size = size
        self.per = per
        self.times: deque[float] = deque(maxlen=size)
        self.blocked_until = 0.0

    def wait_for(self, now: float) -> float:
        """Seconds until a request may go at ``now`` (0 when one may)."""
        free_at = self.blocked_until
        if len(self.times) == self.size:
            free_at = max(free_at, self.times[0] + self.per * (1 + SPARE))
        return max(0.0, free_at - now)

    def take(self, now: float) -> None:
        self.times.append(now)

    def quiet(self, now: float) -> bool:
        """Whether the window is empty again (nothing in its last ``per`` seconds)."""
        return (not self.times or self.times[-1] + self.per <= now) and now >= self.blocked_until


class Pacer:
    """Waits before each send so that no lane and not the bot go past their pace."""

    def __init__(
        self,
        *,
        per_channel: tuple[int, float] = PER_CHANNEL,
        steady: tuple[int, float] = STEADY,
        global_rate: tuple[int, float] = GLOBAL,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        """``per_channel``, ``steady`` (a lane's shorter window) and ``global_rate``:
        (requests, seconds)."""
        self.per_channel = per_channel
        self.steady = steady
        self._clock = clock
        self._sleep = sleep
        self._lanes: dict[str, tuple[Window, Window]] = {}
        self._global = Window(*global_rate)

    def ready(self, lane: str) -> float:
        """Seconds until a send in ``lane`` may go (0: now)."""
        now = self._clock()
        waits = [w.wait_for(now) for w in (*self._windows(lane, now), self._global)]
        return max(waits)

    async def wait(self, lane: str, at_most: float = float("inf")) -> bool:
        """Wait until a send in ``lane`` may go and count it as sent (True); False, with
        nothing counted, once it would mean waiting more than ``at_most`` seconds in all
        (other lanes may take the bot's turns meanwhile)."""
        waited = 0.0
        while (pause := self.ready(lane)) > 0:
            if waited + pause > at_most:
                return False
            await self._sleep(pause)
            waited += pause
        now = self._clock()
        for window in (*self._windows(lane, now), self._global):
            window.take(now)
        return True

    def slow_down(self, lane: str | None, seconds: float) -> None:
        """Discord asked to wait ``seconds`` before the next request in ``lane`` (None:
        any request of the bot)."""
        now = self._clock()
        window = self._global if lane is None else self._windows(lane, now)[0]
        window.blocked_until = max(window.blocked_until, now + seconds)

    def _windows(self, lane: str, now: float) -> tuple[Window, Window]:
        """The lane's pace window and its steady one."""
        windows = self._lanes.get(lane)
        if windows is None:
            if len(self._lanes) >= KEPT:
                self._forget_quiet(now)
            windows = self._lanes[lane] = (Window(*self.per_channel), Window(*self.steady))
        return windows

    def _forget_quiet(self, now: float) -> None:
        """Drop the windows of lanes quiet for a whole window (a new one is made when the
        lane sends next)."""
        for lane, (window, _) in list(self._lanes.items()):
            if window.quiet(now):
                del self._lanes[lane]
