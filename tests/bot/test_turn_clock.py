"""Turn time limits: deadlines, reminders once, timeouts that skip or forfeit, pausing."""

import random

import pytest

from bot.service.host import GameHost, replay
from bot.service.notices import ChannelPost, PrivateMessage
from bot.service.text import Moment
from bot.service.timekeeping.timing import HOUR, Timing
from tests.bot.test_host import ALICE, BOB, CHANNEL, GUILD, started
from tests.toy_game import toy_renderer


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


async def to_roll(host, game):
    """Both pick, so it is Even's (alice's) public roll."""
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    await host.turns.act(game_id=game, user_id=BOB, action="pick 2")


async def test_a_started_game_gets_the_default_deadline_and_reminder(host, store, clock):
    game = await started(host)
    record = await store.get_game(game)
    assert record.deadline == clock.now + 48 * HOUR
    assert record.remind_at == clock.now + 36 * HOUR
    assert await host.turn_clock.next_wakeup() == record.remind_at


async def test_the_reminder_comes_once_at_its_time(host, store, clock):
    game = await started(host)
    await to_roll(host, game)
    clock.now += 36 * HOUR - 1
    assert (await host.turn_clock.fire_due()).notices == []
    clock.now += 1
    first = (await host.turn_clock.fire_due()).notices
    assert [(n.user_id, "Reminder" in n.text) for n in first] == [(ALICE, True)]
    assert isinstance(first[0], PrivateMessage)
    assert (await host.turn_clock.fire_due()).notices == []


async def test_a_reminder_for_closed_dms_goes_to_the_channel(host, store, clock):
    game = await started(host)
    await to_roll(host, game)
    await store.set_dm_closed(ALICE, True)
    clock.now += 36 * HOUR
    [post] = (await host.turn_clock.fire_due()).notices
    assert isinstance(post, ChannelPost) and post.mentions == (ALICE,)


async def test_a_timed_out_turn_is_skipped_once_and_the_clock_restarts(host, store, clock):
    game = await started(host)
    await to_roll(host, game)
    clock.now += 48 * HOUR
    notices = (await host.turn_clock.fire_due()).notices
    posts = [n for n in notices if isinstance(n, ChannelPost) and not n.passed]
    assert "ran out of time: the turn is skipped" in posts[0].text
    assert [a.action for a in await store.actions(game)][-1] == "!skip"
    assert (await host.turn_clock.fire_due()).notices == []
    record = await store.get_game(game)
    assert record.deadline == clock.now + 48 * HOUR


async def test_a_timed_out_secret_round_answers_for_everyone_still_to_choose(host, store, clock):
    game = await started(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 3")
    clock.now += 48 * HOUR
    await host.turn_clock.fire_due()
    actions = [(a.seat, a.action) for a in await store.actions(game)]
    assert actions == [(0, "pick 3"), (1, "!skip")]
    assert (await host.desk.table(game)).state["phase"] == "roll"


async def test_a_forfeit_timeout_ends_a_two_player_game(host, store, clock):
    game = await started(host)
    await host.turn_clock.set_timing(
        game_id=game, user_id=ALICE, on_timeout="forfeit", limit_hours=24
    )
    await to_roll(host, game)
    clock.now += 24 * HOUR
    notices = (await host.turn_clock.fire_due()).notices
    assert any("🏆 Odd wins" in n.text for n in notices if isinstance(n, ChannelPost))
    record = await store.get_game(game)
    assert record.status == "finished" and record.deadline is None


async def test_acting_in_time_moves_the_deadline(host, store, clock):
    game = await started(host)
    clock.now += 40 * HOUR
    await to_roll(host, game)
    assert (await store.get_game(game)).deadline == clock.now + 48 * HOUR
    clock.now += 8 * HOUR
    assert (await host.turn_clock.fire_due()).notices == []


async def test_pausing_stops_the_clock_and_resuming_restarts_it(host, store, clock):
    game = await started(host)
    await host.turn_clock.pause(game_id=game, user_id=ALICE)
    assert await host.turn_clock.next_wakeup() is None
    clock.now += 100 * HOUR
    assert (await host.turn_clock.fire_due()).notices == []
    with pytest.raises(Exception, match="paused"):
        await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    await host.turn_clock.resume(game_id=game, user_id=ALICE)
    assert (await store.get_game(game)).deadline == clock.now + 48 * HOUR


async def test_server_defaults_apply_to_new_games(host, store, clock):
    await host.turn_clock.set_server_timing(guild_id=GUILD, limit_hours=2, reminder_hours=0)
    game = await started(host)
    record = await store.get_game(game)
    assert record.deadline == clock.now + 2 * HOUR and record.remind_at is None
    assert Timing.from_dict(record.timing).limit == 2 * HOUR


async def test_only_the_host_changes_the_clock(host):
    game = await started(host)
    with pytest.raises(Exception, match="Only the host"):
        await host.turn_clock.set_timing(game_id=game, user_id=BOB, limit_hours=1)
    with pytest.raises(Exception, match="skip"):
        await host.turn_clock.set_timing(game_id=game, user_id=ALICE, on_timeout="explode")


async def test_timeouts_replay_from_the_log(host, store, clock, toy):
    game = await started(host)
    for _ in range(6):
        clock.now += 48 * HOUR
        await host.turn_clock.fire_due()
    record = await store.get_game(game)
    log = [(a.seq, a.seat, a.action) for a in await store.actions(game)]
    assert "!skip" in {a for _, _, a in log}
    assert toy.dump(replay(record, log)) == record.snapshot


async def test_thousands_of_deadlines_fire_in_order_and_once(store, toy, clock):
    host = GameHost(store, clock=clock, seeds=random.Random(5))
    chooser = random.Random(11)
    expected = {}
    for index in range(1500):
        # Limits within five times one another: a game on a one-hour clock would time out
        # hundreds of times before the longest one first fires, which adds firings of one
        # game, not deadlines of more games (about 4,000 firings in all, each in order).
        await host.turn_clock.set_server_timing(
            guild_id=GUILD, limit_hours=chooser.randint(100, 500), reminder_hours=0
        )
        outcome = await host.lobby.new_game(
            guild_id=GUILD, channel_id=CHANNEL + index, user_id=ALICE, user_name="a", slug="toy"
        )
        game = outcome.notices[-1].game_id
        await host.lobby.join(game_id=game, user_id=BOB, user_name="b")
        await host.lobby.start(game_id=game, user_id=ALICE)
        expected[game] = (await store.get_game(game)).deadline
    fired, firsts = [], {}
    while len(firsts) < len(expected):
        clock.now = await host.turn_clock.next_wakeup()
        for notice in (await host.turn_clock.fire_due()).notices:
            if isinstance(notice, ChannelPost) and "ran out of time" in notice.text:
                fired.append((clock.now, notice.game_id))
                firsts.setdefault(notice.game_id, clock.now)
    assert firsts == expected  # every game timed out exactly at its own deadline
    assert len(fired) > 2 * len(expected), "timed out games' next deadlines fired too"
    times = [when for when, _ in fired]
    assert times == sorted(times)


async def test_mine_shows_each_games_deadline(host, store, clock):
    game = await started(host)
    deadline = (await store.get_game(game)).deadline
    text = (await host.listings.mine(guild_id=GUILD, user_id=ALICE)).text
    assert "**your turn**" in text and Moment(deadline) in text
