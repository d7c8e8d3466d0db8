"""Ending a game gracefully through the host: resigning, draws by agreement, takebacks.

Real games: Lions and Dragons Chess (it has a draw by agreement and hides nothing) and
St. George (no draw by agreement; the die is chance). Each test runs on every store.
"""

import asyncio
import random

import pytest

from bot.service.errors import AlreadyDone, UserError
from bot.service.host import GameHost, replay
from bot.service.notices import ChannelPost, PrivateMessage, Reply
from bot.service.play.endings import OFFER, RESIGN
from engines.replay import DRAW, FORFEIT, TAKEBACK
from tests.bot.clocks import TickingClock
from tests.bot.test_host import ALICE, BOB, CAROL, CHANNEL, GUILD, posts


async def started(host, slug, *, computer=False):
    outcome = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug=slug
    )
    game = posts(outcome)[0].game_id
    if computer:
        await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy")
    else:
        await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    return game


async def play_first(host, game, user):
    """``user`` plays their first legal action; returns it."""
    choices = await host.turns.action_choices(game_id=game, user_id=user)
    await host.turns.act(game_id=game, user_id=user, action=choices[0].action)
    return choices[0].action


async def record(host, game):
    return (await host.desk.table(game)).record


def offer_controls(outcome):
    post = next(p for p in posts(outcome) if p.controls)
    (controls,) = post.controls
    assert controls.prompt.kind == OFFER
    assert [c.action for c in controls.choices] == ["accept", "decline"]
    return controls


async def test_a_draw_offered_declined_offered_again_and_accepted(host):
    game = await started(host, "lions-dragons")
    first = offer_controls(await host.endings.offer_draw(game_id=game, user_id=ALICE))
    declined = await host.endings.answer_offer(
        game_id=game, user_id=BOB, version=first.version, accept=False
    )
    assert "declines a draw" in posts(declined)[0].text.plain()
    assert (await record(host, game)).status == "running"
    with pytest.raises(AlreadyDone):  # the declined offer's buttons are dead
        await host.endings.answer_offer(
            game_id=game, user_id=BOB, version=first.version, accept=True
        )

    second = offer_controls(await host.endings.offer_draw(game_id=game, user_id=ALICE))
    ended = await host.endings.answer_offer(
        game_id=game, user_id=BOB, version=second.version, accept=True
    )
    assert "Drawn by agreement" in posts(ended)[-1].text.plain()
    done = await record(host, game)
    assert done.status == "finished" and "agreed" in done.result
    log = await host.store.actions(game)
    assert log[-1].action == DRAW
    again = replay(done, [(a.seq, a.seat, a.action) for a in log])
    assert (await host.desk.table(game)).engine.dump(again) == done.snapshot
    with pytest.raises(AlreadyDone):  # a double click applies nothing twice
        await host.endings.answer_offer(
            game_id=game, user_id=BOB, version=second.version, accept=True
        )
    with pytest.raises(UserError, match="is over"):
        await host.endings.offer_draw(game_id=game, user_id=ALICE)


async def test_an_offer_is_asked_once_answered_by_the_others_and_lapses_when_play_goes_on(host):
    game = await started(host, "lions-dragons")
    offered = offer_controls(await host.endings.offer_draw(game_id=game, user_id=BOB))
    with pytest.raises(AlreadyDone, match="already waiting"):
        await host.endings.offer_draw(game_id=game, user_id=BOB)
    with pytest.raises(UserError, match="You made this offer"):
        await host.endings.answer_offer(
            game_id=game, user_id=BOB, version=offered.version, accept=True
        )
    with pytest.raises(UserError, match="not playing"):
        await host.endings.answer_offer(
            game_id=game, user_id=CAROL, version=offered.version, accept=True
        )
    await play_first(host, game, ALICE)  # the game moves on: the offer lapses
    with pytest.raises(AlreadyDone, match="moved on"):
        await host.endings.answer_offer(
            game_id=game, user_id=ALICE, version=offered.version, accept=True
        )
    assert await host.store.offer(game) is None
    assert (await record(host, game)).status == "running"


