"""Quiet hours through the host, the outbox and the store: a DM call made in them is held
back and a channel post names the player without pinging them; when they end, what was
held comes as one DM, once, also after a restart (a new host on the same store)."""

import random
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, PrivateMessage
from bot.service.timekeeping import quiet_hours
from tests.bot.test_calls import started, to_alices_roll
from tests.bot.test_host import ALICE
from tests.bot.test_outbox import Discord
from tests.toy_game import toy_renderer

PARIS = "Europe/Paris"


def at(*parts: int) -> float:
    return datetime(*parts, tzinfo=ZoneInfo(PARIS)).timestamp()  # type: ignore[misc]


def new_host(store, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


@pytest.fixture
async def host(store, toy, clock):
    clock.now = at(2026, 12, 2, 23, 0)  # a Wednesday night in Paris
    return new_host(store, clock)


def dms(discord, user):
    """The DM calls ``user`` got (a secret choice to make, with its buttons, is the game's
    own question, not a call: it is never held)."""
    return [
        n
        for n in discord.arrived
        if isinstance(n, PrivateMessage) and n.user_id == user and not n.controls
    ]


def pinged(discord):
    return {u for n in discord.arrived if isinstance(n, ChannelPost) for u in n.mentions}


async def test_quiet_hours_are_set_shown_and_removed(host):
    said = await host.turn_clock.set_quiet(user_id=ALICE, hours="22-8", zone=PARIS)
    assert said.private and "Quiet hours: 22:00–08:00 (Europe/Paris)" in said.text
    assert "Quiet hours: 22:00–08:00" in (await host.turn_clock.show_calls(user_id=ALICE)).text
    moved = await host.turn_clock.set_quiet(user_id=ALICE, hours=None, zone="America/New_York")
    assert "22:00–08:00 (America/New_York)" in moved.text
    with pytest.raises(UserError, match="time zone"):
        await host.turn_clock.set_quiet(user_id=ALICE, hours="22-8", zone="Nowhere/Land")
    off = await host.turn_clock.set_quiet(user_id=ALICE, hours="off")
    assert "Quiet hours off" in off.text and "🌙" not in off.text


async def test_a_call_in_quiet_hours_is_held_and_told_once_after_a_restart(host, store, clock):
    await host.turn_clock.set_call(user_id=ALICE, event="turn", how="both")
    await host.turn_clock.set_quiet(user_id=ALICE, hours="22-8", zone=PARIS)
    game = await started(host)
    await to_alices_roll(host, game)
    discord = Discord()
    await host.new_outbox(discord).flush()
    assert not dms(discord, ALICE)  # no DM at night
    assert ALICE not in pinged(discord)  # named in the post, not pinged
    assert any(isinstance(n, ChannelPost) and "alice" in n.text.plain() for n in discord.arrived)
    assert await store.next_held() == at(2026, 12, 3, 8, 0)

    # A restart: a new host on the same store; nothing is due before the morning.
    clock.now = at(2026, 12, 3, 7, 59)
    host = new_host(store, clock)
    assert not (await quiet_hours.release(store, clock.now)).notices
    clock.now = at(2026, 12, 3, 8, 0)
    released = await quiet_hours.release(store, clock.now)
    assert len(released.notices) == 1
    morning = Discord()
    outbox = host.new_outbox(morning)
    await outbox.flush()
    [held] = dms(morning, ALICE)
    text = held.text.plain()
    assert "While your quiet hours lasted" in text and "Your turn" in text
    assert "Toy Game #1" in text
    # Told once: a second look (or another restart) sends nothing more.
    assert not (await quiet_hours.release(store, clock.now + 3600)).notices
    await new_host(store, clock).new_outbox(morning).flush()
    assert len(dms(morning, ALICE)) == 1
    assert await store.next_held() is None


async def test_outside_quiet_hours_calls_are_as_chosen(host, store, clock):
    clock.now = at(2026, 12, 3, 12, 0)
    await host.turn_clock.set_call(user_id=ALICE, event="turn", how="both")
    await host.turn_clock.set_quiet(user_id=ALICE, hours="22-8", zone=PARIS)
    game = await started(host)
    await to_alices_roll(host, game)
    discord = Discord()
    await host.new_outbox(discord).flush()
    assert [m for m in dms(discord, ALICE) if "Your turn" in m.text.plain()]
    assert ALICE in pinged(discord)
    assert await store.next_held() is None


async def test_a_held_turn_call_that_passed_in_the_night_is_not_told(host, store, clock):
    # Alice's turn call is held at 23:00; she rolls at 23:30 anyway (quiet hours stop
    # calls, not play), so by 08:00 it is no longer her turn to roll.
    await host.turn_clock.set_call(user_id=ALICE, event="turn", how="dm")
    await host.turn_clock.set_call(user_id=ALICE, event="end", how="dm")
    await host.turn_clock.set_quiet(user_id=ALICE, hours="22-8", zone=PARIS)
    game = await started(host)
    await to_alices_roll(host, game)
    await host.new_outbox(Discord()).flush()
    assert await store.next_held() == at(2026, 12, 3, 8, 0)
    clock.now = at(2026, 12, 2, 23, 30)
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    await host.new_outbox(Discord()).flush()

    clock.now = at(2026, 12, 3, 8, 0)
    await quiet_hours.release(store, clock.now)
    morning = Discord()
    await host.new_outbox(morning).flush()
    told = " ".join(m.text.plain() for m in dms(morning, ALICE))
    assert "Your turn" not in told and "Roll the die" not in told
    assert await store.next_held() is None  # nothing is left to tell later either


async def test_a_held_turn_call_that_still_holds_is_told_once(host, store, clock):
    await host.turn_clock.set_call(user_id=ALICE, event="turn", how="dm")
    await host.turn_clock.set_quiet(user_id=ALICE, hours="22-8", zone=PARIS)
    game = await started(host)
    await to_alices_roll(host, game)
    await host.new_outbox(Discord()).flush()
    clock.now = at(2026, 12, 3, 8, 0)
    await quiet_hours.release(store, clock.now)
    morning = Discord()
    await host.new_outbox(morning).flush()
    [held] = dms(morning, ALICE)
    assert held.text.plain().count("Your turn") == 1 and "Roll the die" in held.text.plain()
