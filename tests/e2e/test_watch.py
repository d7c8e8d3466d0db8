"""Watching a game on a simulated Discord: a watcher gets each new board by DM, with its
picture; the status message counts the watchers; closed DMs become a mention in the
game's channel; players and double watching are refused."""

from tests.e2e.conftest import bot_posts, status_messages, text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game, play_turn


def dms(member):
    return [m for m in member.user.dm_channel.history() if m.author.bot]


def boards(channel):
    return [m for m in bot_posts(channel) if m.attachments]


async def test_a_watcher_gets_every_new_board_by_dm_until_they_unwatch(simcord_env, world):
    _, _, users = world
    channel, players = await open_two_player_game(world)
    carol = users["carol"]
    watching = await carol.slash(channel, "game watch")
    assert "You are watching St. George and the Dragon #1" in texts([watching])[-1]
    [status] = status_messages(channel)
    assert "👀 1 person watching" in text_of(status)
    seen = len(boards(channel))
    for _ in range(6):
        await play_turn(channel, players)
    new_boards = boards(channel)[seen:]
    got = dms(carol)
    assert new_boards and len(got) == len(new_boards)
    for dm, post in zip(got, new_boards, strict=True):
        # The DM is the turn's post as it opened; the post itself grows as the turn goes on.
        opening = text_of(post).splitlines()[:2]
        assert text_of(dm).startswith("👀 ") and text_of(dm)[2:].splitlines()[:2] == opening
        assert dm.attachments and not dm.components  # the picture, and no controls
        assert dm.attachments[0].size == post.attachments[0].size
    await carol.slash(channel, "game unwatch")
    for _ in range(4):
        await play_turn(channel, players)
    assert len(dms(carol)) == len(got)
    assert "watching" not in text_of(status_messages(channel)[0])


async def test_players_and_second_watches_are_refused(simcord_env, world):
    _, _, users = world
    channel, players = await open_two_player_game(world)
    refused = await players["knights"].slash(channel, "game watch")
    assert "so you already see it" in texts([refused])[-1]
    await users["carol"].slash(channel, "game watch")
    again = await users["carol"].slash(channel, "game watch")
    assert "already watching" in texts([again])[-1]
    nothing = await users["dave"].slash(channel, "game unwatch")
    assert "not watching any game" in texts([nothing])[-1]


async def test_a_watcher_with_closed_dms_is_mentioned_in_the_channel(simcord_env, world):
    _, _, users = world
    dave = users["dave"]
    dm_path = f"/channels/{dave.user.dm_channel.id}/messages"
    simcord_env.inject_error("POST", dm_path, status=403, code=50007, times=None)
    channel, players = await open_two_player_game(world)
    await dave.slash(channel, "game watch")
    for _ in range(4):
        await play_turn(channel, players)
    mentions = [m for m in bot_posts(channel) if text_of(m).startswith(dave.mention)]
    assert mentions, "dave was told in the channel"
    assert "the new board of game #1 you watch is in the post above" in text_of(mentions[0])
    assert not dms(dave)
