"""Where games live: their own threads, deleted channels, and players who leave."""

from tests.e2e.conftest import bot_posts, text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game


async def test_a_game_in_its_own_thread_is_archived_when_it_ends(simcord_env, world):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    await alice.slash(channel, "game new", game="lions-dragons", thread=True)
    await bob.slash(channel, "game join")
    await alice.slash(channel, "game start")
    [thread] = channel.threads
    assert "Lions and Dragons Chess #1" in thread.name
    board = [m for m in bot_posts(thread) if m.attachments]
    assert board and "The game begins!" in text_of(board[0])
    assert not any(m.attachments for m in bot_posts(channel))  # the lobby stays outside
    await alice.slash(thread, "game leave")  # White gives up at once: Black wins
    assert "🏆" in text_of(bot_posts(thread)[-1])
    archived = simcord_env.backend.archived_threads(channel.id, private=False)
    assert [t.id for t in archived] == [thread.id]


async def test_server_default_threads_needs_manage_server(simcord_env, world):
    _, channel, users = world
    # Discord does not offer the command to members without Manage Server.
    assert "server defaults" not in users["bob"].available_commands(channel)


async def test_a_deleted_channel_pauses_the_game_and_the_host_resumes_it_elsewhere(
    simcord_env, world
):
    guild, channel, _ = world
    _, players = await open_two_player_game(world)
    simcord_env.backend.delete_channel(channel.id)
    await simcord_env.settle()
    host_dm = text_of(players["knights"].user.dm_channel.history()[-1])
    assert "paused: its channel was deleted" in host_dm and "/game resume game:1" in host_dm
    elsewhere = guild.create_text_channel("new-games")
    await players["knights"].slash(elsewhere, "game resume", game=1)
    resumed = bot_posts(elsewhere)[-1]
    assert "The game goes on!" in text_of(resumed) and resumed.attachments
    await players["knights"].slash(elsewhere, "move", action="roll")
    assert "rolled" in text_of(bot_posts(elsewhere)[-1])


async def test_a_player_who_leaves_out_of_turn_gives_their_seat_up_at_once(simcord_env, world):
    channel, players = await open_two_player_game(world)
    left = await players["dragon"].slash(channel, "game leave")  # the Knights are to roll
    assert "You left" in texts([left])[0]
    said = [text_of(m) for m in bot_posts(channel)[-2:]]
    assert "has left" in said[0] and "gives up at once" in said[0]
    assert "The Dragon has left the game" in said[1] and "🏆" in said[1]
    status = await players["knights"].slash(channel, "game status")
    assert "finished" in texts([status])[0]


async def test_a_member_who_leaves_the_server_leaves_their_games(simcord_env, world):
    guild, channel, _ = world
    _, players = await open_two_player_game(world)
    guild.remove_member(players["dragon"])
    await simcord_env.settle()
    said = [text_of(m) for m in bot_posts(channel)[-2:]]
    assert "has left" in said[0]
    assert "The Dragon has left the game" in said[1] and "🏆" in said[1]
    told = text_of(players["knights"].user.dm_channel.history()[-1])
    assert "bob left the server" in told
