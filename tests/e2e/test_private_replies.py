"""A reply meant for one person is private, even from a command whose answer is otherwise
shown to the whole channel (``/stats``, ``/leaderboard``): nothing to show, or a request
refused, is told to the asker alone."""

from tests.e2e.conftest import bot_posts, text_of, texts


def only_for_asker(result, words):
    """The asker was told ``words`` in a message nobody else sees."""
    told = [m for m in [result.response, *result.followups] if m is not None and text_of(m)]
    assert any(words in text_of(m) for m in told), texts([result])
    assert all(m.ephemeral for m in told if words in text_of(m))


async def test_stats_of_a_player_with_no_finished_game_is_told_to_them_alone(simcord_env, world):
    _, channel, users = world
    alice, carol = users["alice"], users["carol"]
    mine = await carol.slash(channel, "stats")
    only_for_asker(mine, "You have not finished a game on this server yet")
    theirs = await carol.slash(channel, "stats", user=alice)
    only_for_asker(theirs, "has not finished a game on this server yet")
    assert not any("finished a game" in text_of(m) for m in bot_posts(channel, alice))


async def test_an_empty_leaderboard_is_told_to_the_asker_alone(simcord_env, world):
    _, channel, users = world
    alice, carol = users["alice"], users["carol"]
    empty = await carol.slash(channel, "leaderboard", game="lions-dragons")
    only_for_asker(empty, "Nobody has finished a game of Lions and Dragons Chess")
    assert not any("Nobody has finished" in text_of(m) for m in bot_posts(channel, alice))
