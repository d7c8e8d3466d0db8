"""Gathering a table through the host: the lobby's Join, Leave and Start controls, the menu
of open seats, invitations by DM, and a finished game's Rematch (opened once however many
press it). Every test runs against every store."""

import asyncio

import pytest

from bot.service import wire
from bot.service.errors import AlreadyDone, UserError
from bot.service.notices import PrivateMessage, Reply, StatusUpdate
from bot.service.seating.table_controls import INVITE, LOBBY, REMATCH, SEAT
from bot.service.text import Mention
from tests.bot.test_host import ALICE, BOB, CAROL, CHANNEL, GUILD, open_game, posts, privates

DAVE = 104


def kinds(notice):
    return [c.prompt.kind for c in notice.controls]


def statuses(outcome):
    return [n.text for n in outcome.notices if isinstance(n, StatusUpdate)]


async def finished(host, **opened):
    """A toy game alice hosted and bob lost by resigning; its final post."""
    game = await open_game(host, **opened)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    outcome = await host.endings.resign(game_id=game, user_id=BOB, confirmed=True)
    return game, posts(outcome)[-1]


async def rematch(host, game, user_id, name, **kw):
    return await host.gathering.rematch(game_id=game, user_id=user_id, user_name=name, **kw)


async def test_a_lobby_post_offers_join_leave_and_start_and_the_status_shows_the_seats(host):
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="toy"
    )
    [post] = posts(opened)
    assert kinds(post) == [LOBBY]
    assert [c.action for c in post.controls[0].choices] == ["join", "leave", "start"]
    assert "1 of 2 seated" in statuses(opened)[0] and "Odd: *open*" in statuses(opened)[0]
    joined = await host.gathering.press_join(game_id=post.game_id, user_id=BOB, user_name="bob")
    assert "You joined Toy Game #1 as Odd" in joined.replies[0].text
    assert "2 of 2 seated" in statuses(joined)[0] and "Odd: bob" in statuses(joined)[0]
    assert kinds(posts(joined)[0]) == [LOBBY]  # the newest lobby post has the buttons too
    left = await host.gathering.press_leave(game_id=post.game_id, user_id=BOB, user_name="bob")
    assert "1 of 2 seated" in statuses(left)[0]


async def test_join_asks_which_seat_when_several_are_open(host):
    opened = await host.lobby.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="alice", slug="stgeorge",
        players=3, role="dragon",
    )  # fmt: skip
    game = posts(opened)[0].game_id
    asked = await host.gathering.press_join(game_id=game, user_id=BOB, user_name="bob")
    assert isinstance(asked, Reply) and asked.private
    [menu] = asked.controls
    assert menu.prompt.kind == SEAT
    offered = [c.label for c in menu.choices]
    assert len(offered) == 2 and "the Dragon" not in offered
    joined = await host.gathering.press_seat(
        game_id=game, user_id=BOB, user_name="bob", role=menu.choices[1].action
    )
    assert f"as {offered[1]}" in joined.replies[0].text
    with pytest.raises(UserError, match="is taken"):
        await host.gathering.press_seat(
            game_id=game, user_id=CAROL, user_name="carol", role=menu.choices[1].action
        )
    # One seat left: Join takes it at once.
    last = await host.gathering.press_join(game_id=game, user_id=CAROL, user_name="carol")
    assert f"as {offered[0]}" in last.replies[0].text


async def test_start_is_the_hosts_and_no_lobby_button_works_once_started(host, store):
    game = await open_game(host)
    await host.gathering.press_join(game_id=game, user_id=BOB, user_name="bob")
    with pytest.raises(UserError) as refused:
        await host.gathering.press_start(game_id=game, user_id=BOB)
    refusal = refused.value.text
    assert refusal.plain().startswith(f"Only the host, @{ALICE},")
    assert Mention(ALICE) in refusal.parts
    started = await host.gathering.press_start(game_id=game, user_id=ALICE)
    assert "Toy Game #1 has started" in started.replies[0].text
    for press in (host.gathering.press_join, host.gathering.press_leave):
        with pytest.raises(UserError, match="Toy Game #1 has already started"):
            await press(game_id=game, user_id=BOB, user_name="bob")
    with pytest.raises(UserError, match="has already started"):
        await host.gathering.press_start(game_id=game, user_id=ALICE)
    record = await store.get_game(game)
    assert record.status == "running" and not any(s.left for s in record.seats)


