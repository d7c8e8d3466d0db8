"""Time away on a simulated Discord: ``/away days:N`` stretches the turn waiting for the
player, the others see who is away until when, no reminder comes meanwhile, and
``/away days:0`` ends it."""

from tests.e2e.conftest import bot_posts, status_messages, text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game, play_turn

HOUR = 3600
DAY = 24 * HOUR


def dms(member):
    return [text_of(m) for m in member.user.dm_channel.history() if m.author.bot]


def timeouts(channel):
    return [m for m in bot_posts(channel) if "ran out of time" in text_of(m)]


async def test_a_player_away_keeps_their_turn_and_the_others_are_told(simcord_env, world):
    channel, players = await open_two_player_game(world)
    alice = players["knights"]  # whose turn it is
    result = await alice.slash(channel, "away", days=3)
    answer = texts([result])[-1]
    assert "You are away until <t:" in answer
    assert "St. George and the Dragon #1: the turn now ends <t:" in answer
    told = text_of(bot_posts(channel)[-1])
    assert told.startswith("💤 alice is away until <t:") and "This turn now ends <t:" in told
    [status] = status_messages(channel)
    assert "💤 alice is away until <t:" in text_of(status)
    await simcord_env.advance_time(48 * HOUR + 60)  # past the usual limit
    assert not timeouts(channel)
    assert not any("Reminder" in t for t in dms(alice))  # none while away
    await simcord_env.advance_time(3 * DAY)  # past the time away and one more limit
    assert len(timeouts(channel)) == 1


async def test_a_new_turn_of_a_player_away_is_stretched_and_shown(simcord_env, world):
    channel, players = await open_two_player_game(world)
    bob = players["dragon"]
    await bob.slash(channel, "away", days=2)
    for _ in range(4):
        await play_turn(channel, players)
        if "💤 bob is away until" in text_of(status_messages(channel)[0]):
            break
    assert "💤 bob is away until <t:" in text_of(status_messages(channel)[0])
    turn = [m for m in bot_posts(channel) if m.attachments][-1]
    assert "💤 bob is away until <t:" in text_of(turn)
    await simcord_env.advance_time(48 * HOUR + 60)
    assert not timeouts(channel)


async def test_back_early_and_bad_numbers_of_days(simcord_env, world):
    channel, players = await open_two_player_game(world)
    alice = players["knights"]
    await alice.slash(channel, "away", days=5)
    back = await alice.slash(channel, "away", days=0)
    assert "Welcome back" in texts([back])[-1]
    assert text_of(bot_posts(channel)[-1]).startswith("👋 alice is back.")
    again = await alice.slash(channel, "away", days=0)
    assert "You are not away" in texts([again])[-1]
    await simcord_env.advance_time(48 * HOUR + 60)
    assert len(timeouts(channel)) == 1  # the usual limit again
