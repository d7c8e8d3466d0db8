"""Calls on the player's terms (/notify event:... how:...): each event that calls a player
(their turn, a reminder, an invitation, an offer to answer, a game's end) is a mention in
the game's channel, a DM naming the game and its server, both, or nothing, as they chose;
what they never chose is as it always was."""

import random

import pytest

from bot.service.errors import UserError
from bot.service.host import GameHost
from bot.service.notices import ChannelPost
from bot.service.text import ServerRef
from bot.service.timekeeping.timing import HOUR
from tests.bot.test_host import ALICE, BOB, CAROL, GUILD, open_game, posts, privates
from tests.toy_game import toy_renderer


@pytest.fixture
async def host(store, toy, clock):
    return GameHost(store, renderer=toy_renderer, clock=clock, seeds=random.Random(3))


async def started(host):
    game = await open_game(host)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    return game


async def to_alices_roll(host, game):
    """Both pick; the outcome that makes it alice's (public) roll."""
    await host.turns.act(game_id=game, user_id=ALICE, action="pick 1")
    return await host.turns.act(game_id=game, user_id=BOB, action="pick 2")


def mentioned(outcome):
    return {u for p in posts(outcome) for u in p.mentions}


def dms_to(outcome, user):
    return [m for m in privates(outcome) if m.user_id == user]


def names_game_and_server(message):
    return "Toy Game #1" in message.text.plain() and ServerRef(GUILD) in message.text.parts


async def set_call(host, user, event, how):
    await host.turn_clock.set_call(user_id=user, event=event, how=how)


async def test_settings_are_shown_privately_with_todays_defaults(host):
    shown = await host.turn_clock.show_calls(user_id=ALICE)
    assert shown.private
    text = shown.text
    assert "my turn: a mention in the game's channel" in text
    assert "a reminder before my deadline: a DM" in text
    assert "an invitation: a DM" in text
    assert "an offer to answer (draw, takeback): a mention in the game's channel" in text
    assert "a game over: nothing" in text
    changed = await host.turn_clock.set_call(user_id=ALICE, event="end", how="both")
    assert changed.private and "a game over: a mention and a DM" in changed.text
    assert (
        "a game over: a mention and a DM" in (await host.turn_clock.show_calls(user_id=ALICE)).text
    )


async def test_an_unknown_event_or_choice_is_refused(host):
    with pytest.raises(UserError, match="Choose an event"):
        await host.turn_clock.set_call(user_id=ALICE, event="lunch", how="dm")
    with pytest.raises(UserError, match="Choose `mention`"):
        await host.turn_clock.set_call(user_id=ALICE, event="turn", how="shout")


@pytest.mark.parametrize(
    ("how", "mention", "dm"),
    [(None, True, False), ("dm", False, True), ("both", True, True), ("none", False, False)],
)
async def test_my_turn_calls_as_chosen(host, how, mention, dm):
    game = await started(host)
    if how:
        await set_call(host, ALICE, "turn", how)
    outcome = await to_alices_roll(host, game)
    assert (ALICE in mentioned(outcome)) is mention
    turn_dms = [m for m in dms_to(outcome, ALICE) if "Your turn" in m.text.plain()]
    assert bool(turn_dms) is dm
    if dm:
        assert names_game_and_server(turn_dms[0]) and "roll" in turn_dms[0].text.plain().lower()


async def test_the_older_choice_still_counts_until_the_event_is_chosen(host):
    game = await started(host)
    await host.turn_clock.set_notify(user_id=ALICE, choice="reminders")
    assert "my turn: nothing" in (await host.turn_clock.show_calls(user_id=ALICE)).text
    await set_call(host, ALICE, "turn", "dm")
    outcome = await to_alices_roll(host, game)
    assert ALICE not in mentioned(outcome) and dms_to(outcome, ALICE)


