"""Reading a Server-Sent Events stream in a test: the next event of a kind, however the
bytes arrive."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import StreamReader


class EventReader:
    """Events read off an ``text/event-stream`` body, one at a time."""

    def __init__(self, content: StreamReader) -> None:
        self._content = content

    async def next(self, kind: str | None = None) -> Any:
        """The data (JSON) of the next event, of ``kind`` when given (others are passed
        over); comments and ``retry`` lines are skipped. The stream's end fails the test."""
        while True:
            event, data = await self._one()
            if kind is None or event == kind:
                return json.loads(data)

    async def _one(self) -> tuple[str, str]:
        event, data = "message", []
        while True:
            line = await self._content.readline()
            assert line, "the event stream ended"
            text = line.decode().rstrip("\r\n")
            if not text:
                if data:
                    return event, "\n".join(data)
                continue
            if text.startswith(":"):
                continue
            field, _, value = text.partition(":")
            value = value.removeprefix(" ")
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)