async def test_start_opens_the_games_own_thread_when_it_asks_for_one(host, store):
    game = await open_game(host, own_thread=True)
    await host.gathering.press_join(game_id=game, user_id=BOB, user_name="bob")
    opened = []

    async def open_thread(channel_id, title):
        opened.append((channel_id, title))
        return 555

    await host.gathering.press_start(game_id=game, user_id=ALICE, open_thread=open_thread)
    assert opened == [(CHANNEL, "Toy Game #1")]
    assert (await store.get_game(game)).channel_id == 555


async def test_a_cancelled_lobby_answers_its_buttons_clearly(host):
    game = await open_game(host)
    cancelled = await host.lobby.cancel(game_id=game, user_id=ALICE, is_admin=False)
    assert statuses(cancelled) == ["📜 **Toy Game #1**: cancelled."]
    with pytest.raises(UserError, match=r"Toy Game #1 was cancelled\. `/game new` opens"):
        await host.gathering.press_join(game_id=game, user_id=BOB, user_name="bob")


async def test_an_invitation_is_a_dm_from_the_outbox_whose_button_joins(host, store):
    game = await open_game(host)
    invited = await host.gathering.invite(
        game_id=game, user_id=ALICE, user_name="alice", invitee_id=BOB, invitee_name="bob"
    )
    assert "bob is invited to Toy Game #1 by DM" in invited.replies[0].text
    [card] = privates(invited)
    assert card.user_id == BOB and kinds(card) == [INVITE]
    assert card.channel_id == 0  # DMs that fail offer no private-choice button in the channel
    text = card.text.plain()
    assert "alice invites you to play **Toy Game #1**" in text and "open: Odd" in text
    stored = [wire.load(e.body) for e in await store.pending_notices(lanes=[f"u{BOB}"])]
    assert stored == [card]
    joined = await host.gathering.press_join(game_id=game, user_id=BOB, user_name="bob")
    assert "You joined Toy Game #1 as Odd" in joined.replies[0].text


async def test_an_invitation_that_cannot_be_sent_is_refused_and_says_what_to_do(host, store):
    game = await open_game(host)

    async def invite(invitee, name="bob", user_id=ALICE, **kw):
        await host.gathering.invite(
            game_id=game, user_id=user_id, user_name="x", invitee_id=invitee,
            invitee_name=name, **kw,
        )  # fmt: skip

    cases = [
        (dict(invitee=BOB, invitee_is_bot=True), "Bots cannot be invited; `/game addbot`"),
        (dict(invitee=ALICE), "You cannot invite yourself"),
        (dict(invitee=CAROL, user_id=DAVE), "Only players of Toy Game #1 can invite"),
    ]
    for given, words in cases:
        with pytest.raises(UserError, match=words.replace("(", r"\(")):
            await invite(**given)
    await store.set_dm_closed(CAROL, True)
    with pytest.raises(UserError, match=r"I can't send carol direct messages.*game:1"):
        await invite(CAROL, "carol")
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    with pytest.raises(UserError, match="bob is already seated"):
        await invite(BOB)
    with pytest.raises(UserError, match="Toy Game #1 is full"):
        await invite(DAVE, "dave")
    await host.lobby.start(game_id=game, user_id=ALICE)
    with pytest.raises(UserError, match="in play: only a game waiting for players"):
        await invite(DAVE, "dave")
    stored = [wire.load(e.body) for e in await store.pending_notices()]
    assert not [n for n in stored if isinstance(n, PrivateMessage) and kinds(n) == [INVITE]]


async def test_dms_found_closed_when_the_invitation_is_sent_are_told_to_the_inviter(host, store):
    game = await open_game(host)

    async def deliver(outcome):  # the frontend finds bob's DMs closed
        await store.set_dm_closed(BOB, True)

    told = await host.gathering.invite(
        game_id=game, user_id=ALICE, user_name="alice", invitee_id=BOB, invitee_name="bob",
        deliver=deliver,
    )  # fmt: skip
    [reply] = told.notices
    assert "I can't send bob direct messages" in reply.text.plain()
    assert "Mention them in the channel instead" in reply.text.plain()


