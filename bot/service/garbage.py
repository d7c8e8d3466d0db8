"""The bot process's garbage collections, kept to short pauses.

CPython's cycle collector stops everything while it runs, and a full collection walks
every object the process tracks. A bot with a thousand live games tracks over a hundred
thousand (the games' states and records, what discord.py and the host keep), and a full
collection of them took 60-130 ms on a 2-core machine of this project's kind, several
times a minute under load: the event loop stood still that long, and a click arriving then
was answered that much later, a refusal as busy too.

Objects that survived a full collection are long-lived; :class:`ShortCollections` freezes
them (``gc.freeze``) right after each full collection, so the next one walks only what was
made since. Measured side by side (``bench/saturation.py``, 1,000 live games, twice the
host's capacity offered): the longest stall of the event loop went from 147 to 30 ms, and
the slowest refusal from 143 to 33 ms.

A frozen object that dies is still freed at once when nothing refers to it; only a cycle
of frozen objects that dies together is kept, about one object per action measured. So
every :data:`THAW_EVERY` seconds, at a moment when no click is in flight (or after
:data:`QUIET_WAIT` seconds without one), everything is thawed and collected once, and
what survives is frozen again.

Freezing is the process's, not the bot's: a process shared with other work (tests) leaves
it off (``Settings.short_collections``); the last one started to stop thaws everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

THAW_EVERY = 600.0
"""Seconds between two collections of everything, frozen or not."""
QUIET_WAIT = 300.0
"""Seconds a collection of everything that is due waits for a quiet moment at most."""
QUIET_POLL = 1.0
"""Seconds between two looks at whether the process is quiet."""

_started = 0
"""How many :class:`ShortCollections` are started in this process."""


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """A full collection has just finished: what it left is long-lived; freeze it."""
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()


def thaw() -> int:
    """Collect everything once, frozen or not (what survives is frozen again while this
    process keeps its collections short); the number of objects found unreachable."""
    gc.unfreeze()
    return gc.collect()


class ShortCollections:
    """Keeps this process's full collections short while started (see the module
    docstring). ``quiet`` says whether now is a good moment for a long pause."""

    def __init__(
        self,
        quiet: Callable[[], bool],
        *,
        every: float = THAW_EVERY,
        patience: float = QUIET_WAIT,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.quiet = quiet
        self.every = every
        self.patience = patience
        self._sleep = sleep
        self._clock = clock
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """From now on, each full collection freezes its survivors; everything is thawed
        and collected every :attr:`every` seconds, at a quiet moment."""
        global _started
        if self._task is not None:
            return
        if _started == 0:
            gc.callbacks.append(_freeze_survivors)
        _started += 1
        self._task = asyncio.create_task(self._thaw_now_and_then(), name="short-collections")

    async def stop(self) -> None:
        """No more thaws; once no other is started, nothing is frozen any more."""
        global _started
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        _started -= 1
        if _started == 0:
            gc.callbacks.remove(_freeze_survivors)
            gc.unfreeze()

    async def _thaw_now_and_then(self) -> None:
        while True:
            await self._sleep(self.every)
            waited_since = self._clock()
            while not self.quiet() and self._clock() - waited_since < self.patience:
                await self._sleep(QUIET_POLL)
            began = time.perf_counter()
            found = thaw()
            log.info(
                "collected everything: %d unreachable, %d kept, in %.0f ms",
                found, gc.get_freeze_count(), 1000 * (time.perf_counter() - began),
            )  # fmt: skip
