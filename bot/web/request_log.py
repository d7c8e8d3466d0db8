"""What the pages' server logs about requests it could not read.

aiohttp answers a malformed request (an unknown method, a line or a header past its limits,
bytes no URL has) with 400 and logs it on its server logger at ERROR with a traceback: on a
port open to the internet anyone can fill the log that way. :class:`ServerLog` is the
server logger this server hands aiohttp (its ``logger`` option): a malformed request is
one INFO line without a traceback, at most once a minute per client, saying how many
more there were; everything else (a fault of the server's own) is logged as aiohttp
logs it.
"""

from __future__ import annotations

import logging
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError

EVERY = 60.0
"""Seconds between two lines about one client's malformed requests, at least."""
CLIENTS_KEPT = 10_000
"""Clients whose last line is remembered; past that, new clients' requests go unlogged
until a minute has passed for the oldest."""
CLIENT_CHARS = 64


@dataclass
class _Client:
    logged_at: float
    unlogged: int = 0


class ServerLog(logging.LoggerAdapter[logging.Logger]):
    """aiohttp's server logger (``aiohttp.server``), with malformed requests logged once a
    minute per client at INFO; ``clock`` gives the time in seconds (monotonic)."""

    def __init__(
        self,
        logger: logging.Logger | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        every: float = EVERY,
        kept: int = CLIENTS_KEPT,
    ) -> None:
        super().__init__(logger or logging.getLogger("aiohttp.server"), {})
        self._clock = clock
        self._every = every
        self._kept = kept
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        self._carried: OrderedDict[str, int] = OrderedDict()
        """Unlogged requests of clients whose minute ended, told in their next line."""

    def log(self, level: int, msg: object, *args: object, **kwargs: Any) -> None:
        """A client's malformed request is logged as :meth:`malformed` says; anything
        else as asked."""
        error = _exception(kwargs.get("exc_info"))
        if isinstance(error, HttpProcessingError):
            # aiohttp's words: "Error handling request from %s", the client's address
            client = str(args[0]) if args else "unknown"
            self.malformed(client, error)
            return
        super().log(level, msg, *args, **kwargs)

    def malformed(self, client: str, error: HttpProcessingError) -> None:
        """Log that ``client`` sent a request that could not be read, unless a line about
        it was logged less than a minute ago (then it is counted, and the next line says
        how many). Only the kind of fault is named: the request's own bytes may hold a
        page's address, and a log line is no place for them."""
        client = client[:CLIENT_CHARS]
        now = self._clock()
        self._forget_before(now - self._every)
        seen = self._clients.get(client)
        if seen is not None:
            seen.unlogged += 1
            return
        if len(self._clients) >= self._kept:
            return
        self._clients[client] = _Client(now)
        self.logger.info(
            "Refused a malformed request from %s (400, %s)%s",
            client, type(error).__name__, _more(self._carried.pop(client, 0)),
        )  # fmt: skip

    def _forget_before(self, then: float) -> None:
        while self._clients:
            client, seen = next(iter(self._clients.items()))
            if seen.logged_at > then:
                break
            del self._clients[client]
            if seen.unlogged:
                self._carried[client] = seen.unlogged
                if len(self._carried) > self._kept:
                    self._carried.popitem(last=False)


def _more(unlogged: int) -> str:
    if not unlogged:
        return ""
    return f"; {unlogged} more from it in the minute before were not logged"


def _exception(exc_info: object) -> BaseException | None:
    if isinstance(exc_info, BaseException):
        return exc_info
    if isinstance(exc_info, tuple) and len(exc_info) == 3:
        error = exc_info[1]
        return error if isinstance(error, BaseException) else None
    if exc_info:
        return sys.exc_info()[1]
    return None
