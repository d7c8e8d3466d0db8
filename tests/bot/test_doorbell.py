"""The doorbell: every write that stores notices wakes the outbox, and every write that
moves a deadline wakes the scheduler, because the desk's store rings it as the write
commits; no part rings it by hand (tests/test_layers.py checks the source for that)."""

import asyncio
import inspect
import itertools
import random

import pytest

from bot.service import wire
from bot.service.desk import rings
from bot.service.doorbell import Doorbell
from bot.service.host import GameHost
from bot.service.notices import Outcome, PrivateMessage
from bot.service.timekeeping import quiet_hours
from bot.service.timekeeping.timing import HOUR
from bot.store import Store
from tests.bot.clocks import TickingClock
from tests.bot.test_host import ALICE, BOB, CAROL, open_game, started
from tests.toy_game import toy_renderer

DAY = 24 * HOUR
HANG = 30.0
"""Seconds after which a notice that never went out fails its test (a hang guard only:
each test goes on the moment the outbox sends what it waits for)."""


def rung(doorbell: Doorbell) -> list[str]:
    heard: list[str] = []
    doorbell.on_notices_stored(lambda: heard.append("notices"))
    doorbell.on_deadline_moved(lambda: heard.append("deadline"))
    return heard


class Sent:
    """A frontend's sender that keeps the text of every notice sent."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._sent = asyncio.Event()
        self._ids = itertools.count(1)

    async def __call__(self, delivery) -> int:
        text = getattr(delivery.notice, "text", "")
        self.texts.append(text.plain() if hasattr(text, "plain") else str(text))
        self._sent.set()
        return next(self._ids)

    async def shows(self, words: str) -> None:
        """Wait until a notice showing ``words`` has been sent (nobody flushing)."""
        while not any(words in text for text in self.texts):
            self._sent.clear()
            await asyncio.wait_for(self._sent.wait(), HANG)


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(7))


@pytest.fixture
async def sent(host):
    """What a started outbox sends, woken only by the doorbell."""
    sent = Sent()
    outbox = host.new_outbox(sent)
    outbox.start()
    yield sent
    await outbox.stop()


async def test_a_write_with_notices_rings_for_them_and_a_new_turn_for_its_deadline(store, toy):
    doorbell = Doorbell()
    host = GameHost(store, doorbell=doorbell, renderer=toy_renderer, clock=TickingClock(),
                    seeds=random.Random(7))  # fmt: skip
    heard = rung(doorbell)
    game = await open_game(host)
    assert heard == ["notices"]
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    heard.clear()
    await host.lobby.start(game_id=game, user_id=ALICE)
    assert heard == ["notices", "deadline"]
    heard.clear()
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 2")
    assert heard[0] == "notices"


async def test_the_outbox_and_the_scheduler_listen_from_the_moment_they_are_built(host):
    outbox = host.new_outbox(lambda delivery: None)
    scheduler = host.new_scheduler(outbox.flush_outcome, host.clock)
    assert not outbox._dirty and not scheduler._dirty
    await started(host)
    # Neither was started, so a poke only marks it to look again when it runs.
    assert outbox._dirty and scheduler._dirty


async def test_a_game_opened_and_joined_is_posted_with_nobody_flushing(host, sent):
    game = await open_game(host)
    await sent.shows("is open for 2 players")
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await sent.shows("bob joined")
    await host.lobby.start(game_id=game, user_id=ALICE)
    await sent.shows("The game begins!")


async def test_an_action_is_posted_with_nobody_flushing(host, sent):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    await sent.shows("1 of 2 picks are in")


async def test_a_timeout_is_posted_with_nobody_flushing(host, sent, clock):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    clock.now += 49 * HOUR
    await host.turn_clock.fire_due()
    await sent.shows("ran out of time")
    assert (await host.desk.table(game)).record.version > 2


async def test_a_rematch_is_posted_with_nobody_flushing(host, sent):
    game = await started(host)
    await host.endings.resign(game_id=game, user_id=BOB, confirmed=True)
    await host.gathering.rematch(game_id=game, user_id=ALICE, user_name="alice")
    await sent.shows("a rematch of")


async def test_a_digest_due_rings_for_its_dm(host, clock):
    await host.turn_clock.set_digest(user_id=ALICE, hours=2)
    await started(host)
    clock.now += 2 * HOUR
    heard = rung(host.doorbell)
    digest = await host.digests.send_due(clock())
    assert ["Your digest" in n.text.plain() for n in digest.notices] == [True]
    assert "notices" in heard, "the outbox wakes for the digest's DM"


async def test_calls_released_after_quiet_hours_ring_for_their_dm(host, clock):
    await host.turn_clock.set_quiet(user_id=ALICE, hours="0-23", zone="UTC")
    game = await open_game(host)
    notices = wire.outgoing(Outcome([PrivateMessage(game, ALICE, "a call for alice")]))
    await host.desk.store.enqueue(game, notices, now=clock())
    assert await host.new_outbox(Sent()).flush()
    clock.now += DAY
    heard = rung(host.doorbell)
    released = await quiet_hours.release(host.desk.store, clock())
    assert ["a call for alice" in n.text.plain() for n in released.notices] == [True]
    assert "notices" in heard


async def test_time_given_is_posted_and_wakes_the_scheduler(host, sent):
    game = await started(host)
    heard = rung(host.doorbell)
    await host.turn_clock.give_time(game_id=game, user_id=ALICE, player_id=BOB, hours=2)
    await sent.shows("The host gave bob")
    assert heard == ["notices", "deadline"]


async def test_notices_told_with_no_write_of_their_game_are_sent(host, sent):
    game = await open_game(host)
    await host.desk.tell(Outcome([PrivateMessage(game, CAROL, "a word for carol")]))
    await sent.shows("a word for carol")


async def test_each_setting_that_moves_a_deadline_wakes_the_scheduler(host, clock):
    game = await started(host)
    heard = rung(host.doorbell)
    await host.turn_clock.set_timing(game_id=game, user_id=ALICE, limit_hours=2)
    assert "deadline" in heard
    heard.clear()
    await host.turn_clock.set_digest(user_id=BOB, hours=3)
    assert heard == ["deadline"]
    heard.clear()
    await host.away.go_away(user_id=ALICE, days=2)
    assert "deadline" in heard
    heard.clear()
    await host.turn_clock.pause(game_id=game, user_id=ALICE)
    heard.clear()
    await host.turn_clock.resume(game_id=game, user_id=ALICE)
    assert heard == ["notices", "deadline"]


async def test_a_call_held_for_quiet_hours_wakes_the_scheduler_for_its_end(host, clock):
    """The outbox holds a DM call back in quiet hours; the scheduler must wake when they
    end to release it."""
    await host.turn_clock.set_quiet(user_id=ALICE, hours="0-23", zone="UTC")
    game = await open_game(host)
    heard = rung(host.doorbell)
    notices = wire.outgoing(Outcome([PrivateMessage(game, ALICE, "a call for alice")]))
    await host.desk.store.enqueue(game, notices, now=clock())
    assert heard == ["notices"]
    outbox = host.new_outbox(Sent())
    assert await outbox.flush()
    assert "deadline" in heard
    assert await host.desk.store.next_held() is not None


def test_every_write_of_the_store_that_stores_notices_or_moves_a_deadline_rings(store):
    """Read off the store's promises: a write taking notices rings for the outbox, one
    setting a deadline, a reminder or a due time rings for the scheduler, on either store."""
    for name, promise in inspect.getmembers(Store, inspect.isfunction):
        parameters = inspect.signature(promise).parameters
        found = rings(type(store), name)
        if "notices" in parameters:
            assert found is not None and found.outbox, name
        if {"deadline", "remind_at", "due_at"} & parameters.keys():
            assert found is not None and found.clock, name
    assert rings(type(store), "get_game") is None, "a read rings nothing"
