"""A digest on a simulated Discord over simulated days: no DM for each turn, one DM every
N hours of the games waiting, only when one is new, across a restart."""

from tests.e2e.conftest import bot_posts, text_of, texts
from tests.e2e.test_calls import dms
from tests.e2e.test_stgeorge import play_turn

HOUR = 3600


async def test_a_digest_comes_every_n_hours_when_a_game_waits(simcord_env, world, restart):
    _, channel, users = world
    alice, bob = users["alice"], users["bob"]
    await alice.slash(channel, "game new", game="stgeorge", players=2, role="knights")
    await bob.slash(channel, "game join", role="dragon")
    await bob.slash(channel, "notify", event="turn", how="dm")
    said = await bob.slash(channel, "notify", digest=6)
    assert "Digest: every 6 h" in texts([said])[0]
    await alice.slash(channel, "game start")
    players = {"knights": alice, "dragon": bob}
    for _ in range(6):  # alice plays her turn: bob's
        await play_turn(channel, players)
        if bob.mention in text_of([m for m in bot_posts(channel) if "➡️" in text_of(m)][-1]):
            break
    assert not [t for t in dms(bob) if "Your turn" in t]  # folded into the digest
    await restart()
    await simcord_env.advance_time(6 * HOUR + 60)
    [sent] = [t for t in dms(bob) if "Your digest" in t]
    assert "St. George and the Dragon #1" in sent and "your turn" in sent
    await restart()
    await simcord_env.advance_time(6 * HOUR)  # nothing new: nothing sent
    assert len([t for t in dms(bob) if "Your digest" in t]) == 1
