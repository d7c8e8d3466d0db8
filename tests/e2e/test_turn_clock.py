"""The turn clock on a simulated Discord: reminders, timeouts, restarts, days passing."""

import json
from datetime import datetime
from zoneinfo import ZoneInfo

import discord

from tests.e2e.conftest import bot_posts, controls_in, status_messages, text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game, play_turn

HOUR = 3600


def dms(member):
    return [text_of(m) for m in member.user.dm_channel.history() if m.author.bot]


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
    assert "ran out of time: the turn passes without a move." in text_of(post)
    assert text_of(post).count("ran out of time") == 1, "said once"
    assert f"<@{players['dragon'].id}>" in text_of(post) and post.attachments


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_once(
    simcord_env, world, restart
):
    channel, _ = await open_two_player_game(world)
    await simcord_env.advance_time(47 * HOUR)
    await restart()
    await simcord_env.advance_time(2 * HOUR)
    await restart()
    await simcord_env.advance_time(60)
    timeouts = [
        m
        for m in bot_posts(channel)
        if text_of(m).startswith("**") and "ran out of time" in text_of(m)
    ]
    assert len(timeouts) == 1, [text_of(m) for m in timeouts]


async def test_the_host_sets_a_forfeit_clock(simcord_env, world):
    channel, players = await open_two_player_game(world)
    knights = players["knights"]
    result = await knights.slash(channel, "game settings", hours=2.0, on_timeout="forfeit")
    assert "2 hours per turn" in text_of(result.response)
    denied = await players["dragon"].slash(channel, "game settings", hours=1.0)
    assert "Only the host" in text_of(denied.response)
    await simcord_env.advance_time(2 * HOUR + 1)
    assert "🏆" in text_of(bot_posts(channel)[-1])


async def test_pause_and_resume(simcord_env, world):
    channel, players = await open_two_player_game(world)
    knights = players["knights"]
    await knights.slash(channel, "game pause")
    await simcord_env.advance_time(100 * HOUR)
    assert not any("ran out of time" in text_of(m) for m in bot_posts(channel))
    refused = await knights.slash(channel, "move", action="roll")
    assert "paused" in text_of(refused.response)
    await knights.slash(channel, "game resume")
    assert "The game goes on" in text_of(bot_posts(channel)[-1])


async def test_one_status_message_is_edited_across_many_turns(simcord_env, world):
    channel, players = await open_two_player_game(world)
    for _ in range(8):
        await play_turn(channel, players)
    [status] = status_messages(channel)
    assert "waiting for" in text_of(status) and "turn ends <t:" in text_of(status)
    assert status.edited_at is not None  # edited in place, not reposted


async def test_a_board_loses_its_buttons_once_the_turn_passes(simcord_env, world):
    channel, players = await open_two_player_game(world)
    first = bot_posts(channel)[-1]  # the opening board with its Roll button
    assert controls_in(first)
    await play_turn(channel, players)
    await play_turn(channel, players)  # the turn has passed: a new board is posted
    boards = [m for m in bot_posts(channel) if m.attachments]
    assert boards[-1].id != first.id and controls_in(boards[-1])
    assert not any(controls_in(m) for m in boards[:-1]), "only the newest board has buttons"


async def test_a_stale_button_is_refused_with_a_link_to_the_current_board(simcord_env, world):
    channel, players = await open_two_player_game(world)
    first = bot_posts(channel)[-1]
    simcord_env.inject_error(
        "PATCH", f"/channels/{channel.id}/messages/{first.id}", status=403, times=None
    )
    await play_turn(channel, players)
    await simcord_env.advance_time(3)  # refused again: the turn is posted anew
    await play_turn(channel, players)  # the old board kept its button: Discord refused the edit
    result = await players["knights"].click(first, label="Roll the die")
    text = texts([result])[-1]
    newest_board = [m for m in bot_posts(channel) if m.attachments][-1]
    assert "moved on" in text and str(newest_board.id) in text


