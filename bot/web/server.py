"""Serving the game pages: on a port of the bot's (or the local table's) own event loop,
or as a process of its own (``python -m bot web``)."""

from __future__ import annotations

from aiohttp import web

from bot.service.web_pages import Pages
from bot.web.app import build_app

SHUTDOWN = 2.0
"""Seconds a request under way may take to finish when the server stops."""


class WebServer:
    """The pages' web server on ``host``:``port`` (port 0: any free one, see :attr:`port`)."""

    def __init__(self, pages: Pages, host: str, port: int) -> None:
        self._runner = web.AppRunner(build_app(pages), shutdown_timeout=SHUTDOWN)
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
