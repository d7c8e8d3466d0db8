"""Quiet hours on a simulated Discord over simulated days: a call at night is held back
(no DM, no ping) and comes as one DM in the morning, once, across a restart."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.e2e.conftest import bot_posts, text_of, texts
from tests.e2e.test_calls import dms, pinged_in
from tests.e2e.test_stgeorge import play_turn

PARIS = ZoneInfo("Europe/Paris")


async def advance_to(simcord_env, moment: datetime) -> None:
    await simcord_env.advance_time((moment - simcord_env.now()).total_seconds())


async def test_a_call_at_night_comes_as_one_dm_in_the_morning(simcord_env, world, restart):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    await alice.slash(channel, "game new", game="stgeorge", players=2, role="knights")
    await bob.slash(channel, "game join", role="dragon")
    await bob.slash(channel, "notify", event="turn", how="both")
    quiet = await bob.slash(channel, "notify", quiet="22-8", timezone="Europe/Paris")
    assert "Quiet hours: 22:00–08:00 (Europe/Paris)" in texts([quiet])[0]

    today = simcord_env.now().astimezone(PARIS)
    night = datetime(today.year, today.month, today.day, 23, 0, tzinfo=PARIS)
    if night <= today:
        night += timedelta(days=1)
    await advance_to(simcord_env, night)
    await alice.slash(channel, "game start")
    players = {"knights": alice, "dragon": bob}
    for _ in range(6):  # alice plays her turn: bob's, at night
        await play_turn(channel, players)
        if bob.mention in text_of([m for m in bot_posts(channel) if "➡️" in text_of(m)][-1]):
            break
    assert bob.mention in text_of([m for m in bot_posts(channel) if "➡️" in text_of(m)][-1])
    assert not [t for t in dms(bob) if "Your turn" in t or "quiet hours" in t]
    assert not pinged_in(simcord_env, channel, bob)  # named, not pinged

    await restart()
    morning = (night + timedelta(days=1)).replace(hour=7, minute=59)
    await advance_to(simcord_env, morning)
    assert not [t for t in dms(bob) if "quiet hours" in t]
    await simcord_env.advance_time(120)
    [held] = [t for t in dms(bob) if "quiet hours" in t]
    assert "While your quiet hours lasted" in held and "Your turn" in held
    assert "St. George and the Dragon #1" in held
    await restart()
    await simcord_env.advance_time(3600)
    assert len([t for t in dms(bob) if "quiet hours" in t]) == 1
