"""Stopping in order: the outbox stops taking work, lets a send under way finish, releases
its claims, and only then may the store close; what was not sent is sent after a restart."""

from __future__ import annotations

import asyncio
import logging
import random

from bot.service.host import GameHost
from bot.service.notices import PrivateMessage
from tests.bot.test_host import ALICE, started
from tests.toy_game import toy_renderer


class HeldDiscord:
    """A sender whose first send is held until ``go`` is set (a slow Discord)."""

    def __init__(self) -> None:
        self.sending = asyncio.Event()
        self.go = asyncio.Event()
        self.arrived: list = []

    async def __call__(self, delivery):
        if not self.arrived and not self.go.is_set():
            self.sending.set()
            await self.go.wait()
        self.arrived.append(delivery.notice)
        return 1000 + len(self.arrived)


async def test_stopping_lets_a_send_under_way_finish_before_the_store_closes(
    open_store, toy, caplog
):
    store = await open_store()
    host = GameHost(store, renderer=toy_renderer, seeds=random.Random(3))
    game = await started(host)
    discord = HeldDiscord()
    outbox = host.new_outbox(discord)
    # A click's own flush, in its own task, is sending when the bot is told to stop.
    click = asyncio.create_task(
        outbox.flush_outcome(await host.turns.act(game_id=game, user_id=ALICE, action="pick 3"))
    )
    await discord.sending.wait()
    stopping = asyncio.create_task(outbox.stop())
    await asyncio.sleep(0)  # stop() has begun: it waits for the send under way
    assert not stopping.done(), "stop() waits for the send under way"
    assert not await outbox.flush(), "a stopping outbox takes no new work"
    discord.go.set()
    with caplog.at_level(logging.WARNING):
        await stopping
        await store.close()
        await click
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert len(discord.arrived) == 1, "the send under way finished; no new one began"

    reopened = await open_store()
    left = await reopened.pending_notices()
    assert left, "what was not sent waits in the store"
    host = GameHost(reopened, renderer=toy_renderer, seeds=random.Random(3))
    after = HeldDiscord()
    after.go.set()
    assert await host.new_outbox(after).flush(), "no claim of the old process holds a lane"
    assert not await reopened.pending_notices()
    assert len([n for n in after.arrived if isinstance(n, PrivateMessage)]) == sum(
        e.body["kind"] == "private" for e in left
    ), "every secret prompt left waiting arrives once"
