"""Serving the game pages: on a port of the bot's (or the local table's) own event loop,
or as a process of its own (``python -m bot web``)."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.web_request import BaseRequest

from bot.service.history.web_pages import Pages
from bot.web.app import SERVER_OPTIONS, STREAMS, ServerLanguages, build_app
from bot.web.request_log import ServerLog
from bot.web.streams import StreamLimits

log = logging.getLogger(__name__)
_TOKEN = re.compile(r"^/g/[^/?]+")

SHUTDOWN = 2.0
"""Seconds a request under way may take to finish when the server stops."""


class WebServer:
    """The pages' web server on ``host``:``port`` (port 0: any free one, see :attr:`port`)."""

    def __init__(
        self,
        pages: Pages,
        host: str,
        port: int,
        *,
        limits: StreamLimits | None = None,
        clock: Callable[[], float] = time.monotonic,
        languages: ServerLanguages | None = None,
    ) -> None:
        """``limits``: the event streams open at once at most; ``clock`` (seconds) paces
        the lines about malformed requests (:class:`ServerLog`); ``languages``: each
        server's language, that its games' pages are written in (English without it)."""
        app = build_app(pages, limits, languages)
        self.streams = app[STREAMS]
        self._runner = web.AppRunner(
            app, shutdown_timeout=SHUTDOWN, access_log_class=AccessLog, access_log=log,
            logger=ServerLog(clock=clock), **SERVER_OPTIONS,
        )  # fmt: skip
        self._host = host
        self._port = port
        self.port = port

    async def start(self) -> None:
        """Listen; an address in use raises OSError."""
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        """Stop listening, end the event streams and close the connections."""
        await self._runner.cleanup()


class AccessLog(AbstractAccessLogger):
    """One line per request, at DEBUG, with the page's token left out: an address is
    the key to a page, and logs travel further than the pages' readers."""

    def log(self, request: BaseRequest, response: web.StreamResponse, time: float) -> None:
        path = _TOKEN.sub("/g/…", request.path)
        self.logger.debug("%s %s %d %.1f ms", request.method, path, response.status, time * 1000)

    @property
    def enabled(self) -> bool:
        return self.logger.isEnabledFor(logging.DEBUG)
