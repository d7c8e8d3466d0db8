"""Time banks: extra time per seat, spent by a turn that runs over its limit before the
timeout applies; only the time used is taken; the host gives more with ``give_time``."""

import random

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, Reply, StatusUpdate
from bot.service.timekeeping.timing import HOUR
from tests.bot.test_host import ALICE, BOB, open_game
from tests.toy_game import toy_renderer


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


async def banked(host, bank_hours=3, limit_hours=10):
    """A toy game with ``limit_hours`` per turn and a bank of ``bank_hours`` per seat,
    started with alice (Even) and bob (Odd), at alice's public roll."""
    game = await open_game(host)
    reply = await host.turn_clock.set_timing(
        game_id=game, user_id=ALICE, limit_hours=limit_hours, reminder_hours=0,
        bank_hours=bank_hours,
    )  # fmt: skip
    assert "time bank of 3 h for each seat" in reply.text or bank_hours != 3
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    return game


def texts(outcome, kind=ChannelPost):
    return [n.text.plain() if hasattr(n.text, "plain") else n.text for n in outcome.notices
            if isinstance(n, kind)]  # fmt: skip


async def status(host, game):
    text = (await host.listings.status(game_id=game, user_id=ALICE)).text
    return text if isinstance(text, str) else text.plain()


async def test_a_bank_is_spent_before_the_timeout(host, store, clock):
    game = await banked(host)
    start = clock.now
    clock.now += 10 * HOUR
    fired = await host.turn_clock.fire_due()
    [post] = [t for t in texts(fired) if "⏳" in t]
    assert "alice's turn is over its limit: their time bank (3 h left) is running" in post
    assert not any("ran out of time" in t for t in texts(fired))
    assert (await store.get_game(game)).deadline == start + 13 * HOUR
    assert [a.action for a in await store.actions(game)][-1] == "pick 2"  # no timeout
    assert (await host.turn_clock.fire_due()).notices == []  # told once
    clock.now += 3 * HOUR
    fired = await host.turn_clock.fire_due()
    assert any("ran out of time: the turn is skipped" in t for t in texts(fired))
    assert [a.action for a in await store.actions(game)][-1] == "!skip"
    assert "Time banks: alice 0 min, bob 3 h" in await status(host, game)


async def test_only_the_time_used_is_taken(host, store, clock):
    game = await banked(host)
    clock.now += 11 * HOUR
    await host.turn_clock.fire_due()
    assert "alice 3 h (running now), bob 3 h" in await status(host, game)
    clock.now += HOUR / 2
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")  # 1 h 30 min over
    record = await store.get_game(game)
    assert record.deadline == clock.now + 10 * HOUR  # a fresh turn, a full limit
    assert "Time banks: alice 1 h 30 min, bob 3 h" in await status(host, game)


async def test_a_turn_inside_its_limit_takes_nothing(host, store, clock):
    game = await banked(host)
    clock.now += 10 * HOUR - 1
    assert (await host.turn_clock.fire_due()).notices == []
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    assert "Time banks: alice 3 h, bob 3 h" in await status(host, game)


async def test_secret_choices_each_spend_their_own_bank(host, store, clock):
    game = await banked(host)
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    if (await host.desk.table(game)).state["phase"] != "pick":
        pytest.skip("the roll ended the game")
    await host.turn_clock.give_time(game_id=game, user_id=ALICE, player_id=BOB, hours=2)  # bob: 5 h
    turn = (await store.get_game(game)).deadline
    clock.now = turn
    fired = await host.turn_clock.fire_due()
    started = [t for t in texts(fired) if "⏳" in t]
    assert len(started) == 2  # each seat's own bank begins to run
    assert (await store.get_game(game)).deadline == turn + 3 * HOUR  # alice's runs out first
    clock.now = turn + HOUR
    await host.turns.act(game_id=game, user_id=BOB, action="pick 1")  # bob used 1 h of his 5
    clock.now = turn + 3 * HOUR
    fired = await host.turn_clock.fire_due()
    assert any("ran out of time" in t for t in texts(fired))
    assert [(a.seat, a.action) for a in await store.actions(game)][-2:] == [
        (1, "pick 1"),
        (0, "!skip"),
    ]
    assert "Time banks: alice 0 min, bob 4 h" in await status(host, game)


