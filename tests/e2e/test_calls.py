"""Every seat that must act now is called (➡️) in the post that asks it, round after round."""

from tests.e2e.conftest import bot_posts
from tests.e2e.test_dragons_cave import open_game, secret_round


def called(post, member):
    return f"➡️ {member.mention}:" in post.content


async def test_every_player_is_called_to_choose_in_each_new_round_of_dragons_cave(
    simcord_env, world
):
    channel, players = await open_game(world, players=3)
    alice, bob, carol = players
    start = bot_posts(channel)[-1]
    assert all(called(start, member) for member in players), start.content

    # alice (the Dragon) picks last: her pick opens round 2, for her too.
    reveal = await secret_round(channel, [(bob, "Ruby"), (carol, "Crystal"), (alice, "Amber")], 1)
    assert "Round 2 begins" in reveal[-1].content
    assert all(called(reveal[-1], member) for member in players), reveal[-1].content

    reveal = await secret_round(
        channel, [(alice, "Crystal"), (carol, "Ruby"), (bob, "Sapphire")], 2
    )
    assert all(called(reveal[-1], member) for member in players), reveal[-1].content
