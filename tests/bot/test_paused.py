"""Who paused a game is kept while it is paused: through a change of its clock, and
forgotten when it goes on; a game paused before that was kept still says how to go on."""

import random

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.text import Mention
from bot.service.timekeeping.timing import HOUR, PAUSED_BY
from tests.bot.test_host import ALICE, BOB, GUILD, started
from tests.toy_game import toy_renderer


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


async def test_who_paused_a_game_stays_through_a_clock_change_and_goes_when_it_resumes(host, store):
    game = await started(host)
    await host.turn_clock.pause(game_id=game, user_id=ALICE)
    await host.turn_clock.set_timing(game_id=game, user_id=ALICE, limit_hours=2)
    status = (await host.listings.status(game_id=game, user_id=ALICE)).text
    assert "paused by its host" in str(status) and Mention(ALICE) in status.parts
    assert f"`/game resume game:{game}`" in str(status)

    await host.turn_clock.resume(game_id=game, user_id=ALICE)
    record = await store.get_game(game)
    assert PAUSED_BY not in record.timing and record.timing["limit"] == 2 * HOUR
    assert "paused" not in str((await host.listings.list_games(guild_id=GUILD)).text)


async def test_a_game_paused_without_a_word_of_who_still_says_how_to_go_on(host, store, clock):
    game = await started(host)
    record = await store.get_game(game)
    await store.update_game(game, record.version, now=clock.now, status="paused")
    listed = str((await host.listings.list_games(guild_id=GUILD)).text)
    assert "paused. No moves until its host" in listed, listed
    assert f"`/game resume game:{game}`" in listed


async def test_hand_in_a_paused_game_says_it_is_paused_and_how_to_go_on(host):
    game = await started(host)  # both players have a secret pick waiting
    await host.turn_clock.pause(game_id=game, user_id=ALICE)
    with pytest.raises(UserError) as refused:
        await host.turns.hand(game_id=game, user_id=BOB, guild_id=GUILD)
    assert "is paused by its host" in str(refused.value.text)
    assert f"`/game resume game:{game}`" in str(refused.value.text)