async def test_the_final_post_offers_a_rematch_of_the_same_game_for_its_players(host, store):
    game = await open_game(host)
    await host.turn_clock.set_timing(
        game_id=game, user_id=ALICE, limit_hours=5, on_timeout="forfeit"
    )
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.start(game_id=game, user_id=ALICE)
    final = posts(await host.endings.resign(game_id=game, user_id=BOB, confirmed=True))[-1]
    assert final.final and kinds(final) == [REMATCH]
    old = await store.get_game(game)

    opened = await rematch(host, game, BOB, "bob")
    assert "You opened Toy Game #2, a rematch of Toy Game #1" in opened.replies[0].text
    [post] = posts(opened)
    assert post.channel_id == CHANNEL and post.mentions == (ALICE,)
    assert kinds(post) == [LOBBY] and "a rematch of #1" in post.text.plain()
    new = await store.get_game(post.game_id)
    assert (new.status, new.slug, new.players, new.host_id) == ("lobby", "toy", 2, BOB)
    assert (new.options, new.timing) == (old.options, old.timing)
    assert [(s.seat, s.user_id) for s in new.seats] == [(1, BOB)]  # bob keeps his seat
    assert await store.rematch(game) == new.id
    joined = await host.gathering.press_join(game_id=new.id, user_id=ALICE, user_name="alice")
    assert "You joined Toy Game #2 as Even" in joined.replies[0].text


async def test_a_rematch_is_opened_once_however_many_press_at_once(host, store):
    game, _ = await finished(host)
    tried = await asyncio.gather(
        rematch(host, game, ALICE, "alice"), rematch(host, game, BOB, "bob"),
        rematch(host, game, ALICE, "alice"), return_exceptions=True,
    )  # fmt: skip
    opened = [t for t in tried if not isinstance(t, Exception)]
    refused = [t for t in tried if isinstance(t, Exception)]
    assert len(opened) == 1 and len(refused) == 2
    assert all(isinstance(r, AlreadyDone) for r in refused)
    # Its number is whichever id the store gave the one that opened (on PostgreSQL a
    # rolled-back opening still uses up an id).
    opened_id = await store.rematch(game)
    told = f"A rematch is already open: Toy Game #{opened_id}"
    assert all(told in r.text.plain() for r in refused)
    with pytest.raises(AlreadyDone, match=told):
        await rematch(host, game, BOB, "bob")
    assert len(await store.games(guild_id=GUILD)) == 1
    new = (await store.games(guild_id=GUILD))[0].id
    await host.lobby.cancel(game_id=new, user_id=CAROL, is_admin=True)  # a server manager closes it
    with pytest.raises(AlreadyDone, match=f"This game's rematch, Toy Game #{new}, is cancelled"):
        await rematch(host, game, BOB, "bob")


async def test_only_a_finished_games_players_may_ask_for_its_rematch(host):
    game, _ = await finished(host)
    with pytest.raises(UserError, match=r"Only the players of Toy Game #1.*`/game new`"):
        await rematch(host, game, CAROL, "carol")
    running = await open_game(host)
    with pytest.raises(UserError, match="Toy Game #2 is not over"):
        await rematch(host, running, ALICE, "alice")


async def test_a_rematch_seats_the_computers_again_at_their_levels(host, store):
    game = await open_game(host)
    await host.lobby.add_computer(game_id=game, user_id=ALICE, level="easy")
    await host.lobby.start(game_id=game, user_id=ALICE)
    final = posts(await host.endings.resign(game_id=game, user_id=ALICE, confirmed=True))[-1]
    assert kinds(final) == [REMATCH]
    opened = await rematch(host, game, ALICE, "alice")
    new = await store.get_game(posts(opened)[0].game_id)
    assert [(s.seat, s.user_id, s.computer) for s in new.seats] == [
        (0, ALICE, None), (1, new.seats[1].user_id, "easy"),
    ]  # fmt: skip
    assert posts(opened)[0].mentions == ()


async def test_a_game_in_its_own_thread_has_its_rematch_in_the_channel_it_came_from(host, store):
    game = await open_game(host, own_thread=True)
    await host.lobby.join(game_id=game, user_id=BOB, user_name="bob")
    await host.lobby.move_to(game_id=game, channel_id=555)  # its thread
    await host.lobby.start(game_id=game, user_id=ALICE)
    await host.endings.resign(game_id=game, user_id=BOB, confirmed=True)
    opened = await rematch(host, game, ALICE, "alice", parent_channel_id=CHANNEL)
    new = await store.get_game(posts(opened)[0].game_id)
    assert new.channel_id == CHANNEL and new.own_thread
