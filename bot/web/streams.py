"""Who follows the game pages live: each open event stream holds a place, and places are
shared out so that nobody can take them all. A client has a few, a page has a share, and
the server has a ceiling; a stream gives its place back the moment it ends (its reader
left, the game's address changed, or the server stops)."""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from aiohttp import web

K = TypeVar("K")


@dataclass(frozen=True)
class StreamLimits:
    """How many event streams may be open at once: in all, per client, per game page."""

    total: int = 2000
    per_client: int = 16
    """A reader has one stream per open tab of a page: a household or an office behind
    one address follows a few dozen pages at most."""
    per_page: int = 500
    """One game, however watched, keeps three quarters of the places for the others."""


RETRY_AFTER = 30
"""Seconds after which a refused page asks again (its script, or the reader reloading)."""
CLIENT_CHARS = 64
"""A client's name (its address) is cut to this length: a forwarded header is free text."""


class NoPlace(Exception):
    """A new stream was refused; the message tells the reader why and what to do."""


class Streams:
    """The open event streams: who holds them, the tasks serving them (ended when the
    server stops), and a way to wait until they are as a test or the shutdown expects."""

    def __init__(self, limits: StreamLimits | None = None) -> None:
        self.limits = limits or StreamLimits()
        self._tasks: set[asyncio.Task[object]] = set()
        self._clients: Counter[str] = Counter()
        self._pages: Counter[int] = Counter()
        self._changed = asyncio.Event()

    @property
    def open(self) -> int:
        """How many streams are open now."""
        return len(self._tasks)

    def of_client(self, client: str) -> int:
        return self._clients[client]

    def of_page(self, page: int) -> int:
        return self._pages[page]

    @property
    def tasks(self) -> list[asyncio.Task[object]]:
        """The tasks serving the open streams."""
        return [*self._tasks]

    @contextmanager
    def place(self, client: str, page: int) -> Iterator[None]:
        """Hold a place for the current task's stream of ``page`` to ``client`` while the
        body runs; raises :class:`NoPlace` (before the body) when there is none."""
        self._check(client, page)
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._clients[client] += 1
        self._pages[page] += 1
        self._ring()
        try:
            yield
        finally:
            self._tasks.discard(task)
            _less(self._clients, client)
            _less(self._pages, page)
            self._ring()

    async def until(self, holds: Callable[[Streams], bool]) -> None:
        """Return once ``holds(self)`` is true, looking again each time a place is taken
        or given back."""
        while not holds(self):
            self._changed.clear()
            await self._changed.wait()

    def _check(self, client: str, page: int) -> None:
        limits = self.limits
        if self._clients[client] >= limits.per_client:
            raise NoPlace(
                f"You are following {limits.per_client} game pages live already, the most "
                "one reader can. Close the pages you no longer watch, then reload this one "
                "to follow it live; it shows the game as it is meanwhile."
            )
        if self._pages[page] >= limits.per_page:
            raise NoPlace(
                "This game is followed live by as many readers as it can be right now. "
                "The page shows the game as it is; reload it in a minute to follow it live."
            )
        if len(self._tasks) >= limits.total:
            raise NoPlace(
                "Too many pages are followed live right now. The page shows the game as "
                "it is; reload it in a minute to follow it live."
            )

    def _ring(self) -> None:
        self._changed.set()


def _less(counts: Counter[K], key: K) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]  # an idle client or page is not kept


def client_of(request: web.BaseRequest) -> str:
    """Who asks: the peer's address; behind a proxy on this machine (a loopback peer, as
    the README sets it up), the address the proxy last added to ``X-Forwarded-For``,
    since earlier entries are whatever the reader chose to send."""
    peer = request.remote or "unknown"
    forwarded = request.headers.getall("X-Forwarded-For", [])
    if forwarded and _loopback(peer):
        last = forwarded[-1].rsplit(",", 1)[-1].strip()
        if last:
            return last[:CLIENT_CHARS]
    return peer[:CLIENT_CHARS]


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
