"""How much work the host takes on at once: people's clicks first, and no more than it can
finish in time.

Offered more than it can do, a host that takes everything on does each piece later and
later, until what it finishes is no longer worth sending (a board three turns old, a click
whose player gave up). :class:`Admission` keeps the work in flight bounded instead:

- a click (an action, a command) is admitted while fewer than :attr:`Admission.limit`
  are in flight, else refused at once with :class:`Busy` ("try again in a moment"):
  nothing is read, written or drawn for it;
- the limit follows what the host manages: it shrinks when admitted work takes longer than
  ``target`` seconds, and grows again while work is quick and the limit is what holds it
  back (additive increase, multiplicative decrease, as TCP's congestion window);
- background work (the turn clock firing deadlines, computers playing) yields to people:
  :meth:`Admission.background` waits while clicks fill half the limit;
- work owed for what was taken on already (drawing the boards its notices carry, sending
  them) is never refused, but fills the limit as clicks do (:meth:`Admission.owed`): a host
  whose pictures or sends fall behind refuses new clicks rather than owing more than it can
  deliver in time.

The host admits at its own door: the calls a person's click reaches are wrapped once, when
the host is built (:meth:`Admission.doors`), so every frontend, and anything else calling
the host, is admitted the same way; a frontend only words the refusal. Work already
admitted (a click's own calls to other doors) or running as background work passes the
doors without being counted again or refused.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from bot.service.errors import UserError
from bot.service.text import said

P = ParamSpec("P")
R = TypeVar("R")

_passed: ContextVar[frozenset[int]] = ContextVar("admission_passed", default=frozenset())
"""The admissions (by id) the running code has passed already: it is inside one of their
clicks, or their background work."""

BUSY = said("I'm busy right now and nothing was changed; please try again in a moment.")


class Busy(UserError):
    """The host is full: the click was refused before anything was done for it."""

    def __init__(self) -> None:
        super().__init__(BUSY)


class Owed:
    """A piece of owed work (see :meth:`Admission.owed`) while it runs."""

    def __init__(self) -> None:
        self.not_ours = 0.0
        """Seconds it spent waiting on others, not on the host."""

    def waited(self, seconds: float) -> None:
        """The work waited ``seconds`` on someone else (Discord's pace, say)."""
        self.not_ours += seconds


class Admission:
    """Admits clicks up to an adaptive limit and lets background work go only when people
    leave room for it (see the module docstring)."""

    def __init__(
        self,
        *,
        limit: int = 64,
        target: float = 0.5,
        floor: int = 4,
        ceiling: int = 1024,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``limit``: clicks in flight to start with, kept between ``floor`` and
        ``ceiling``; ``target``: seconds within which admitted work should be done."""
        self.limit = limit
        self.target = target
        self.floor = floor
        self.ceiling = ceiling
        self.in_flight = 0
        """Clicks admitted and not yet done."""
        self.refused = 0
        """Clicks refused as busy since the start."""
        self._clock = clock
        self._shrunk_at = float("-inf")
        self._room = asyncio.Event()
        self._room.set()

    @property
    def full(self) -> bool:
        """Whether a click arriving now would be refused."""
        return self.in_flight >= self.limit

    @asynccontextmanager
    async def click(self) -> AsyncIterator[None]:
        """Run the body as one admitted click, or raise :class:`Busy` at once if full.

        Inside a click already admitted, or inside background work, the body just runs:
        it is part of that work, neither counted again nor refused."""
        if id(self) in _passed.get():
            yield
            return
        if self.full:
            self.refused += 1
            raise Busy()
        self.in_flight += 1
        self._update_room()
        began = self._clock()
        passed = _passed.set(_passed.get() | {id(self)})
        try:
            yield
        finally:
            _passed.reset(passed)
            self.in_flight -= 1
            self._learn(self._clock() - began)
            self._update_room()

    @asynccontextmanager
    async def background(self) -> AsyncIterator[None]:
        """Wait until people's clicks leave room (under half the limit in flight), then
        run the body. Background work is never refused: it is only put after clicks, and
        the doors it passes (an action it plays for a seat) do not count it as a click."""
        while not self._room.is_set():
            await self._room.wait()
        passed = _passed.set(_passed.get() | {id(self)})
        try:
            yield
        finally:
            _passed.reset(passed)

    @asynccontextmanager
    async def owed(self) -> AsyncIterator[Owed]:
        """Run the body, work the host owes for what it took on already (a board to draw,
        a lane of stored notices to send): never refused and never waiting, but counted in
        flight and timed as a click is, so while it piles up or falls behind new clicks
        are refused. Time the body spends waiting on others (Discord's pace), told to the
        :class:`Owed` it gets, is not the host's and is not counted."""
        owed = Owed()
        self.in_flight += 1
        self._update_room()
        began = self._clock()
        try:
            yield owed
        finally:
            self.in_flight -= 1
            self._learn(self._clock() - began - owed.not_ours)
            self._update_room()

    def admit(self, call: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        """``call`` as a door: each call of it is one click (see :meth:`click`)."""

        @functools.wraps(call)
        async def admitted(*args: P.args, **kwargs: P.kwargs) -> R:
            async with self.click():
                return await call(*args, **kwargs)

        return admitted

    def doors(self, part: object, *names: str) -> None:
        """Make the coroutine methods ``names`` of ``part`` doors (see :meth:`admit`), for
        every caller of that part. A name ``part`` lacks fails here, when the host is
        built, not at a click."""
        for name in names:
            setattr(part, name, self.admit(getattr(part, name)))

    def _learn(self, took: float) -> None:
        """Shrink the limit by a quarter when work took too long (at most once per
        ``target``, so one slow spell is not counted many times over); grow it by one
        when work is quick while the limit is what holds clicks back."""
        now = self._clock()
        if took > self.target:
            if now - self._shrunk_at >= self.target:
                self._shrunk_at = now
                self.limit = max(self.floor, int(self.limit * 0.75))
        elif took < self.target / 2 and self.in_flight + 1 >= self.limit:
            self.limit = min(self.ceiling, self.limit + 1)

    def _update_room(self) -> None:
        if self.in_flight * 2 < self.limit:
            self._room.set()
        else:
            self._room.clear()
