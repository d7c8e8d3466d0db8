"""Discord refusing the bot a permission in a game's channel is no deleted channel.

A 403 (Missing Permissions, Missing Access) says the bot may not post there for now: the
game goes on, the host is told which permission to grant where, and the post waits in the
outbox until Discord takes it. Only a channel that is really gone (404) pauses its games.
"""

from tests.e2e.conftest import bot_posts, text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game

MISSING_PERMISSIONS = 50013


def refuse_with_403(simcord_env, channel):
    """Discord answers every post and edit in ``channel`` with Missing Permissions."""
    simcord_env.inject_error(
        "*", f"/channels/{channel.id}/messages*", status=403, code=MISSING_PERMISSIONS,
        message="Missing Permissions", times=None,
    )  # fmt: skip


async def test_a_post_refused_for_a_missing_permission_waits_and_the_host_is_told_the_truth(
    simcord_env, world
):
    channel, players = await open_two_player_game(world)
    knights = players["knights"]  # the host, and first to move
    seen = len(bot_posts(channel))
    dms_before = len(knights.user.dm_channel.history()) if knights.user.dm_channel else 0
    refuse_with_403(simcord_env, channel)
    answer = texts([await knights.slash(channel, "move", action="roll")])
    assert answer[-1].startswith("✅ Played `roll`.") and "delayed" in answer[-1], answer
    await simcord_env.advance_time(3)  # the retry is refused too: the refusal lasts

    game = await simcord_env.bot.host.store.get_game(1)
    assert game.status == "running" and game.channel_id == channel.id, "the game goes on"
    told = [text_of(m) for m in knights.user.dm_channel.history()[dms_before:]]
    assert told, "the host is told why the posts stopped"
    assert not any("deleted" in text for text in told), told
    assert any(
        "Send Messages" in text and f"<#{channel.id}>" in text and "permission" in text
        for text in told
    ), told

    await simcord_env.advance_time(30)  # still refused: tried again, nothing posted
    assert "rolled" not in text_of(bot_posts(channel)[-1])
    assert len(knights.user.dm_channel.history()) == dms_before + len(told), "told once"

    simcord_env.backend.faults.clear()  # someone grants the permission again
    await simcord_env.advance_time(400)
    assert "rolled" in text_of(bot_posts(channel)[-1]), "the post goes out"
    assert len(bot_posts(channel)) <= seen + 1
    assert (await simcord_env.bot.host.store.get_game(1)).status == "running"
    cleared = text_of(knights.user.dm_channel.history()[-1])
    assert "I can post in" in cleared and "again" in cleared, "the host hears it works again"


async def test_a_refused_post_goes_out_after_a_restart_once_the_permission_is_back(
    simcord_env, world, restart
):
    channel, players = await open_two_player_game(world)
    refuse_with_403(simcord_env, channel)
    await players["knights"].slash(channel, "move", action="roll")
    assert "rolled" not in text_of(bot_posts(channel)[-1])
    simcord_env.backend.faults.clear()
    await restart()
    await simcord_env.advance_time(400)
    assert "rolled" in text_of(bot_posts(channel)[-1])


async def test_a_channel_that_is_really_gone_still_pauses_its_game(simcord_env, world):
    channel, players = await open_two_player_game(world)
    simcord_env.inject_error(
        "*", f"/channels/{channel.id}/messages*", status=404, code=10003,
        message="Unknown Channel", times=None,
    )  # fmt: skip
    await players["knights"].slash(channel, "move", action="roll")
    game = await simcord_env.bot.host.store.get_game(1)
    assert game.status == "paused"
    told = text_of(players["knights"].user.dm_channel.history()[-1])
    assert "paused: its channel was deleted" in told


async def test_a_single_refused_edit_of_the_turn_post_is_tried_again_not_posted_twice(
    simcord_env, world
):
    channel, players = await open_two_player_game(world)
    seen = len(bot_posts(channel))
    simcord_env.inject_error(
        "PATCH", f"/channels/{channel.id}/messages/*", status=403, code=MISSING_PERMISSIONS,
        message="Missing Permissions", times=1,
    )  # fmt: skip
    await players["knights"].slash(channel, "move", action="roll")
    await simcord_env.advance_time(400)
    posts = bot_posts(channel)
    assert "rolled" in text_of(posts[-1]), "the turn's post shows the roll once Discord takes it"
    assert len(posts) == seen, "the turn's post is edited in place, not posted a second time"
