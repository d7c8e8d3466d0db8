"""Every notice arrives, through the real bot on simulated Discord, when Discord fails.

An accepted action is stored with all it must tell people; a post Discord refuses for a
moment follows once Discord takes it again, and the player is told the move was made.
"""

from tests.e2e.conftest import bot_posts, text_of, texts
from tests.e2e.test_dragons_cave import dm_prompt, open_game, pick
from tests.e2e.test_turn_clock import open_two_player_game

UNAVAILABLE = 503  # Discord's "service unavailable": transient, and not retried by discord.py


def refuse_posts(simcord_env, channel):
    """Discord refuses, for now, every new post and every edit in ``channel``."""
    simcord_env.inject_error(
        "*", f"/channels/{channel.id}/messages*", status=UNAVAILABLE, times=None
    )


async def roller(channel, players):
    board = bot_posts(channel)[-1]
    for player in players.values():
        if player.mention in text_of(board):
            return player, board
    raise AssertionError("nobody is called on the board")


async def test_a_refused_channel_post_follows_and_the_player_is_told_the_move_was_made(
    simcord_env, world
):
    channel, players = await open_two_player_game(world)
    player, _ = await roller(channel, players)
    seen = len(bot_posts(channel))
    refuse_posts(simcord_env, channel)
    answer = texts([await player.slash(channel, "move", action="roll")])
    assert answer[-1].startswith("✅ Played `roll`."), answer
    assert "delayed" in answer[-1] and "nothing was changed" not in " ".join(answer)
    assert (await simcord_env.bot.host.store.get_game(1)).version > 0
    assert "rolled" not in text_of(bot_posts(channel)[-1]), "Discord refused the update"
    simcord_env.backend.faults.clear()  # Discord is back
    await simcord_env.advance_time(400)  # the outbox tries again
    assert "rolled" in text_of(bot_posts(channel)[-1]), "the turn's post tells the roll"
    count = len(bot_posts(channel))
    assert count <= seen + 1
    await simcord_env.advance_time(600)
    assert len(bot_posts(channel)) == count, "sent once, never again"


async def test_a_refused_post_after_a_button_click_still_answers_the_click(simcord_env, world):
    channel, players = await open_two_player_game(world)
    player, board = await roller(channel, players)
    seen = len(bot_posts(channel))
    refuse_posts(simcord_env, channel)
    result = await player.click(board, label="Roll the die")
    answer = texts([result])
    assert answer and "delayed" in answer[-1], answer
    simcord_env.backend.faults.clear()
    await simcord_env.advance_time(400)
    assert "rolled" in text_of(bot_posts(channel)[-1]) and len(bot_posts(channel)) <= seen + 1


async def test_a_dm_failing_mid_round_loses_no_later_notice(simcord_env, world):
    """Bob's DM fails with Missing Access (50001), not "DMs closed": his prompt falls back
    to the channel button, and every other notice of the round still arrives."""
    channel, (alice, bob, carol) = await open_game(world)
    await pick(alice, "Round 1", "Sit on Ruby")  # alice is the Dragon: she picks her lair
    simcord_env.inject_error(
        "POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50001,
        message="Missing Access", times=None,
    )  # fmt: skip
    await pick(carol, "Round 1", "Amber:")
    await pick(bob, "Round 1", "Emerald:")  # the round is revealed: new prompts for round 2
    assert dm_prompt(carol, "Round 2"), "carol's next prompt arrived"
    assert dm_prompt(alice, "Round 2"), "the Dragon's next prompt arrived"
    fallback = [m for m in bot_posts(channel) if "I can't send you direct messages" in text_of(m)]
    assert fallback and bob.mention in text_of(fallback[-1])
    assert not await simcord_env.bot.host.dms_closed(bob.id), "50001 is not 'DMs closed'"
    opened = await bob.click(fallback[-1], label="Make my choice privately")
    assert "Round 2" in texts([opened])[-1]


async def test_after_a_restart_what_was_stored_and_not_sent_is_sent_once(
    simcord_env, world, restart
):
    """The process dies between the commit and the send: the new one sends it, once."""
    channel, players = await open_two_player_game(world)
    player, _ = await roller(channel, players)
    seen = len(bot_posts(channel))
    outbox = simcord_env.bot.outbox
    await outbox.stop()

    async def crashed(*_args, **_kwargs):
        return False  # nothing is sent: the process is gone before it could

    outbox.flush = outbox.flush_outcome = crashed
    await player.slash(channel, "move", action="roll")
    assert len(bot_posts(channel)) == seen and "rolled" not in text_of(bot_posts(channel)[-1])
    await restart()
    assert "rolled" in text_of(bot_posts(channel)[-1]), "the new process sends the update"
    count = len(bot_posts(channel))
    assert count <= seen + 1
    await simcord_env.advance_time(600)
    assert len(bot_posts(channel)) == count
