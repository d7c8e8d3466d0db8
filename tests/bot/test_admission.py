"""A full host refuses at once and changes nothing; the limit follows how long work takes;
the turn clock and the computers wait while people's clicks fill the host."""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest

from bot.service.admission import Admission, Busy
from bot.service.host import GameHost
from bot.service.scheduler import Scheduler
from tests.bot.clocks import Clock
from tests.bot.test_computers import ALICE, lobby


async def test_a_click_past_the_limit_is_refused_before_anything_is_done():
    admission = Admission(limit=2, floor=1)
    ran = []
    async with admission.click(), admission.click():
        with pytest.raises(Busy) as refused:
            async with admission.click():
                ran.append("third")
    assert ran == [] and admission.refused == 1
    assert (
        "busy" in refused.value.text.plain() and "nothing was changed" in refused.value.text.plain()
    )
    async with admission.click():
        ran.append("later")
    assert ran == ["later"], "room again once the others are done"


async def test_the_limit_shrinks_when_work_is_slow_and_grows_when_it_is_quick():
    clock = Clock()
    admission = Admission(limit=40, target=0.5, floor=4, clock=clock)
    for _ in range(20):  # slow work, a second each, one after another
        async with admission.click():
            clock.now += 1.0
    assert admission.limit == 4, "shrunk to its floor"
    for _ in range(30):  # quick work while the limit is what holds clicks back
        async with contextlib.AsyncExitStack() as others:
            for _ in range(admission.limit - 1):
                await others.enter_async_context(admission.click())
            async with admission.click():
                clock.now += 0.01
    assert admission.limit > 20, admission.limit


async def test_a_refused_move_changes_nothing(store, clock):
    host = GameHost(
        store, clock=clock, seeds=random.Random(3), admission=Admission(limit=1, floor=1)
    )
    game = await lobby(host, "stgeorge", role="dragon")
    await host.add_computer(game_id=game, user_id=ALICE, level="easy", role="knights")
    await host.start(game_id=game, user_id=ALICE)
    before = await store.get_game(game)
    notices = len(await store.pending_notices(limit=10**6))
    async with host.admission.click():  # someone else's click fills the host
        with pytest.raises(Busy):
            async with host.admission.click():
                await host.act(game_id=game, user_id=ALICE, action="roll")
    after = await store.get_game(game)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    assert len(await store.pending_notices(limit=10**6)) == notices


async def test_the_turn_clock_waits_while_clicks_fill_the_host(store, clock):
    host = GameHost(store, clock=clock, seeds=random.Random(3), admission=Admission(limit=2))
    game = await lobby(host, "stgeorge")
    await host.add_computer(game_id=game, user_id=ALICE, level="easy")
    await host.add_computer(game_id=game, user_id=ALICE, level="easy", role="knights")
    await host.start(game_id=game, user_id=ALICE)
    delivered = asyncio.Event()

    async def deliver(outcome):
        delivered.set()

    scheduler = Scheduler(host, deliver, clock)
    clock.now += 60  # the computer's move is due
    before = (await store.get_game(game)).version
    async with host.admission.click():  # a person's click in flight: half the limit
        firings = await scheduler.fire()
        assert firings, "the due game was claimed"
        for _ in range(20):  # let the firing run as far as it can
            await asyncio.sleep(0)
        assert not firings[0].done()
        assert (await store.get_game(game)).version == before, "the computer waits for people"
    await asyncio.wait_for(delivered.wait(), timeout=60)
    assert (await store.get_game(game)).version > before, "and plays once they are done"
    await scheduler.stop()
