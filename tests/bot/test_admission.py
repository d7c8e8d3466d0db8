"""A full host refuses at once and changes nothing; the limit follows how long work takes;
the turn clock and the computers wait while people's clicks fill the host."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service.admission import Admission, Busy
from bot.service.host import GameHost
from tests.bot.clicks import others_clicking
from tests.bot.clocks import Clock
from tests.bot.test_computers import ALICE, GUILD, lobby


async def test_a_click_past_the_limit_is_refused_before_anything_is_done():
    admission = Admission(limit=2, floor=1)
    ran = []
    async with others_clicking(admission, 2):
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
        async with others_clicking(admission, admission.limit - 1), admission.click():
            clock.now += 0.01
    assert admission.limit > 20, admission.limit


async def test_a_direct_call_to_a_full_host_is_refused_and_changes_nothing(store, clock):
    host = GameHost(
        store, clock=clock, seeds=random.Random(3), admission=Admission(limit=1, floor=1)
    )
    game = await lobby(host, "stgeorge", role="knights")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy", role="dragon")
    await host.lobby.start(game_id=game, user_id=ALICE)
    action = (await host.turns.controls_for(game_id=game, user_id=ALICE))[0].choices[0].action
    before = await store.get_game(game)
    notices = len(await store.pending_notices(limit=10**6))
    full = host.admission.limit  # what setting the game up taught it
    async with others_clicking(host.admission, full):  # other people's clicks fill the host
        with pytest.raises(Busy):
            await host.turns.act(game_id=game, user_id=ALICE, action=action)
        with pytest.raises(Busy):  # the part itself is the door, not only the host's name
            await host.turns.act(game_id=game, user_id=ALICE, action=action)
        with pytest.raises(Busy):  # and so is every other call a click makes
            await host.listings.status(game_id=game, user_id=ALICE)
    after = await store.get_game(game)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    assert len(await store.pending_notices(limit=10**6)) == notices
    assert host.admission.refused == 3

    # A frontend that still admits its click itself is counted once, not once per door.
    async with host.admission.click():
        await host.turns.act(game_id=game, user_id=ALICE, action=action)
    assert (await store.get_game(game)).version > before.version, "played once there is room"
    assert host.admission.refused == 3 and host.admission.in_flight == 0


async def test_background_work_is_neither_counted_nor_refused_while_people_are(store, clock):
    host = GameHost(store, clock=clock, seeds=random.Random(3), admission=Admission(limit=1))
    game = await lobby(host, "stgeorge", role="dragon")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy", role="knights")
    await host.lobby.start(game_id=game, user_id=ALICE)  # the knights, a computer, begin
    before = (await store.get_game(game)).version
    async with others_clicking(host.admission, host.admission.limit):
        with pytest.raises(Busy):  # a person is refused ...
            await host.listings.status(game_id=game, user_id=ALICE)
        # ... while computers playing (as the local table has them play) are not: they
        # are the host's own work, not a click.
        played = await host.computers.play_all_computers(guild_id=GUILD)
    assert played.notices and (await store.get_game(game)).version > before
    assert host.admission.refused == 1

    # Background work that passes a door (a status read on a computer's behalf, say) is
    # not counted as a click: a person's click still finds the one slot free.
    async with host.admission.background():
        await host.listings.status(game_id=game, user_id=ALICE)
        assert host.admission.in_flight == 0
        async with others_clicking(host.admission, host.admission.limit):
            pass
    assert host.admission.refused == 1


async def test_the_turn_clock_waits_while_clicks_fill_the_host(store, clock):
    host = GameHost(store, clock=clock, seeds=random.Random(3), admission=Admission(limit=2))
    game = await lobby(host, "stgeorge")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy", role="knights")
    await host.lobby.start(game_id=game, user_id=ALICE)
    delivered = asyncio.Event()

    async def deliver(outcome):
        delivered.set()

    scheduler = host.new_scheduler(deliver, clock)
    clock.now += 60  # the computer's move is due
    before = (await store.get_game(game)).version
    async with others_clicking(host.admission, 1):  # a person's click: half the limit
        firings = await scheduler.fire()
        assert firings, "the due game was claimed"
        for _ in range(20):  # let the firing run as far as it can
            await asyncio.sleep(0)
        assert not firings[0].done()
        assert (await store.get_game(game)).version == before, "the computer waits for people"
    await asyncio.wait_for(delivered.wait(), timeout=60)
    assert (await store.get_game(game)).version > before, "and plays once they are done"
    await scheduler.stop()


async def test_owed_work_fills_the_limit_and_is_never_refused():
    clock = Clock()
    admission = Admission(limit=2, floor=1, clock=clock)
    async with admission.owed(), admission.owed():  # two boards being drawn, say
        with pytest.raises(Busy):  # a click finds the host full
            async with admission.click():
                pass
        async with admission.owed():  # but owed work itself is never refused
            assert admission.in_flight == 3
    async with admission.click():
        pass
    assert admission.refused == 1


async def test_owed_work_that_is_slow_shrinks_the_limit_but_time_waiting_on_others_does_not():
    clock = Clock()
    admission = Admission(limit=40, target=0.5, floor=4, clock=clock)
    for _ in range(5):  # a lane waiting a second for Discord's pace, its own work quick
        async with admission.owed() as owed:
            clock.now += 1.0
            owed.waited(0.98)
    assert admission.limit == 40
    for _ in range(20):  # boards that take a second each to draw
        async with admission.owed():
            clock.now += 1.0
    assert admission.limit == 4


async def test_a_host_whose_boards_fall_behind_refuses_clicks_until_they_are_drawn(store, clock):
    drawing = asyncio.Event()
    drawn = asyncio.Event()

    async def slow_drawer(slug, view, data=None) -> bytes:
        drawing.set()
        await drawn.wait()
        return b"png"

    host = GameHost(
        store, clock=clock, seeds=random.Random(3), drawer=slow_drawer,
        admission=Admission(limit=1, floor=1),
    )  # fmt: skip
    game = await lobby(host, "stgeorge", role="knights")
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy", role="dragon")
    started = await host.lobby.start(game_id=game, user_id=ALICE)
    sent: list[object] = []

    async def send(delivery) -> int:
        sent.append(delivery)
        return len(sent)

    outbox = host.new_outbox(send)
    flushing = asyncio.create_task(outbox.flush_outcome(started))
    await drawing.wait()  # the game's first board is being drawn: the host owes it
    with pytest.raises(Busy):
        await host.listings.status(game_id=game, user_id=ALICE)
    drawn.set()
    assert await flushing and sent, "the board went out"
    await host.listings.status(game_id=game, user_id=ALICE)  # room again
    assert host.admission.refused == 1
