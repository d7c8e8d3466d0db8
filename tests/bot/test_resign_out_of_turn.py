"""Resigning when it is not your turn: where one side remains the game ends at once; where
several remain it goes on without the resigner from this moment, whoever is to move.
Through the host, on every store."""

import pytest

from bot.service.notices import ChannelPost
from tests.bot.test_endings import record, started
from tests.bot.test_host import ALICE, BOB, CAROL, CHANNEL, GUILD, posts


def told(outcome) -> str:
    return "\n".join(p.text.plain() for p in posts(outcome) if isinstance(p, ChannelPost))


@pytest.mark.parametrize("slug", ["stgeorge", "lions-dragons", "dragonslayer"])
async def test_resigning_out_of_turn_in_a_two_sided_game_ends_it_at_once(host, slug):
    game = await started(host, slug)
    table = await host.desk.table(game)
    prompted = {p.seat for p in table.prompts()}
    idle = next(s for s in table.record.seats if s.seat not in prompted)
    done = await host.endings.resign(game_id=game, user_id=idle.user_id, confirmed=True)
    over = await record(host, game)
    assert over.status == "finished", told(done)
    other = next(s.seat for s in over.seats if s.seat != idle.seat)
    assert (await host.desk.table(game)).engine.result(
        (await host.desk.table(game)).state
    ).winners == (other,)
    assert "as soon as it is its turn" not in told(done)
    assert "🏆" in told(done)


async def stgeorge_for_three(host) -> int:
    """A St. George game of alice, bob and carol, started; its number."""
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice",
        slug="stgeorge", players=3,
    )  # fmt: skip
    game = posts(opened)[0].game_id
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.join(game_id=game, user_id=CAROL, user_name="carol")
    await host.lobby.start(game_id=game, user_id=ALICE)
    return game


async def test_a_knight_resigning_out_of_turn_leaves_at_once_and_the_turn_stays(host):
    game = await stgeorge_for_three(host)
    table = await host.desk.table(game)
    (mover,) = {p.seat for p in table.prompts()}
    knights = [s for s in table.record.seats if s.seat != mover and s.role != "dragon"]
    resigner = knights[0]
    done = await host.endings.resign(game_id=game, user_id=resigner.user_id, confirmed=True)
    after = await host.desk.table(game)
    assert after.record.status == "running"
    assert {p.seat for p in after.prompts()} == {mover}, "the same seat is still to move"
    assert resigner.seat in after.state.departed, "gone at once, not on its turn"
    assert "resigned and left the game" in told(done)
    assert "as soon as it is its turn" not in told(done)
    dragon = next(s for s in after.record.seats if s.role == "dragon")
    await host.endings.resign(game_id=game, user_id=dragon.user_id, confirmed=True)
    over = await host.desk.table(game)
    assert over.record.status == "finished"
    assert over.engine.result(over.state).winners == (mover,)
