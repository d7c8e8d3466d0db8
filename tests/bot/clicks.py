"""Other people's clicks in flight at the host, each in a task of its own (as clicks are),
for as long as a test needs the host full."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.service.admission import Admission


@asynccontextmanager
async def others_clicking(admission: Admission, count: int) -> AsyncIterator[None]:
    """``count`` clicks admitted and still running for the body; done when it ends."""
    admitted = [asyncio.Event() for _ in range(count)]
    done = asyncio.Event()

    async def click(entered: asyncio.Event) -> None:
        async with admission.click():
            entered.set()
            await done.wait()

    tasks = [asyncio.create_task(click(entered)) for entered in admitted]
    try:
        await asyncio.gather(*(entered.wait() for entered in admitted))
        yield
    finally:
        done.set()
        await asyncio.gather(*tasks)
