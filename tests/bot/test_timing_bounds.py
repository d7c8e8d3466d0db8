"""The clock settings are bounded: finite hours from 0 (off) to 60 days, a reminder before
the end; anything else is refused saying the allowed range, and turn changes keep working."""

import math
import random

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.timekeeping.timing import HOUR, MAX_HOURS, Timing
from tests.bot.clocks import Clock
from tests.bot.test_host import ALICE, BOB, GUILD, started
from tests.toy_game import toy_renderer


@pytest.fixture
async def host(store, toy):
    return GameHost(store, renderer=toy_renderer, clock=Clock(), seeds=random.Random(3))


BAD_HOURS = [math.inf, -math.inf, math.nan, 1e308, MAX_HOURS + 1, -1]


@pytest.mark.parametrize("hours", BAD_HOURS)
def test_hours_out_of_range_are_refused_with_the_range(hours):
    for given in ({"limit_hours": hours}, {"reminder_hours": hours}):
        with pytest.raises(UserError, match=f"hours from 0 to {MAX_HOURS} \\(60 days\\)"):
            Timing().changed(**given)


def test_the_bounds_themselves_are_accepted():
    assert Timing().changed(limit_hours=MAX_HOURS).limit == MAX_HOURS * HOUR
    assert Timing().changed(limit_hours=0, reminder_hours=0).deadlines(5.0)["deadline"] is None
    assert Timing().changed(limit_hours=2, reminder_hours=1.5).reminder == 1.5 * HOUR


@pytest.mark.parametrize("reminder", [48, 100])
def test_a_reminder_must_come_before_the_end(reminder):
    with pytest.raises(UserError, match="less than the 48 hours of the limit"):
        Timing().changed(limit_hours=48, reminder_hours=reminder)
    with pytest.raises(UserError, match="before the end of the turn"):
        Timing().changed(reminder_hours=reminder)


def test_a_stored_impossible_value_falls_back_to_the_default():
    stored = {"limit": math.inf, "reminder": 1e308 * HOUR, "on_timeout": "explode"}
    assert Timing.from_dict(stored) == Timing()


async def test_the_host_refuses_infinite_hours_and_turns_still_change(host, store):
    game = await started(host)
    before = (await store.get_game(game)).timing
    for hours in (math.inf, 1e308):
        with pytest.raises(UserError, match="hours from 0 to"):
            await host.turn_clock.set_timing(game_id=game, user_id=ALICE, limit_hours=hours)
        with pytest.raises(UserError, match="hours from 0 to"):
            await host.turn_clock.set_server_timing(guild_id=GUILD, limit_hours=hours)
    assert (await store.get_game(game)).timing == before
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    await host.turns.act(game_id=game, user_id=BOB, action="pick 2")
    assert (await store.get_game(game)).deadline is not None
