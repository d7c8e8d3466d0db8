"""A player's digest (/notify digest:<hours>): no DM for each turn, one DM every N hours of
the games waiting on them, only when one is new, once, also after a restart."""

import random

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.timekeeping.timing import HOUR
from tests.bot.test_calls import started, to_alices_roll
from tests.bot.test_host import ALICE
from tests.bot.test_outbox import Discord
from tests.bot.test_quiet_calls import dms
from tests.toy_game import toy_renderer


def new_host(store, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


@pytest.fixture
async def host(store, toy, clock):
    return new_host(store, clock)


async def told(host, discord):
    await host.digests.send_due(host.clock())
    await host.new_outbox(discord).flush()
    return [m.text.plain() for m in dms(discord, ALICE)]


async def test_a_digest_every_n_hours_only_when_something_is_new(host, store, clock):
    said = await host.turn_clock.set_digest(user_id=ALICE, hours=2)
    assert said.private and "Digest: every 2 h" in said.text
    assert "📬 Digest: one DM every 2 h" in (await host.turn_clock.show_calls(user_id=ALICE)).text
    await host.turn_clock.set_call(user_id=ALICE, event="turn", how="both")
    game = await started(host)
    outcome = await to_alices_roll(host, game)
    discord = Discord()
    assert not [m for m in dms_of(outcome) if "Your turn" in m]  # folded into the digest
    assert await told(host, discord) == []  # not due yet
    clock.now += 2 * HOUR
    [sent] = await told(host, discord)
    assert "Your digest: 1 game(s) waiting for you" in sent and "Toy Game #1" in sent
    assert "your turn" in sent

    # A restart: a new host on the same store; nothing new, nothing sent.
    host = new_host(store, clock)
    clock.now += 2 * HOUR
    assert len(await told(host, discord)) == 1
    clock.now += 2 * HOUR
    assert len(await told(host, discord)) == 1
    # Something new: another game waiting on alice; the next digest lists both.
    second = await started(host)
    await to_alices_roll(host, second)
    clock.now += 2 * HOUR
    sent = await told(host, discord)
    assert len(sent) == 2 and "Your digest: 2 game(s) waiting for you" in sent[-1]
    assert await store.next_digest() == clock.now + 2 * HOUR
    # A later turn of a game already listed is new too: alice rolls, then picks again.
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    clock.now += 2 * HOUR
    sent = await told(host, discord)
    assert len(sent) == 3 and "Toy Game #1" in sent[-1]
    clock.now += 2 * HOUR
    assert len(await told(host, discord)) == 3


async def test_a_digest_stops_and_its_hours_are_checked(host, store):
    await host.turn_clock.set_digest(user_id=ALICE, hours=24)
    off = await host.turn_clock.set_digest(user_id=ALICE, hours=0)
    assert "Digest off" in off.text and await store.next_digest() is None
    with pytest.raises(UserError):
        await host.turn_clock.set_digest(user_id=ALICE, hours=169)


def dms_of(outcome):
    from tests.bot.test_host import privates

    return [m.text.plain() for m in privates(outcome) if m.user_id == ALICE and not m.controls]
