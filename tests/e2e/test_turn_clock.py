"""The turn clock on a simulated Discord: reminders, timeouts, restarts, days passing."""

from tests.e2e.conftest import bot_posts
from tests.e2e.test_stgeorge import open_two_player_game

HOUR = 3600


def dms(member):
    return [m.content for m in member.user.dm_channel.history() if m.author.bot]


async def test_a_reminder_arrives_once_at_the_right_time(simcord_env, world):
    _, players = await open_two_player_game(world)
    knights = players["knights"]
    await simcord_env.advance_time(36 * HOUR - 60)
    assert not any("Reminder" in t for t in dms(knights))
    await simcord_env.advance_time(120)
    assert sum("Reminder" in t for t in dms(knights)) == 1
    await simcord_env.advance_time(6 * HOUR)
    assert sum("Reminder" in t for t in dms(knights)) == 1


async def test_a_timed_out_turn_is_skipped_and_the_next_player_called(simcord_env, world):
    channel, players = await open_two_player_game(world)
    await simcord_env.advance_time(48 * HOUR + 1)
    post = bot_posts(channel)[-1]
    assert "ran out of time: the turn is skipped" in post.content
    assert f"<@{players['dragon'].id}>" in post.content and post.attachments


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_once(
    simcord_env, world, restart
):
    channel, _ = await open_two_player_game(world)
    await simcord_env.advance_time(47 * HOUR)
    await restart()
    await simcord_env.advance_time(2 * HOUR)
    await restart()
    await simcord_env.advance_time(60)
    timeouts = [m for m in bot_posts(channel) if "ran out of time" in m.content]
    assert len(timeouts) == 1


async def test_the_host_sets_a_forfeit_clock(simcord_env, world):
    channel, players = await open_two_player_game(world)
    knights = players["knights"]
    result = await knights.slash(channel, "game settings", hours=2.0, on_timeout="forfeit")
    assert "2 hours per turn" in result.response.content
    denied = await players["dragon"].slash(channel, "game settings", hours=1.0)
    assert "Only the host" in denied.response.content
    await simcord_env.advance_time(2 * HOUR + 1)
    assert "🏆" in bot_posts(channel)[-1].content


async def test_pause_and_resume(simcord_env, world):
    channel, players = await open_two_player_game(world)
    knights = players["knights"]
    await knights.slash(channel, "game pause")
    await simcord_env.advance_time(100 * HOUR)
    assert not any("ran out of time" in m.content for m in bot_posts(channel))
    refused = await knights.slash(channel, "move", action="roll")
    assert "paused" in refused.response.content
    await knights.slash(channel, "game resume")
    assert "The game goes on" in bot_posts(channel)[-1].content
