"""Each way a game ends early is told as what it was, through the real bot on a simulated
Discord: a resignation as a resignation, a timeout as a timeout, a player leaving as a
departure; in the final post, the status message, ``/game history`` and ``/game export``."""

from tests.e2e.conftest import bot_posts, status_messages, text_of, texts
from tests.e2e.test_endings import open_game
from tests.e2e.test_stgeorge import open_two_player_game
from tests.e2e.test_story import file_of, history_text

HOUR = 3600


async def resign(member, channel):
    asked = await member.slash(channel, "game resign")
    confirm = asked.response or asked.followups[0]
    done = await member.click(confirm, label="Yes, resign")
    assert any("You resigned" in t for t in texts([done]))


async def test_a_resignation_in_lions_and_dragons_is_told_as_a_resignation(simcord_env, world):
    channel, alice, bob = await open_game(world, "lions-dragons")
    await resign(bob, channel)
    final = text_of(bot_posts(channel)[-1])
    assert "Black resigns" in final and "🏆 White wins: Black resigned." in final
    assert "ran out of time" not in final
    [status] = status_messages(channel)
    assert "Black resigned" in text_of(status) and "ran out of time" not in text_of(status)
    told = await history_text(alice, channel)
    assert "🏳️ resigned" in told and "ran out of time" not in told
    _, data = await file_of(await alice.slash(channel, "game export"))
    record = data.decode()
    assert "black: !forfeit resigned" in record
    assert '[Result "White wins: Black resigned."]' in record


async def test_a_resignation_in_st_george_is_told_as_a_resignation(simcord_env, world):
    channel, players = await open_two_player_game(world)
    await resign(players["knights"], channel)
    final = text_of(bot_posts(channel)[-1])
    assert "resigned and left the game" in final and "🏆" in final
    assert "ran out of time" not in final
    told = await history_text(players["dragon"], channel)
    assert "🏳️ resigned" in told and "ran out of time" not in told


async def test_a_forfeit_on_time_is_told_as_a_timeout(simcord_env, world):
    channel, players = await open_two_player_game(world)
    await players["knights"].slash(channel, "game settings", hours=2.0, on_timeout="forfeit")
    await simcord_env.advance_time(2 * HOUR + 1)
    final = text_of(bot_posts(channel)[-1])
    assert "ran out of time and leaves the game" in final and "🏆" in final
    assert "resign" not in final
    told = await history_text(players["dragon"], channel)
    assert "⏱️ ran out of time; the seat was forfeited" in told


async def test_a_player_who_leaves_is_told_as_leaving_not_as_a_timeout(simcord_env, world):
    channel, players = await open_two_player_game(world)
    await players["knights"].slash(channel, "game leave")
    final = text_of(bot_posts(channel)[-1])
    assert "have left the game" in final and "🏆" in final
    assert "ran out of time" not in final and "resign" not in final
    told = await history_text(players["dragon"], channel)
    assert "🚪 left the game" in told and "ran out of time" not in told


async def test_resigning_out_of_turn_in_st_george_for_two_ends_the_game_at_once(simcord_env, world):
    channel, players = await open_two_player_game(world)
    await resign(players["dragon"], channel)  # the Knights are to roll
    final = text_of(bot_posts(channel)[-1])
    assert "The Dragon resigned and left the game." in final
    assert "🏆 The Dragon resigned: the Knights have driven it off." in final
    assert not any("as soon as it is its turn" in text_of(m) for m in bot_posts(channel))
    status = await players["knights"].slash(channel, "game status")
    assert "finished" in texts([status])[0]


async def test_a_cancelled_game_is_told_as_cancelled_not_as_a_result(simcord_env, world):
    channel, alice, bob = await open_game(world, "lions-dragons")
    await alice.slash(channel, "game cancel")
    assert "was cancelled by" in text_of(bot_posts(channel)[-1])
    [status] = status_messages(channel)
    assert "cancelled" in text_of(status) and "wins" not in text_of(status)
    _, data = await file_of(await bob.slash(channel, "game export", game=1))
    record = data.decode()
    assert '[Status "cancelled"]' in record and "[Result" not in record
    assert "!forfeit" not in record


async def test_a_player_who_leaves_the_server_is_told_as_leaving(simcord_env, world):
    guild, channel, _ = world
    _, players = await open_two_player_game(world)
    guild.remove_member(players["knights"])  # the Knights are to roll
    await simcord_env.settle()
    final = text_of(bot_posts(channel)[-1])
    assert "All four Knights have left the game" in final and "🏆" in final
    assert "ran out of time" not in final and "resign" not in final
