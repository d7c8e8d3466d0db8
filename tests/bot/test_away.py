"""Time away (``/away days:N``) through the host: a player's turn deadlines are stretched
in every game while they are away (bounded), no reminder comes meanwhile, the others are
told, and ``days:0`` ends it early."""

from __future__ import annotations

import random

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, PrivateMessage, StatusUpdate
from bot.service.text import Moment
from bot.service.timekeeping.away import DAY, reminder_for, shrunk, stretched
from bot.service.timekeeping.timing import HOUR, Timing
from tests.bot.test_host import ALICE, BOB, CHANNEL, GUILD, open_game, started
from tests.toy_game import toy_renderer

LIMIT = 48 * HOUR  # the default turn limit, with a reminder 12 hours before its end


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


def of_kind(outcome, kind):
    return [n for n in outcome.notices if isinstance(n, kind)]


async def test_going_away_stretches_the_turn_waiting_for_you_and_tells_the_table(
    host, store, clock
):
    game = await started(host)  # both players pick in secret now
    before = await store.get_game(game)
    clock.now += 10 * HOUR
    outcome = await host.away.go_away(user_id=BOB, days=3)
    until = clock.now + 3 * DAY
    after = await store.get_game(game)
    assert after.deadline == before.deadline + 3 * DAY
    assert after.version == before.version  # the turn's buttons stay valid
    assert after.remind_at == after.deadline - 12 * HOUR
    [reply] = outcome.replies
    assert Moment(until) in reply.text and "Toy Game #1: the turn now ends" in reply.text
    assert Moment(after.deadline) in reply.text
    [post] = of_kind(outcome, ChannelPost)
    assert post.channel_id == CHANNEL and "💤 bob is away until" in post.text
    assert Moment(until) in post.text and Moment(after.deadline) in post.text
    [status] = of_kind(outcome, StatusUpdate)
    assert "bob is away until" in status.text and Moment(after.deadline) in status.text
    assert await store.pending_notices()  # stored, to be sent
    assert await host.turn_clock.next_wakeup() == after.remind_at


async def test_a_deadline_is_never_stretched_past_the_return_plus_one_turn_limit(
    host, store, clock
):
    game = await started(host)
    await host.away.go_away(user_id=BOB, days=3)
    first = (await store.get_game(game)).deadline
    clock.now += HOUR
    again = await host.away.go_away(user_id=BOB, days=3)
    deadline = (await store.get_game(game)).deadline
    assert deadline == clock.now + 3 * DAY + LIMIT  # not stretched twice over
    assert deadline - first == HOUR
    assert "the turn now ends" in again.replies[0].text


async def test_a_new_turn_of_a_player_away_is_stretched_and_says_so(host, store, clock):
    game = await started(host)
    await host.away.go_away(user_id=ALICE, days=2)
    until = clock.now + 2 * DAY
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    clock.now += HOUR
    rolled = await host.turns.act(game_id=game, user_id=BOB, action="pick 2")  # Alice rolls next
    record = await store.get_game(game)
    assert record.deadline == until + LIMIT
    [post] = [p for p in of_kind(rolled, ChannelPost) if p.board is not None]
    assert "💤 alice is away until" in post.text and Moment(until) in post.text
    [status] = of_kind(rolled, StatusUpdate)
    assert "alice is away until" in status.text and Moment(record.deadline) in status.text


async def test_no_reminder_comes_while_away(host, store, clock):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    start = clock.now
    await host.away.go_away(user_id=BOB, days=1)
    clock.now = start + 36 * HOUR  # the reminder's usual time
    assert (await host.turn_clock.fire_due()).notices == []
    record = await store.get_game(game)
    clock.now = record.remind_at
    [reminder] = (await host.turn_clock.fire_due()).notices
    assert isinstance(reminder, PrivateMessage) and reminder.user_id == BOB
    assert clock.now >= start + DAY  # after the time away


