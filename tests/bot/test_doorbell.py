"""The doorbell: the host rings it when it stores notices or moves a deadline, and the
outbox and the scheduler built with the host hear it, with nothing swapped in later."""

import random

from bot.service.delivery.outbox import Outbox
from bot.service.doorbell import Doorbell
from bot.service.host import GameHost
from bot.service.timekeeping.scheduler import Scheduler
from tests.bot.clocks import TickingClock
from tests.bot.test_host import ALICE, BOB, open_game, started
from tests.toy_game import toy_renderer


def rung(doorbell: Doorbell) -> list[str]:
    heard: list[str] = []
    doorbell.on_notices_stored(lambda: heard.append("notices"))
    doorbell.on_deadline_moved(lambda: heard.append("deadline"))
    return heard


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
    outbox = Outbox(host, send=lambda delivery: None)
    scheduler = Scheduler(host, outbox.flush_outcome, host.clock)
    assert not outbox._dirty and not scheduler._dirty
    await started(host)
    # Neither was started, so a poke only marks it to look again when it runs.
    assert outbox._dirty and scheduler._dirty
