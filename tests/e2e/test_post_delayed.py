"""A move is stored, then sending its post fails on the bot's side (the database connection
lost after the commit): the move stands, its post follows from the outbox, and the player
who made it is told so, as after any other failure after the commit."""

import pytest

from tests.e2e.conftest import bot_posts, controls_in, text_of, texts
from tests.e2e.test_stgeorge import open_two_player_game


@pytest.fixture
def lose_connection_once(simcord_env, monkeypatch):
    """The store's next claim of an outbox lane fails as a lost connection would."""
    store = simcord_env.bot.host.store
    take_lane = store.take_lane
    failed = []

    async def lost(*args, **kwargs):
        if not failed:
            failed.append(True)
            raise ConnectionResetError("connection to the database lost")
        return await take_lane(*args, **kwargs)

    def arm():
        monkeypatch.setattr(store, "take_lane", lost)
        return failed

    return arm


async def test_a_move_whose_post_cannot_be_flushed_tells_the_mover_it_is_played_and_delayed(
    simcord_env, world, lose_connection_once
):
    channel, players = await open_two_player_game(world)
    failed = lose_connection_once()
    answer = texts([await players["knights"].slash(channel, "move", action="roll")])
    assert failed, "the flush after the commit failed"
    assert answer and answer[-1].startswith("✅ Played `roll`."), answer
    assert "delayed" in answer[-1] and "nothing was changed" not in " ".join(answer), answer
    await simcord_env.advance_time(5)  # the outbox tries again
    assert "rolled" in text_of(bot_posts(channel)[-1]), "the post follows"


async def test_a_click_whose_post_cannot_be_flushed_is_answered_as_delayed(
    simcord_env, world, lose_connection_once
):
    channel, players = await open_two_player_game(world)
    board = [m for m in bot_posts(channel) if controls_in(m)][-1]
    failed = lose_connection_once()
    answer = texts([await players["knights"].click(board, label="Roll the die")])
    assert failed and answer and "delayed" in answer[-1], answer
    await simcord_env.advance_time(5)
    assert "rolled" in text_of(bot_posts(channel)[-1])
