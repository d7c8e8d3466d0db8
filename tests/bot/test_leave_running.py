"""Leaving a game under way (`/game leave`) is resigning told as leaving: where one side
remains the game ends at once; where several remain it goes on without the leaver from this
moment, whoever is to move. Logged ``!forfeit left``, never told as a timeout or a
resignation. Through the host, on every store."""

import pytest

from bot.service.errors import UserError
from bot.service.notices import ChannelPost
from bot.service.text import as_text
from engines.replay import forfeit_marker
from tests.bot.test_endings import record, started
from tests.bot.test_host import ALICE, CHANNEL, posts
from tests.bot.test_resign_out_of_turn import stgeorge_for_three

LEFT = forfeit_marker("left")


def told(outcome) -> str:
    """What the channel was told."""
    return "\n".join(as_text(p.text).plain() for p in posts(outcome) if isinstance(p, ChannelPost))


async def idle_seat(host, game):
    """A seat that is not to move now."""
    table = await host.desk.table(game)
    prompted = {p.seat for p in table.prompts()}
    return next(s for s in table.record.seats if s.seat not in prompted)


@pytest.mark.parametrize("slug", ["stgeorge", "lions-dragons", "dragonslayer"])
async def test_leaving_out_of_turn_a_two_sided_game_ends_it_at_once(host, slug):
    game = await started(host, slug)
    idle = await idle_seat(host, game)
    done = await host.lobby.leave(game_id=game, user_id=idle.user_id, user_name=idle.name)
    over = await host.desk.table(game)
    assert over.record.status == "finished", told(done)
    other = next(s.seat for s in over.record.seats if s.seat != idle.seat)
    assert over.engine.result(over.state).winners == (other,)
    assert (await host.store.actions(game))[-1].action == LEFT
    said = told(done)
    assert "gives up at once" in said and "as soon as it is its turn" not in said
    assert "🏆" in said and "left the game" in said
    assert "resign" not in said and "ran out of time" not in said


async def test_a_knight_leaving_out_of_turn_is_gone_at_once_and_the_turn_stays(host):
    game = await stgeorge_for_three(host)
    table = await host.desk.table(game)
    (mover,) = {p.seat for p in table.prompts()}
    leaver = next(s for s in table.record.seats if s.seat != mover and s.role != "dragon")
    done = await host.lobby.leave(game_id=game, user_id=leaver.user_id, user_name=leaver.name)
    after = await host.desk.table(game)
    assert after.record.status == "running"
    assert {p.seat for p in after.prompts()} == {mover}, "the same seat is still to move"
    assert leaver.seat in after.state.departed, "gone at once, not on its turn"
    assert (await host.store.actions(game))[-1].action == LEFT
    assert "left the game" in told(done) and "resign" not in told(done)
    with pytest.raises(UserError, match="already left"):
        await host.lobby.leave(game_id=game, user_id=leaver.user_id, user_name=leaver.name)


async def test_leaving_a_paused_game_gives_the_seat_up_when_it_goes_on(host):
    game = await started(host, "lions-dragons")
    idle = await idle_seat(host, game)
    await host.turn_clock.pause(game_id=game, user_id=ALICE)
    done = await host.lobby.leave(game_id=game, user_id=idle.user_id, user_name=idle.name)
    assert "as soon as the game goes on" in told(done)
    assert (await record(host, game)).status == "paused"
    resumed = await host.turn_clock.resume(game_id=game, user_id=ALICE, channel_id=CHANNEL)
    over = await host.desk.table(game)
    assert over.record.status == "finished", told(resumed)
    assert over.engine.result(over.state).winners != (idle.seat,)
    assert (await host.store.actions(game))[-1].action == LEFT
    assert "🏆" in told(resumed)