async def test_notify_reminders_only_stops_the_turn_mentions(simcord_env, world):
    channel, players = await open_two_player_game(world)
    dragon = players["dragon"]
    answer = await dragon.slash(channel, "notify", when="reminders")
    assert "only reminders" in text_of(answer.response)
    await play_turn(channel, players)
    await play_turn(channel, players)
    turn = [m for m in bot_posts(channel) if "➡️" in text_of(m)][-1]
    assert dragon.mention in text_of(turn)  # named,
    sent = [
        r.json for r in simcord_env.http_requests
        if r.method == "POST" and r.path.endswith(f"/{channel.id}/messages")
        and r.json and dragon.mention in json.dumps(r.json)  # in a card's text displays
    ]  # fmt: skip
    pinged = sent[-1]["allowed_mentions"]["users"]
    assert str(dragon.id) not in [str(u) for u in pinged]  # but not pinged


async def test_a_time_bank_is_spent_before_the_timeout_and_the_status_shows_it(simcord_env, world):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    await alice.slash(channel, "game new", game="stgeorge", players=2, role="knights")
    set_up = await alice.slash(channel, "game settings", hours=2.0, reminder=0.0, bank=3.0)
    assert "a time bank of 3 h for each seat" in text_of(set_up.response)
    await bob.slash(channel, "game join", role="dragon")
    await alice.slash(channel, "game start")
    refused = await alice.slash(channel, "game settings", bank=5.0)
    assert "its time banks were set at the opening" in text_of(refused.response)
    [status] = status_messages(channel)
    assert "Time banks: alice 3 h, bob 3 h" in text_of(status)
    await simcord_env.advance_time(2 * HOUR + 1)
    assert not any("ran out of time" in text_of(m) for m in bot_posts(channel))
    told = [text_of(m) for m in bot_posts(channel) if text_of(m).startswith("⏳")]
    assert len(told) == 1
    assert "alice's turn is over its limit: their time bank (3 h left) is running" in told[0]
    [status] = status_messages(channel)
    assert "Time banks: alice 3 h (running now), bob 3 h" in text_of(status)
    given = await alice.slash(channel, "game givetime", player=alice, hours=1.0)
    assert "Given" in texts([given])[-1]
    assert "their time bank now holds 4 h" in text_of(bot_posts(channel)[-1])
    await simcord_env.advance_time(4 * HOUR - 120)
    assert not any("ran out of time" in text_of(m) for m in bot_posts(channel))
    await simcord_env.advance_time(240)
    assert "ran out of time" in text_of(bot_posts(channel)[-1])
    [status] = status_messages(channel)
    assert "Time banks: alice 0 min, bob 3 h" in text_of(status)


async def test_playing_hours_rest_the_clock_over_the_weekend(simcord_env, world):
    guild, channel, _ = world
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    erin = guild.add_member(simcord_env.create_user("erin"), roles=[admins])
    bad = await erin.slash(channel, "server defaults", playing_hours="20-02")
    assert "cannot cross midnight" in texts([bad])[0]
    done = await erin.slash(
        channel, "server defaults", playing_hours="9-22", playing_days="mon-fri",
        timezone="Europe/Paris",
    )  # fmt: skip
    assert "playing hours 09:00–22:00 Mon–Fri (Europe/Paris)" in texts([done])[0]
    paris = ZoneInfo("Europe/Paris")
    friday_evening = datetime(2026, 1, 2, 19, 0, tzinfo=paris)  # a Friday
    await simcord_env.advance_time((friday_evening - simcord_env.now()).total_seconds())
    channel, players = await open_two_player_game(world)
    await players["knights"].slash(channel, "game settings", hours=4.0, reminder=0.0)
    [status] = status_messages(channel)
    assert "it rests from Fri 22:00 until Mon 09:00" in text_of(status)
    # Saturday noon: 3 playing hours were used on Friday, one is left for Monday.
    await simcord_env.advance_time(17 * HOUR)
    assert not any("ran out of time" in text_of(m) for m in bot_posts(channel))
    asked = await players["dragon"].slash(channel, "game status")
    assert "🌙 The clock rests until Mon 09:00 (Europe/Paris)" in texts([asked])[0]
    # Monday 09:59 in Paris: still nothing; at 10:00 the turn runs out.
    monday = datetime(2026, 1, 5, 9, 59, tzinfo=paris)
    await simcord_env.advance_time((monday - simcord_env.now()).total_seconds())
    assert not any("ran out of time" in text_of(m) for m in bot_posts(channel))
    await simcord_env.advance_time(120)
    assert "ran out of time" in text_of(bot_posts(channel)[-1])
