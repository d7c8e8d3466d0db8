"""No secret reaches the bot's own logs, at any level, while secrets are unrevealed."""

import logging

from tests.e2e.test_dragons_cave import dm_prompt, label_starting, open_game


async def test_unrevealed_picks_never_reach_the_logs(simcord_env, world, caplog):
    caplog.set_level(logging.DEBUG, logger="bot")
    caplog.set_level(logging.INFO)
    _, (alice, bob, carol) = await open_game(world)
    for member, kind in ((bob, "Ruby"), (carol, "Crystal")):
        prompt = dm_prompt(member, "Round 1:")
        await member.user.click(prompt, label=label_starting(prompt, f"{kind}:"))
    prompt = dm_prompt(alice, "Round 1:")
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "seat 1 played a secret choice" in logged  # the host does log each action
    assert "Ruby" not in logged and "Crystal" not in logged
    assert "card ruby" not in logged.lower()
    await alice.user.click(prompt, label=label_starting(prompt, "Sit on Amber"))
