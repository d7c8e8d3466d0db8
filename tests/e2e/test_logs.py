"""No secret reaches the bot's own logs, at any level, while secrets are unrevealed."""

import logging

import pytest

from bot.settings import Settings
from tests.e2e.test_dragons_cave import dm_prompt, label_starting, open_game


@pytest.fixture
def settings(tmp_path):
    """On SQLite, whose driver (aiosqlite) is the one that logs SQL parameters at DEBUG;
    asyncpg logs none."""
    return Settings(
        database=str(tmp_path / "games.sqlite3"), seed=1234, members_intent=True, paced=False
    )


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


async def _play_a_round_checking_every_record(simcord_bot, world):
    """Round 1 of a seeded Dragon's Cave game through the bot's DM buttons, every logger
    at DEBUG; after each click, no record of that click holds a secret of the game state."""
    from tests.bot.test_secret_logs import everything_at_debug, secrets

    checked = 0
    with everything_at_debug() as keep:
        _, (alice, bob, carol) = await open_game(world)
        host = simcord_bot.host
        (game,) = await host.store.games()
        for member, prefix in ((bob, "Ruby:"), (carol, "Crystal:"), (alice, "Sit on Amber")):
            prompt = dm_prompt(member, "Round 1:")
            start = len(keep.lines)
            await member.user.click(prompt, label=label_starting(prompt, prefix))
            hidden = secrets("dragons-cave", (await host.desk.table(game.id)).state)
            checked += len(hidden)
            for line in keep.lines[start:]:
                for token in hidden:
                    assert token not in line.replace("\\\\", "\\"), (token, line[:300])
        assert any(line.startswith("discord.") for line in keep.lines)
        assert any(line.startswith("aiosqlite") for line in keep.lines)
    return checked


async def test_no_record_of_any_library_at_debug_carries_a_secret(simcord_env, simcord_bot, world):
    assert await _play_a_round_checking_every_record(simcord_bot, world) > 0


async def test_without_the_filters_the_debug_records_carry_secrets(simcord_env, simcord_bot, world):
    from tests.bot.test_secret_logs import unprotected

    with unprotected(), pytest.raises(AssertionError, match=r"aiosqlite|discord"):
        await _play_a_round_checking_every_record(simcord_bot, world)
