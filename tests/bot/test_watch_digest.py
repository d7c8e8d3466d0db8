"""A watcher's digest (/notify watching:<hours>): no DM for each board, one DM every N hours
with the newest board of each watched game that moved, only when one moved, once, also
after a restart; an ended game is told once, with its result."""

import random

import pytest

from bot.service.delivery import digest
from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import PrivateMessage
from bot.service.play.turns import board_of
from bot.service.timekeeping.timing import HOUR
from tests.bot.test_calls import started, to_alices_roll
from tests.bot.test_host import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.bot.test_outbox import Discord
from tests.toy_game import toy_renderer


def new_host(store, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


@pytest.fixture
async def host(store, toy, clock):
    return new_host(store, clock)


async def watch(host, game, user=CAROL):
    return await host.watchers.watch(game_id=game, user_id=user, guild_id=GUILD, channel_id=CHANNEL)


def boards_to(outcome, user=CAROL):
    return [n for n in outcome.notices if isinstance(n, PrivateMessage) and n.user_id == user]


async def digests(host, discord, user=CAROL):
    """Send what is due now; every DM ``user`` got so far."""
    await host.digests.send_due(host.clock())
    await host.new_outbox(discord).flush()
    return [n for n in discord.arrived if isinstance(n, PrivateMessage) and n.user_id == user]


async def test_a_watcher_with_a_digest_gets_no_board_per_move(host):
    said = await host.turn_clock.set_digest(user_id=CAROL, hours=3, kind=digest.WATCHING)
    assert said.private and "Watched games: a digest every 3 h" in said.text
    assert (
        "👀 Watched games: one DM every 3 h"
        in (await host.turn_clock.show_calls(user_id=CAROL)).text
    )
    game = await started(host)
    answer = (await watch(host, game)).replies[0]
    assert "digest of watched games every 3 h" in answer.text
    await watch(host, game, user=104)  # another watcher, without a digest
    moved = await to_alices_roll(host, game)
    assert boards_to(moved) == []
    assert [dm.boards != () for dm in boards_to(moved, 104)] == [True]


async def test_the_digest_shows_each_moved_game_once_until_it_moves_again(host, store, clock):
    await host.turn_clock.set_digest(user_id=CAROL, hours=3, kind=digest.WATCHING)
    first, second = await started(host), await started(host)
    await watch(host, first)
    await watch(host, second)
    discord = Discord()
    assert await digests(host, discord) == []  # not due yet
    clock.now += 3 * HOUR
    [sent] = await digests(host, discord)
    text = sent.text.plain()
    assert "Your watched games: 2 moved" in text and "Toy Game #1" in text and "#2" in text
    assert "waiting for" in text and sent.controls == ()
    tables = [await host.desk.table(first), await host.desk.table(second)]
    assert sent.boards == tuple(board_of(t) for t in tables)  # the public view only

    # A restart; nothing moved: nothing is sent.
    host = new_host(store, clock)
    clock.now += 3 * HOUR
    assert len(await digests(host, discord)) == 1
    # One game moves twice: the next digest shows it alone, at its newest position.
    await to_alices_roll(host, second)
    await host.turns.act(game_id=second, user_id=ALICE, action="roll")
    clock.now += 3 * HOUR
    sent = (await digests(host, discord))[-1]
    assert "Your watched games: 1 moved" in sent.text.plain() and "Toy Game #2" in sent.text
    assert "Toy Game #1" not in sent.text.plain()
    assert sent.boards == (board_of(await host.desk.table(second)),)
    assert "last:" in sent.text.plain()
    assert await store.next_digest() == clock.now + 3 * HOUR


async def test_an_ended_game_is_in_the_digest_once_with_its_result(host, store, clock):
    await host.turn_clock.set_digest(user_id=CAROL, hours=1, kind=digest.WATCHING)
    game = await started(host)
    await watch(host, game)
    discord = Discord()
    clock.now += HOUR
    assert len(await digests(host, discord)) == 1
    await host.endings.resign(game_id=game, user_id=BOB, confirmed=True)
    assert (await store.get_game(game)).status == "finished"
    clock.now += HOUR
    [*_, ended] = await digests(host, discord)
    assert "Toy Game #1" in ended.text and "finished" in ended.text.plain()
    clock.now += HOUR
    assert len(await digests(host, discord)) == 2  # told once


async def test_a_digest_held_by_quiet_hours_comes_after_them_with_its_boards(host, clock):
    await host.turn_clock.set_digest(user_id=CAROL, hours=1, kind=digest.WATCHING)
    game = await started(host)
    await watch(host, game)
    at = clock.now % (24 * HOUR) // HOUR  # quiet from this hour for two hours (UTC)
    await host.turn_clock.set_quiet(
        user_id=CAROL, hours=f"{int(at)}-{int(at + 2) % 24}", zone="UTC"
    )
    discord = Discord()
    clock.now += HOUR
    assert await digests(host, discord) == []  # held
    clock.now += 2 * HOUR
    from bot.service.timekeeping import quiet_hours

    await quiet_hours.release(host.store, clock.now)
    [sent] = await digests(host, discord)
    assert "While your quiet hours lasted" in sent.text.plain()
    assert sent.boards == (board_of(await host.desk.table(game)),)


async def test_back_to_each_board(host, store):
    await host.turn_clock.set_digest(user_id=CAROL, hours=2, kind=digest.WATCHING)
    game = await started(host)
    await watch(host, game)
    off = await host.turn_clock.set_digest(user_id=CAROL, hours=0, kind=digest.WATCHING)
    assert "each new board by DM" in off.text and await store.next_digest() is None
    moved = await to_alices_roll(host, game)
    assert [dm.boards != () for dm in boards_to(moved)] == [True]
    with pytest.raises(UserError):
        await host.turn_clock.set_digest(user_id=CAROL, hours=169, kind=digest.WATCHING)


async def test_a_players_digest_and_a_watchers_are_apart(host, store, clock):
    await host.turn_clock.set_digest(user_id=ALICE, hours=2)
    await host.turn_clock.set_digest(user_id=ALICE, hours=5, kind=digest.WATCHING)
    assert await store.next_digest() == clock.now + 2 * HOUR
    await host.turn_clock.set_digest(user_id=ALICE, hours=0)
    assert await store.next_digest() == clock.now + 5 * HOUR
    shown = (await host.turn_clock.show_calls(user_id=ALICE)).text
    assert "👀 Watched games: one DM every 5 h" in shown and "📬" not in shown
