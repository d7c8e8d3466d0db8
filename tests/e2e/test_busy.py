"""A host that is full refuses at once: the asker alone is told it is busy and to try
again, nothing changes, and the same click goes through once there is room."""

from tests.e2e.conftest import bot_posts, text_of, texts


async def test_a_full_host_refuses_a_move_privately_and_changes_nothing(simcord_env, world):
    _, channel, users = world
    alice = users["alice"]
    await alice.slash(channel, "game new", game="lions-dragons", players=2, role="white")
    await alice.slash(channel, "game addbot", level="easy")
    await alice.slash(channel, "game start")
    host = simcord_env.bot.host
    before = await host.store.get_game(1)
    posts = len(bot_posts(channel))
    action = (await host.turns.controls_for(game_id=1, user_id=alice.id))[0].choices[0].action

    limit, host.admission.limit = host.admission.limit, 0  # every slot taken
    refused = await alice.slash(channel, "move", action=action)
    told = [m for m in [refused.response, *refused.followups] if m is not None and text_of(m)]
    assert any("busy" in text_of(m) and "try again" in text_of(m) for m in told), texts([refused])
    assert all(m.ephemeral for m in told)
    assert refused.response is not None and "busy" in text_of(refused.response), (
        "answered at once, not after a wait"
    )
    after = await host.store.get_game(1)
    assert (after.version, after.snapshot) == (before.version, before.snapshot)
    assert len(bot_posts(channel)) == posts, "nothing was posted for anyone to see"

    host.admission.limit = limit
    await alice.slash(channel, "move", action=action)
    assert (await host.store.get_game(1)).version > before.version, "the same move, later"
