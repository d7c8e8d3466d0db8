"""A person against a computer player, through the real bot on simulated Discord."""

import random

import pytest

from bot.settings import Settings
from tests.e2e.conftest import bot_posts, text_of, texts


@pytest.fixture
def settings(database):
    """Computers move as soon as their turn comes (no think time to wait through)."""
    return Settings(
        database=database, seed=1234, members_intent=True, paced=False, computer_delay=0.0
    )


async def test_a_person_plays_dragons_cave_against_the_computer_to_the_end(simcord_env, world):
    _, channel, users = world
    alice, carol = users["alice"], users["carol"]
    results = [
        await alice.slash(channel, "game new", game="dragons-cave"),
        await alice.slash(channel, "game addbot", level="easy"),
        await alice.slash(channel, "game start"),
    ]
    assert texts(results) == [
        "You joined Dragon's Cave #1 as Red.",
        "An easy computer plays Blue.",
        "Dragon's Cave #1 has started.",
    ]
    seated = [text_of(m) for m in bot_posts(channel, carol) if "🤖 An easy computer" in text_of(m)]
    assert seated and "🤖 An easy computer player takes Blue." in seated[0]
    host = simcord_env.bot.host
    chooser = random.Random(4)
    for _ in range(400):
        if (await host.store.get_game(1)).status != "running":
            break
        controls = await host.turns.controls_for(game_id=1, user_id=alice.id)
        if controls:
            action = chooser.choice(controls[0].choices).action
            answer = await alice.slash(channel, "move", action=action)
            assert not texts([answer])[0].startswith("⚠️"), texts([answer])
        else:
            await simcord_env.advance_time(1)  # the computer's turn comes due
    record = await host.store.get_game(1)
    assert record.status == "finished", "the game ran to its end"
    final = text_of(bot_posts(channel, carol)[-1])
    assert "Game over!" in final and ("🏆" in final or "share" in final)
    computer_posts = [
        text_of(m) for m in bot_posts(channel, carol) if "Blue (🤖 easy)" in text_of(m)
    ]
    assert computer_posts, "the computer's moves appear in the channel, named as the computer"
    assert not any("<@-" in text_of(m) for m in bot_posts(channel, carol))