@pytest.mark.parametrize(
    ("how", "mention", "dm"),
    [(None, False, True), ("mention", True, False), ("both", True, True), ("none", False, False)],
)
async def test_a_reminder_calls_as_chosen(host, clock, how, mention, dm):
    game = await started(host)
    if how:
        await set_call(host, ALICE, "reminder", how)
    await to_alices_roll(host, game)
    clock.now += 36 * HOUR
    fired = await host.turn_clock.fire_due()
    reminders = [m for m in dms_to(fired, ALICE) if "Reminder" in m.text.plain()]
    assert bool(reminders) is dm
    assert (ALICE in mentioned(fired)) is mention
    if dm:
        assert names_game_and_server(reminders[0])


async def test_a_reminder_by_dm_to_closed_dms_still_goes_to_the_channel(host, store, clock):
    game = await started(host)
    await to_alices_roll(host, game)
    await store.set_dm_closed(ALICE, True)
    clock.now += 36 * HOUR
    [post] = (await host.turn_clock.fire_due()).notices
    assert isinstance(post, ChannelPost) and post.mentions == (ALICE,)


async def invite(host, game):
    return await host.gathering.invite(
        game_id=game, user_id=ALICE, user_name="alice", invitee_id=CAROL, invitee_name="carol"
    )


async def test_an_invitation_calls_as_chosen(host):
    game = await open_game(host)
    plain = await invite(host, game)
    [card] = privates(plain)
    assert card.user_id == CAROL and names_game_and_server(card) and not mentioned(plain)

    await set_call(host, CAROL, "invite", "mention")
    by_mention = await invite(host, game)
    assert not privates(by_mention) and mentioned(by_mention) == {CAROL}
    assert "with a mention in the channel" in by_mention.replies[0].text

    await set_call(host, CAROL, "invite", "both")
    both = await invite(host, game)
    assert len(dms_to(both, CAROL)) == 1 and mentioned(both) == {CAROL}

    await set_call(host, CAROL, "invite", "none")
    with pytest.raises(UserError, match="carol takes no invitations"):
        await invite(host, game)


@pytest.mark.parametrize(
    ("how", "mention", "dm"),
    [(None, True, False), ("dm", False, True), ("both", True, True), ("none", False, False)],
)
async def test_an_offer_to_answer_calls_as_chosen(host, how, mention, dm):
    game = await started(host)
    if how:
        await set_call(host, ALICE, "offer", how)
    offered = await host.endings.offer_draw(game_id=game, user_id=BOB)
    assert mentioned(offered) == ({ALICE} if mention else set())
    asked = dms_to(offered, ALICE)
    assert bool(asked) is dm
    if dm:
        assert names_game_and_server(asked[0]) and "a draw" in asked[0].text.plain()
    assert any(p.controls for p in posts(offered))  # the buttons stay in the channel


@pytest.mark.parametrize(
    ("how", "mention", "dm"),
    [(None, False, False), ("mention", True, False), ("dm", False, True), ("both", True, True)],
)
async def test_a_game_over_calls_as_chosen(host, how, mention, dm):
    game = await started(host)
    if how:
        await set_call(host, ALICE, "end", how)
    ended = await host.endings.resign(game_id=game, user_id=BOB, confirmed=True)
    over = [m for m in dms_to(ended, ALICE) if "is over" in m.text.plain()]
    assert bool(over) is dm
    assert (ALICE in mentioned(ended)) is mention
    assert not dms_to(ended, BOB) and BOB not in mentioned(ended)  # the resigner knows
    if dm:
        assert names_game_and_server(over[0])


async def test_settings_belong_to_the_player_not_the_game(host, store):
    await set_call(host, BOB, "turn", "dm")
    await set_call(host, BOB, "offer", "none")
    assert await store.calls(BOB) == {"turn": "dm", "offer": "none"}
    game = await started(host)
    record = await store.get_game(game)
    bob = next(s for s in record.seats if s.user_id == BOB)
    assert bob.calls == {"turn": "dm", "offer": "none"}


async def test_a_call_by_dm_to_closed_dms_is_a_mention_instead(host, store):
    game = await started(host)
    await set_call(host, ALICE, "turn", "dm")
    await store.set_dm_closed(ALICE, True)
    outcome = await to_alices_roll(host, game)
    assert ALICE in mentioned(outcome) and not dms_to(outcome, ALICE)