async def test_coming_back_early_shrinks_a_stretched_deadline_to_one_turn_limit(host, store, clock):
    game = await started(host)
    await host.away.go_away(user_id=BOB, days=5)
    clock.now += DAY
    back = await host.away.go_away(user_id=BOB, days=0)
    record = await store.get_game(game)
    assert record.deadline == clock.now + LIMIT
    assert "Welcome back" in back.replies[0].text and "Toy Game #1" in back.replies[0].text
    [post] = of_kind(back, ChannelPost)
    assert "👋 bob is back" in post.text
    assert await store.away_until(BOB) is None
    with pytest.raises(UserError, match="You are not away"):
        await host.away.go_away(user_id=BOB, days=0)


async def test_away_in_a_game_not_waiting_for_you_stretches_your_next_turn(host, store, clock):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=BOB, action="pick 1")
    outcome = await host.away.go_away(user_id=BOB, days=1)
    assert "No game is waiting for you now" in outcome.replies[0].text
    [post] = of_kind(outcome, ChannelPost)
    assert "bob is away until" in post.text
    assert (await store.get_game(game)).deadline == 1_000_000.0 + LIMIT


async def test_time_away_is_one_to_thirty_days(host):
    for days in (-1, 31, 2.5, True):
        with pytest.raises(UserError, match="from 1 to 30; `days:0` ends"):
            await host.away.go_away(user_id=BOB, days=days)


async def test_a_lobby_or_a_game_without_a_limit_keeps_its_clock(host, store):
    lobby = await open_game(host)
    game = await started_without_limit(host)
    outcome = await host.away.go_away(user_id=ALICE, days=2)
    assert (await store.get_game(game)).deadline is None
    assert "No game is waiting for you now" in outcome.replies[0].text
    assert {p.game_id for p in of_kind(outcome, ChannelPost)} == {game}
    assert (await store.get_game(lobby)).status == "lobby"


async def started_without_limit(host):
    game = await open_game(host)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.turn_clock.set_timing(game_id=game, user_id=ALICE, guild_id=GUILD, limit_hours=0)
    await host.lobby.start(game_id=game, user_id=ALICE)
    return game


def test_a_stretch_is_bounded_by_the_return_the_limit_and_thirty_days():
    now, limit = 0.0, 2 * DAY
    assert stretched(now + DAY, now + 3 * DAY, now, limit) == now + 4 * DAY
    assert stretched(now + 5 * DAY, now + 3 * DAY, now, limit) == now + 5 * DAY  # never earlier
    assert stretched(now + 4 * DAY, now + 3 * DAY, now, limit) == now + 5 * DAY  # return + limit
    long = 60 * DAY
    assert stretched(now + 59 * DAY, now + 30 * DAY, now, long) == now + 89 * DAY
    assert stretched(now, now + 40 * DAY, now, long) == now + 30 * DAY  # at most 30 days on
    assert shrunk(now + 9 * DAY, now, limit) == now + limit
    assert shrunk(now + DAY, now, limit) == now + DAY


def test_the_reminder_waits_for_the_return():
    timing = Timing(limit=LIMIT, reminder=12 * HOUR)
    assert reminder_for(100 * HOUR, 10 * HOUR, timing) == 88 * HOUR
    assert reminder_for(100 * HOUR, 95 * HOUR, timing) == 95 * HOUR
    assert reminder_for(100 * HOUR, 100 * HOUR, timing) is None
    assert reminder_for(100 * HOUR, None, Timing(limit=LIMIT, reminder=0)) is None


async def test_a_game_started_or_resumed_while_away_gives_a_stretched_first_turn(
    host, store, clock
):
    game = await open_game(host)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.away.go_away(user_id=BOB, days=2)
    until = clock.now + 2 * DAY
    started_ = await host.lobby.start(game_id=game, user_id=ALICE)
    assert (await store.get_game(game)).deadline == until + LIMIT
    [status] = of_kind(started_, StatusUpdate)
    assert "bob is away until" in status.text
    await host.turn_clock.pause(game_id=game, user_id=ALICE, guild_id=GUILD)
    clock.now += DAY
    await host.turn_clock.resume(game_id=game, user_id=ALICE, guild_id=GUILD, channel_id=CHANNEL)
    assert (await store.get_game(game)).deadline == until + LIMIT