async def test_a_click_that_comes_after_a_pause_is_refused_and_the_post_keeps_its_line(host):
    game = await started(host, "lions-dragons")
    offered = offer_controls(await host.endings.offer_draw(game_id=game, user_id=ALICE))
    paused = await host.turn_clock.pause(game_id=game, user_id=ALICE)
    (settled,) = [n for n in paused.notices if isinstance(n, ChannelPost) and n.settles]
    assert settled.settles == offered.version
    assert "Lapsed: the game was paused" in settled.text.plain()
    with pytest.raises(AlreadyDone, match="moved on"):  # a button still shown somewhere
        await host.endings.answer_offer(
            game_id=game, user_id=BOB, version=offered.version, accept=True
        )
    standing = await host.endings.offer_standing(game_id=game, version=offered.version)
    assert not standing.waiting and standing.line == settled.text
    await host.turn_clock.resume(game_id=game, user_id=ALICE)
    again = await host.endings.offer_standing(game_id=game, version=offered.version)
    assert again.line == settled.text


async def test_a_game_without_a_draw_by_agreement_refuses_one(host):
    game = await started(host, "stgeorge")
    with pytest.raises(UserError, match="no draw by agreement"):
        await host.endings.offer_draw(game_id=game, user_id=ALICE)
    with pytest.raises(UserError, match="not playing"):
        await host.endings.request_takeback(game_id=game, user_id=CAROL)


async def test_a_computer_seat_declines_a_draw_and_accepts_a_takeback(host):
    game = await started(host, "lions-dragons", computer=True)
    with pytest.raises(UserError, match="computer seat declines every draw"):
        await host.endings.offer_draw(game_id=game, user_id=ALICE)
    await play_first(host, game, ALICE)
    before = len(await host.store.actions(game))
    outcome = await host.endings.request_takeback(game_id=game, user_id=ALICE)
    assert "the computer accepts" in " ".join(p.text.plain() for p in posts(outcome))
    log = await host.store.actions(game)
    assert len(log) == before + 1 and log[-1].action == TAKEBACK
    assert await host.turns.action_choices(game_id=game, user_id=ALICE)  # Alice to move again


async def test_a_takeback_accepted_undoes_the_move_and_still_replays(host):
    game = await started(host, "stgeorge")
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    rolled = (await record(host, game)).snapshot
    await play_first(host, game, ALICE)
    with pytest.raises(UserError, match="no move"):
        await host.endings.request_takeback(game_id=game, user_id=BOB)
    asked = offer_controls(await host.endings.request_takeback(game_id=game, user_id=ALICE))
    done = await host.endings.answer_offer(
        game_id=game, user_id=BOB, version=asked.version, accept=True
    )
    assert "takes back their last move" in posts(done)[0].text.plain()
    after = await record(host, game)
    assert after.snapshot == rolled  # back before the move
    log = [(a.seq, a.seat, a.action) for a in await host.store.actions(game)]
    assert [a for _, _, a in log][-1] == TAKEBACK and len(log) == 3  # append-only
    assert (await host.desk.table(game)).engine.dump(replay(after, log)) == after.snapshot
    moves = await host.turns.action_choices(game_id=game, user_id=ALICE)
    assert moves and all(c.action != "roll" for c in moves)  # the die stays rolled


async def test_a_takeback_is_refused_once_a_die_was_rolled_since(host):
    game = await started(host, "stgeorge")
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    await play_first(host, game, ALICE)
    await host.turns.act(game_id=game, user_id=BOB, action="roll")
    with pytest.raises(UserError, match="die rolled"):
        await host.endings.request_takeback(game_id=game, user_id=ALICE)
    assert await host.store.offer(game) is None


async def test_resigning_asks_first_then_gives_up_by_the_forfeit_rule(host):
    game = await started(host, "lions-dragons")
    asked = await host.endings.resign(game_id=game, user_id=BOB)
    assert isinstance(asked, Reply) and asked.controls[0].prompt.kind == RESIGN
    assert (await record(host, game)).status == "running"
    done = await host.endings.resign(game_id=game, user_id=BOB, confirmed=True)  # not Bob's turn
    over = await record(host, game)
    assert over.status == "finished" and over.result == "White wins: Black resigned."
    assert (await host.store.actions(game))[-1].action == FORFEIT + " resigned"
    assert any("resigns" in p.text.plain() for p in posts(done))
    with pytest.raises(UserError, match="is over"):
        await host.endings.resign(game_id=game, user_id=BOB, confirmed=True)


