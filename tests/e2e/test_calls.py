"""Every seat that must act now is called (➡️) in the post that asks it, round after round."""

from tests.e2e.conftest import bot_posts, text_of, texts
from tests.e2e.test_dragons_cave import open_game, secret_round
from tests.e2e.test_stgeorge import play_turn


def called(post, member):
    return f"➡️ {member.mention}:" in text_of(post)


async def test_every_player_is_called_to_choose_in_each_new_round_of_dragons_cave(
    simcord_env, world
):
    channel, players = await open_game(world, players=3)
    alice, bob, carol = players
    start = bot_posts(channel)[-1]
    assert all(called(start, member) for member in players), text_of(start)

    # alice (the Dragon) picks last: her pick opens round 2, for her too.
    reveal = await secret_round(channel, [(bob, "Ruby"), (carol, "Crystal"), (alice, "Amber")], 1)
    assert "Round 2 begins" in text_of(reveal[-1])
    assert all(called(reveal[-1], member) for member in players), text_of(reveal[-1])

    reveal = await secret_round(
        channel, [(alice, "Crystal"), (carol, "Ruby"), (bob, "Sapphire")], 2
    )
    assert all(called(reveal[-1], member) for member in players), text_of(reveal[-1])


def dms(member):
    channel = member.user.dm_channel
    return [text_of(m) for m in channel.history() if m.author.bot] if channel else []


def pinged_in(simcord_env, channel, member):
    """Whether any of the bot's posts in ``channel`` let ``member``'s mention notify them."""
    sent = [
        r.json for r in simcord_env.http_requests
        if r.method == "POST" and r.path.endswith(f"/{channel.id}/messages")
        and r.json and member.mention in (r.json.get("content") or "")
    ]  # fmt: skip
    return any(
        str(member.id) in [str(u) for u in (s.get("allowed_mentions") or {}).get("users", [])]
        for s in sent
    )


async def test_calls_by_dm_or_none_are_kept_across_a_restart(simcord_env, world, restart):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    await alice.slash(channel, "game new", game="stgeorge", players=2, role="knights")
    await bob.slash(channel, "game join", role="dragon")
    by_dm = await bob.slash(channel, "notify", event="turn", how="dm")
    assert "Calls for my turn: a DM." in texts([by_dm])[0]
    await alice.slash(channel, "notify", event="turn", how="none")
    await alice.slash(channel, "notify", event="reminder", how="none")
    await restart()
    await alice.slash(channel, "game start")
    players = {"knights": alice, "dragon": bob}

    for _ in range(6):  # alice plays her turn (a roll, then a move): bob's turn
        await play_turn(channel, players)
        if any("Your turn" in t for t in dms(bob)):
            break
    [call] = [t for t in dms(bob) if "Your turn" in t]
    assert "St. George and the Dragon #1" in call and "Dragon Club" in call
    assert f"<#{channel.id}>" in call
    assert not pinged_in(simcord_env, channel, bob)

    for _ in range(6):  # bob plays his: alice's turn, calling her nowhere
        await play_turn(channel, players)
        if alice.mention in text_of([m for m in bot_posts(channel) if "➡️" in text_of(m)][-1]):
            break
    turn = [m for m in bot_posts(channel) if "➡️" in text_of(m)][-1]
    assert alice.mention in text_of(turn)  # named in the post,
    assert not pinged_in(simcord_env, channel, alice)  # but not notified,
    await simcord_env.advance_time(40 * 3600)
    assert dms(alice) == []  # nor reminded

    shown = await alice.slash(channel, "notify")
    text = texts([shown])[0]
    assert "my turn: nothing" in text and "a reminder before my deadline: nothing" in text
    assert "an invitation: a DM" in text
