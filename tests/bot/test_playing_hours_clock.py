"""Playing hours in the host, on both stores: a turn's limit, reminder and time bank are
counted in playing time, so a deadline stretches over a night and a weekend, and the
status says when the clock rests."""

import random

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost, PrivateMessage
from bot.service.timekeeping.away import stretched
from bot.service.timekeeping.timing import HOUR
from tests.bot.test_host import ALICE, BOB, GUILD, open_game
from tests.bot.test_playing_hours import PARIS, WEEKDAYS, at
from tests.toy_game import toy_renderer

FRIDAY_EVENING = at(PARIS, 2026, 12, 4, 20, 0)


@pytest.fixture
async def host(store, toy, clock):
    clock.now = FRIDAY_EVENING
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


async def status(host, game):
    text = (await host.listings.status(game_id=game, user_id=ALICE)).text
    return text if isinstance(text, str) else text.plain()


def texts(outcome):
    return [n.text if isinstance(n.text, str) else n.text.plain() for n in outcome.notices
            if isinstance(n, ChannelPost | PrivateMessage)]  # fmt: skip


async def opened(host, **timing):
    """A toy game opened under the server's playing hours (09-22 Mon-Fri, Paris), with
    ``timing``, started with alice and bob, at alice's roll."""
    reply = await host.turn_clock.set_server_timing(
        guild_id=GUILD, playing_hours="9-22", playing_days="mon-fri", timezone=PARIS
    )
    assert "playing hours 09:00–22:00 Mon–Fri (Europe/Paris)" in reply.text
    game = await open_game(host)
    await host.turn_clock.set_timing(game_id=game, user_id=ALICE, **timing)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    return game


async def test_a_deadline_stretches_over_a_weekend_and_a_night(host, store, clock):
    game = await opened(host, limit_hours=12, reminder_hours=3)
    record = await store.get_game(game)
    assert record.deadline == at(PARIS, 2026, 12, 7, 19, 0)  # Monday 19:00
    assert record.remind_at == at(PARIS, 2026, 12, 7, 16, 0)
    assert (
        "The clock runs in its playing hours 09:00–22:00 Mon–Fri (Europe/Paris): it rests "
        "from Fri 22:00 until Mon 09:00." in await status(host, game)
    )
    clock.now = at(PARIS, 2026, 12, 5, 12, 0)  # Saturday noon
    assert (await host.turn_clock.fire_due()).notices == []
    assert (
        "🌙 The clock rests until Mon 09:00 (Europe/Paris); playing hours 09:00–22:00 Mon–Fri."
        in await status(host, game)
    )
    clock.now = at(PARIS, 2026, 12, 7, 16, 0) - 1
    assert (await host.turn_clock.fire_due()).notices == []
    clock.now += 1
    assert any("Reminder" in t for t in texts(await host.turn_clock.fire_due()))
    clock.now = at(PARIS, 2026, 12, 7, 19, 0) - 1
    assert (await host.turn_clock.fire_due()).notices == []
    assert [a.action for a in await store.actions(game)][-1] == "pick 2"
    clock.now += 1
    fired = texts(await host.turn_clock.fire_due())
    assert any("ran out of time: the turn is skipped" in t for t in fired)
    # The next turn starts Monday 19:00: 3 h that evening, the night rests, 9 h on Tuesday.
    assert (await store.get_game(game)).deadline == at(PARIS, 2026, 12, 8, 18, 0)


async def test_a_time_bank_is_spent_in_playing_time(host, store, clock):
    clock.now = at(PARIS, 2026, 12, 4, 19, 0)
    game = await opened(host, limit_hours=2, reminder_hours=0, bank_hours=3)
    assert (await store.get_game(game)).deadline == at(PARIS, 2026, 12, 4, 21, 0)
    clock.now = at(PARIS, 2026, 12, 4, 21, 0)
    fired = texts(await host.turn_clock.fire_due())
    assert any("their time bank (3 h left) is running" in t for t in fired)
    # 1 h of bank on Friday evening, 2 h on Monday morning.
    assert (await store.get_game(game)).deadline == at(PARIS, 2026, 12, 7, 11, 0)
    clock.now = at(PARIS, 2026, 12, 7, 10, 0)
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    assert "Time banks: alice 1 h, bob 3 h" in await status(host, game)


async def test_playing_hours_are_set_in_the_lobby_and_checked(host, store, clock):
    game = await open_game(host)
    with pytest.raises(UserError, match="cannot cross midnight"):
        await host.turn_clock.set_timing(game_id=game, user_id=ALICE, playing_hours="20-02")
    with pytest.raises(UserError, match=r"not a time zone I know.*Europe/Paris"):
        await host.turn_clock.set_timing(
            game_id=game, user_id=ALICE, playing_hours="9-22", timezone="Paris"
        )
    with pytest.raises(UserError, match="not a set of days"):
        await host.turn_clock.set_server_timing(guild_id=GUILD, playing_days="weekdayz")
    reply = await host.turn_clock.set_timing(
        game_id=game, user_id=ALICE, playing_hours="9-22", playing_days="mon-fri",
        timezone=PARIS,
    )  # fmt: skip
    assert "playing hours 09:00–22:00 Mon–Fri (Europe/Paris)" in reply.text
    reply = await host.turn_clock.set_timing(game_id=game, user_id=ALICE, playing_hours="off")
    assert "playing hours" not in reply.text
    await host.turn_clock.set_timing(
        game_id=game, user_id=ALICE, playing_hours="9-22", timezone=PARIS
    )
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    with pytest.raises(UserError, match="playing hours were set at the opening"):
        await host.turn_clock.set_timing(game_id=game, user_id=ALICE, playing_hours="off")
    # Every day 09-22: the 48 h turn from Friday 20:00 (2 h, then 13 h a day) ends on
    # Tuesday 16:00.
    assert (await store.get_game(game)).deadline == at(PARIS, 2026, 12, 8, 16, 0)


async def test_without_playing_hours_the_clock_runs_around_the_clock(host, store, clock):
    game = await open_game(host)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    assert (await store.get_game(game)).deadline == FRIDAY_EVENING + 48 * HOUR
    assert "clock r" not in await status(host, game)


def test_time_away_stretches_by_its_playing_time():
    deadline = at(PARIS, 2026, 12, 7, 19, 0)
    until = at(PARIS, 2026, 12, 7, 20, 0)  # away from Friday 20:00 to Monday 20:00: 13 h
    assert stretched(deadline, until, FRIDAY_EVENING, 48 * HOUR, WEEKDAYS) == at(
        PARIS, 2026, 12, 8, 19, 0
    )
    # At most one turn limit (in playing time) after the return.
    assert stretched(deadline, until, FRIDAY_EVENING, 4 * HOUR, WEEKDAYS) == at(
        PARIS, 2026, 12, 8, 11, 0
    )