async def test_resigning_out_of_turn_gives_up_at_once(host):
    game = await started(host, "stgeorge")
    await host.endings.resign(game_id=game, user_id=BOB, confirmed=True)  # the Dragon, not to move
    over = await record(host, game)
    assert over.status == "finished" and "Knights" in over.result


async def test_an_offer_survives_a_restart(open_store, toy):
    store = await open_store()
    host = GameHost(store, clock=TickingClock(), seeds=random.Random(7))
    game = await started(host, "lions-dragons")
    offered = offer_controls(await host.endings.offer_draw(game_id=game, user_id=ALICE))
    await store.close()
    host = GameHost(await open_store(), clock=TickingClock(), seeds=random.Random(7))
    ended = await host.endings.answer_offer(
        game_id=game, user_id=BOB, version=offered.version, accept=True
    )
    assert isinstance(posts(ended)[-1], ChannelPost)
    assert (await record(host, game)).status == "finished"


async def test_two_accepting_clicks_at_once_end_the_game_once(host):
    game = await started(host, "lions-dragons")
    offered = offer_controls(await host.endings.offer_draw(game_id=game, user_id=ALICE))
    answers = await asyncio.gather(
        *[host.endings.answer_offer(game_id=game, user_id=BOB, version=offered.version, accept=True)
          for _ in range(2)],
        return_exceptions=True,
    )  # fmt: skip
    assert sum(isinstance(a, AlreadyDone) for a in answers) == 1
    assert [a.action for a in await host.store.actions(game)].count(DRAW) == 1


async def test_at_a_larger_table_every_other_player_must_accept(host):
    outcome = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="stgeorge",
        players=3,
    )  # fmt: skip
    game = posts(outcome)[0].game_id
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.join(game_id=game, user_id=CAROL, user_name="carol")
    await host.lobby.start(game_id=game, user_id=ALICE)
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    await play_first(host, game, ALICE)
    asked = offer_controls(await host.endings.request_takeback(game_id=game, user_id=ALICE))
    half = await host.endings.answer_offer(
        game_id=game, user_id=BOB, version=asked.version, accept=True
    )
    assert "still to answer" in posts(half)[0].text.plain()
    assert (await host.store.actions(game))[-1].action != TAKEBACK
    with pytest.raises(AlreadyDone, match="already accepted"):
        await host.endings.answer_offer(
            game_id=game, user_id=BOB, version=asked.version, accept=True
        )
    await host.endings.answer_offer(game_id=game, user_id=CAROL, version=asked.version, accept=True)
    assert (await host.store.actions(game))[-1].action == TAKEBACK


async def test_taking_back_a_secret_choice_tells_the_channel_nothing_secret(host):
    game = await started(host, "dragons-cave")
    table = await host.desk.table(game)
    mine = next(p for p in table.prompts() if table.record.user_at(p.seat) == ALICE)
    card = table.engine.legal_actions(table.state, mine.seat)[0].action
    await host.turns.act(game_id=game, user_id=ALICE, action=card)
    asked = offer_controls(await host.endings.request_takeback(game_id=game, user_id=ALICE))
    done = await host.endings.answer_offer(
        game_id=game, user_id=BOB, version=asked.version, accept=True
    )
    told = " ".join(p.text.plain() for p in posts(done))
    assert "takes back" in told and card.split()[-1] not in told
    again = [n for n in done.notices if isinstance(n, PrivateMessage) and n.user_id == ALICE]
    assert again and again[0].controls  # Alice is asked for her secret choice again
    assert await host.turns.action_choices(game_id=game, user_id=ALICE)


async def test_the_story_of_a_game_with_a_takeback_follows_the_board_that_stayed(host):
    game = await started(host, "stgeorge")
    await host.turns.act(game_id=game, user_id=ALICE, action="roll")
    await play_first(host, game, ALICE)
    asked = offer_controls(await host.endings.request_takeback(game_id=game, user_id=ALICE))
    await host.endings.answer_offer(game_id=game, user_id=BOB, version=asked.version, accept=True)
    again = await play_first(host, game, ALICE)
    history = str((await host.stories.history(game_id=game, user_id=ALICE)).text)
    assert "took back" in history and f"`{again}`" in history
    final = (await record(host, game)).snapshot
    story = await host.stories.story(await host.desk.table(game))
    assert (await host.desk.table(game)).engine.dump(story.final) == final