async def test_the_host_gives_time_and_a_running_over_deadline_moves(host, store, clock):
    game = await banked(host, bank_hours=1)
    clock.now += 10 * HOUR
    await host.turn_clock.fire_due()
    assert (await store.get_game(game)).deadline == clock.now + HOUR
    with pytest.raises(UserError, match="Only the host"):
        await host.turn_clock.give_time(game_id=game, user_id=BOB, player_id=ALICE, hours=2)
    outcome = await host.turn_clock.give_time(game_id=game, user_id=ALICE, player_id=ALICE, hours=2)
    [post] = texts(outcome)
    assert "gave alice 2 h: their time bank now holds 3 h. The turn now ends" in post
    assert any("alice 3 h (running now)" in t for t in texts(outcome, StatusUpdate))
    assert (await store.get_game(game)).deadline == clock.now + 3 * HOUR
    clock.now += 3 * HOUR - 1
    assert not any("ran out of time" in t for t in texts(await host.turn_clock.fire_due()))
    clock.now += 1
    assert any("ran out of time" in t for t in texts(await host.turn_clock.fire_due()))
    with pytest.raises(UserError, match="at most 1440 hours"):
        await host.turn_clock.give_time(game_id=game, user_id=ALICE, player_id=BOB, hours=1440)


async def test_time_is_given_without_a_bank_chosen(host, store, clock):
    game = await banked(host, bank_hours=0)
    assert "Time banks" not in await status(host, game)
    await host.turn_clock.give_time(game_id=game, user_id=ALICE, player_id=BOB, hours=1)
    assert "Time banks: alice 0 min, bob 1 h" in await status(host, game)


async def test_no_bank_times_out_as_before(host, store, clock):
    await banked(host, bank_hours=0)
    clock.now += 10 * HOUR
    fired = await host.turn_clock.fire_due()
    assert any("ran out of time: the turn is skipped" in t for t in texts(fired))


async def test_the_bank_is_set_only_before_the_start(host, store, clock):
    game = await banked(host)
    with pytest.raises(UserError, match="has started: its time banks were set at the opening"):
        await host.turn_clock.set_timing(game_id=game, user_id=ALICE, bank_hours=5)
    with pytest.raises(UserError, match="/game givetime"):
        await host.turn_clock.set_timing(game_id=game, user_id=ALICE, bank_hours=5)
    with pytest.raises(UserError, match="from 0"):
        await host.turn_clock.set_timing(
            game_id=await open_game(host), user_id=ALICE, bank_hours=-1
        )


async def test_banks_survive_a_restart(host, store, open_store, clock, toy):
    game = await banked(host)
    clock.now += 10 * HOUR
    await host.turn_clock.fire_due()
    clock.now += HOUR
    again = GameHost(await open_store(), renderer=toy_renderer, clock=clock)
    await again.turns.act(game_id=game, user_id=ALICE, action="roll")
    assert "Time banks: alice 2 h, bob 3 h" in await status(again, game)


async def test_pausing_takes_the_time_spent_and_resuming_gives_a_full_limit(host, store, clock):
    game = await banked(host)
    clock.now += 12 * HOUR
    await host.turn_clock.fire_due()
    await host.turn_clock.pause(game_id=game, user_id=ALICE)
    clock.now += 100 * HOUR
    await host.turn_clock.resume(game_id=game, user_id=ALICE)
    assert (await store.get_game(game)).deadline == clock.now + 10 * HOUR
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    assert "Time banks: alice 1 h, bob 3 h" in await status(host, game)


async def test_a_double_firing_spends_nothing_twice(host, store, clock):
    game = await banked(host)
    clock.now += 10 * HOUR
    record = await store.get_game(game)
    first = (
        await host.turn_clock.fire_claimed(record, clock.now)
        if host.turn_clock.claim(game)
        else None
    )
    assert first is not None
    assert host.turn_clock.claim(game)
    again = await host.turn_clock.fire_claimed(
        record, clock.now
    )  # the same due record, read before
    assert not [n for n in again.notices if not isinstance(n, Reply)]
    assert (await store.get_game(game)).deadline == clock.now + 3 * HOUR
